package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Catalog lists the relations of a database, each list sorted by name.
// For PostgreSQL these are the relations visible through the search_path,
// outside the system schemas (the ones that unqualified names in queries
// resolve to); for SQLite, those of the main database, without SQLite's
// internal tables.
type Catalog struct {
	// Tables are the tables.
	Tables []string
	// Views are the views.
	Views []string
	// Indexes are the indexes created by CREATE INDEX, not those that back a
	// PRIMARY KEY or UNIQUE constraint.
	Indexes []string
}

// HasTable reports whether the catalog holds a table of that name.
func (c Catalog) HasTable(name string) bool { return slices.Contains(c.Tables, name) }

// HasView reports whether the catalog holds a view of that name.
func (c Catalog) HasView(name string) bool { return slices.Contains(c.Views, name) }

// Catalog lists the tables, views and indexes of the database.
func (db *DB) Catalog(ctx context.Context) (Catalog, error) {
	r, err := db.runner()
	if err != nil {
		return Catalog{}, err
	}
	return readCatalog(ctx, r, db.dialect)
}

// postgresCatalogQuery lists the relations visible through the search_path,
// skipping the system schemas, the indexes behind constraints, and
// partitions and their indexes (the partitioned layout's per-trial tables
// are parts of timer_call_data, timer_value and counter_value, which are
// listed).
const postgresCatalogQuery = `
SELECT c.relname, c.relkind::text
FROM pg_catalog.pg_class c
JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
WHERE c.relkind IN ('r', 'p', 'f', 'v', 'm', 'i', 'I')
  AND n.nspname NOT IN ('pg_catalog', 'information_schema')
  AND n.nspname NOT LIKE 'pg\_toast%'
  AND n.nspname NOT LIKE 'pg\_temp\_%'
  AND pg_catalog.pg_table_is_visible(c.oid)
  AND NOT c.relispartition
  AND NOT EXISTS (
    SELECT 1 FROM pg_catalog.pg_constraint k
    WHERE k.conindid = c.oid AND k.contype IN ('p', 'u', 'x'))
ORDER BY c.relname`

// sqliteCatalogQuery lists the relations of the main database, skipping
// SQLite's own (sqlite_sequence, sqlite_autoindex_...).
const sqliteCatalogQuery = `
SELECT name, type
FROM sqlite_master
WHERE type IN ('table', 'view', 'index')
  AND name NOT LIKE 'sqlite\_%' ESCAPE '\'
ORDER BY name`

// readCatalog runs the catalog query of the dialect through r.
func readCatalog(ctx context.Context, r runner, d Dialect) (Catalog, error) {
	q := sqliteCatalogQuery
	if d == Postgres {
		q = postgresCatalogQuery
	}
	var c Catalog
	err := r.query(ctx, q, func(scan func(...any) error) error {
		var name, kind string
		if err := scan(&name, &kind); err != nil {
			return err
		}
		switch kind {
		case "r", "p", "f", "table":
			c.Tables = append(c.Tables, name)
		case "v", "m", "view":
			c.Views = append(c.Views, name)
		case "i", "I", "index":
			c.Indexes = append(c.Indexes, name)
		}
		return nil
	})
	if err != nil {
		return Catalog{}, fmt.Errorf("read the catalog: %w", err)
	}
	return c, nil
}

// runner runs SQL on either dialect, on a database, a connection or a
// transaction: the little that Init and Catalog need.
type runner interface {
	// exec runs sql, which takes no arguments and may hold several
	// statements.
	exec(ctx context.Context, sql string) error
	// query runs sql with args and calls row for each result row; row reads
	// the row's columns with scan.
	query(ctx context.Context, sql string, row func(scan func(...any) error) error, args ...any) error
	// execArgs runs one statement with args and returns the number of rows
	// it changed.
	execArgs(ctx context.Context, sql string, args ...any) (int64, error)
}

// runner returns a runner on the whole database.
func (db *DB) runner() (runner, error) {
	switch {
	case db.pool != nil:
		return pgxRunner{db.pool}, nil
	case db.sqlDB != nil:
		return sqlRunner{db.sqlDB}, nil
	}
	return nil, fmt.Errorf("%s: the database is closed", db.display)
}

// pgxQuerier is what pgx pools, connections and transactions share.
type pgxQuerier interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// pgxRunner runs SQL through pgx.
type pgxRunner struct{ q pgxQuerier }

func (r pgxRunner) exec(ctx context.Context, sql string) error {
	_, err := r.q.Exec(ctx, sql) // no arguments: the simple protocol, several statements allowed
	return err
}

func (r pgxRunner) execArgs(ctx context.Context, sql string, args ...any) (int64, error) {
	tag, err := r.q.Exec(ctx, sql, args...)
	if err != nil {
		return 0, err
	}
	return tag.RowsAffected(), nil
}

func (r pgxRunner) query(ctx context.Context, sql string, row func(scan func(...any) error) error, args ...any) error {
	noteQuery(ctx, sql)
	rows, err := r.q.Query(ctx, sql, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := row(rows.Scan); err != nil {
			return err
		}
	}
	return rows.Err()
}

// sqlQuerier is what database/sql databases, connections and transactions
// share.
type sqlQuerier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// sqlRunner runs SQL through database/sql (SQLite).
type sqlRunner struct{ q sqlQuerier }

func (r sqlRunner) exec(ctx context.Context, sql string) error {
	_, err := r.q.ExecContext(ctx, sql)
	return err
}

func (r sqlRunner) execArgs(ctx context.Context, sql string, args ...any) (int64, error) {
	res, err := r.q.ExecContext(ctx, sql, args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

func (r sqlRunner) query(ctx context.Context, sql string, row func(scan func(...any) error) error, args ...any) error {
	noteQuery(ctx, sql)
	rows, err := r.q.QueryContext(ctx, sql, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := row(rows.Scan); err != nil {
			return err
		}
	}
	return rows.Err()
}

// inTx runs fn in one transaction, committed if fn returns nil and rolled
// back otherwise. SQLite transactions begin IMMEDIATE (see OpenSQLite), so
// fn holds the write lock from its first statement on.
func (db *DB) inTx(ctx context.Context, fn func(r runner) error) error {
	switch {
	case db.pool != nil:
		tx, err := db.pool.Begin(ctx)
		if err != nil {
			return fmt.Errorf("begin a transaction: %w", err)
		}
		defer tx.Rollback(ctx) //nolint:errcheck // a no-op after Commit
		if err := fn(pgxRunner{tx}); err != nil {
			return err
		}
		if err := tx.Commit(ctx); err != nil {
			return fmt.Errorf("commit: %w", err)
		}
		return nil
	case db.sqlDB != nil:
		tx, err := db.sqlDB.BeginTx(ctx, nil)
		if err != nil {
			return db.busy(fmt.Errorf("begin a transaction: %w", err))
		}
		defer tx.Rollback() //nolint:errcheck // a no-op after Commit
		if err := fn(sqlRunner{tx}); err != nil {
			return db.busy(err)
		}
		if err := tx.Commit(); err != nil {
			return db.busy(fmt.Errorf("commit: %w", err))
		}
		return nil
	}
	return fmt.Errorf("%s: the database is closed", db.display)
}
