package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	_ "modernc.org/sqlite" // registers the "sqlite" database/sql driver
)

// EnvURL is the environment variable that names the database when no --db
// flag is given.
const EnvURL = "TAUDB_URL"

// EnvSQLiteBusyTimeout is the environment variable that sets how long an
// SQLite statement waits for the write lock that another connection or
// process holds before it gives up with ErrBusy: a Go duration ("90s",
// "10m") or a number of seconds. Unset, it is DefaultSQLiteBusyTimeout.
const EnvSQLiteBusyTimeout = "TAUDB_SQLITE_BUSY_TIMEOUT"

// DefaultSQLiteBusyTimeout is the SQLite busy timeout when
// EnvSQLiteBusyTimeout is unset: ten minutes, longer than a large load
// takes, so that concurrent writers of one file queue instead of failing.
const DefaultSQLiteBusyTimeout = 10 * time.Minute

// maxSQLiteBusyTimeout is the largest busy timeout SQLite takes (its
// argument is an int of milliseconds), rounded down to a whole day.
const maxSQLiteBusyTimeout = 24 * time.Hour

// SQLiteBusyTimeout returns the SQLite busy timeout that EnvSQLiteBusyTimeout
// sets (see there), or an error naming the variable when its value is not a
// duration between 0 and 24 h.
func SQLiteBusyTimeout() (time.Duration, error) {
	s := strings.TrimSpace(os.Getenv(EnvSQLiteBusyTimeout))
	if s == "" {
		return DefaultSQLiteBusyTimeout, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		secs, err2 := strconv.ParseFloat(s, 64)
		if err2 != nil || math.IsNaN(secs) || math.IsInf(secs, 0) || math.Abs(secs) > maxSQLiteBusyTimeout.Seconds()+1 {
			return 0, fmt.Errorf("%s=%q: not a duration (\"90s\", \"10m\") nor a number of seconds", EnvSQLiteBusyTimeout, s)
		}
		d = time.Duration(secs * float64(time.Second))
	}
	if d < 0 || d > maxSQLiteBusyTimeout {
		return 0, fmt.Errorf("%s=%q: the busy timeout must be between 0 and %v", EnvSQLiteBusyTimeout, s, maxSQLiteBusyTimeout)
	}
	return d, nil
}

// sqliteCacheKiB is the page cache of each SQLite connection, in KiB (64
// MiB; SQLite's default is 2 MiB). Loading a trial looks timer_value rows up
// by timer_call_data through an index; with the default cache most of those
// lookups read a page from the file again, which makes a load of a trial of
// 256 threads × 500 nodes about three times slower. The memory is taken only
// as pages are read. Connections also keep temporary files (the statement
// journal of each multi-row INSERT of a save) in memory (temp_store=MEMORY),
// which makes saving a trial about a third faster.
const sqliteCacheKiB = 65536

// ResolveURL returns the URL of the database to use, by the precedence of the
// command line contract: the --db flag (flagDB) if given, else the TAUDB_URL
// environment variable, else the embedded default database
// "sqlite:"+DefaultPath(env). env looks environment variables up (os.Getenv
// when nil).
func ResolveURL(flagDB string, env func(string) string) (string, error) {
	if env == nil {
		env = os.Getenv
	}
	if s := strings.TrimSpace(flagDB); s != "" {
		return s, nil
	}
	if s := strings.TrimSpace(env(EnvURL)); s != "" {
		return s, nil
	}
	p, err := DefaultPath(env)
	if err != nil {
		return "", err
	}
	return "sqlite:" + p, nil
}

// DefaultPath returns the documented location of the embedded default
// database: $XDG_DATA_HOME/taudb-analyze/taudb.db, or
// ~/.local/share/taudb-analyze/taudb.db when XDG_DATA_HOME is unset or not an
// absolute path (as the XDG Base Directory specification says). env looks
// environment variables up (os.Getenv when nil).
func DefaultPath(env func(string) string) (string, error) {
	if env == nil {
		env = os.Getenv
	}
	if x := env("XDG_DATA_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "taudb-analyze", "taudb.db"), nil
	}
	home := env("HOME")
	if home == "" {
		return "", errors.New("locate the default database: neither XDG_DATA_HOME nor HOME is set; give --db URL or set " + EnvURL)
	}
	return filepath.Join(home, ".local", "share", "taudb-analyze", "taudb.db"), nil
}

