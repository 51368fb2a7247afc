package store_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/taudb-analyze/taudb-analyze/store"
	"github.com/taudb-analyze/taudb-analyze/store/storetest"
)

// selFixture is one trial of the selection tests: its name, application,
// thread count and Power attribute.
type selFixture struct {
	name, app string
	threads   int
	power     string
}

// selFixtures are the trials the selection tests store, in id order; the
// expected selections below are read off this table by hand.
var selFixtures = []selFixture{
	{"a-1", "alpha", 1, "100 W"},
	{"a-2", "alpha", 2, "150 W"},
	{"a-4", "alpha", 4, "200 W"},
	{"b-4", "beta", 4, "250 W"},
	{"dup", "alpha", 1, "n/a"},
	{"dup", "beta", 2, "50 W"},
}

// saveSelFixtures stores fx and returns the trial ids by position.
func saveSelFixtures(t *testing.T, db *store.DB, fx []selFixture) []int64 {
	t.Helper()
	ctx := context.Background()
	if _, err := db.Init(ctx); err != nil {
		t.Fatal(err)
	}
	ids := make([]int64, len(fx))
	for i, f := range fx {
		tr := genTrial(t, f.name, f.threads, 2)
		tr.Metadata["Power"] = f.power
		id, err := db.SaveTrial(ctx, tr, store.SaveOptions{Name: f.name, Application: f.app, Experiment: "run"})
		if err != nil {
			t.Fatal(err)
		}
		ids[i] = id
	}
	return ids
}

// selectedIDs runs SelectTrials and returns the ids it selects.
func selectedIDs(ctx context.Context, db *store.DB, s store.Selection) ([]int64, error) {
	infos, err := db.SelectTrials(ctx, s)
	ids := []int64{}
	for _, ti := range infos {
		ids = append(ids, ti.ID)
	}
	return ids, err
}

// TestSelectTrials checks selections by reference, expression and view,
// alone and combined, against the ids read off selFixtures, on both
// databases.
func TestSelectTrials(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		id := saveSelFixtures(t, db, selFixtures)
		a1, a2, a4, b4, dupA, dupB := id[0], id[1], id[2], id[3], id[4], id[5]
		beta, err := db.CreateView(ctx, store.View{Name: "beta", Params: []store.ViewParam{
			{Table: "primary_metadata", Column: "Application", Operator: "=", Value: "beta"}}})
		if err != nil {
			t.Fatal(err)
		}
		cases := []struct {
			sel  store.Selection
			want []int64
		}{
			{store.Selection{Trials: []string{"a-4", fmt.Sprintf("id:%d", a1), " ", "a-4", "name:b-4"}}, []int64{a4, a1, b4}},
			{store.Selection{Trials: []string{fmt.Sprint(dupB), fmt.Sprint(a2)}}, []int64{dupB, a2}},
			{store.Selection{Where: `application == "alpha" && threads >= 2`}, []int64{a2, a4}},
			{store.Selection{Where: `num(meta["Power"]) > 120`}, []int64{a2, a4, b4}},
			{store.Selection{Where: `meta["Power"] == "n/a" || name == "nothing"`}, []int64{dupA}},
			{store.Selection{Where: `"PAPI_FP_OPS" in metrics && experiment == "run" && id > 0`}, []int64{a1, a2, a4, b4, dupA, dupB}},
			{store.Selection{Where: `meta["No such"] == "" && !("TIME" in metrics)`}, []int64{}},
			{store.Selection{Trials: []string{"b-4", "a-1", "a-4"}, Where: `threads >= 4`}, []int64{b4, a4}},
			{store.Selection{View: "beta"}, []int64{b4, dupB}},
			{store.Selection{View: fmt.Sprint(beta), Where: `threads < 4`}, []int64{dupB}},
			{store.Selection{View: "beta", Trials: []string{"a-1", fmt.Sprintf("id:%d", dupB), "b-4"}}, []int64{dupB, b4}},
			{store.Selection{Trials: []string{"", " "}}, []int64{}},
			{store.Selection{Where: `threads == 4`, Minimum: 2}, []int64{a4, b4}},
		}
		for _, c := range cases {
			got, err := selectedIDs(ctx, db, c.sel)
			if err != nil {
				t.Errorf("SelectTrials(%+v): %v", c.sel, err)
				continue
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("SelectTrials(%+v) = %v, want %v", c.sel, got, c.want)
			}
		}
		infos, err := db.SelectTrials(ctx, store.Selection{Trials: []string{"b-4"}})
		if err != nil || len(infos) != 1 || infos[0].Name != "b-4" || infos[0].Application != "beta" || infos[0].Threads != 4 {
			t.Errorf("SelectTrials(b-4) = %+v, %v; want b-4 of beta with 4 threads", infos, err)
		}
	})
}

