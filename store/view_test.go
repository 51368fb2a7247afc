package store_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/store"
	"github.com/taudb-analyze/taudb-analyze/store/storetest"
	"github.com/taudb-analyze/taudb-analyze/synth"
)

// viewFixture is one trial the TAUdb view tests load, with its attributes:
// a generated trial of ranks processes.
type viewFixture struct {
	ranks          int
	name, app, exp string
}

// viewFixtures are a matmult series of 1 to 8 ranks, a cpi run of 4 ranks
// and a wrap run of 2, under three applications.
func viewFixtures() []viewFixture {
	var out []viewFixture
	for i := range 8 {
		out = append(out, viewFixture{i + 1, fmt.Sprintf("mm-%d", i+1), "matmult", "scaling"})
	}
	return append(out,
		viewFixture{4, "cpi", "cpi", "run"},
		viewFixture{2, "wrap", "wrap", "run"})
}

// TestTAUdbViewSelection creates views by application, by thread count,
// with "or", nested, and checks their trials against the trial list, on
// both databases.
func TestTAUdbViewSelection(t *testing.T) {
	var trials []*drg.Trial
	fx := viewFixtures()
	for _, f := range fx {
		tr, err := synth.Generate(synth.Spec{Processes: f.ranks, ThreadsPerProcess: 1, Regions: 3, Depth: 2, Metrics: 1,
			Serial: 1e4, Parallel: 1e6, Name: f.name})
		if err != nil {
			t.Fatal(err)
		}
		trials = append(trials, tr)
	}
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if _, err := db.Init(ctx); err != nil {
			t.Fatal(err)
		}
		for i, tr := range trials {
			if _, err := db.SaveTrial(ctx, tr, store.SaveOptions{Name: fx[i].name, Application: fx[i].app, Experiment: fx[i].exp}); err != nil {
				t.Fatal(err)
			}
		}
		infos, err := db.Trials(ctx)
		if err != nil {
			t.Fatal(err)
		}
		// pick lists, in id order, the trials keep accepts: the expected
		// selections, from Trials, independently of the views.
		pick := func(keep func(store.TrialInfo) bool) []int64 {
			out := []int64{}
			for _, ti := range infos {
				if keep(ti) {
					out = append(out, ti.ID)
				}
			}
			return out
		}
		create := func(v store.View) int64 {
			t.Helper()
			id, err := db.CreateView(ctx, v)
			if err != nil {
				t.Fatalf("CreateView(%+v): %v", v, err)
			}
			return id
		}
		param := func(s string) store.ViewParam {
			t.Helper()
			p, err := store.ParseViewParam(s)
			if err != nil {
				t.Fatal(err)
			}
			return p
		}
		byName := func(name string) int64 {
			t.Helper()
			id, err := db.FindView(ctx, name)
			if err != nil {
				t.Fatal(err)
			}
			return id
		}

		mm := create(store.View{Name: "matmult", Params: []store.ViewParam{param("primary_metadata.Application = matmult")}})
		big := create(store.View{Name: "big", Conjoin: "and", Params: []store.ViewParam{param("trial.total_threads>=4")}})
		either := create(store.View{Name: "cpi or wrap", Conjoin: "OR", Params: []store.ViewParam{
			param("primary_metadata.Application = cpi"), param("primary_metadata.Application = wrap")}})
		sub := create(store.View{Name: "big matmult", Parent: mm, Params: []store.ViewParam{param("trial.total_threads >= 4")}})
		subsub := create(store.View{Name: "mm 5..7", Parent: sub, Conjoin: "and", Params: []store.ViewParam{
			param("trial.total_threads <= 7"), param("trial.name not like mm-4%")}})
		like := create(store.View{Name: "like", Params: []store.ViewParam{param("trial.name like mm-_"), param("primary_metadata.Experiment != run")}})
		// An "or" view under an "and" parent: the parent still applies.
		orSub := create(store.View{Name: "one or two", Parent: mm, Conjoin: "or", Params: []store.ViewParam{
			param("trial.total_threads = 1"), param("trial.total_threads = 2"), param("primary_metadata.Application = wrap")}})
		noMeta := create(store.View{Name: "no such metadata", Params: []store.ViewParam{param("primary_metadata.No Such Name != x")}})

		cases := []struct {
			view int64
			want []int64
		}{
			{byName("All Trials"), pick(func(store.TrialInfo) bool { return true })},
			{mm, pick(func(ti store.TrialInfo) bool { return ti.Application == "matmult" })},
			{big, pick(func(ti store.TrialInfo) bool { return ti.Threads >= 4 })},
			{either, pick(func(ti store.TrialInfo) bool { return ti.Application == "cpi" || ti.Application == "wrap" })},
			{sub, pick(func(ti store.TrialInfo) bool { return ti.Application == "matmult" && ti.Threads >= 4 })},
			{subsub, pick(func(ti store.TrialInfo) bool {
				return ti.Application == "matmult" && ti.Threads >= 5 && ti.Threads <= 7
			})},
			{like, pick(func(ti store.TrialInfo) bool { return ti.Application == "matmult" })},
			{orSub, pick(func(ti store.TrialInfo) bool { return ti.Application == "matmult" && ti.Threads <= 2 })},
			{noMeta, []int64{}},
		}
		for _, c := range cases {
			got, err := db.ViewTrials(ctx, c.view)
			if err != nil {
				t.Fatalf("ViewTrials(%d): %v", c.view, err)
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("view %d selects %v, want %v", c.view, got, c.want)
			}
		}
		if n := len(cases[4].want); n != 5 {
			t.Errorf("matmult with >= 4 threads: %d trials, want the 5 with 4..8 ranks", n)
		}
		if n := len(cases[0].want); n != len(fx) {
			t.Errorf("All Trials: %d trials, want %d", n, len(fx))
		}

		views, err := db.Views(ctx)
		if err != nil {
			t.Fatal(err)
		}
		// 9: "All Trials", the 8 made here, and the application and
		// experiment views of each of the 3 (application, experiment) pairs
		// the fixture loads with (store.AppViewPrefix).
		if len(views) != 9+6 || views[0].Name != "All Trials" || views[0].Parent != 0 ||
			len(views[0].Params) != 1 || views[0].Params[0].String() != "trial.total_threads > -1" {
			t.Fatalf("Views: %+v", views)
		}
		for _, v := range views {
			if v.ID == subsub && (v.Parent != sub || v.Conjoin != "and" || len(v.Params) != 2 || v.Params[1].Operator != "not like") {
				t.Errorf("stored sub-sub-view: %+v", v)
			}
			if v.ID == either && v.Conjoin != "or" {
				t.Errorf("conjoin stored as %q, want or", v.Conjoin)
			}
		}
		if id, err := db.FindView(ctx, fmt.Sprint(sub)); err != nil || id != sub {
			t.Errorf("FindView by id: %d, %v", id, err)
		}
		if _, err := db.FindView(ctx, "nope"); !errors.Is(err, store.ErrNoView) {
			t.Errorf("FindView(nope): %v", err)
		}
		if _, err := db.ViewTrials(ctx, 9999); !errors.Is(err, store.ErrNoView) {
			t.Errorf("ViewTrials(9999): %v", err)
		}
		create(store.View{Name: "big", Params: []store.ViewParam{param("trial.id > 0")}})
		if _, err := db.FindView(ctx, "big"); err == nil || !strings.Contains(err.Error(), "2 views are named") {
			t.Errorf("FindView of an ambiguous name: %v", err)
		}

		// Invalid views give ErrBadView and store nothing.
		bad := []struct {
			v    store.View
			want string
		}{
			{store.View{Name: "x", Params: []store.ViewParam{{"trial", "total_threads", "~", "4"}}}, `unknown operator "~"`},
			{store.View{Name: "x", Params: []store.ViewParam{{"trial", "bogus", "=", "4"}}}, `trial has no column "bogus"`},
			{store.View{Name: "x", Params: []store.ViewParam{{"trial", "total_threads; DROP TABLE trial", "=", "4"}}}, `trial has no column`},
			{store.View{Name: "x", Params: []store.ViewParam{{"timer", "name", "=", "main"}}}, `table "timer"`},
			{store.View{Name: "x", Params: []store.ViewParam{{"trial", "total_threads", ">", "four"}}}, `is not one`},
			{store.View{Name: "x", Params: []store.ViewParam{{"trial", "total_threads", "like", "4%"}}}, `is an integer`},
			{store.View{Name: "x", Parent: 9999, Params: []store.ViewParam{{"trial", "id", ">", "0"}}}, `parent view 9999 does not exist`},
			{store.View{Name: "x", Conjoin: "xor", Params: []store.ViewParam{{"trial", "id", ">", "0"}}}, `conjoin "xor"`},
			{store.View{Name: "x"}, `no parameter`},
			{store.View{Name: " ", Params: []store.ViewParam{{"trial", "id", ">", "0"}}}, `empty name`},
			// The last parameter is bad: the view row must not remain.
			{store.View{Name: "x", Params: []store.ViewParam{{"trial", "id", ">", "0"}, {"trial", "id", "=~", "0"}}}, `unknown operator`},
		}
		for _, b := range bad {
			_, err := db.CreateView(ctx, b.v)
			if !errors.Is(err, store.ErrBadView) || !strings.Contains(err.Error(), b.want) {
				t.Errorf("CreateView(%+v): %v, want ErrBadView and %q", b.v, err, b.want)
			}
		}
		if n := storetest.Query(t, db, `SELECT COUNT(*) FROM taudb_view`); n[0][0] != "16" {
			t.Errorf("%s views after the invalid ones, want 16 (10 + the 6 load views)", n[0][0])
		}
		if n := storetest.Query(t, db, `SELECT COUNT(*) FROM taudb_view_parameter`); n[0][0] != "21" {
			t.Errorf("%s view parameters after the invalid ones, want 21 (15 + one per load view)", n[0][0])
		}
	})
}

