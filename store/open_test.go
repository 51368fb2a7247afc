package store_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/store"
	"github.com/taudb-analyze/taudb-analyze/store/storetest"
)

func TestParseURL(t *testing.T) {
	home, err := os.UserHomeDir()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		url     string
		dialect store.Dialect
		target  string
	}{
		{"postgres://u:p@h:5432/db?sslmode=disable", store.Postgres, "postgres://u:p@h:5432/db?sslmode=disable"},
		{"postgresql://h/db", store.Postgres, "postgresql://h/db"},
		{"POSTGRES://h/db", store.Postgres, "POSTGRES://h/db"},
		{"  postgres://h/db  ", store.Postgres, "postgres://h/db"},
		{"host=h dbname=taudb", store.Postgres, "host=h dbname=taudb"},
		{"dbname=perf.db user=me", store.Postgres, "dbname=perf.db user=me"},
		{"service=taudb", store.Postgres, "service=taudb"},
		{"sqlite:trials.db", store.SQLite, "trials.db"},
		{"sqlite:/var/lib/x", store.SQLite, "/var/lib/x"},
		{"sqlite:///var/lib/x.db", store.SQLite, "/var/lib/x.db"},
		{"sqlite://rel/x.db", store.SQLite, "rel/x.db"},
		{"SQLite:x", store.SQLite, "x"},
		{"sqlite:~/x.db", store.SQLite, filepath.Join(home, "x.db")},
		{"/tmp/a/taudb.db", store.SQLite, "/tmp/a/taudb.db"},
		{"rel.sqlite", store.SQLite, "rel.sqlite"},
		{"x.SQLITE3", store.SQLite, "x.SQLITE3"},
		{"/data/k=v/taudb.db", store.SQLite, "/data/k=v/taudb.db"},
	} {
		d, target, err := store.ParseURL(c.url)
		if err != nil || d != c.dialect || target != c.target {
			t.Errorf("ParseURL(%q) = %v, %q, %v; want %v, %q", c.url, d, target, err, c.dialect, c.target)
		}
	}
	for _, bad := range []string{"", "   ", "sqlite:", "mysql://u:hunter2@h/db", "/tmp/taudb", "trials.txt", "h2:~/perfdmf"} {
		_, _, err := store.ParseURL(bad)
		if err == nil {
			t.Errorf("ParseURL(%q) did not fail", bad)
			continue
		}
		if strings.Contains(err.Error(), "hunter2") {
			t.Errorf("ParseURL(%q) error leaks the password: %v", bad, err)
		}
	}
	_, _, err = store.ParseURL("mysql://u:hunter2@h/db")
	for _, want := range []string{"postgres://", "sqlite:PATH", ".db"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("ParseURL error %q does not say %q", err, want)
		}
	}
}

func TestResolveURL(t *testing.T) {
	envOf := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	full := envOf(map[string]string{"TAUDB_URL": "postgres://env/db", "XDG_DATA_HOME": "/xdg", "HOME": "/home/u"})
	for _, c := range []struct {
		flag string
		env  func(string) string
		want string
	}{
		{"sqlite:flag.db", full, "sqlite:flag.db"},
		{"", full, "postgres://env/db"},
		{"  ", full, "postgres://env/db"},
		{"", envOf(map[string]string{"XDG_DATA_HOME": "/xdg", "HOME": "/home/u"}), "sqlite:/xdg/taudb-analyze/taudb.db"},
		{"", envOf(map[string]string{"HOME": "/home/u"}), "sqlite:/home/u/.local/share/taudb-analyze/taudb.db"},
		// A relative XDG_DATA_HOME is invalid and ignored (XDG Base Directory specification).
		{"", envOf(map[string]string{"XDG_DATA_HOME": "rel", "HOME": "/home/u"}), "sqlite:/home/u/.local/share/taudb-analyze/taudb.db"},
	} {
		got, err := store.ResolveURL(c.flag, c.env)
		if err != nil || got != c.want {
			t.Errorf("ResolveURL(%q) = %q, %v; want %q", c.flag, got, err, c.want)
		}
	}
	if _, err := store.ResolveURL("", envOf(nil)); err == nil || !strings.Contains(err.Error(), "TAUDB_URL") {
		t.Errorf("ResolveURL with no flag, no TAUDB_URL and no HOME: %v, want an error naming TAUDB_URL", err)
	}
}

