package store

import (
	"context"
	_ "embed"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
)

// The partitioned layout (see schema/partition_postgres.sql and
// docs/partitions.md): on a PostgreSQL database created by Init,
// timer_call_data, timer_value and counter_value are range-partitioned by
// each trial's block of ids, and every trial SaveTrial writes has one
// partition of each, named after the trial.

//go:embed schema/partition_postgres.sql
var partitionPostgresSchema string

// viewsMarker starts the compatibility views of postgres.sql, which read
// the tables the partitioned layout replaces: the layout is created between
// the tables and the views.
const viewsMarker = "/* SHORT TERM FIX! These views"

// partitionedPostgresSchema returns postgres.sql with the partitioned
// layout created after its tables and indexes and before its views.
func partitionedPostgresSchema() (string, error) {
	at := strings.Index(postgresSchema, viewsMarker)
	if at < 0 {
		return "", fmt.Errorf("postgres.sql: no %q before its views", viewsMarker)
	}
	return postgresSchema[:at] + partitionPostgresSchema + "\n" + postgresSchema[at:], nil
}

// partitioned tables and the column each is partitioned by.
var partitionedTables = []struct{ table, key string }{
	{"timer_call_data", "id"},
	{"timer_value", "timer_call_data"},
	{"counter_value", "counter"},
}

// partitionName is the name of trial's partition of table.
func partitionName(table string, trial int64) string {
	return fmt.Sprintf("%s_t%d", table, trial)
}

// isPartitioned reports whether the database holds the partitioned layout:
// timer_call_data is a partitioned table (relkind 'p') with a default
// partition. A database created by TAU's own schema file, or by Init
// before the layout existed, holds a plain table and is written and read
// as before.
func isPartitioned(ctx context.Context, r runner) (bool, error) {
	var n int
	err := r.query(ctx, `SELECT COUNT(*) FROM pg_catalog.pg_class c
WHERE c.oid = to_regclass('timer_call_data') AND c.relkind = 'p'
  AND to_regclass('timer_call_data_default') IS NOT NULL
  AND to_regclass('timer_value_default') IS NOT NULL
  AND to_regclass('counter_value_default') IS NOT NULL`,
		func(scan func(...any) error) error { return scan(&n) })
	if err != nil {
		return false, fmt.Errorf("read the layout of timer_call_data: %w", err)
	}
	return n == 1, nil
}

// Layout names how a PostgreSQL TAUdb stores its big tables.
type Layout string

// The layouts DB.Layout tells apart.
const (
	// LayoutPlain: timer_call_data, timer_value and counter_value are
	// plain tables (TAU's schema file, SQLite, or Init before the
	// partitioned layout); saves insert into them with row-by-row checks.
	LayoutPlain Layout = "plain"
	// LayoutPartitioned: they are range-partitioned by each trial's id
	// block (Init of a fresh PostgreSQL database); saves attach one
	// partition per table and trial.
	LayoutPartitioned Layout = "partitioned"
)

// Layout reports the layout of the database's big tables.
func (db *DB) Layout(ctx context.Context) (Layout, error) {
	if db.dialect != Postgres {
		return LayoutPlain, nil
	}
	r, err := db.runner()
	if err != nil {
		return "", err
	}
	part, err := isPartitioned(ctx, r)
	if err != nil || !part {
		return LayoutPlain, err
	}
	return LayoutPartitioned, nil
}

// partitionLockKey is the transaction-level advisory lock that a save or a
// delete on the partitioned layout takes before writing anything. Attaching
// a partition adds foreign keys, which takes SHARE ROW EXCLUSIVE locks on
// the referenced tables (thread, metric, ...) that another save holds ROW
// EXCLUSIVE on since its COPY into them; and dropping a trial's partitions
// locks the parents in the other order. Two of them at once would
// deadlock, so they take turns: saves and deletes of the partitioned
// layout run one at a time (reads are not affected).
const partitionLockKey = 7_305_268_131_926_466_213

// dropLockKey is the advisory lock between reads and the dropping of a
// trial's partitions. Dropping (and detaching) a partition takes ACCESS
// EXCLUSIVE locks on it and its parent, in an order that a reader, which
// locks the parent and then the partitions it reads, can meet the other
// way round: the soak test saw "deadlock detected" in reads and deletes.
// Every read transaction on PostgreSQL takes it shared first (readTx), and
// a delete takes it exclusively just before it drops, holding nothing a
// reader waits for: a reader waits for the drop (or the drop for the
// readers in progress), never the two for each other. Saves do not take
// it, so reads do not wait for saves.
const dropLockKey = 7_305_268_131_926_466_215

// lockDrops takes dropLockKey exclusively for the transaction of r.
func lockDrops(ctx context.Context, r runner) error {
	if _, err := r.execArgs(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(dropLockKey)); err != nil {
		return fmt.Errorf("wait for the reads in progress: %w", err)
	}
	return nil
}

