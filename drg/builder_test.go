package drg

import (
	"math"
	"testing"
)

// handTrial builds a 3-thread trial by hand:
//
//	main     on threads 0,1,2: excl 10, 20, 30; incl 100, 200, 300
//	main => f on threads 0,2:  excl 5, 15; incl 5, 15; calls 1, 3
//	g        on thread 1 only: excl 7, incl 7 (flat only)
func handTrial(t *testing.T) *Trial {
	t.Helper()
	b, err := NewBuilder([]ThreadID{{2, 0, 0}, {0, 0, 0}, {1, 0, 0}})
	if err != nil {
		t.Fatal(err)
	}
	m := b.Metric("TIME")
	main := b.Node("main")
	b.SetGroups(main, "TAU_DEFAULT")
	f := b.Node("main => f")
	g := b.Node("g")
	for th, v := range []float64{10, 20, 30} {
		b.AddCalls(main, th, 1, 1)
		b.AddValues(main, th, m, v, 10*v)
	}
	b.AddCalls(f, 0, 1, 0)
	b.AddValues(f, 0, m, 5, 5)
	b.AddCalls(f, 2, 3, 0)
	b.AddValues(f, 2, m, 15, 15)
	b.AddCalls(g, 1, 1, 0)
	b.AddValues(g, 1, m, 7, 7)
	b.AddValues(g, 1, m, -1, 0) // negative: replaced by 0, warned
	tr, err := b.Finish("hand", Source{Format: "profile"})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func TestBuilderStructure(t *testing.T) {
	tr := handTrial(t)
	if tr.Threads[0].Node != 0 || tr.Threads[2].Node != 2 || tr.Threads[2].Index != 2 {
		t.Errorf("threads not sorted: %+v", tr.Threads)
	}
	// "main => f" made the flat node f (no values) and region f.
	if len(tr.Nodes) != 4 || len(tr.Regions) != 3 {
		t.Fatalf("nodes %+v regions %+v", tr.Nodes, tr.Regions)
	}
	f := tr.NodeIndex("main => f")
	if tr.Nodes[f].Parent != tr.NodeIndex("main") || tr.Nodes[f].Depth != 1 || tr.Regions[tr.Nodes[f].Region].Name != "f" {
		t.Errorf("node %+v", tr.Nodes[f])
	}
	if len(tr.Warnings) != 1 {
		t.Errorf("warnings %q", tr.Warnings)
	}
	if tr.Metadata["File Type Name"] != "TAU profiles" {
		t.Errorf("metadata %v", tr.Metadata)
	}
	if n, c, th, total := tr.Layout(); n != 3 || c != 1 || th != 1 || total != 3 {
		t.Errorf("layout %d %d %d %d", n, c, th, total)
	}
	if _, err := NewBuilder([]ThreadID{{0, 0, 1}, {0, 0, 1}}); err == nil {
		t.Error("duplicate thread accepted")
	}
}

func TestStatisticsByHand(t *testing.T) {
	tr := handTrial(t)
	st := tr.Statistics()
	f := tr.NodeIndex("main => f")
	g := tr.NodeIndex("g")
	main := tr.NodeIndex("main")
	ex := st.Exclusive[0]
	near := func(what string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-12*math.Max(1, math.Abs(want)) {
			t.Errorf("%s = %v, want %v", what, got, want)
		}
	}
	// main: 10, 20, 30.
	near("main mean", ex.Mean[main], 20)
	near("main stddev", ex.StdDev[main], math.Sqrt(200.0/3))
	near("main total", ex.Total[main], 60)
	// f: present on 2 of 3 threads, 5 and 15.
	near("f mean", ex.Mean[f], 10)
	near("f mean all", ex.MeanAll[f], 20.0/3)
	near("f stddev", ex.StdDev[f], 5)
	// all: 5, 0, 15 around 20/3: deviations -5/3, -20/3, 25/3.
	near("f stddev all", ex.StdDevAll[f], math.Sqrt((25.0/9+400.0/9+625.0/9)/3))
	near("f min", ex.Min[f], 5)
	near("f max", ex.Max[f], 15)
	near("f calls mean", st.Calls.Mean[f], 2)
	near("f calls mean all", st.Calls.MeanAll[f], 4.0/3)
	// g: one thread, 7 (the negative value was replaced by 0 and added).
	near("g stddev", ex.StdDev[g], 0)
	near("g min", ex.Min[g], 7)
	near("g mean all", ex.MeanAll[g], 7.0/3)
	if st.Count[f] != 2 || st.Count[g] != 1 || st.Count[main] != 3 {
		t.Errorf("counts %v", st.Count)
	}
	for _, d := range DerivedThreads {
		if ex.Get(d) == nil {
			t.Errorf("no column for %v", d)
		}
	}
}

func TestPercentagesAndViews(t *testing.T) {
	tr := handTrial(t)
	main := tr.MainInclusive(0)
	if main[0] != 100 || main[1] != 200 || main[2] != 300 {
		t.Errorf("main inclusive %v", main)
	}
	if p := Percent(15, main[2]); p != 5 {
		t.Errorf("percent %v", p)
	}
	if d := DerivedMain(main, Total); d != 600 {
		t.Errorf("total main %v", d)
	}
	if d := DerivedMain(main, Mean); d != 200 {
		t.Errorf("mean main %v", d)
	}
	if r := tr.MainRegion(0); tr.Regions[r].Name != "main" {
		t.Errorf("main region %d", r)
	}
	if flat := tr.Flat(); len(flat) != 3 {
		t.Errorf("flat %v", flat)
	}
	// g is measured but in no callpath: the tree is not complete.
	tree := tr.Tree()
	if tree.Kind != PartialCallpaths || len(tree.Roots) != 1 || tree.Size() != 2 {
		t.Errorf("tree %+v", tree)
	}
}