// libpqKeywords are the connection parameter names of libpq; a string whose
// first word is "KEYWORD=" with one of them is a keyword/value connection
// string.
var libpqKeywords = map[string]bool{
	"host": true, "hostaddr": true, "port": true, "dbname": true, "user": true,
	"password": true, "passfile": true, "require_auth": true, "channel_binding": true,
	"connect_timeout": true, "client_encoding": true, "options": true,
	"application_name": true, "fallback_application_name": true, "keepalives": true,
	"keepalives_idle": true, "keepalives_interval": true, "keepalives_count": true,
	"tcp_user_timeout": true, "replication": true, "gssencmode": true, "sslmode": true,
	"sslnegotiation": true, "sslcompression": true, "sslcert": true, "sslkey": true,
	"sslkeylogfile": true, "sslpassword": true, "sslcertmode": true, "sslrootcert": true,
	"sslcrl": true, "sslcrldir": true, "sslsni": true, "requirepeer": true,
	"ssl_min_protocol_version": true, "ssl_max_protocol_version": true,
	"min_protocol_version": true, "max_protocol_version": true, "krbsrvname": true,
	"gsslib": true, "gssdelegation": true, "service": true, "target_session_attrs": true,
	"load_balance_hosts": true,
}

// ParseURL tells which database a URL names, by the rules of the command
// line contract, and returns what to open: for PostgreSQL the connection
// string itself, for SQLite the file path.
//
//   - postgres://... or postgresql://... (any libpq URL) is PostgreSQL;
//   - a libpq keyword/value string (host=... dbname=...) is PostgreSQL;
//   - sqlite:PATH (or sqlite://PATH, so sqlite:///abs/path works) is SQLite;
//   - a path ending in .db, .sqlite or .sqlite3 is SQLite.
//
// A leading "~/" in an SQLite path stands for the home directory.
func ParseURL(u string) (Dialect, string, error) {
	s := strings.TrimSpace(u)
	switch {
	case s == "":
		return "", "", errors.New("empty database URL")
	case hasPrefixFold(s, "postgres://") || hasPrefixFold(s, "postgresql://"):
		return Postgres, s, nil
	case hasPrefixFold(s, "sqlite:"):
		p := strings.TrimPrefix(s[len("sqlite:"):], "//")
		if p == "" {
			return "", "", fmt.Errorf("database URL %q: no path after \"sqlite:\"", s)
		}
		p, err := expandHome(p)
		if err != nil {
			return "", "", fmt.Errorf("database URL %q: %w", s, err)
		}
		return SQLite, p, nil
	case isKeywordString(s):
		return Postgres, s, nil
	case hasSQLiteExt(s):
		p, err := expandHome(s)
		if err != nil {
			return "", "", fmt.Errorf("database URL %q: %w", s, err)
		}
		return SQLite, p, nil
	}
	return "", "", fmt.Errorf("database URL %q: not a PostgreSQL URL (postgres://...), a libpq keyword string (host=... dbname=...), sqlite:PATH, nor a path ending in .db or .sqlite", Redact(s))
}

// isKeywordString reports whether s looks like a libpq keyword/value
// connection string: its first word is KEYWORD=... with a libpq keyword.
func isKeywordString(s string) bool {
	k, _, ok := strings.Cut(s, "=")
	if !ok {
		return false
	}
	return libpqKeywords[strings.ToLower(strings.TrimSpace(k))]
}

// hasSQLiteExt reports whether path ends in an SQLite file extension.
func hasSQLiteExt(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".db", ".sqlite", ".sqlite3":
		return true
	}
	return false
}

// expandHome replaces a leading "~/" with the home directory.
func expandHome(p string) (string, error) {
	if p != "~" && !strings.HasPrefix(p, "~/") {
		return p, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("expand %s: %w", p, err)
	}
	return filepath.Join(home, strings.TrimPrefix(p, "~")), nil
}

// Open opens the database named by url (see ParseURL for the forms it
// takes). An empty url opens the embedded default database at DefaultPath,
// creating its folder if needed. The database is connected to, so that a
// wrong host, port, password or path is reported here; the schema is not
// checked (see Init). Error messages never show a password.
func Open(ctx context.Context, url string) (*DB, error) {
	if strings.TrimSpace(url) == "" {
		p, err := DefaultPath(nil)
		if err != nil {
			return nil, fmt.Errorf("open the default database: %w", err)
		}
		return openDefaultSQLite(ctx, p)
	}
	d, target, err := ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("open: %w", err)
	}
	if d == Postgres {
		return OpenPostgres(ctx, target)
	}
	if def, err := DefaultPath(nil); err == nil {
		if abs, err := filepath.Abs(target); err == nil && abs == def {
			return openDefaultSQLite(ctx, def)
		}
	}
	return OpenSQLite(ctx, target)
}

// openDefaultSQLite opens the default database at path, creating its folder
// (readable by its owner only, as the XDG specification asks).
func openDefaultSQLite(ctx context.Context, path string) (*DB, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("open the default database sqlite:%s: %w", path, err)
	}
	return OpenSQLite(ctx, path)
}

