package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"
	"github.com/taudb-analyze/taudb-analyze/registry"
)

// TestStudyOpensTheDatabaseOnce runs a study of 12 analyses of every kind
// (single-trial ones on three trials each, a pair, series, cluster with
// its pictures) and counts the databases the command opened: one, since
// every analysis runs through the registry on the study's open database.
// Each analysis's results must be there, on the trials the study gave.
func TestStudyOpensTheDatabaseOnce(t *testing.T) {
	if os.Getenv("TAUDB_CLI_BINARY") != "" {
		t.Skip("counts the opens of an in-process run")
	}
	data := demoData(t)
	dir := t.TempDir()
	url := "sqlite:" + filepath.Join(dir, "taudb.db")
	ok(t, nil, "--db", url, "db", "init")
	var yaml strings.Builder
	yaml.WriteString("trials:\n")
	for _, p := range []int{1, 2, 4} {
		fmt.Fprintf(&yaml, "  - name: np%d\n    path: %s\n", p, filepath.Join(data, "mpi", fmt.Sprintf("p%d", p)))
	}
	yaml.WriteString(`analyses:
  - run: imbalance
  - run: regions
    with: {top: 3}
  - run: summary
    with: {by: process}
  - run: correlate
  - run: ratio
    with: {name: DOUBLE, expr: "TIME * 2"}
  - run: compare
    trials: [np1, np4]
  - run: speedup
  - run: scalability
  - run: multiregion
  - run: overhead
  - run: regress
    with: {order-by: name, min-size: 2}
  - run: cluster
    trials: [np4]
    with: {k: 2}
`)
	file := filepath.Join(dir, "ten.yaml")
	if err := os.WriteFile(file, []byte(yaml.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var opened []string
	openedHook = func(u string) { opened = append(opened, u) }
	defer func() { openedHook = nil }()
	r := ok(t, nil, "--db", url, "--format", "json", "study", file)
	if len(opened) != 1 {
		t.Errorf("the study opened the database %d times, want once: %v", len(opened), opened)
	}
	var d studyDoc
	if err := json.Unmarshal([]byte(r.stdout), &d); err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, res := range d.Results {
		count[res.Analysis]++
		if res.ID == 0 {
			t.Errorf("%s not stored", res.Analysis)
		}
	}
	want := map[string]int{"imbalance": 3, "regions": 3, "summary": 3, "correlate": 3, "ratio": 3, "compare": 1,
		"speedup": 1, "scalability": 1, "multiregion": 1, "overhead": 1, "regress": 1, "cluster": 1}
	for name, n := range want {
		if count[name] != n {
			t.Errorf("%s ran %d times, want %d", name, count[name], n)
		}
	}
	if len(d.Results) != 22 {
		t.Errorf("%d results, want 22", len(d.Results))
	}
	ids := d.Trials
	if cmp := d.Results[15]; cmp.Analysis != "compare" || len(cmp.Trials) != 2 || cmp.Trials[0] != ids[0].ID || cmp.Trials[1] != ids[2].ID {
		t.Errorf("compare ran on %+v, want trials np1 then np4 (%d, %d)", cmp, ids[0].ID, ids[2].ID)
	}
	cl := d.Results[len(d.Results)-1]
	imgs := ok(t, nil, "--db", url, "--format", "json", "results", fmt.Sprint(cl.ID))
	if !strings.Contains(imgs.stdout, `"cluster"`) {
		t.Errorf("cluster result %d: %s", cl.ID, imgs.stdout[:min(200, len(imgs.stdout))])
	}
}

// TestStudyValidatesOptionsThroughTheRegistry checks that a study is
// refused before any work when an analysis's options are incomplete
// (multiset without its property), naming the file and the line.
func TestStudyValidatesOptionsThroughTheRegistry(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(file, []byte("trials:\n  - name: x\nanalyses:\n  - run: speedup\n  - run: multiset\n    with: {weak: true}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	url := "sqlite:" + filepath.Join(dir, "none.db")
	r := cli(t, nil, "--db", url, "study", file)
	if r.code != 1 || !strings.Contains(r.stderr, "bad.yaml:5: multiset: multiset needs --by KEY") {
		t.Errorf("exit %d: %s", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "none.db")); err == nil {
		t.Errorf("the refused study created the database")
	}
}

// TestCommandsBoundFromTheRegistry checks that every registered analysis
// is a command whose flags are its options (same default and help) plus
// the flags that name its trials (with --query, which picks the part of a
// trial read), --no-save, --table and the command's extra modes, and
// nothing else.
func TestCommandsBoundFromTheRegistry(t *testing.T) {
	root := newApp(io.Discard, io.Discard).root()
	extra := map[string]bool{"trial": true, "query": true, "trials": true, "where": true, "view": true, "no-save": true, "table": true, "help": true, "list": true, "list-rules": true}
	for _, an := range registry.All() {
		cmd, _, err := root.Find([]string{an.Name})
		if err != nil || cmd.Name() != an.Name {
			t.Errorf("no command %s: %v", an.Name, err)
			continue
		}
		opts := map[string]bool{}
		for _, o := range an.Options() {
			opts[o.Name] = true
			f := cmd.Flags().Lookup(o.Name)
			if f == nil || f.DefValue != o.Default || f.Usage != o.Help || f.Shorthand != o.Shorthand {
				t.Errorf("%s --%s: flag %+v, option %+v", an.Name, o.Name, f, o)
			}
		}
		cmd.Flags().VisitAll(func(f *pflag.Flag) {
			if !opts[f.Name] && !extra[f.Name] {
				t.Errorf("%s --%s is not an option of the registry", an.Name, f.Name)
			}
		})
	}
}
