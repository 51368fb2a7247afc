package store_test

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/store"
	"github.com/taudb-analyze/taudb-analyze/store/storetest"
)

// privateCluster is a PostgreSQL server of the test's own, in a temporary
// folder on a free port, so that it can be stopped and started without
// touching the shared server.
type privateCluster struct {
	bin, data, sock string
	port            int
	asPostgres      bool // run the binaries as the postgres user (the test runs as root)
}

// newPrivateCluster creates and starts a private cluster, stopped when t
// ends. It skips t when PostgreSQL's server binaries are absent (or fails it
// under TAUDB_REQUIRE_PG=1), and when the test runs as root and no postgres
// user exists to run them (initdb refuses root).
func newPrivateCluster(t *testing.T) *privateCluster {
	t.Helper()
	bins, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	if len(bins) == 0 {
		if os.Getenv("TAUDB_REQUIRE_PG") == "1" {
			t.Fatal("no /usr/lib/postgresql/*/bin/initdb to start a private PostgreSQL cluster (TAUDB_REQUIRE_PG=1)")
		}
		t.Skip("no /usr/lib/postgresql/*/bin/initdb to start a private PostgreSQL cluster")
	}
	c := &privateCluster{bin: filepath.Dir(bins[len(bins)-1])}
	root, err := os.MkdirTemp("", "taudb-pg-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			t.Skip("running as root and there is no postgres user to run initdb as")
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(root, uid, gid); err != nil {
			t.Fatal(err)
		}
		c.asPostgres = true
	}
	c.data, c.sock = filepath.Join(root, "data"), root
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c.port = l.Addr().(*net.TCPAddr).Port
	l.Close()
	c.run(t, "initdb", "-D", c.data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync")
	c.start(t)
	t.Cleanup(func() { c.ctl(t, "stop", "-m", "immediate") })
	return c
}

// run runs one of the server binaries, as the postgres user when needed.
func (c *privateCluster) run(t *testing.T, name string, args ...string) {
	t.Helper()
	argv := append([]string{filepath.Join(c.bin, name)}, args...)
	if c.asPostgres {
		argv = append([]string{"runuser", "-u", "postgres", "--"}, argv...)
	}
	out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(argv, " "), err, out)
	}
}

func (c *privateCluster) ctl(t *testing.T, args ...string) {
	t.Helper()
	c.run(t, "pg_ctl", append([]string{"-D", c.data, "-w", "-t", "60"}, args...)...)
}

func (c *privateCluster) start(t *testing.T) {
	t.Helper()
	c.ctl(t, "-l", filepath.Join(c.data, "server.log"), "-o",
		fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off", c.port, c.sock), "start")
}

func (c *privateCluster) url() string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", c.port)
}

// TestPostgresServerRestart stops the server between two commands and in
// the middle of a save (an immediate shutdown, as a crash), and restarts
// it: a command while it is down fails with a message that names the
// server, a save cut by the shutdown leaves no trace, the database is
// consistent after each restart and the next command succeeds, both on a
// new connection and on the pool that lived through the restart.
func TestPostgresServerRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a PostgreSQL server")
	}
	c := newPrivateCluster(t)
	ctx := context.Background()
	db, err := store.Open(ctx, c.url())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Init(ctx); err != nil {
		t.Fatal(err)
	}
	small := genTrial(t, "small", 8, 50)
	if _, err := db.SaveTrial(ctx, small, store.SaveOptions{Name: "first"}); err != nil {
		t.Fatal(err)
	}

	// Between commands.
	c.ctl(t, "stop", "-m", "fast")
	_, err = store.Open(ctx, c.url())
	want := fmt.Sprintf("connect to postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable: ", c.port)
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("open while the server is down: %v; want it to begin %q", err, want)
	}
	if _, err := db.Trials(ctx); err == nil {
		t.Error("listing trials while the server is down succeeded")
	}
	c.start(t)
	db2, err := store.Open(ctx, c.url())
	if err != nil {
		t.Fatalf("open after the restart: %v", err)
	}
	defer db2.Close()
	if _, err := db2.SaveTrial(ctx, small, store.SaveOptions{Name: "second"}); err != nil {
		t.Fatalf("save on a new connection after the restart: %v", err)
	}
	if _, err := db.SaveTrial(ctx, small, store.SaveOptions{Name: "third"}); err != nil {
		t.Fatalf("save on the pool that lived through the restart: %v", err)
	}
	storetest.CheckIntegrity(t, db2)

	// In the middle of a save: an immediate shutdown before timer_value.
	before := counts(t, db2, 0)
	big := genTrial(t, "big", 64, 300)
	hooked := store.WithBeforeTable(ctx, func(table string) {
		if table == "timer_value" {
			c.ctl(t, "stop", "-m", "immediate")
		}
	})
	if _, err := db.SaveTrial(hooked, big, store.SaveOptions{}); err == nil {
		t.Fatal("a save cut by a server shutdown succeeded")
	} else {
		t.Logf("save cut by the shutdown: %v", err)
	}
	c.start(t)
	noTrace(t, db2, before)
	storetest.CheckIntegrity(t, db2)
	id, err := db.SaveTrial(ctx, big, store.SaveOptions{})
	if err != nil {
		t.Fatalf("save after the crash and restart: %v", err)
	}
	got, err := db2.LoadTrial(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if d := compareTrials(roundTrip(big), got); len(d) > 0 {
		t.Errorf("trial saved after the restart differs:\n  %s", strings.Join(d, "\n  "))
	}
}