// OpenPostgres opens a PostgreSQL database from a libpq URL or keyword/value
// connection string (pgx's syntax, which also reads the PG* environment
// variables and ~/.pgpass) and checks that it can connect.
func OpenPostgres(ctx context.Context, connString string) (*DB, error) {
	cfg, err := pgxpool.ParseConfig(connString)
	if err != nil {
		return nil, newRedactedError("open "+Redact(connString), err, append(passwordsIn(connString), connString)...)
	}
	return openPostgres(ctx, cfg, Redact(connString), append(passwordsIn(connString), connString)...)
}

// OpenPostgresConfig opens a PostgreSQL database from a pgx pool
// configuration, for callers that need to set what a URL cannot say (tests
// set the search_path through cfg.ConnConfig.RuntimeParams, for instance),
// and checks that it can connect.
func OpenPostgresConfig(ctx context.Context, cfg *pgxpool.Config) (*DB, error) {
	if cfg == nil {
		return nil, errors.New("open PostgreSQL: nil configuration")
	}
	c := cfg.ConnConfig
	display := "postgres://" + c.User + "@" + net.JoinHostPort(c.Host, fmt.Sprint(c.Port)) + "/" + c.Database
	if sp := c.RuntimeParams["search_path"]; sp != "" {
		display += "?search_path=" + url.QueryEscape(sp)
	}
	return openPostgres(ctx, cfg, display)
}

// openPostgres creates the pool and pings the server. secrets are strings
// that must not appear in an error (the connection string, its passwords).
func openPostgres(ctx context.Context, cfg *pgxpool.Config, display string, secrets ...string) (*DB, error) {
	secrets = append(secrets, cfg.ConnConfig.Password)
	if cfg.ShouldPing == nil {
		// Check every connection taken from the pool, not only those idle
		// for a second (pgx's default): a connection that the server
		// dropped (restart, pg_terminate_backend, an idle timeout) is then
		// replaced instead of failing the next statement. A ping is one
		// round trip per acquisition, small next to any statement here.
		cfg.ShouldPing = func(context.Context, pgxpool.ShouldPingParams) bool { return true }
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, newRedactedError("open "+display, err, secrets...)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, newRedactedError("connect to "+display, err, secrets...)
	}
	return &DB{dialect: Postgres, pool: pool, display: display}, nil
}

// OpenSQLite opens (creating it if absent) the SQLite database file at path,
// whose folder must exist; ":memory:" opens a private in-memory database.
// Every connection runs with foreign keys enforced, the WAL journal (readers
// do not block the writer), a busy timeout (SQLiteBusyTimeout: ten minutes
// unless TAUDB_SQLITE_BUSY_TIMEOUT says otherwise), a page cache of up to
// 64 MiB and temporary files in memory; write transactions
// take the write lock when they begin (BEGIN IMMEDIATE), read-only ones do
// not.
func OpenSQLite(ctx context.Context, path string) (*DB, error) {
	if path == "" {
		return nil, errors.New("open SQLite: empty path")
	}
	memory := path == ":memory:"
	if !memory {
		abs, err := filepath.Abs(path)
		if err != nil {
			return nil, fmt.Errorf("open sqlite:%s: %w", path, err)
		}
		path = abs
		dir := filepath.Dir(path)
		if fi, err := os.Stat(dir); err != nil {
			return nil, fmt.Errorf("open sqlite:%s: folder %s: %w", path, dir, err)
		} else if !fi.IsDir() {
			return nil, fmt.Errorf("open sqlite:%s: %s is not a folder", path, dir)
		}
	}
	busy, err := SQLiteBusyTimeout()
	if err != nil {
		return nil, fmt.Errorf("open sqlite:%s: %w", path, err)
	}
	sqlDB, err := sql.Open("sqlite", sqliteDSN(path, busy))
	if err != nil {
		return nil, fmt.Errorf("open sqlite:%s: %w", path, err)
	}
	if memory {
		// Each connection to ":memory:" is a database of its own: keep one.
		sqlDB.SetMaxOpenConns(1)
	}
	db := &DB{dialect: SQLite, sqlDB: sqlDB, display: "sqlite:" + path, path: path, busyTimeout: busy}
	err = db.checkSQLiteRetrying(ctx)
	if err != nil && !memory && isSQLiteIOError(err) {
		sqlDB.Close()
		db, err = openSQLiteExclusive(ctx, db)
	}
	if err != nil {
		if db.sqlDB != nil {
			db.sqlDB.Close()
		}
		return nil, fmt.Errorf("open sqlite:%s: %w", path, db.busy(err))
	}
	return db, nil
}

