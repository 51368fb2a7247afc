package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/internal/realdata"
)

// TestViewsCommands loads three applications, creates TAUdb views with
// "views create", lists them with "views", checks that each view selects
// the trials the equivalent --where expression selects, runs speedup
// --view, and checks that invalid views are refused.
func TestViewsCommands(t *testing.T) {
	type fixture struct{ rel, name, app, exp string }
	var fx []fixture
	for i := range 8 {
		fx = append(fx, fixture{fmt.Sprintf("ParaToolsInc-taucmdr/jupyter/east02-mm-profile/%d", i), fmt.Sprintf("mm-%d", i+1), "matmult", "scaling"})
	}
	fx = append(fx, fixture{"LLNL-hatchet/tau-cpi-mpi", "cpi", "cpi", "run"}, fixture{"UO-OACISS-tau2/examples/wrap", "wrap", "wrap", "run"})
	paths := make([]string, len(fx))
	for i, f := range fx {
		paths[i] = realdata.Real(t, f.rel)
	}
	databases(t, func(t *testing.T, url string) {
		db := []string{"--db", url}
		run := func(args ...string) result { t.Helper(); return ok(t, nil, append(db, args...)...) }
		if strings.HasPrefix(url, "postgres") {
			run("db", "init")
		}
		for i, f := range fx {
			run("load", "-q", "-n", f.name, "-a", f.app, "-x", f.exp, paths[i])
		}
		create := func(args ...string) int64 {
			t.Helper()
			r := run(append([]string{"views", "create"}, args...)...)
			id, err := strconv.ParseInt(strings.TrimSpace(r.stdout), 10, 64)
			if err != nil {
				t.Fatalf("views create printed %q, not an id", r.stdout)
			}
			return id
		}
		create("matmult", "--param", "primary_metadata.Application = matmult")
		create("big", "--param", "trial.total_threads >= 4")
		create("cpi-or-wrap", "--conjoin", "or", "--param", "primary_metadata.Application = cpi", "--param", "primary_metadata.Application = wrap")
		sub := create("big matmult", "--parent", "matmult", "--param", "trial.total_threads >= 4")
		create("small matmult", "--parent", "matmult", "--conjoin", "or",
			"--param", "trial.total_threads = 1", "--param", "trial.total_threads=2", "--param", "trial.name like cpi%")

		// views lists them with their trial counts, as JSON and as text.
		r := run("--format", "json", "views")
		var list []struct {
			ID      int64  `json:"id"`
			Parent  int64  `json:"parent"`
			Name    string `json:"name"`
			Conjoin string `json:"conjoin"`
			Params  []struct{ Table, Column, Operator, Value string }
			Trials  int `json:"trials"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &list); err != nil {
			t.Fatalf("views --format json: %v\n%s", err, r.stdout)
		}
		count := map[string]int{}
		for _, v := range list {
			count[v.Name] = v.Trials
		}
		// The loads with -a/-x made TAU's views first (ids 2..7):
		// Application-APP with Experiment-EXP under it, per pair.
		want := map[string]int{"All Trials": len(fx), "matmult": 8, "cpi-or-wrap": 2, "big matmult": 5, "small matmult": 2,
			"Application-matmult": 8, "Experiment-scaling": 8, "Application-cpi": 1, "Application-wrap": 1, "Experiment-run": 1}
		for name, n := range want {
			if count[name] != n {
				t.Errorf("view %q selects %d trials, want %d\n%s", name, count[name], n, r.stdout)
			}
		}
		if len(list) != 12 || list[10].Parent != list[7].ID || list[10].ID != sub || len(list[9].Params) != 2 || list[9].Conjoin != "or" ||
			list[2].Parent != list[1].ID || list[1].Name != "Application-matmult" {
			t.Errorf("views --format json: %+v", list)
		}
		r = run("views")
		for _, w := range []string{"id", "parent", "conjoin", "All Trials", "trial.total_threads > -1", "primary_metadata.Application = matmult", "big matmult"} {
			if !strings.Contains(r.stdout, w) {
				t.Errorf("views lacks %q:\n%s", w, r.stdout)
			}
		}
		r = run("--format", "csv", "views")
		if !strings.HasPrefix(r.stdout, "id,parent,name,conjoin,parameters,trials\n") || strings.Count(r.stdout, "\n") != 13 {
			t.Errorf("views --format csv:\n%s", r.stdout)
		}

		// Each view selects what the equivalent --where selects, ids and all.
		ctx := context.Background()
		a := newApp(io.Discard, io.Discard)
		a.db = url
		sdb, err := a.openDB(ctx, true)
		if err != nil {
			t.Fatal(err)
		}
		defer sdb.Close()
		for view, where := range map[string]string{
			"All Trials":    `true`,
			"matmult":       `application == "matmult"`,
			"big":           `threads >= 4`,
			"cpi-or-wrap":   `application == "cpi" || application == "wrap"`,
			"big matmult":   `meta["Application"] == "matmult" && threads >= 4`,
			"small matmult": `application == "matmult" && (threads == 1 || threads == 2 || name startsWith "cpi")`,
		} {
			got, err := a.selectTrials(ctx, sdb, selection{view: view}, 0)
			if err != nil {
				t.Fatalf("--view %q: %v", view, err)
			}
			exp, err := a.selectTrials(ctx, sdb, selection{where: where}, 0)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, exp) || len(got) == 0 {
				t.Errorf("--view %q selects %v; --where %q selects %v", view, got, where, exp)
			}
		}
		// --view narrows --trials and --where.
		got, err := a.selectTrials(ctx, sdb, selection{view: "big matmult", trials: "mm-8,cpi,mm-2,mm-4", where: "threads < 8"}, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 {
			t.Errorf("--view with --trials and --where selects %v, want mm-4 alone", got)
		}

		// speedup runs on a view, by name and by id.
		r = run("--format", "json", "speedup", "--no-save", "--view", "big matmult")
		if !strings.Contains(r.stdout, "mm-8") || strings.Contains(r.stdout, "mm-3") {
			t.Errorf("speedup --view: %s", r.stdout)
		}
		run("speedup", "--no-save", "--view", strconv.FormatInt(sub, 10))

		// Errors: clear, exit 1 or 2, and nothing created.
		fails(t, 2, `unknown operator "~"`, append(db, "views", "create", "x", "--param", "trial.total_threads ~ 4")...)
		fails(t, 2, `trial has no column "threads"`, append(db, "views", "create", "x", "--param", "trial.threads >= 4")...)
		fails(t, 2, `table "timer"`, append(db, "views", "create", "x", "--param", "timer.name = main")...)
		fails(t, 2, `"four" is not one`, append(db, "views", "create", "x", "--param", "trial.total_threads >= four")...)
		fails(t, 2, `want TABLE.COLUMN OP VALUE`, append(db, "views", "create", "x", "--param", "total_threads >= 4")...)
		fails(t, 2, `--conjoin "xor"`, append(db, "views", "create", "x", "--conjoin", "xor", "--param", "trial.id > 0")...)
		fails(t, 2, `--param`, append(db, "views", "create", "x")...)
		fails(t, 1, `no view has the id or name "nope"`, append(db, "views", "create", "x", "--parent", "nope", "--param", "trial.id > 0")...)
		fails(t, 1, `no view has the id or name "nope"`, append(db, "speedup", "--view", "nope")...)
		fails(t, 2, `--view NAME|ID`, append(db, "speedup")...)
		r = run("--format", "json", "views")
		if err := json.Unmarshal([]byte(r.stdout), &list); err != nil || len(list) != 12 {
			t.Errorf("after the refused views: %d views, %v", len(list), err)
		}
	})
}