// TestSelectTrialsErrors checks the errors: unknown and ambiguous
// references and views, expressions that do not compile, fail or exceed a
// bound, too few trials, and the default over two applications.
func TestSelectTrialsErrors(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		id := saveSelFixtures(t, db, selFixtures)
		sentinels := []struct {
			sel  store.Selection
			want error
		}{
			{store.Selection{Trials: []string{"a-1", "nosuch"}}, store.ErrNoTrial},
			{store.Selection{Trials: []string{"dup"}}, store.ErrAmbiguousTrial},
			{store.Selection{View: "nosuch"}, store.ErrNoView},
		}
		for _, c := range sentinels {
			if _, err := db.SelectTrials(ctx, c.sel); !errors.Is(err, c.want) {
				t.Errorf("SelectTrials(%+v) = %v, want %v", c.sel, err, c.want)
			}
		}
		if _, err := db.SelectTrials(ctx, store.Selection{Where: `threads == 4`, Minimum: 3}); err == nil ||
			err.Error() != "the selection holds 2 trial(s); this analysis needs at least 3" {
			t.Errorf("too few trials: %v", err)
		}
		compileErrs := map[string]string{
			`threads >`:              "unexpected token",
			`name + 1`:               "",
			`threads`:                "expected bool",
			`reduce(1..3, #acc) > 0`: "reduce",
			`repeat("x", 9) == ""`:   "repeat",
			`let x = name; x == ""`:  "let x",
			`any(metrics, {any(metrics, {# == "TIME"})})`:     "predicate inside",
			strings.Repeat(" ", store.MaxWhereBytes) + "true": "bytes long",
			strings.Repeat("1+", 600) + "1 > 0":               "maximum allowed nodes",
		}
		for src, frag := range compileErrs {
			_, err := db.SelectTrials(ctx, store.Selection{Where: src})
			var we *store.WhereError
			if !errors.As(err, &we) || we.Trial != 0 || !strings.Contains(err.Error(), frag) {
				t.Errorf("where %.40q: %v, want a *WhereError at no trial containing %q", src, err, frag)
			}
		}
		runErrs := map[string]string{
			`metrics[5] == "x"`:  "out of range",
			`len(1..200000) > 0`: "memory budget exceeded",
			`count(1..99999, # > 0) > 0 && count(1..99999, # > 0) > 0`: "memory budget exceeded",
		}
		for src, frag := range runErrs {
			_, err := db.SelectTrials(ctx, store.Selection{Trials: []string{"a-2", "a-1"}, Where: src})
			var we *store.WhereError
			if !errors.As(err, &we) || we.Trial != id[1] || we.TrialName != "a-2" || !strings.Contains(err.Error(), frag) {
				t.Errorf("where %q: %v, want a *WhereError on trial %d a-2 containing %q", src, err, id[1], frag)
			}
		}
		restore := store.SetWhereTimeBudget(-time.Second)
		_, err := db.SelectTrials(ctx, store.Selection{Where: `true`})
		restore()
		var we *store.WhereError
		if !errors.As(err, &we) || we.Trial != id[0] || !strings.Contains(err.Error(), "ran longer than") {
			t.Errorf("time budget: %v, want a *WhereError on the first trial", err)
		}
		_, err = db.SelectTrials(ctx, store.Selection{Minimum: 1})
		var mixed *store.MixedApplicationsError
		if !errors.As(err, &mixed) || !slices.Equal(mixed.Applications, []string{"alpha", "beta"}) ||
			err.Error() != `the database holds trials of 2 applications ("alpha", "beta"): choose the trials by id or name, a where expression or a view` {
			t.Errorf("default over two applications: %v", err)
		}
	})
}

// TestSelectTrialsDefault checks the default selection: every trial of a
// one-application database, an error on an empty one and when too few.
func TestSelectTrialsDefault(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if _, err := db.Init(ctx); err != nil {
			t.Fatal(err)
		}
		_, err := db.SelectTrials(ctx, store.Selection{})
		if err == nil || !strings.Contains(err.Error(), "holds no trial; load some with") {
			t.Errorf("default on an empty database: %v", err)
		}
		id := saveSelFixtures(t, db, selFixtures[:3])
		got, err := selectedIDs(ctx, db, store.Selection{Minimum: 3})
		if err != nil || !slices.Equal(got, id) {
			t.Errorf("default = %v, %v; want %v", got, err, id)
		}
		_, err = db.SelectTrials(ctx, store.Selection{Minimum: 4})
		if err == nil || err.Error() != "the database holds 3 trial(s); this analysis needs at least 4" {
			t.Errorf("default with too few trials: %v", err)
		}
	})
}

// TestSelectTrialsOneMetadataQuery counts the queries a where selection
// runs on databases of 3 and 30 trials: the same number, exactly one of
// them reading the metadata (the former code ran one per trial).
func TestSelectTrialsOneMetadataQuery(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if _, err := db.Init(ctx); err != nil {
			t.Fatal(err)
		}
		var total []int
		n := 0
		for _, size := range []int{3, 30} {
			for ; n < size; n++ {
				tr := genTrial(t, fmt.Sprintf("t%d", n), 1, 2)
				tr.Metadata["Power"] = fmt.Sprintf("%d W", 10*n)
				if _, err := db.SaveTrial(ctx, tr, store.SaveOptions{Name: tr.Name, Application: "app"}); err != nil {
					t.Fatal(err)
				}
			}
			queries, metaQueries := 0, 0
			hooked := store.WithQueryHook(ctx, func(sql string) {
				queries++
				if sql == store.MetadataQuery {
					metaQueries++
				}
			})
			// Power is 10n W: n >= 2 and even (20, 40, ... within the budget).
			infos, err := db.SelectTrials(hooked, store.Selection{Where: `num(meta["Power"]) >= 20 && int(num(meta["Power"])) % 20 == 0`})
			if err != nil {
				t.Fatal(err)
			}
			if want := (size - 1) / 2; len(infos) != want {
				t.Errorf("%d trials: selected %d, want %d", size, len(infos), want)
			}
			if metaQueries != 1 {
				t.Errorf("%d trials: %d metadata queries, want 1", size, metaQueries)
			}
			total = append(total, queries)
		}
		t.Logf("queries of a where selection over 3 and 30 trials: %v", total)
		if total[0] != total[1] || total[0] == 0 {
			t.Errorf("queries for 3 and 30 trials: %v, want the same non-zero number", total)
		}
	})
}
