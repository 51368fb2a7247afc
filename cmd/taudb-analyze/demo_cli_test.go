package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/internal/realdata"
	"github.com/taudb-analyze/taudb-analyze/store"
)

// TestDemo runs `demo` as a newcomer would, from the project folder with no
// database configured and no PostgreSQL reachable: the report's index and
// pages exist and the embedded database holds the trials and the results.
// A second run reuses the loaded trials.
func TestDemo(t *testing.T) {
	if _, ok := realdata.Find("ParaToolsInc-taucmdr/jupyter/east02-mm-profile/0"); !ok {
		t.Skip("no sample trials")
	}
	out := t.TempDir()
	run := func() string {
		cmd := exec.Command(binary, "demo", "--out", out)
		cmd.Dir = realdata.Root()
		cmd.Env = append(os.Environ(), "TAUDB_URL=", "PGHOST=127.0.0.1", "PGPORT=1", "HOME="+t.TempDir())
		var o, e bytes.Buffer
		cmd.Stdout, cmd.Stderr = &o, &e
		if err := cmd.Run(); err != nil {
			t.Fatalf("demo: %v\n%s", err, e.String())
		}
		return o.String() + e.String()
	}
	first := run()
	index := filepath.Join(out, "report", "index.html")
	if !strings.Contains(first, index) {
		t.Errorf("the demo does not say where the report is:\n%s", first)
	}
	pages, _ := filepath.Glob(filepath.Join(out, "report", "*.html"))
	if len(pages) != 7 { // the index and six pages
		t.Errorf("report pages %v", pages)
	}
	db, err := store.Open(context.Background(), "sqlite:"+filepath.Join(out, "taudb.db"))
	if err != nil {
		t.Fatal(err)
	}
	trials, err := db.Trials(context.Background())
	if err != nil || len(trials) != 10 {
		t.Errorf("trials %d %v", len(trials), err)
	}
	results, err := db.Results(context.Background())
	if err != nil || len(results) != 6 {
		t.Errorf("results %d %v", len(results), err)
	}
	db.Close()
	second := run()
	if !strings.Contains(second, "already loaded") || strings.Count(second, "reused") != 6 {
		t.Errorf("second run did not reuse the trials and the six results:\n%s", second)
	}
	db, err = store.Open(context.Background(), "sqlite:"+filepath.Join(out, "taudb.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if results, err := db.Results(context.Background()); err != nil || len(results) != 6 {
		t.Errorf("after the second run: %d results %v", len(results), err)
	}
}
