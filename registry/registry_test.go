package registry

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"go/parser"
	"go/token"

	"github.com/taudb-analyze/taudb-analyze/analysis"
	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/synth"
)

// want are the analyses the command line, studies and reports run; the
// registry must hold each, with the trials it takes.
var want = map[string]Trials{
	"imbalance": Single, "regions": Single, "ratio": Single, "summary": Single, "correlate": Single,
	"compare": Pair,
	"speedup": Series, "scalability": Series, "multiregion": Series, "multiset": Series, "overhead": Series, "cluster": Series, "regress": Series,
}

func TestEveryAnalysisRegistered(t *testing.T) {
	docList := packageDoc(t)
	names := Names()
	if len(names) != len(want) {
		t.Fatalf("registered %v, want %d analyses", names, len(want))
	}
	for _, a := range All() {
		if !strings.Contains(docList, "\t"+a.Name+" ") {
			t.Errorf("the package documentation does not list %s", a.Name)
		}
		if tr, ok := want[a.Name]; !ok || tr != a.Trials {
			t.Errorf("%s takes %v; want %v (known %v)", a.Name, a.Trials, tr, ok)
		}
		if !strings.HasPrefix(a.Use, a.Name) || a.Short == "" || !strings.HasPrefix(a.Long, a.Name) || a.Example == "" {
			t.Errorf("%s: help incomplete: use %q short %q", a.Name, a.Use, a.Short)
		}
		opts := a.Options()
		if len(opts) == 0 {
			t.Errorf("%s has no options", a.Name)
		}
		for _, o := range opts {
			if o.Help == "" || o.Type == "" {
				t.Errorf("%s --%s: no help or type", a.Name, o.Name)
			}
			if o.Allowed != nil && !slices.Contains(o.Allowed, o.Default) {
				t.Errorf("%s --%s: default %q not among the allowed %v", a.Name, o.Name, o.Default, o.Allowed)
			}
		}
	}
}

// TestDefaultsValidate checks that the defaults of every analysis are
// valid except where an option is required (ratio's name and expression,
// multiset's property), which are usage errors.
func TestDefaultsValidate(t *testing.T) {
	required := map[string]bool{"ratio": true, "multiset": true}
	for _, a := range All() {
		marked := false
		for _, o := range a.Options() {
			marked = marked || o.Required
		}
		if marked != required[a.Name] {
			t.Errorf("%s: options marked required: %v, want %v", a.Name, marked, required[a.Name])
		}
		err := a.Defaults().Validate()
		var ue *UsageError
		switch {
		case required[a.Name] && !errors.As(err, &ue):
			t.Errorf("%s: defaults give %v, want a usage error", a.Name, err)
		case !required[a.Name] && err != nil:
			t.Errorf("%s: defaults invalid: %v", a.Name, err)
		}
	}
}

func TestOptionsMetadata(t *testing.T) {
	a, err := Lookup("cluster")
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]Option{}
	for _, o := range a.Options() {
		byName[o.Name] = o
	}
	m := byName["method"]
	if m.Type != "string" || m.Default != "kmeans" || !slices.Equal(m.Allowed, []string{"kmeans", "hierarchical", "dbscan"}) {
		t.Errorf("method: %+v", m)
	}
	if k := byName["k"]; k.Shorthand != "k" || k.Type != "int" || k.Default != "0" {
		t.Errorf("k: %+v", k)
	}
	if s := byName["seed"]; s.Type != "uint64" || s.Default != "1" {
		t.Errorf("seed: %+v", s)
	}
	if r := byName["regions"]; r.Type != "stringSlice" || r.Default != "[]" {
		t.Errorf("regions: %+v", r)
	}
}

