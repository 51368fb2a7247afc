package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/internal/realdata"
	"github.com/taudb-analyze/taudb-analyze/store/storetest"
)

// databases runs fn as a subtest per database system: a fresh SQLite file,
// and a fresh PostgreSQL schema (named in the URL's search_path), skipped
// or failed as storetest says when PostgreSQL is not reachable.
func databases(t *testing.T, fn func(t *testing.T, url string)) {
	t.Run("sqlite", func(t *testing.T) {
		fn(t, "sqlite:"+filepath.Join(t.TempDir(), "taudb.db"))
	})
	t.Run("postgres", func(t *testing.T) {
		schema := storetest.NewPostgresSchema(t)
		u := storetest.PostgresURL()
		sep := "?"
		if strings.Contains(u, "?") {
			sep = "&"
		}
		fn(t, u+sep+"search_path="+schema)
	})
}

// ok runs the binary and fails t unless it exits 0.
func ok(t *testing.T, env []string, args ...string) result {
	t.Helper()
	r := cli(t, env, args...)
	if r.code != 0 {
		t.Fatalf("%v: exit %d: %s", args, r.code, r.stderr)
	}
	return r
}

// fails runs the binary and fails t unless it exits with code and says
// want on stderr, with nothing on stdout.
func fails(t *testing.T, code int, want string, args ...string) {
	t.Helper()
	r := cli(t, nil, args...)
	if r.code != code || !strings.Contains(r.stderr, want) || r.stdout != "" {
		t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d and %q", args, r.code, r.stdout, r.stderr, code, want)
	}
}

func TestDBInitTwice(t *testing.T) {
	databases(t, func(t *testing.T, url string) {
		r := ok(t, nil, "--db", url, "db", "init")
		if !strings.Contains(r.stdout, "created TAUdb schema version 2") {
			t.Errorf("first init: %q", r.stdout)
		}
		r = ok(t, nil, "--db", url, "db", "init")
		if !strings.Contains(r.stdout, "found TAUdb schema version 2") {
			t.Errorf("second init: %q", r.stdout)
		}
		r = ok(t, nil, "--db", url, "--format", "json", "db", "init")
		var res struct {
			Version int
			Created bool
			Message string
		}
		if err := json.Unmarshal([]byte(r.stdout), &res); err != nil || res.Version != 2 || res.Created || res.Message != "found TAUdb schema version 2" {
			t.Errorf("json init: %+v %v\n%s", res, err, r.stdout)
		}
	})
}

