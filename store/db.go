package store

import (
	"database/sql"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// Dialect names the database system behind a DB.
type Dialect string

const (
	// Postgres is PostgreSQL, reached through pgx.
	Postgres Dialect = "postgres"
	// SQLite is the embedded SQLite database, reached through modernc.org/sqlite.
	SQLite Dialect = "sqlite"
)

// String returns the dialect's name: "postgres" or "sqlite".
func (d Dialect) String() string { return string(d) }

// DB is an open TAUdb database: either a PostgreSQL connection pool or an
// embedded SQLite database. It is safe for concurrent use.
type DB struct {
	dialect Dialect
	pool    *pgxpool.Pool // PostgreSQL only
	sqlDB   *sql.DB       // SQLite only
	display string        // the URL with any password masked
	path    string        // the SQLite file, or ":memory:"
	// readOnly is set by OpenReadOnly.
	readOnly bool
	// busyTimeout is how long an SQLite statement waits for a lock.
	busyTimeout time.Duration
	// exclusive is true when the SQLite file was opened in exclusive
	// locking mode because the disk is full (see openSQLiteExclusive).
	exclusive bool
	// plainInit makes Init create the plain layout on PostgreSQL instead
	// of the partitioned one (tests of databases made before it).
	plainInit bool
}

// Dialect reports which database system db talks to.
func (db *DB) Dialect() Dialect { return db.dialect }

// URL returns the database's location for display: the connection URL with
// any password masked (see Redact) for PostgreSQL, "sqlite:PATH" for SQLite.
func (db *DB) URL() string { return db.display }

// Path returns the SQLite database file ("" for PostgreSQL).
func (db *DB) Path() string { return db.path }

// Pool returns the PostgreSQL connection pool, or nil for SQLite.
func (db *DB) Pool() *pgxpool.Pool { return db.pool }

// SQL returns the SQLite database handle, or nil for PostgreSQL.
func (db *DB) SQL() *sql.DB { return db.sqlDB }

// Close releases the database's connections. Closing a nil or already closed
// DB does nothing.
func (db *DB) Close() error {
	if db == nil {
		return nil
	}
	if db.pool != nil {
		db.pool.Close()
		db.pool = nil
	}
	if db.sqlDB != nil {
		err := db.sqlDB.Close()
		db.sqlDB = nil
		if err != nil {
			return fmt.Errorf("close %s: %w", db.display, err)
		}
	}
	return nil
}
