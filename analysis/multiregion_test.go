package analysis

import (
	"math"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// withSequential adds a region "seq_region" of value 40 that only thread
// 0.0.0 executes.
func withSequential(t *testing.T, tr *drg.Trial) *drg.Trial {
	t.Helper()
	var ids []drg.ThreadID
	for _, th := range tr.Threads {
		ids = append(ids, drg.ThreadID{Node: th.Node, Context: th.Context, Thread: th.Thread})
	}
	b, err := drg.NewBuilder(ids)
	if err != nil {
		t.Fatal(err)
	}
	m := b.Metric("TIME")
	nt := len(tr.Threads)
	for _, f := range tr.Flat() {
		n := b.Node(tr.Nodes[f].Name)
		for th := range nt {
			c := f*nt + th
			if tr.Present.Get(c) {
				b.AddCalls(n, th, tr.Calls[c], tr.Subroutines[c])
				b.AddValues(n, th, m, tr.Values[0].Exclusive[c], tr.Values[0].Inclusive[c])
			}
		}
	}
	seq := b.Node("seq_region")
	b.AddCalls(seq, 0, 1, 0)
	b.AddValues(seq, 0, m, 40, 40)
	out, err := b.Finish(tr.Name, tr.Source)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestMultiRegionGenerated(t *testing.T) {
	s := lawSeries(t, []int{1, 2, 4, 8}, 2, progLaw, testLaws, nil)
	for i := range s {
		s[i].Trial = withSequential(t, s[i].Trial)
	}
	res, err := MultiRegion(s, "_region$", MultiRegionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := res.Validate(); err != nil {
		t.Fatal(err)
	}
	if res.Analysis != "multiregion" || res.Params["regions"] != "_region$" || res.Params["top"] != "all" {
		t.Errorf("header %v %v", res.Analysis, res.Params)
	}
	tb := mustTable(t, res, "regions")
	if tb.NumRows() != 6*4 {
		t.Fatalf("%d rows, want 24 (6 regions × 4 experiments)", tb.NumRows())
	}
	if tb.Find("region", "main") >= 0 {
		t.Error("main does not match the pattern")
	}
	// Ordered by the largest exclusive value in any experiment: inv (800),
	// const (50), seq (40), ...
	if tb.Text("region", 0) != "inv_region" || tb.Text("region", 4) != "const_region" || tb.Text("region", 8) != "seq_region" {
		t.Errorf("order: %s, %s, %s", tb.Text("region", 0), tb.Text("region", 4), tb.Text("region", 8))
	}
	for _, l := range testLaws {
		i := row(t, tb, "region", l.name)
		for k, p := range []float64{1, 2, 4, 8} {
			if tb.Num("p", i+k) != p || tb.Text("experiment", i+k) != s[k].Name {
				t.Errorf("%s row %d: p %v %s", l.name, k, tb.Num("p", i+k), tb.Text("experiment", i+k))
			}
			near(t, l.name+" exclusive", tb.Num("exclusive", i+k), l.f(p))
			near(t, l.name+" inclusive", tb.Num("inclusive", i+k), l.f(p))
			near(t, l.name+" percent", tb.Num("exclusive_percent", i+k), 100*l.f(p)/progLaw(p))
			if tb.Num("processes", i+k) != p {
				t.Errorf("%s processes %v at p = %v", l.name, tb.Num("processes", i+k), p)
			}
		}
	}
	i := row(t, tb, "region", "seq_region")
	if tb.Num("processes", i+3) != 1 || tb.Num("exclusive", i+3) != 40 {
		t.Errorf("seq region at p=8: %v processes, %v", tb.Num("processes", i+3), tb.Num("exclusive", i+3))
	}
	findings := strings.Join(res.Findings, "\n")
	for _, want := range []string{
		"const_region stays almost constant",
		"lin_region grows with p",
		"seq_region runs on one process only in 3 experiments",
	} {
		if !strings.Contains(findings, want) {
			t.Errorf("no finding %q in\n%s", want, findings)
		}
	}
	if strings.Contains(findings, "inv_region stays") || strings.Contains(findings, "inv_region runs on one") {
		t.Errorf("inv_region scales:\n%s", findings)
	}

	// No pattern: the top regions by their largest exclusive value.
	res, err = MultiRegion(s, "", MultiRegionOptions{Top: 2})
	if err != nil {
		t.Fatal(err)
	}
	tb = mustTable(t, res, "regions")
	if tb.NumRows() != 8 || tb.Text("region", 0) != "inv_region" || tb.Text("region", 4) != "main" || res.Params["top"] != "2" {
		t.Errorf("top 2: %d rows, %s, %s", tb.NumRows(), tb.Text("region", 0), tb.Text("region", 4))
	}
	// The mean aggregate: thread 0.0.0 holds v, the others otherShare*v.
	res, err = MultiRegion(s, "^inv_region$", MultiRegionOptions{SeriesOptions: SeriesOptions{Aggregate: "mean"}})
	if err != nil {
		t.Fatal(err)
	}
	tb = mustTable(t, res, "regions")
	n := 8.0 * 2
	near(t, "mean at p=8", tb.Num("exclusive", 3), 100*(1+(n-1)*otherShare(8))/n)

	_, err = MultiRegion(s, "nothing_matches", MultiRegionOptions{})
	wantErr(t, "no match", err, "nothing_matches")
	_, err = MultiRegion(s, "(", MultiRegionOptions{})
	wantErr(t, "bad pattern", err, "pattern")
}

// TestMultiRegionAbsent: a region absent from an experiment has NaN values
// and 0 processes there.
func TestMultiRegionAbsent(t *testing.T) {
	s := lawSeries(t, []int{1, 2}, 1, progLaw, testLaws, nil)
	s[1].Trial = lawTrial(t, "p2", 2, 1, progLaw, testLaws[:2], nil)
	res, err := MultiRegion(s, "^log_region$", MultiRegionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tb := mustTable(t, res, "regions")
	if tb.NumRows() != 2 || !math.IsNaN(tb.Num("exclusive", 1)) || tb.Num("processes", 1) != 0 || !math.IsNaN(tb.Num("exclusive_percent", 1)) {
		t.Errorf("absent region: %d rows, %v, %v", tb.NumRows(), tb.Num("exclusive", 1), tb.Num("processes", 1))
	}
}