func TestLoadTrialsStatsDelete(t *testing.T) {
	hatchet := realdata.Real(t, "LLNL-hatchet/tau-cpi-mpi")
	ppk := realdata.Real(t, "UO-OACISS-tau2/perfexplorer/StackedBarChart/4.ppk")
	databases(t, func(t *testing.T, url string) {
		db := []string{"--db", url}
		run := func(args ...string) result { t.Helper(); return ok(t, nil, append(db, args...)...) }

		// load prints the new id. An embedded database gets its schema on
		// first use; a PostgreSQL one needs "db init".
		if strings.HasPrefix(url, "postgres") {
			run("db", "init")
		}
		r := run("load", "-n", "cpi", "-a", "cpi-app", "-x", "scaling", hatchet)
		id, err := strconv.ParseInt(strings.TrimSpace(r.stdout), 10, 64)
		if err != nil {
			t.Fatalf("load printed %q, not an id", r.stdout)
		}
		if !strings.Contains(r.stderr, "loaded "+hatchet+" as trial "+strconv.FormatInt(id, 10)) {
			t.Errorf("load's message: %q", r.stderr)
		}
		r = run("--format", "json", "load", "-n", "ring", "-f", "ppk", ppk)
		var loadedTrials []loaded
		if err := json.Unmarshal([]byte(r.stdout), &loadedTrials); err != nil || len(loadedTrials) != 1 ||
			loadedTrials[0].Name != "ring" || loadedTrials[0].Threads != 4 || loadedTrials[0].Format != "ppk" || loadedTrials[0].ID == id {
			t.Fatalf("load --format json: %+v %v\n%s", loadedTrials, err, r.stdout)
		}
		ring := loadedTrials[0].ID

		fails(t, 1, `a trial named "cpi" exists already`, append(db, "load", "-n", "cpi", hatchet)...)
		r = run("load", "-q", "-n", "cpi", "--allow-duplicate", hatchet)
		dup := strings.TrimSpace(r.stdout)
		if r.stderr != "" {
			t.Errorf("load -q printed %q on stderr", r.stderr)
		}
		fails(t, 1, "2 trials are named \"cpi\"", append(db, "stats", "--trial", "cpi")...)

		// trials lists them, as a table and as JSON.
		r = run("trials")
		for _, want := range []string{"cpi-app", "scaling", "ring", "TAU profiles", "ppk", "TIME"} {
			if !strings.Contains(r.stdout, want) {
				t.Errorf("trials lacks %q:\n%s", want, r.stdout)
			}
		}
		r = run("--format", "json", "trials")
		var list []struct {
			ID                            int64
			Name, Application, Experiment string
			Threads                       int
			Metrics                       []string
		}
		if err := json.Unmarshal([]byte(r.stdout), &list); err != nil || len(list) != 3 || list[0].ID != id ||
			list[0].Application != "cpi-app" || list[0].Experiment != "scaling" || list[0].Threads != 4 || list[1].Name != "ring" {
			t.Errorf("trials --format json: %+v %v\n%s", list, err, r.stdout)
		}

		// stats prints the derived statistics per node.
		r = run("stats", "--trial", strconv.FormatInt(id, 10))
		for _, want := range []string{"metric TIME", "MEAN", "TOTAL", "STDDEV", "MIN", "MAX", "MEAN(all)", "STDDEV(all)",
			".TAU application => MPI_Finalize() => MPI_File_open()"} {
			if !strings.Contains(r.stdout, want) {
				t.Errorf("stats lacks %q:\n%s", want, r.stdout)
			}
		}
		// MPI_Init()'s exclusive times on the 4 ranks: mean 19618.5, total
		// 78474, min 17983, max 21441 (hatchet's profile.N.0.0 files).
		if !hasRow(r.stdout, "MPI_Init()", "4", "19618.5", "78474", "", "17983", "21441", "19618.5") {
			t.Errorf("stats row of MPI_Init():\n%s", r.stdout)
		}
		r = run("--format", "json", "stats", "--trial", "ring")
		var st struct {
			Trial  int64
			Metric string
			Nodes  []struct {
				Name    string
				Threads int
				Mean    *struct{ Exclusive, Inclusive, Calls float64 }
				Total   *struct{ Exclusive float64 }
			}
		}
		if err := json.Unmarshal([]byte(r.stdout), &st); err != nil || st.Trial != ring || st.Metric != "Time" || len(st.Nodes) != 10 {
			t.Fatalf("stats --format json: %+v %v\n%s", st, err, r.stdout)
		}
		for _, n := range st.Nodes {
			if n.Mean == nil || n.Total == nil || n.Threads < 1 || n.Threads > 4 {
				t.Errorf("stats --format json node %+v", n)
			}
		}
		r = run("--format", "csv", "stats", "--trial", "ring")
		if lines := strings.Split(strings.TrimSpace(r.stdout), "\n"); len(lines) != 1+10*7 || !strings.HasPrefix(lines[0], "callpath,node,threads,statistic,") {
			t.Errorf("stats --format csv: %d lines\n%s", len(lines), r.stdout)
		}
		fails(t, 1, `no trial has the id or name "nosuch"`, append(db, "stats", "--trial", "nosuch")...)
		fails(t, 1, `no metric "NOPE"`, append(db, "stats", "--trial", "ring", "--metric", "NOPE")...)
		fails(t, 2, "stats needs --trial", append(db, "stats")...)

		// delete removes one trial.
		r = run("delete", "--trial", dup)
		if strings.TrimSpace(r.stdout) != "deleted trial "+dup {
			t.Errorf("delete: %q", r.stdout)
		}
		fails(t, 1, `no trial has the id or name "`+dup+`"`, append(db, "delete", "--trial", dup)...)
		r = run("--format", "json", "delete", "--trial", "ring")
		var del struct{ Deleted int64 }
		if err := json.Unmarshal([]byte(r.stdout), &del); err != nil || del.Deleted != ring {
			t.Errorf("delete --format json: %+v %v\n%s", del, err, r.stdout)
		}
		r = run("--format", "json", "trials")
		if err := json.Unmarshal([]byte(r.stdout), &list); err != nil || len(list) != 1 || list[0].ID != id {
			t.Errorf("trials after the deletes: %+v %v", list, err)
		}
	})
}

