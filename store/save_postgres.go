package store

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// reserveIDsQuery reserves a block of n consecutive ids from the sequence
// behind each table's id column and returns the first id of each block.
// The advisory lock, taken in a sub-select that every output row depends
// on, makes concurrent SaveTrial calls reserve one after the other; the
// statement runs outside any transaction block, so the lock is released as
// soon as it ends. Table names and counts are parameters.
const reserveIDsQuery = `
SELECT s.tbl,
       setval(pg_get_serial_sequence(s.tbl, 'id'), nextval(pg_get_serial_sequence(s.tbl, 'id')) + s.n - 1) - s.n + 1
FROM (SELECT pg_advisory_xact_lock($1)) AS l,
     unnest($2::text[], $3::bigint[]) AS s(tbl, n)`

// savePostgres writes the trial through one connection: the ids are
// reserved first (one statement, outside the transaction), then every table
// is written with COPY in one transaction.
func (db *DB) savePostgres(ctx context.Context, p *savePlan) (int64, error) {
	conn, err := db.pool.Acquire(ctx)
	if err != nil {
		return 0, fmt.Errorf("connect: %w", err)
	}
	defer conn.Release()

	if err := reservePostgres(ctx, conn.Conn(), p); err != nil {
		return 0, err
	}
	if p.keepRange, err = hasTable(ctx, pgxRunner{conn.Conn()}, Postgres, callRangeTable); err != nil {
		return 0, err
	}
	if len(p.t.LongNames) > 0 {
		if p.keepLong, err = hasTable(ctx, pgxRunner{conn.Conn()}, Postgres, longNameTable); err != nil {
			return 0, err
		}
	}
	tx, err := conn.Begin(ctx)
	if err != nil {
		return 0, fmt.Errorf("begin a transaction: %w", err)
	}
	defer tx.Rollback(ctx) //nolint:errcheck // a no-op after Commit
	for _, tr := range p.tables() {
		if tr.rows == 0 {
			continue
		}
		beforeTable(ctx, tr.table)
		next := tr.next
		n, err := tx.CopyFrom(ctx, pgx.Identifier{tr.table}, tr.columns, pgx.CopyFromFunc(func() ([]any, error) {
			row, ok := next()
			if !ok {
				return nil, nil
			}
			return row, nil
		}))
		if err != nil {
			return 0, fmt.Errorf("copy %s: %w", tr.table, err)
		}
		if n != int64(tr.rows) {
			return 0, fmt.Errorf("copy %s: wrote %d rows, expected %d", tr.table, n, tr.rows)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return 0, fmt.Errorf("commit: %w", err)
	}
	return p.trialID(), nil
}

// reservePostgres reserves the ids of every serial table the plan writes
// and sets p.ids.
//
// Caveat: a writer that takes ids with nextval without the advisory lock
// (TAU's own loader, say) can obtain, between this statement's nextval and
// setval, an id inside the reserved block. Both then insert that id; the
// primary key makes the second insert fail and its transaction roll back,
// so the database is never corrupted, and the failed load can be retried.
func reservePostgres(ctx context.Context, conn *pgx.Conn, p *savePlan) error {
	var tables []string
	var counts []int64
	for s := range numSerial {
		if n := p.count(s); n > 0 {
			tables = append(tables, serialTables[s])
			counts = append(counts, int64(n))
		}
	}
	rows, err := conn.Query(ctx, reserveIDsQuery, int64(saveLockKey), tables, counts)
	if err != nil {
		return fmt.Errorf("reserve ids: %w", err)
	}
	defer rows.Close()
	got := 0
	for rows.Next() {
		var table string
		var first int64
		if err := rows.Scan(&table, &first); err != nil {
			return fmt.Errorf("reserve ids: %w", err)
		}
		for s, name := range serialTables {
			if name == table {
				p.ids[s] = first
				got++
			}
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("reserve ids: %w", err)
	}
	if got != len(tables) {
		return fmt.Errorf("reserve ids: got %d of %d id blocks", got, len(tables))
	}
	return nil
}
