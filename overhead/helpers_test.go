package overhead

import (
	"github.com/taudb-analyze/taudb-analyze/classify"
	"math"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/analysis"
	"github.com/taudb-analyze/taudb-analyze/drg"
)

// rec is one profile record of a hand-built trial: region name on thread
// column th with an exclusive and an inclusive value.
type rec struct {
	name       string
	th         int
	excl, incl float64
	groups     string
}

// build makes a trial named name with the given threads from recs (one
// metric, TIME).
func build(t testing.TB, name string, threads []drg.ThreadID, recs []rec) *drg.Trial {
	t.Helper()
	b, err := drg.NewBuilder(threads)
	if err != nil {
		t.Fatal(err)
	}
	m := b.Metric("TIME")
	for _, r := range recs {
		n := b.Node(r.name)
		if r.groups != "" {
			b.SetGroups(n, r.groups)
		}
		b.AddCalls(n, r.th, 1, 0)
		b.AddValues(n, r.th, m, r.excl, r.incl)
	}
	tr, err := b.Finish(name, drg.Source{Format: "profile"})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// procs returns n single-threaded processes 0.0.0 ... n-1.0.0.
func procs(n int) []drg.ThreadID {
	out := make([]drg.ThreadID, n)
	for i := range out {
		out[i] = drg.ThreadID{Node: i}
	}
	return out
}

// threads returns one process with n threads 0.0.0 ... 0.0.n-1.
func threads(n int) []drg.ThreadID {
	out := make([]drg.ThreadID, n)
	for i := range out {
		out[i] = drg.ThreadID{Thread: i}
	}
	return out
}

// mainRecs gives region "main" on each thread column the inclusive value
// incl[k] and the exclusive value incl[k] minus the children's exclusive
// values on that column.
func mainRecs(incl []float64, children []rec) []rec {
	excl := append([]float64(nil), incl...)
	for _, c := range children {
		excl[c.th] -= c.excl
	}
	out := make([]rec, len(incl))
	for k := range incl {
		out[k] = rec{name: "main", th: k, excl: excl[k], incl: incl[k], groups: "TAU_DEFAULT"}
	}
	return append(out, children...)
}

// onEach gives region name the value v[k] on column k (0 skips the column:
// the region is absent there).
func onEach(name, groups string, v ...float64) []rec {
	var out []rec
	for k, x := range v {
		if x != 0 {
			out = append(out, rec{name: name, th: k, excl: x, incl: x, groups: groups})
		}
	}
	return out
}

func cat(parts ...[]rec) []rec {
	var out []rec
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// cell returns the experiments table's value of (category, sub) in the
// experiment column col.
func cell(t testing.TB, res *analysis.Result, category, sub, col string) float64 {
	t.Helper()
	tb := res.Table("experiments")
	for i := 0; i < tb.NumRows(); i++ {
		if tb.Text("category", i) == category && tb.Text("sub", i) == sub {
			return tb.Num(col, i)
		}
	}
	t.Fatalf("experiments table has no row %q / %q", category, sub)
	return 0
}

// hasRow reports whether the experiments table has the row.
func hasRow(res *analysis.Result, category, sub string) bool {
	tb := res.Table("experiments")
	for i := 0; i < tb.NumRows(); i++ {
		if tb.Text("category", i) == category && tb.Text("sub", i) == sub {
			return true
		}
	}
	return false
}

// checkExact checks the invariants that must hold to the last bit in every
// defined experiment: identified + unidentified == T_o, T_p - T_s/p == T_o,
// the category rows summed in order == identified, in both the experiments
// and the totals table, and that the two tables agree.
func checkExact(t testing.TB, res *analysis.Result) {
	t.Helper()
	if err := res.Validate(); err != nil {
		t.Fatal(err)
	}
	ex, tot := res.Table("experiments"), res.Table("totals")
	for i := 0; i < tot.NumRows(); i++ {
		col := ex.Columns[2+i].Name
		to, id, un, tp, ideal := tot.Num("t_o", i), tot.Num("identified", i), tot.Num("unidentified", i), tot.Num("t_p", i), tot.Num("ideal", i)
		if math.IsNaN(to) {
			continue
		}
		if id+un != to {
			t.Errorf("%s: identified %v + unidentified %v = %v != T_o %v", col, id, un, id+un, to)
		}
		if tp-ideal != to {
			t.Errorf("%s: T_p %v - T_s/p %v != T_o %v", col, tp, ideal, to)
		}
		var sum float64
		for _, k := range OverheadCategories() {
			v := cell(t, res, string(k), "", col)
			if v != tot.Num(strings.ReplaceAll(string(k), " ", "_"), i) {
				t.Errorf("%s: %s differs between the tables", col, k)
			}
			sum += v
		}
		if sum != id {
			t.Errorf("%s: category rows sum to %v, identified %v", col, sum, id)
		}
		for _, k := range OverheadCategories() {
			if v := cell(t, res, string(k), "", col); v < 0 {
				t.Errorf("%s: category %s = %v < 0", col, k, v)
			}
		}
		if un < 0 && !hasFinding(res, "the identified overhead exceeds T_o by") {
			t.Errorf("%s: unidentified %v < 0 without a finding that explains it: %q", col, un, res.Findings)
		}
		for _, r := range [][2]string{{"total identified", "t"}, {"unidentified", "u"}, {"total overhead", "o"}, {"total execution time", "p"}, {"ideal time", "i"}} {
			want := map[string]float64{"t": id, "u": un, "o": to, "p": tp, "i": ideal}[r[1]]
			if got := cell(t, res, r[0], "", col); got != want {
				t.Errorf("%s: row %q = %v, totals say %v", col, r[0], got, want)
			}
		}
	}
}

// regionRow returns the regions-table row of region (by its match name) in
// experiment label, or -1.
func regionRow(res *analysis.Result, region, label string) int {
	tb := res.Table("regions")
	for i := 0; i < tb.NumRows(); i++ {
		if classify.MatchName(tb.Text("region", i)) == region && tb.Text("experiment", i) == label {
			return i
		}
	}
	return -1
}

func near(a, b float64) bool {
	return math.Abs(a-b) <= 1e-9*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

// hasFinding reports whether a finding of res contains s.
func hasFinding(res *analysis.Result, s string) bool {
	for _, f := range res.Findings {
		if strings.Contains(f, s) {
			return true
		}
	}
	return false
}

// analyzeP runs Analyze on the series of trials in which trial i ran with
// p[i] processes.
func analyzeP(trials []*drg.Trial, p []float64, opt Options) (*analysis.Result, error) {
	if len(p) != len(trials) {
		panic("analyzeP: one p per trial")
	}
	s := make(analysis.Series, len(trials))
	for i, t := range trials {
		s[i] = analysis.Experiment{Trial: t, P: p[i]}
	}
	return Analyze(s, opt)
}

// processes is p of a trial by the one process-count rule
// (analysis.ProcessCount: distinct TAU node ranks).
func processes(t *testing.T, tr *drg.Trial) float64 {
	t.Helper()
	p, err := analysis.ProcessCount(tr, "")
	if err != nil {
		t.Fatal(err)
	}
	return p
}