// hasRow reports whether a line of a text table starts with name followed
// by the given cells ("" matches any cell).
func hasRow(out, name string, cells ...string) bool {
	for _, line := range strings.Split(out, "\n") {
		rest, ok := strings.CutPrefix(line, name+" ")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) < len(cells) {
			continue
		}
		match := true
		for i, c := range cells {
			if c != "" && f[i] != c {
				match = false
			}
		}
		if match {
			return true
		}
	}
	return false
}

// TestLoadSeveralPaths loads two trials in one command: NAME-1 and NAME-2.
func TestLoadSeveralPaths(t *testing.T) {
	a := realdata.Real(t, "UO-OACISS-tau2/perfexplorer/StackedBarChart/2.ppk")
	b := realdata.Real(t, "UO-OACISS-tau2/perfexplorer/StackedBarChart/4.ppk")
	url := "sqlite:" + filepath.Join(t.TempDir(), "t.db")
	r := ok(t, nil, "--db", url, "--format", "json", "load", "-n", "ring", a, b)
	var got []loaded
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil || len(got) != 2 || got[0].Name != "ring-1" || got[1].Name != "ring-2" ||
		got[0].Threads != 2 || got[1].Threads != 4 {
		t.Errorf("load of two paths: %+v %v\n%s", got, err, r.stdout)
	}
	// Without -n, the trials keep their readers' names.
	r = ok(t, nil, "--db", url, "--format", "json", "load", "--allow-duplicate", a)
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil || len(got) != 1 || got[0].Name != "2" {
		t.Errorf("load without -n: %+v %v", got, err)
	}
	fails(t, 2, "load needs at least one PATH", "--db", url, "load", "-n", "x")
	fails(t, 1, "/nonexistent/trial", "--db", url, "load", "-n", "x", "/nonexistent/trial")
}

// TestDefaultAndEnvironmentDatabase loads into the embedded default
// database (under XDG_DATA_HOME) and into $TAUDB_URL, with no --db.
func TestDefaultAndEnvironmentDatabase(t *testing.T) {
	path := realdata.Real(t, "UO-OACISS-tau2/perfexplorer/StackedBarChart/2.ppk")
	home := t.TempDir()
	env := []string{"XDG_DATA_HOME=" + home, "TAUDB_URL="}
	ok(t, env, "load", "-n", "ring", path)
	if _, err := os.Stat(filepath.Join(home, "taudb-analyze", "taudb.db")); err != nil {
		t.Errorf("default database: %v", err)
	}
	if r := ok(t, env, "trials"); !strings.Contains(r.stdout, "ring") {
		t.Errorf("trials of the default database: %q", r.stdout)
	}
	other := filepath.Join(t.TempDir(), "env.db")
	env = []string{"XDG_DATA_HOME=" + home, "TAUDB_URL=" + other}
	ok(t, env, "load", "-n", "env-ring", path)
	if r := ok(t, env, "trials"); !strings.Contains(r.stdout, "env-ring") || len(strings.Split(strings.TrimSpace(r.stdout), "\n")) != 2 {
		t.Errorf("trials of $TAUDB_URL: %q", r.stdout)
	}
}

// TestDatabaseFlagErrors checks the errors of choosing a database.
func TestDatabaseFlagErrors(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "perfdmf.cfg.h2")
	if err := os.WriteFile(cfg, []byte("jdbc_db_type:h2\ndb_dbname:/tmp/perfdmf\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	fails(t, 1, "H2 is a Java-only embedded database", "--config-file", cfg, "trials")
	fails(t, 2, "not both", "--config-file", cfg, "--db", "sqlite:"+filepath.Join(dir, "x.db"), "trials")
	fails(t, 1, "not a PostgreSQL URL", "--db", "nonsense", "trials")
	// A PostgreSQL database without schema is not created implicitly.
	databases(t, func(t *testing.T, url string) {
		if strings.HasPrefix(url, "sqlite:") {
			return
		}
		fails(t, 1, "db init", "--db", url, "trials")
	})
}
