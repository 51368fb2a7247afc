package main

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
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
// A second run reuses the loaded trials. The demo's trials are generated,
// so it needs no third-party data.
func TestDemo(t *testing.T) {
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
	if err != nil || len(trials) != 6 { // mpi-np1..np16 and omp-24
		t.Errorf("trials %d %v", len(trials), err)
	}
	results, err := db.Results(context.Background())
	if err != nil || len(results) != 6 {
		t.Errorf("results %d %v", len(results), err)
	}
	db.Close()
	second := run()
	// Each study names its trials: 5 + 5 + 3 reuses, no new load.
	if strings.Count(second, "already loaded") != 13 || strings.Contains(second, ": loaded ") || strings.Count(second, "already stored as result") != 6 {
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

// TestSynthSeriesScalability generates a series with synth and checks that
// scalability recovers the model T(p) = 100 + 900/p + 5*log2(p) (in ms)
// from the generated folders loaded like real ones.
func TestSynthSeriesScalability(t *testing.T) {
	dir := t.TempDir()
	r := cli(t, nil, "synth", "--out", dir, "--processes", "1,2,4,8,16,32", "--regions", "20", "--noise", "0", "--imbalance", "0",
		"--serial", "100000", "--parallel", "900000", "--log", "5000")
	if r.code != 0 {
		t.Fatalf("synth: %s", r.stderr)
	}
	db := []string{"--db", "sqlite:" + filepath.Join(t.TempDir(), "s.db")}
	for _, p := range strings.Fields(r.stdout) {
		ok(t, nil, append(db, "load", "-a", "synth", p)...)
	}
	out := ok(t, nil, append(db, "--format", "json", "speedup", "--where", `application == "synth"`, "--no-save")...)
	var doc struct {
		Tables []struct{ Rows []map[string]any }
	}
	if err := json.Unmarshal([]byte(out.stdout), &doc); err != nil {
		t.Fatal(err)
	}
	for _, row := range doc.Tables[0].Rows {
		p := row["p"].(float64)
		model := 1e5 + 9e5/p + 5e3*math.Log2(p)
		if got := row["time"].(float64); math.Abs(got-model) > 21 {
			t.Errorf("p=%v: time %v, model %v", p, got, model)
		}
	}
}