func TestSet(t *testing.T) {
	a, _ := Lookup("cluster")
	o := a.Defaults()
	c := o.(*Cluster)
	if c.MaxK != 10 || c.X != 1 || c.MinPts != 4 || c.Seed != 1 {
		t.Fatalf("defaults not stored: %+v", c.Options)
	}
	for name, value := range map[string]string{"k": "3", "regions": "MPI_*,*solve*", "inclusive": "true", "x": "2.5"} {
		if err := a.Set(o, name, value); err != nil {
			t.Fatalf("set %s: %v", name, err)
		}
	}
	if c.K != 3 || !slices.Equal(c.Regions, []string{"MPI_*", "*solve*"}) || !c.Inclusive || c.X != 2.5 {
		t.Errorf("after Set: %+v", c.Options)
	}
	var ue *UsageError
	if err := a.Set(o, "max-k", "ten"); !errors.As(err, &ue) || ue.Option != "max-k" {
		t.Errorf("bad value: %v", err)
	}
	if err := a.Set(o, "nosuch", "1"); !errors.As(err, &ue) || !strings.Contains(err.Error(), "min-pts") {
		t.Errorf("unknown option: %v", err)
	}
	if _, err := Lookup("nosuch"); !errors.As(err, &ue) {
		t.Errorf("unknown analysis: %v", err)
	}
}

func TestRunChecksTrials(t *testing.T) {
	tr := mpiTrial(t, 2)
	for name, n := range map[string]int{"imbalance": 2, "compare": 1, "speedup": 1} {
		a, _ := Lookup(name)
		ts := make([]*drg.Trial, n)
		for i := range ts {
			ts[i] = tr
		}
		var ue *UsageError
		if _, err := a.Run(context.Background(), a.Defaults(), Input{Trials: ts}); !errors.As(err, &ue) {
			t.Errorf("%s of %d trials: %v, want a usage error", name, n, err)
		}
	}
}

// TestRunIsTheAnalysis checks that running through the registry gives the
// result the analysis package gives for the same options.
func TestRunIsTheAnalysis(t *testing.T) {
	tr := mpiTrial(t, 4)
	a, _ := Lookup("imbalance")
	o := a.Defaults()
	if err := a.Set(o, "inclusive", "true"); err != nil {
		t.Fatal(err)
	}
	out, err := a.Run(context.Background(), o, Input{Trials: []*drg.Trial{tr}})
	if err != nil {
		t.Fatal(err)
	}
	direct, err := analysis.Imbalance(tr, analysis.ImbalanceOptions{Inclusive: true})
	if err != nil {
		t.Fatal(err)
	}
	var got, exp bytes.Buffer
	if err := out.Result.WriteJSON(&got); err != nil {
		t.Fatal(err)
	}
	if err := direct.WriteJSON(&exp); err != nil {
		t.Fatal(err)
	}
	if got.String() != exp.String() {
		t.Errorf("registry and analysis.Imbalance differ")
	}
}

// TestSpeedupFromTheTrials checks speedup through the registry against
// T_1/T_p computed from the trials (T = the largest main inclusive time).
func TestSpeedupFromTheTrials(t *testing.T) {
	var ts []*drg.Trial
	for _, p := range []int{1, 2, 4} {
		ts = append(ts, mpiTrial(t, p))
	}
	a, _ := Lookup("speedup")
	out, err := a.Run(context.Background(), a.Defaults(), Input{Trials: ts})
	if err != nil {
		t.Fatal(err)
	}
	prog := out.Result.Table("program")
	if prog == nil || prog.NumRows() != 3 {
		t.Fatalf("program table: %+v", prog)
	}
	t1 := slices.Max(ts[0].MainInclusive(0))
	col := prog.Col("speedup")
	for i, tr := range ts {
		wantS := t1 / slices.Max(tr.MainInclusive(0))
		if got := col.Num[i]; math.Abs(got-wantS) > 1e-12*wantS {
			t.Errorf("row %d: speedup %v, want %v", i, got, wantS)
		}
	}
}