// waitForDrops takes dropLockKey shared for the transaction of r: a
// transaction that reads or writes trial data through the parent tables
// (a read, SaveMetric) takes it before any table lock.
func waitForDrops(ctx context.Context, r runner) error {
	if _, err := r.execArgs(ctx, `SELECT pg_advisory_xact_lock_shared($1)`, int64(dropLockKey)); err != nil {
		return fmt.Errorf("wait for a trial's partitions to be dropped: %w", err)
	}
	return nil
}

// sharePartitions takes partitionLockKey shared for the transaction of r:
// SaveMetric, which reads a trial's call data through the parents and
// inserts into timer_value, takes turns with the saves and deletes of
// partitions (which take it exclusively) but not with other metric saves.
// A save's ATTACH takes ACCESS EXCLUSIVE on the default partitions and
// SHARE ROW EXCLUSIVE on metric, which a metric save holds ROW EXCLUSIVE
// on: without the lock the two deadlocked in the soak test. Taken after
// the trial's row lock, as a delete takes it after its own.
func sharePartitions(ctx context.Context, r runner) error {
	if _, err := r.execArgs(ctx, `SELECT pg_advisory_xact_lock_shared($1)`, int64(partitionLockKey)); err != nil {
		return fmt.Errorf("wait for the saves and deletes of partitions: %w", err)
	}
	return nil
}

// lockPartitions takes partitionLockKey for the transaction of r.
func lockPartitions(ctx context.Context, r runner) error {
	if _, err := r.execArgs(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(partitionLockKey)); err != nil {
		return fmt.Errorf("wait for the other saves and deletes of partitions: %w", err)
	}
	return nil
}

// attachMemory is the maintenance_work_mem a save sets for its own
// transaction in the partitioned layout: the memory PostgreSQL sorts in
// when it builds a new partition's indexes, and hashes in when it checks
// its keys (RI_Initial_Check runs with it as work_mem). With the default
// 64 MB, the index of a 4,096-thread trial's 2.5 million timer_value rows
// is sorted on disk.
const attachMemory = "512MB"

// setAttachMemory sets maintenance_work_mem to attachMemory until the
// transaction of r ends.
func setAttachMemory(ctx context.Context, r runner) error {
	if _, err := r.execArgs(ctx, `SELECT set_config('maintenance_work_mem', $1, true)`, attachMemory); err != nil {
		return fmt.Errorf("set maintenance_work_mem: %w", err)
	}
	return nil
}

// idBlock is the half-open range [lo, hi) of ids a trial's partition of a
// table holds.
type idBlock struct{ lo, hi int64 }

// partitionBlock returns the id block of p's partition of table, and
// whether table is one of the partitioned tables.
func (p *savePlan) partitionBlock(table string) (idBlock, bool) {
	switch table {
	case "timer_call_data", "timer_value":
		lo := p.ids[serialCallData]
		return idBlock{lo, lo + int64(p.count(serialCallData))}, true
	case "counter_value":
		lo := p.ids[serialCounter]
		return idBlock{lo, lo + int64(p.count(serialCounter))}, true
	}
	return idBlock{}, false
}

// copyPartition writes the rows of tr, one of the partitioned tables, as
// the trial's partition of it, in the save's transaction:
//
//  1. CREATE TABLE name (LIKE table): the columns and NOT NULLs, no index,
//     no key;
//  2. COPY the rows into it: no trigger, no index to maintain, and FREEZE
//     (copyFreeze);
//  3. for timer_value, the key to the trial's timer_call_data partition
//     (one anti-join of the two partitions, see partition_postgres.sql);
//  4. ATTACH PARTITION FOR VALUES FROM (lo) TO (hi): PostgreSQL checks
//     every row is in the block (one scan), that the default partition
//     holds none of it, clones and validates the parent's foreign keys
//     (one anti-join each, against the referenced table) and builds the
//     parent's indexes on the partition (one sort each).
//
// Any failure fails the save, whose transaction then leaves nothing.
func copyPartition(ctx context.Context, conn *pgconn.PgConn, r runner, trial int64, b idBlock, tr tableRows) error {
	name := partitionName(tr.table, trial)
	if err := stagePartition(ctx, conn, r, name, tr); err != nil {
		return err
	}
	return attachPartition(ctx, r, tr.table, name, partitionName("timer_call_data", trial), b)
}

// stagePartition does steps 1 and 2 of copyPartition: the rows of tr in a
// new table name, not yet a partition.
func stagePartition(ctx context.Context, conn *pgconn.PgConn, r runner, name string, tr tableRows) error {
	if err := r.exec(ctx, fmt.Sprintf(`CREATE TABLE %s (LIKE %s)`, name, tr.table)); err != nil {
		return fmt.Errorf("create partition %s: %w", name, err)
	}
	staged := tr
	staged.table = name
	return copyFreeze(ctx, conn, staged)
}

