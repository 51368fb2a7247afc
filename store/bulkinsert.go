package store

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// pgxCopier is what a pgx transaction offers for COPY FROM STDIN.
type pgxCopier interface {
	CopyFrom(ctx context.Context, table pgx.Identifier, columns []string, src pgx.CopyFromSource) (int64, error)
}

// sqlPreparer is what a database/sql transaction offers to prepare a
// statement once and run it many times.
type sqlPreparer interface {
	PrepareContext(ctx context.Context, query string) (*sql.Stmt, error)
}

// bulkInsert writes every row of tr in r's transaction by the dialect's
// bulk path: COPY FROM STDIN on PostgreSQL, and on SQLite prepared
// multi-row INSERTs with anonymous parameters (insertSQLite: one statement
// compiled once for up to sqliteBatchRows rows, run again for each batch).
// Either costs one round of parsing per batch instead of per row, so a
// table of N cells costs O(N) work, not the O(N × batch) that numbered
// parameters cost the SQLite parser. Rows go in the order next yields
// them, so serial ids follow it.
func bulkInsert(ctx context.Context, r runner, tr tableRows) error {
	if tr.rows == 0 {
		return nil
	}
	switch rr := r.(type) {
	case pgxRunner:
		c, ok := rr.q.(pgxCopier)
		if !ok {
			return fmt.Errorf("insert into %s: COPY needs a transaction", tr.table)
		}
		return copyRows(ctx, c, tr)
	case sqlRunner:
		p, ok := rr.q.(sqlPreparer)
		if !ok {
			return fmt.Errorf("insert into %s: a prepared insert needs a transaction", tr.table)
		}
		return insertSQLite(ctx, p, tr)
	}
	return fmt.Errorf("insert into %s: unknown kind of connection %T", tr.table, r)
}

// copyRows writes the rows of tr with COPY FROM STDIN and checks their
// number.
func copyRows(ctx context.Context, c pgxCopier, tr tableRows) error {
	next := tr.next
	n, err := c.CopyFrom(ctx, pgx.Identifier{tr.table}, tr.columns, pgx.CopyFromFunc(func() ([]any, error) {
		row, ok := next()
		if !ok {
			return nil, nil
		}
		return row, nil
	}))
	if err != nil {
		return fmt.Errorf("copy %s: %w", tr.table, err)
	}
	if n != int64(tr.rows) {
		return fmt.Errorf("copy %s: wrote %d rows, expected %d", tr.table, n, tr.rows)
	}
	return nil
}