// mpiTrial is the demo's generated MPI run at p ranks.
func mpiTrial(t *testing.T, p int) *drg.Trial {
	t.Helper()
	tr, err := synth.DemoMPI.Generate(p, fmt.Sprintf("mpi-np%d", p))
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestOneBaselineRule runs speedup, scalability and overhead on one series
// given out of order: by default all take the smallest p (the 1-process
// run), and a named baseline is the same trial for all three.
func TestOneBaselineRule(t *testing.T) {
	var ts []*drg.Trial
	for _, p := range []int{4, 1, 2} {
		ts = append(ts, mpiTrial(t, p))
	}
	for _, named := range []string{"", "mpi-np2"} {
		want := named
		if want == "" {
			want = "mpi-np1"
		}
		for name, param := range map[string]string{"speedup": "baseline", "scalability": "baseline", "overhead": "baseline_trial"} {
			a, _ := Lookup(name)
			o := a.Defaults()
			if err := a.Set(o, "baseline", named); err != nil {
				t.Fatal(err)
			}
			out, err := a.Run(context.Background(), o, Input{Trials: ts})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if got := out.Result.Params[param]; got != want {
				t.Errorf("%s --baseline %q: baseline %q, want %q", name, named, got, want)
			}
		}
	}
}

// packageDoc returns the package documentation of doc.go, which lists the
// analyses (what go doc prints).
func packageDoc(t *testing.T) string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	return f.Doc.Text()
}

// TestOverheadUnitCountsP checks that overhead --unit thread counts p as
// threads (the units its figures are made of) unless --p-from says
// otherwise: OpenMP runs of 1 process with 2 and 4 threads are p = 2, 4.
func TestOverheadUnitCountsP(t *testing.T) {
	var ts []*drg.Trial
	for _, n := range []int{2, 4} {
		tr, err := synth.Generate(synth.Spec{Processes: 1, ThreadsPerProcess: n, Regions: 3, Depth: 1, Metrics: 1,
			Serial: 1e5, Parallel: 1e6, Name: fmt.Sprintf("omp-%d", n)})
		if err != nil {
			t.Fatal(err)
		}
		ts = append(ts, tr)
	}
	a, _ := Lookup("overhead")
	o := a.Defaults()
	if err := a.Set(o, "unit", "thread"); err != nil {
		t.Fatal(err)
	}
	out, err := a.Run(context.Background(), o, Input{Trials: ts})
	if err != nil {
		t.Fatal(err)
	}
	tot := out.Result.Table("totals")
	if tot == nil || tot.NumRows() != 2 || tot.Num("p", 0) != 2 || tot.Num("p", 1) != 4 {
		t.Fatalf("totals: %+v", tot)
	}
	// By ranks, both runs are p = 1: not a scaling series.
	if err := a.Set(o, "p-from", "nodes"); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Run(context.Background(), o, Input{Trials: ts}); err == nil {
		t.Error("p from ranks: want the constant-p refusal")
	}
}

// TestEveryAnalysisRuns runs every registered analysis from its defaults
// (plus the options some require) on the demo's generated MPI runs: each
// result is named after its analysis and has a table with rows.
func TestEveryAnalysisRuns(t *testing.T) {
	var ts []*drg.Trial
	for _, p := range []int{1, 2, 4} {
		ts = append(ts, mpiTrial(t, p))
	}
	required := map[string]map[string]string{
		"ratio":    {"name": "DOUBLE", "expr": "TIME * 2"},
		"multiset": {"by": "trial"},
		"regress":  {"order-by": "name", "min-size": "2"},
		"cluster":  {"k": "2"},
	}
	for _, a := range All() {
		o := a.Defaults()
		for k, v := range required[a.Name] {
			if err := a.Set(o, k, v); err != nil {
				t.Fatalf("%s --%s: %v", a.Name, k, err)
			}
		}
		in := Input{Trials: ts, IDs: []int64{1, 2, 3}}
		switch a.Trials {
		case Single:
			in = Input{Trials: ts[2:]}
		case Pair:
			in = Input{Trials: ts[:2]}
		}
		out, err := a.Run(context.Background(), o, in)
		if err != nil {
			t.Errorf("%s: %v", a.Name, err)
			continue
		}
		if out.Result.Analysis != a.Name || len(out.Result.Tables) == 0 || out.Result.Tables[0].NumRows() == 0 {
			t.Errorf("%s: result %q with %d tables", a.Name, out.Result.Analysis, len(out.Result.Tables))
		}
	}
}