// attachPartition does steps 3 and 4 of copyPartition: the staged table
// name becomes table's partition of block b; a timer_value partition
// first gets its key to callData, the timer_call_data partition of the
// same ids.
func attachPartition(ctx context.Context, r runner, table, name, callData string, b idBlock) error {
	if table == "timer_value" {
		if err := r.exec(ctx, fmt.Sprintf(`ALTER TABLE %s ADD FOREIGN KEY (timer_call_data) REFERENCES %s(id) ON DELETE NO ACTION ON UPDATE NO ACTION`, name, callData)); err != nil {
			return fmt.Errorf("check the keys of %s: %w", name, err)
		}
	}
	if err := r.exec(ctx, fmt.Sprintf(`ALTER TABLE %s ATTACH PARTITION %s FOR VALUES FROM (%d) TO (%d)`, table, name, b.lo, b.hi)); err != nil {
		return fmt.Errorf("attach partition %s: %w", name, err)
	}
	return nil
}

// trialPartitions returns the names of trial's attached partitions of each
// partitioned table (a row in pg_inherits): the one partitionName names and,
// for a trial saved a chunk of threads at a time (SaveTrials with
// PendingTrial.Chunks), one per chunk (chunkPartitionName).
func trialPartitions(ctx context.Context, r runner, trial int64) (map[string][]string, error) {
	parts := map[string][]string{}
	for _, t := range partitionedTables {
		name := partitionName(t.table, trial)
		if err := r.query(ctx, trialPartitionsQuery, func(scan func(...any) error) error {
			var child string
			if err := scan(&child); err != nil {
				return err
			}
			parts[t.table] = append(parts[t.table], child)
			return nil
		}, t.table, name); err != nil {
			return nil, fmt.Errorf("find partitions of %s: %w", name, err)
		}
	}
	return parts, nil
}

// trialPartitionsQuery lists the partitions of table $1 named $2 or $2_K.
const trialPartitionsQuery = `
SELECT c.relname::text FROM pg_catalog.pg_inherits i JOIN pg_catalog.pg_class c ON c.oid = i.inhrelid
WHERE i.inhparent = to_regclass($1) AND (c.relname = $2 OR c.relname LIKE $2 || '\_%')
ORDER BY c.relname`

// chunkPartitionName is the name of the partition of table that holds
// chunk k (from 1) of trial's threads.
func chunkPartitionName(table string, trial int64, k int) string {
	return fmt.Sprintf("%s_%d", partitionName(table, trial), k)
}

// dropPartitions drops trial's partitions parts (trialPartitions), in the
// order the keys allow: timer_value's (which hold the only keys to
// timer_call_data's), counter_value's, then each of timer_call_data's after
// its rows of timer_call_data_count are deleted and it is detached (the
// detach checks that no row of timer_call_data_count refers to it).
// Dropping reads no row of another trial.
func dropPartitions(ctx context.Context, r runner, parts map[string][]string) error {
	if err := lockDrops(ctx, r); err != nil {
		return err
	}
	for _, t := range []string{"timer_value", "counter_value"} {
		for _, name := range parts[t] {
			if err := r.exec(ctx, `DROP TABLE `+name); err != nil {
				return fmt.Errorf("drop partition %s: %w", name, err)
			}
		}
	}
	if len(parts["timer_call_data"]) == 0 {
		return nil
	}
	big, err := hasTable(ctx, r, Postgres, bigCallTable)
	if err != nil {
		return err
	}
	for _, name := range parts["timer_call_data"] {
		if big {
			if _, err := r.execArgs(ctx, `DELETE FROM `+bigCallTable+` WHERE timer_call_data IN (SELECT id FROM `+name+`)`); err != nil {
				return fmt.Errorf("delete from %s: %w", bigCallTable, err)
			}
		}
		if err := r.exec(ctx, `ALTER TABLE timer_call_data DETACH PARTITION `+name); err != nil {
			return fmt.Errorf("detach partition %s: %w", name, err)
		}
		if err := r.exec(ctx, `DROP TABLE `+name); err != nil {
			return fmt.Errorf("drop partition %s: %w", name, err)
		}
	}
	return nil
}

// onDefaults rewrites a statement of DeleteTrial (deleteSteps,
// trialTimeRanges) for the partitioned layout once the trial's partitions
// are gone or about to be: what is left of the trial in the partitioned
// tables can only be in their default partitions (rows other tools wrote),
// so the statement reads those instead of every trial's partition. When
// the trial still has a timer_call_data partition (callData names it), the
// time ranges are read from it too.
func onDefaults(sql, callData string) string {
	tcd := "timer_call_data_default"
	if callData != "" {
		tcd = "(SELECT * FROM " + callData + " UNION ALL SELECT * FROM timer_call_data_default)"
	}
	return strings.NewReplacer(
		"FROM timer_value ", "FROM timer_value_default ",
		"FROM timer_call_data tcd", "FROM "+tcd+" tcd",
		"FROM timer_call_data WHERE", "FROM timer_call_data_default WHERE",
		"FROM counter_value ", "FROM counter_value_default ",
	).Replace(sql)
}