// TestViewParamParse checks the "TABLE.COLUMN OP VALUE" syntax.
func TestViewParamParse(t *testing.T) {
	for in, want := range map[string]store.ViewParam{
		"primary_metadata.Application = matmult":   {"primary_metadata", "Application", "=", "matmult"},
		"trial.total_threads>=4":                   {"trial", "total_threads", ">=", "4"},
		"primary_metadata.CPU Cores <> 8":          {"primary_metadata", "CPU Cores", "<>", "8"},
		"trial.name NOT LIKE mm-%":                 {"trial", "name", "not like", "mm-%"},
		"secondary_metadata.Hostname like east%02": {"secondary_metadata", "Hostname", "like", "east%02"},
		"primary_metadata.Experiment = ":           {"primary_metadata", "Experiment", "=", ""},
	} {
		got, err := store.ParseViewParam(in)
		if err != nil || got != want {
			t.Errorf("ParseViewParam(%q) = %+v, %v; want %+v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "total_threads >= 4", "trial.total_threads", "trial. = 4", "trial.total_threads ~ 4"} {
		if p, err := store.ParseViewParam(in); !errors.Is(err, store.ErrBadView) {
			t.Errorf("ParseViewParam(%q) = %+v, %v; want an error", in, p, err)
		}
	}
}