// isSQLiteIOError reports whether err is SQLite's SQLITE_IOERR or
// SQLITE_FULL: what opening a WAL database gives on a full disk, where the
// shared-memory index (the -shm file) cannot be extended.
func isSQLiteIOError(err error) bool {
	var coded interface{ Code() int }
	if !errors.As(err, &coded) {
		return false
	}
	c := coded.Code() & 0xff
	return c == sqliteIOErrCode || c == sqliteFullCode
}

// SQLite's primary result codes of an I/O error and of a full disk.
const (
	sqliteIOErrCode = 10
	sqliteFullCode  = 13
)

// openSQLiteExclusive opens db's file again in SQLite's exclusive locking
// mode, after a normal open failed with an I/O error. A WAL database needs
// its shared-memory index, the -shm file, which every reader creates or
// extends when it is absent or short; on a full disk that write fails and
// nothing can be read, not even the list of trials. In exclusive locking
// mode, set before the first access, SQLite keeps the index in the
// process's memory instead. The price: this process holds the file's lock
// until it closes the database (others wait their busy timeout), so db
// keeps a single connection. Reads work; writes fail as the disk is full.
func openSQLiteExclusive(ctx context.Context, db *DB) (*DB, error) {
	// The file name as sqliteDSN escapes it, with other settings: no
	// journal_mode (the file is in WAL mode already; setting it reads the
	// file) and no cache_size (setting it reads the schema), as any read
	// before locking_mode makes SQLite map the -shm file.
	name, _, _ := strings.Cut(sqliteDSN(db.path, db.busyTimeout), "?")
	dsn := name + fmt.Sprintf("?_pragma=locking_mode(EXCLUSIVE)&_pragma=busy_timeout(%d)&_pragma=temp_store(2)&_pragma=foreign_keys(1)&_txlock=immediate", db.busyTimeout.Milliseconds())
	sqlDB, err := sql.Open("sqlite", dsn)
	if err != nil {
		return db, err
	}
	sqlDB.SetMaxOpenConns(1)
	out := *db
	out.sqlDB, out.exclusive = sqlDB, true
	return &out, out.checkSQLiteRetrying(ctx)
}

// sqliteDSN builds the modernc.org/sqlite data source name for path: an
// SQLite file: URI (so that a path may hold '?', '#' or '%'), with the
// connection settings as query parameters that the driver applies to every
// new connection.
func sqliteDSN(path string, busy time.Duration) string {
	name := "file::memory:"
	if path != ":memory:" {
		segs := strings.Split(filepath.ToSlash(path), "/")
		for i, s := range segs {
			segs[i] = escapeURIPathSegment(s)
		}
		name = "file:" + strings.Join(segs, "/")
	}
	return name + fmt.Sprintf("?_pragma=busy_timeout(%d)&_pragma=cache_size(-%d)&_pragma=temp_store(2)&_pragma=foreign_keys(1)&_pragma=journal_mode(WAL)&_txlock=immediate", busy.Milliseconds(), sqliteCacheKiB)
}

// escapeURIPathSegment percent-encodes the bytes of a path segment that an
// SQLite URI (RFC 3986) does not allow there as they are.
func escapeURIPathSegment(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9',
			strings.IndexByte("-._~!$&'()*+,;=:@", c) >= 0:
			b.WriteByte(c)
		default:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	return b.String()
}

// checkSQLiteRetrying runs checkSQLite until it succeeds, fails otherwise
// than with SQLITE_BUSY, or the busy timeout has passed. A new connection
// sets the journal mode to WAL, which takes the file's exclusive lock on a
// file not yet in WAL mode; two connections doing so at once can each hold
// the shared lock the other must wait for, and SQLite then fails one of them
// at once with SQLITE_BUSY instead of calling the busy handler (it would
// wait forever). Trying again after a short pause, when the other has
// finished the switch, succeeds.
func (db *DB) checkSQLiteRetrying(ctx context.Context) error {
	deadline := time.Now().Add(db.busyTimeout)
	pause := time.Millisecond
	for {
		err := db.checkSQLite(ctx)
		if err == nil || !errors.Is(db.busy(err), ErrBusy) || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(pause + time.Duration(rand.Int64N(int64(pause)))):
		}
		pause = min(2*pause, 100*time.Millisecond)
	}
}

// checkSQLite connects and verifies that the file is an SQLite database and
// that foreign keys are on.
func (db *DB) checkSQLite(ctx context.Context) error {
	var fk int
	if err := db.sqlDB.QueryRowContext(ctx, "PRAGMA foreign_keys").Scan(&fk); err != nil {
		return err
	}
	if fk != 1 {
		return errors.New("foreign keys could not be turned on")
	}
	// Reading the schema fails on a file that is not an SQLite database.
	var n int
	if err := db.sqlDB.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master").Scan(&n); err != nil {
		return err
	}
	return nil
}
