package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/jackc/pgx/v5/pgxpool"
)

// ErrNoDatabase is wrapped by OpenReadOnly's error when the SQLite file it
// names does not exist: a read never creates a database.
var ErrNoDatabase = errors.New("no database file")

// OpenReadOnly opens the database named by url (see ParseURL; "" is the
// embedded default) for reading only, for the commands that change
// nothing:
//
//   - SQLite: the file must exist (else an error wrapping ErrNoDatabase; a
//     read never creates one) and is opened with SQLite's mode=ro, so that
//     nothing, not even the journal mode, is written to it. A database in
//     WAL mode whose folder the user cannot write (no -shm file can be
//     made) is opened immutable instead: SQLite then reads the file as it
//     is, without locks, which is right for a file nobody can write.
//   - PostgreSQL: every transaction of the session is READ ONLY
//     (default_transaction_read_only), so the server refuses any write.
//
// The schema is not checked (see CheckSchema).
func OpenReadOnly(ctx context.Context, url string) (*DB, error) {
	if strings.TrimSpace(url) == "" {
		p, err := DefaultPath(nil)
		if err != nil {
			return nil, fmt.Errorf("open the default database: %w", err)
		}
		url = "sqlite:" + p
	}
	d, target, err := ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("open: %w", err)
	}
	if d == Postgres {
		cfg, err := pgxpool.ParseConfig(target)
		if err != nil {
			return nil, newRedactedError("open "+Redact(target), err, append(passwordsIn(target), target)...)
		}
		cfg.ConnConfig.RuntimeParams["default_transaction_read_only"] = "on"
		db, err := openPostgres(ctx, cfg, Redact(target), append(passwordsIn(target), target)...)
		if err != nil {
			return nil, err
		}
		db.readOnly = true
		return db, nil
	}
	return openSQLiteReadOnly(ctx, target)
}

// openSQLiteReadOnly opens the existing SQLite file at path read-only (see
// OpenReadOnly).
func openSQLiteReadOnly(ctx context.Context, path string) (*DB, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("open sqlite:%s: %w", path, err)
	}
	fi, err := os.Stat(abs)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, fmt.Errorf("open sqlite:%s: %w: nothing is stored there yet (a read never creates a database; \"taudb-analyze load\" or \"db init\" does)", abs, ErrNoDatabase)
	case err != nil:
		return nil, fmt.Errorf("open sqlite:%s: %w", abs, err)
	case !fi.Mode().IsRegular():
		return nil, fmt.Errorf("open sqlite:%s: not a regular file", abs)
	}
	db, err := openSQLiteMode(ctx, abs, "mode=ro")
	if err != nil && strings.Contains(err.Error(), "readonly") {
		// SQLITE_READONLY_DIRECTORY and kin: a WAL database whose -shm
		// cannot be created.
		db, err = openSQLiteMode(ctx, abs, "immutable=1")
	}
	if err != nil && isSQLiteIOError(err) {
		// A full disk: the -shm index cannot be extended. In exclusive
		// locking mode, set before the first access, SQLite keeps it in
		// memory (see openSQLiteExclusive); one connection holds the lock.
		busy, berr := SQLiteBusyTimeout()
		if berr != nil {
			return nil, berr
		}
		db, err = openSQLiteExclusive(ctx, &DB{dialect: SQLite, display: "sqlite:" + abs, path: abs, busyTimeout: busy})
		if err == nil {
			db.readOnly = true
		}
	}
	if err != nil {
		return nil, fmt.Errorf("open sqlite:%s read-only: %w", abs, err)
	}
	return db, nil
}

// openSQLiteMode opens abs with the URI parameter mode (mode=ro or
// immutable=1), the busy timeout and foreign keys of OpenSQLite, and no
// pragma that writes, and reads its catalog once to check it.
func openSQLiteMode(ctx context.Context, abs, mode string) (*DB, error) {
	segs := strings.Split(filepath.ToSlash(abs), "/")
	for i, s := range segs {
		segs[i] = escapeURIPathSegment(s)
	}
	busy, err := SQLiteBusyTimeout()
	if err != nil {
		return nil, err
	}
	dsn := "file:" + strings.Join(segs, "/") + "?" + mode +
		fmt.Sprintf("&_pragma=busy_timeout(%d)&_pragma=foreign_keys(1)&_pragma=query_only(1)", busy.Milliseconds())
	sqlDB, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	db := &DB{dialect: SQLite, sqlDB: sqlDB, display: "sqlite:" + abs, path: abs, readOnly: true, busyTimeout: busy}
	if err := db.checkSQLite(ctx); err != nil {
		sqlDB.Close()
		return nil, err
	}
	return db, nil
}

// ReadOnly reports whether db was opened by OpenReadOnly.
func (db *DB) ReadOnly() bool { return db.readOnly }
