// Package storetest gives tests fresh TAUdb databases of both dialects, so
// that one test body runs against SQLite and PostgreSQL alike.
//
// SQLite databases live in t.TempDir(). PostgreSQL databases are new schemas,
// with random names, in the database at TAUDB_TEST_PG_URL (default
// postgres://postgres@127.0.0.1:5432/test?sslmode=disable): the connections
// get the schema as their search_path, and the schema is dropped (CASCADE)
// when the test ends. When PostgreSQL cannot be reached, the PostgreSQL
// variants are skipped, or fail when TAUDB_REQUIRE_PG=1 (as in CI).
package storetest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/taudb-analyze/taudb-analyze/store"
)

// DefaultPostgresURL is the PostgreSQL database that tests use when
// TAUDB_TEST_PG_URL is not set.
const DefaultPostgresURL = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"

// PostgresURL returns the PostgreSQL database for tests: TAUDB_TEST_PG_URL, or
// DefaultPostgresURL.
func PostgresURL() string {
	if u := os.Getenv("TAUDB_TEST_PG_URL"); u != "" {
		return u
	}
	return DefaultPostgresURL
}

// Dialects are the dialects that every store test runs against.
func Dialects() []store.Dialect { return []store.Dialect{store.SQLite, store.Postgres} }

var (
	pgOnce sync.Once
	pgErr  error
)

// RequirePostgres returns the PostgreSQL URL for tests once it has checked
// (once per test binary) that the server answers. When it does not, it skips
// t, or fails t when TAUDB_REQUIRE_PG=1.
func RequirePostgres(t testing.TB) string {
	t.Helper()
	u := PostgresURL()
	pgOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		conn, err := pgx.Connect(ctx, u)
		if err != nil {
			pgErr = err
			return
		}
		pgErr = conn.Ping(ctx)
		conn.Close(ctx)
	})
	if pgErr != nil {
		msg := fmt.Sprintf("PostgreSQL at %s is not reachable: %s", store.Redact(u), store.Redact(pgErr.Error()))
		if os.Getenv("TAUDB_REQUIRE_PG") == "1" {
			t.Fatalf("%s (TAUDB_REQUIRE_PG=1)", msg)
		}
		t.Skipf("%s; set TAUDB_TEST_PG_URL, or TAUDB_REQUIRE_PG=1 to fail instead of skipping", msg)
	}
	return u
}

// Open opens a fresh, empty database of dialect d for t, and closes (and for
// PostgreSQL drops) it when t ends. It does not create the schema: see
// OpenInit.
func Open(t testing.TB, d store.Dialect) *store.DB {
	t.Helper()
	ctx := context.Background()
	switch d {
	case store.SQLite:
		db, err := store.OpenSQLite(ctx, filepath.Join(t.TempDir(), "taudb.db"))
		if err != nil {
			t.Fatalf("open SQLite: %v", err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	case store.Postgres:
		schema := NewPostgresSchema(t)
		cfg, err := pgxpool.ParseConfig(PostgresURL())
		if err != nil {
			t.Fatalf("parse %s: %v", store.Redact(PostgresURL()), err)
		}
		cfg.ConnConfig.RuntimeParams["search_path"] = schema
		cfg.MaxConns = 4
		db, err := store.OpenPostgresConfig(ctx, cfg)
		if err != nil {
			t.Fatalf("open PostgreSQL schema %s: %v", schema, err)
		}
		t.Cleanup(func() { db.Close() }) // runs before the schema is dropped
		return db
	}
	t.Fatalf("storetest: unknown dialect %q", d)
	return nil
}

// NewPostgresSchema creates an empty PostgreSQL schema with a random name in
// the test database and drops it, with everything in it, when t ends. It
// skips or fails t as RequirePostgres does.
func NewPostgresSchema(t testing.TB) string {
	t.Helper()
	u := RequirePostgres(t)
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatalf("random schema name: %v", err)
	}
	schema := "taudb_test_" + hex.EncodeToString(b[:])
	if err := admin(u, "CREATE SCHEMA "+schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := admin(u, "DROP SCHEMA IF EXISTS "+schema+" CASCADE"); err != nil {
			t.Error(err)
		}
	})
	return schema
}

// admin runs one statement on its own connection to the test database.
func admin(u, sql string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, u)
	if err != nil {
		return fmt.Errorf("connect to %s: %v", store.Redact(u), err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, sql); err != nil {
		return fmt.Errorf("%s: %v", sql, err)
	}
	return nil
}

