package store

import (
	"context"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// reserveIDsQuery reserves a block of n consecutive ids from the sequence
// behind each table's id column and returns the first id of each block.
// It runs inside the save's transaction, so it takes the session-level
// advisory lock saveLockKey and releases it before it ends (a
// transaction-level lock would be held until the save commits and make
// every save wait for the one before): l takes the lock, r reserves under
// it, u releases it once every row of r is computed (it counts them), and
// the CTEs holding volatile functions are materialized in that order.
// Sequences are not transactional, so the ids stay reserved whatever the
// transaction does. Table names and counts are parameters.
const reserveIDsQuery = `
WITH l AS MATERIALIZED (SELECT pg_advisory_lock($1) AS locked),
r AS MATERIALIZED (
  SELECT s.tbl,
         setval(pg_get_serial_sequence(s.tbl, 'id'), nextval(pg_get_serial_sequence(s.tbl, 'id')) + s.n - 1) - s.n + 1 AS first
  FROM l, unnest($2::text[], $3::bigint[]) AS s(tbl, n)),
u AS MATERIALIZED (SELECT pg_advisory_unlock($1) AS unlocked FROM (SELECT count(*) FROM r) AS c)
SELECT r.tbl, r.first FROM u, r`

// savePostgres writes the trials through one connection, in one
// transaction: for each, its name checked (prepareSave), its ids reserved
// (reservePostgres) and every table written with COPY.
func (db *DB) savePostgres(ctx context.Context, trials []PendingTrial) ([]SavedTrial, error) {
	conn, err := db.pool.Acquire(ctx)
	if err != nil {
		return nil, fmt.Errorf("save trial%s: connect: %w", quotedName(trials), err)
	}
	defer conn.Release()
	tx, err := conn.Begin(ctx)
	if err != nil {
		return nil, fmt.Errorf("save trial%s: begin a transaction: %w", quotedName(trials), err)
	}
	defer tx.Rollback(ctx) //nolint:errcheck // a no-op after Commit
	r := pgxRunner{tx}
	keep, err := keptTablesOf(ctx, r, Postgres)
	if err != nil {
		return nil, fmt.Errorf("save trial%s: %w", quotedName(trials), err)
	}
	part, err := isPartitioned(ctx, r)
	if err == nil && part {
		err = lockPartitions(ctx, r)
	}
	if err == nil && part {
		err = setAttachMemory(ctx, r)
	}
	if err != nil {
		return nil, fmt.Errorf("save trial%s: %w", quotedName(trials), err)
	}
	if err := db.lockNames(ctx, r, "trial", knownNames(trials)...); err != nil {
		return nil, fmt.Errorf("save trial%s: %w", quotedName(trials), err)
	}
	out := make([]SavedTrial, len(trials))
	for i, pt := range trials {
		if pt.Chunks != nil && pt.Trial == nil && pt.Read == nil {
			if out[i], err = db.saveChunkedOn(ctx, conn, tx, pt, part, keep); err != nil {
				return nil, unwrapRead(err, pt.Options.Name)
			}
			continue
		}
		p, saved, name, err := db.prepareSave(ctx, r, pt)
		if err == nil && p != nil {
			p.keepRange, p.keepLong, p.keepPages = keep.rangeTable, keep.longNames, keep.pages
			err = p.checkBigTables(keep.bigTables)
		}
		if err == nil && p != nil {
			err = copyPostgres(ctx, conn, tx, p, part)
			saved.ID = p.trialID()
		}
		if err != nil {
			return nil, unwrapRead(err, name)
		}
		out[i] = saved
	}
	if err := tx.Commit(ctx); err != nil {
		return nil, fmt.Errorf("save trial %q: commit: %w", out[len(out)-1].Name, err)
	}
	return out, nil
}

// saveChunkedOn saves pt.Chunks in the partitioned layout (part), or fails
// with ErrChunksNeedPartitions. On failure it closes the connection: a
// failed reservation of ids may hold the session lock.
func (db *DB) saveChunkedOn(ctx context.Context, conn *pgxpool.Conn, tx pgx.Tx, pt PendingTrial, part bool, keep keptTables) (SavedTrial, error) {
	if !part {
		return SavedTrial{}, ErrChunksNeedPartitions
	}
	saved, err := db.saveChunked(ctx, tx.Conn().PgConn(), tx, pt, keep)
	if err != nil {
		conn.Conn().Close(context.Background()) //nolint:errcheck // closing a failed connection
	}
	return saved, err
}

// copyPostgres reserves the plan's ids and writes its tables with COPY; in
// the partitioned layout (part) timer_call_data, timer_value and
// counter_value go into partitions of the trial's own (copyPartition).
func copyPostgres(ctx context.Context, conn *pgxpool.Conn, tx pgx.Tx, p *savePlan, part bool) error {
	if err := reservePostgres(ctx, tx, p); err != nil {
		// The statement may have failed holding the session lock: drop
		// the connection, which releases it, rather than return it to the
		// pool.
		conn.Conn().Close(context.Background()) //nolint:errcheck // closing a failed connection
		return err
	}
	for _, tr := range p.tables() {
		if tr.rows == 0 {
			continue
		}
		beforeTable(ctx, tr.table)
		if b, ok := p.partitionBlock(tr.table); part && ok {
			if err := copyPartition(ctx, tx.Conn().PgConn(), pgxRunner{tx}, p.trialID(), b, tr); err != nil {
				return err
			}
			continue
		}
		if err := copyRows(ctx, tx, tr); err != nil {
			return err
		}
	}
	return ensureLoadViews(ctx, pgxRunner{tx}, Postgres, p.app, p.exp)
}

// reservePostgres reserves the ids of every serial table the plan writes
// and sets p.ids.
//
// Caveat: a writer that takes ids with nextval without the advisory lock
// (TAU's own loader, say) can obtain, between this statement's nextval and
// setval, an id inside the reserved block. Both then insert that id; the
// primary key makes the second insert fail and its transaction roll back,
// so the database is never corrupted, and the failed load can be retried.
func reservePostgres(ctx context.Context, conn pgx.Tx, p *savePlan) error {
	counts := make(map[int]int, numSerial)
	for s := range numSerial {
		counts[s] = p.count(s)
	}
	got, err := reserveBlocks(ctx, conn, counts)
	if err != nil {
		return err
	}
	for s, first := range got {
		p.ids[s] = first
	}
	return nil
}

// reserveBlocks reserves, under the save lock, a block of counts[s] ids of
// each serial table s (serialTrial ...) with a count above 0, and returns
// the first id of each.
func reserveBlocks(ctx context.Context, tx pgx.Tx, counts map[int]int) (map[int]int64, error) {
	var tables []string
	var ns []int64
	for s := range numSerial {
		if n := counts[s]; n > 0 {
			tables = append(tables, serialTables[s])
			ns = append(ns, int64(n))
		}
	}
	out := map[int]int64{}
	if len(tables) == 0 {
		return out, nil
	}
	rows, err := tx.Query(ctx, reserveIDsQuery, int64(saveLockKey), tables, ns)
	if err != nil {
		return nil, fmt.Errorf("reserve ids: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var table string
		var first int64
		if err := rows.Scan(&table, &first); err != nil {
			return nil, fmt.Errorf("reserve ids: %w", err)
		}
		if s := slices.Index(serialTables[:], table); s >= 0 {
			out[s] = first
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reserve ids: %w", err)
	}
	if len(out) != len(tables) {
		return nil, fmt.Errorf("reserve ids: got %d of %d id blocks", len(out), len(tables))
	}
	return out, nil
}