// TestOpenDefault opens the default database with an empty URL, then with
// the URL that ResolveURL gives, and checks that its folder is created.
func TestOpenDefault(t *testing.T) {
	xdg := filepath.Join(t.TempDir(), "xdg")
	t.Setenv("XDG_DATA_HOME", xdg)
	t.Setenv("TAUDB_URL", "")
	want := filepath.Join(xdg, "taudb-analyze", "taudb.db")
	if p, err := store.DefaultPath(nil); err != nil || p != want {
		t.Fatalf("DefaultPath = %q, %v; want %q", p, err, want)
	}
	ctx := context.Background()
	db, err := store.Open(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if db.Dialect() != store.SQLite || db.Path() != want || db.URL() != "sqlite:"+want {
		t.Errorf("Open(\"\") = %v %q %q, want the SQLite database %q", db.Dialect(), db.Path(), db.URL(), want)
	}
	if res, err := db.Init(ctx); err != nil || !res.Created {
		t.Errorf("Init = %v, %v", res, err)
	}
	db.Close()
	if fi, err := os.Stat(filepath.Dir(want)); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("default folder: %v, %v; want a folder with mode 0700", fi, err)
	}

	// Through ResolveURL, as the CLI does: the folder is created too.
	if err := os.RemoveAll(xdg); err != nil {
		t.Fatal(err)
	}
	u, err := store.ResolveURL("", nil)
	if err != nil {
		t.Fatal(err)
	}
	db, err = store.Open(ctx, u)
	if err != nil {
		t.Fatalf("Open(%q): %v", u, err)
	}
	defer db.Close()
	if db.Path() != want {
		t.Errorf("Open(%q).Path() = %q, want %q", u, db.Path(), want)
	}
}

func TestOpenSQLiteSettings(t *testing.T) {
	t.Setenv(store.EnvSQLiteBusyTimeout, "")
	busy := "600000" // ten minutes, in milliseconds
	db := storetest.Open(t, store.SQLite)
	ctx := context.Background()
	// Several connections, each with the settings.
	conns := make([]interface{ Close() error }, 0, 3)
	for i := 0; i < 3; i++ {
		c, err := db.SQL().Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		for pragma, want := range map[string]string{"foreign_keys": "1", "journal_mode": "wal", "busy_timeout": busy, "cache_size": "-65536", "temp_store": "2"} {
			var got string
			if err := c.QueryRowContext(ctx, "PRAGMA "+pragma).Scan(&got); err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("connection %d: PRAGMA %s = %s, want %s", i, pragma, got, want)
			}
		}
	}
	for _, c := range conns {
		c.Close()
	}
}

func TestOpenSQLiteAwkwardPath(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a dir?with#odd%chars&x=1 é")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "my trials?.db")
	ctx := context.Background()
	db, err := store.Open(ctx, "sqlite:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Init(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Errorf("the database is not at %q: %v", path, err)
	}
	if db.Path() != path {
		t.Errorf("Path() = %q, want %q", db.Path(), path)
	}
}

func TestOpenSQLiteErrors(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	missing := filepath.Join(dir, "no", "such", "folder", "x.db")
	if _, err := store.Open(ctx, missing); err == nil || !strings.Contains(err.Error(), filepath.Dir(missing)) {
		t.Errorf("Open in a missing folder: %v, want an error naming the folder", err)
	}
	notDB := filepath.Join(dir, "notes.db")
	if err := os.WriteFile(notDB, []byte(strings.Repeat("this is not an SQLite database\n", 200)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Open(ctx, notDB); err == nil || !strings.Contains(err.Error(), notDB) {
		t.Errorf("Open of a text file: %v, want an error naming it", err)
	}
	if _, err := store.OpenSQLite(ctx, ""); err == nil {
		t.Error("OpenSQLite(\"\") did not fail")
	}
}

func TestOpenSQLiteInMemory(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, "sqlite::memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Init(ctx); err != nil {
		t.Fatal(err)
	}
	if v, err := db.CheckSchema(ctx); err != nil || v != 2 {
		t.Errorf("CheckSchema = %d, %v", v, err)
	}
}

func TestOpenPostgres(t *testing.T) {
	u := storetest.RequirePostgres(t)
	ctx := context.Background()
	for _, conn := range []string{
		u,
		"host=127.0.0.1 port=5432 dbname=test user=postgres sslmode=disable",
	} {
		if conn != u && u != storetest.DefaultPostgresURL {
			continue // the keyword string spells the default server out
		}
		db, err := store.Open(ctx, conn)
		if err != nil {
			t.Errorf("Open(%q): %v", store.Redact(conn), err)
			continue
		}
		if db.Dialect() != store.Postgres || db.Pool() == nil || db.SQL() != nil || db.Path() != "" {
			t.Errorf("Open(%q) = %v, want a PostgreSQL pool", store.Redact(conn), db.Dialect())
		}
		if err := db.Pool().Ping(ctx); err != nil {
			t.Error(err)
		}
		db.Close()
	}
}