// OpenInit opens a fresh database of dialect d for t, as Open does, and
// creates the TAUdb schema in it.
func OpenInit(t testing.TB, d store.Dialect) *store.DB {
	t.Helper()
	db := Open(t, d)
	if _, err := db.Init(context.Background()); err != nil {
		t.Fatalf("init: %v", err)
	}
	return db
}

// Run runs fn once per dialect, as the subtests "sqlite" and "postgres",
// each with a fresh, empty database (not initialized). The subtests run in
// parallel with each other.
func Run(t *testing.T, fn func(t *testing.T, db *store.DB)) {
	t.Helper()
	for _, d := range Dialects() {
		t.Run(d.String(), func(t *testing.T) {
			t.Parallel()
			fn(t, Open(t, d))
		})
	}
}

// Exec runs sql, which may hold several statements and takes no arguments,
// on db, and fails t on error.
func Exec(t testing.TB, db *store.DB, sql string) {
	t.Helper()
	if err := ExecErr(db, sql); err != nil {
		t.Fatalf("exec %q: %v", sql, err)
	}
}

// ExecErr runs sql as Exec does and returns its error.
func ExecErr(db *store.DB, sql string) error {
	ctx := context.Background()
	if p := db.Pool(); p != nil {
		_, err := p.Exec(ctx, sql)
		return err
	}
	_, err := db.SQL().ExecContext(ctx, sql)
	return err
}

// Query runs sql with args on db and returns its rows, each value printed
// with fmt.Sprint ("NULL" for NULL, []byte as a string). Placeholders are
// $1, $2, ... in both dialects.
func Query(t testing.TB, db *store.DB, sql string, args ...any) [][]string {
	t.Helper()
	ctx := context.Background()
	var out [][]string
	str := func(v any) string {
		switch x := v.(type) {
		case nil:
			return "NULL"
		case []byte:
			return string(x)
		}
		return fmt.Sprint(v)
	}
	if p := db.Pool(); p != nil {
		rows, err := p.Query(ctx, sql, args...)
		if err != nil {
			t.Fatalf("query %q: %v", sql, err)
		}
		defer rows.Close()
		for rows.Next() {
			vals, err := rows.Values()
			if err != nil {
				t.Fatalf("query %q: %v", sql, err)
			}
			row := make([]string, len(vals))
			for i, v := range vals {
				row[i] = str(v)
			}
			out = append(out, row)
		}
		if err := rows.Err(); err != nil {
			t.Fatalf("query %q: %v", sql, err)
		}
		return out
	}
	rows, err := db.SQL().QueryContext(ctx, sql, args...)
	if err != nil {
		t.Fatalf("query %q: %v", sql, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatalf("query %q: %v", sql, err)
	}
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatalf("query %q: %v", sql, err)
		}
		row := make([]string, len(vals))
		for i, v := range vals {
			row[i] = str(v)
		}
		out = append(out, row)
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("query %q: %v", sql, err)
	}
	return out
}

// Counts returns the number of rows of every table of db (as its Catalog
// lists them), by table name: a snapshot to compare before and after a
// command that must change nothing.
func Counts(t testing.TB, db *store.DB) map[string]int64 {
	t.Helper()
	ctx := context.Background()
	cat, err := db.Catalog(ctx)
	if err != nil {
		t.Fatalf("counts: %v", err)
	}
	out := map[string]int64{}
	for _, table := range cat.Tables {
		// table comes from the database's own catalog and is quoted.
		rows := Query(t, db, `SELECT COUNT(*) FROM "`+strings.ReplaceAll(table, `"`, `""`)+`"`)
		var n int64
		if _, err := fmt.Sscan(rows[0][0], &n); err != nil {
			t.Fatalf("count the rows of %s: %v", table, err)
		}
		out[table] = n
	}
	return out
}

// SameCounts fails t when after differs from before (two Counts snapshots),
// naming each table whose row count changed.
func SameCounts(t testing.TB, what string, before, after map[string]int64) {
	t.Helper()
	for table, n := range before {
		if after[table] != n {
			t.Errorf("%s: %s has %d rows, %d before", what, table, after[table], n)
		}
	}
	for table := range after {
		if _, ok := before[table]; !ok {
			t.Errorf("%s: table %s appeared", what, table)
		}
	}
}

// CheckIntegrity fails t unless db.CheckIntegrity finds the database
// consistent: no orphan rows over any foreign key, no partial trial, and
// for SQLite an integrity_check of "ok".
func CheckIntegrity(t testing.TB, db *store.DB) {
	t.Helper()
	in, err := db.CheckIntegrity(context.Background())
	if err != nil {
		t.Fatalf("check integrity: %v", err)
	}
	for _, p := range in.Problems() {
		t.Errorf("integrity: %s", p)
	}
}
