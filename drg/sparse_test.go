package drg

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"testing"
)

// randomCell is one value given to both builders of sparsePair.
type randomCell struct {
	node                   string
	th                     int
	calls, subrs, ex, incl float64
	metric                 string
}

// sparsePair builds one random small trial twice from the same cells:
// densely, and sparsely with StartSparse called after a random number of
// cells (0: before any), so that both the conversion of dense columns and
// the sparse adding are exercised. Some cells are given twice (summed),
// some names are callpaths, and "f" / "f [THROTTLED]" pairs occur.
func sparsePair(t *testing.T, seed uint64) (dense, sparse *Trial) {
	r := rand.New(rand.NewPCG(seed, 7))
	nt := 1 + r.IntN(12)
	ids := make([]ThreadID, nt)
	for i := range ids {
		ids[i] = ThreadID{Node: i / 2, Thread: i % 2}
	}
	names := []string{"main", "main => f", "f", "g", "main => g", "h [THROTTLED]", "main => h", "main => g => f", "u"}
	metrics := []string{"TIME", "PAPI_FP_OPS"}[:1+r.IntN(2)]
	var cells []randomCell
	for range r.IntN(40) {
		cells = append(cells, randomCell{node: names[r.IntN(len(names))], th: r.IntN(nt), metric: metrics[r.IntN(len(metrics))],
			calls: float64(r.IntN(5)), subrs: float64(r.IntN(3)), ex: r.Float64() * 100, incl: 100 + r.Float64()*100})
	}
	switchAt := r.IntN(len(cells) + 1)
	build := func(sparse bool) *Trial {
		b, err := NewBuilder(ids)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range metrics {
			b.Metric(m)
		}
		for i, c := range cells {
			if sparse && i == switchAt {
				b.StartSparse()
			}
			n := b.Node(c.node)
			b.AddCalls(n, c.th, c.calls, c.subrs)
			b.AddValues(n, c.th, b.Metric(c.metric), c.ex, c.incl)
		}
		if sparse {
			b.StartSparse()
		}
		tr, err := b.Finish("random", Source{})
		if err != nil {
			t.Fatal(err)
		}
		return tr
	}
	return build(false), build(true)
}

// TestSparseEqualsDense checks, on random small trials, that a trial
// stored sparsely reads the same as the same trial stored densely: every
// cell's presence and values, the rows, the structure, the derived
// statistics (the "nulls as 0" standard deviation, computed in closed form
// for the sparse layout, to 1e-12 relative), the main region and values,
// and Describe; made dense again (MakeDense), its columns are the dense
// trial's.
func TestSparseEqualsDense(t *testing.T) {
	for seed := range uint64(300) {
		d, s := sparsePair(t, seed)
		if !s.IsSparse() || d.IsSparse() {
			t.Fatalf("seed %d: layouts %v %v", seed, d.IsSparse(), s.IsSparse())
		}
		if !reflect.DeepEqual(d.Nodes, s.Nodes) || !reflect.DeepEqual(d.Regions, s.Regions) {
			t.Fatalf("seed %d: structure differs:\n%v\n%v", seed, d.Nodes, s.Nodes)
		}
		if d.PresentCells() != s.PresentCells() {
			t.Fatalf("seed %d: %d and %d cells", seed, d.PresentCells(), s.PresentCells())
		}
		for n := range d.Nodes {
			if d.RowLen(n) != s.RowLen(n) {
				t.Fatalf("seed %d node %d: rows of %d and %d", seed, n, d.RowLen(n), s.RowLen(n))
			}
			for th := range d.Threads {
				if d.Has(n, th) != s.Has(n, th) {
					t.Fatalf("seed %d: presence of (%d, %d) differs", seed, n, th)
				}
				for _, kind := range []int{ColInclusive, ColExclusive, ColCalls, ColSubroutines} {
					for m := range d.Metrics {
						dv, dok := d.Col(kind, m).At(n, th)
						sv, sok := s.Col(kind, m).At(n, th)
						if dv != sv || dok != sok {
							t.Fatalf("seed %d: column %d metric %d cell (%d, %d): %v/%v and %v/%v", seed, kind, m, n, th, dv, dok, sv, sok)
						}
					}
				}
			}
			var dr, sr []float64
			for th, v := range d.Col(ColExclusive, 0).Row(n) {
				dr = append(dr, float64(th), v)
			}
			for th, v := range s.Col(ColExclusive, 0).Row(n) {
				sr = append(sr, float64(th), v)
			}
			if !reflect.DeepEqual(dr, sr) {
				t.Fatalf("seed %d node %d: rows %v and %v", seed, n, dr, sr)
			}
		}
		for m := range d.Metrics {
			if !reflect.DeepEqual(d.MainInclusive(m), s.MainInclusive(m)) || d.MainRegion(m) != s.MainRegion(m) {
				t.Fatalf("seed %d: main values differ", seed)
			}
		}
		sameStatistics(t, seed, d.Statistics(), s.Statistics())
		if !reflect.DeepEqual(d.Tree(), s.Tree()) || !reflect.DeepEqual(Describe(d, 5), Describe(s, 5)) {
			t.Fatalf("seed %d: tree or description differs", seed)
		}
		if err := s.MakeDense("test"); err != nil || s.IsSparse() || !sameDense(d, s) {
			t.Fatalf("seed %d: made dense (%v), the columns differ from the dense trial's", seed, err)
		}
	}
}

// sameDense reports whether two dense trials' columns hold the same
// values and presence bits (an empty column and nil are the same).
func sameDense(a, b *Trial) bool {
	cols := func(t *Trial) [][]float64 {
		out := [][]float64{t.Calls, t.Subroutines}
		for _, v := range t.Values {
			out = append(out, v.Inclusive, v.Exclusive)
		}
		return out
	}
	ca, cb := cols(a), cols(b)
	if len(ca) != len(cb) || a.Present.Len() != b.Present.Len() {
		return false
	}
	for i := range ca {
		if !slices.Equal(ca[i], cb[i]) {
			return false
		}
	}
	for c := range a.Present.Len() {
		if a.Present.Get(c) != b.Present.Get(c) {
			return false
		}
	}
	return true
}

// sameStatistics compares two trials' statistics value by value.
func sameStatistics(t *testing.T, seed uint64, a, b *Statistics) {
	t.Helper()
	if !reflect.DeepEqual(a.Count, b.Count) {
		t.Fatalf("seed %d: counts %v and %v", seed, a.Count, b.Count)
	}
	cols := func(s *Statistics) []Column {
		return append(append([]Column{s.Calls, s.Subroutines}, s.Inclusive...), s.Exclusive...)
	}
	ca, cb := cols(a), cols(b)
	for i := range ca {
		for _, d := range DerivedThreads {
			x, y := ca[i].Get(d), cb[i].Get(d)
			for n := range x {
				if math.Abs(x[n]-y[n]) > 1e-12*max(1, math.Abs(x[n])) {
					t.Fatalf("seed %d: column %d %s of node %d: %v and %v", seed, i, d, n, x[n], y[n])
				}
			}
		}
	}
}

// TestSparseBuilderFor8000Ranks builds the trial of 8,000 ranks that each
// have a timer of their own besides "main" with Builder.Sparse set: it
// goes sparse once the dense layout would be too sparse (instead of being
// refused, see TestSparseTrialRefused), holds 16,000 cells, not 64
// million: the finished trial retains under 8 MB (the dense one 2 GB),
// building it allocates under 64 MB in all (the dense columns grow to
// SparseFloorCells before the switch; it was 406 MB with the switch at
// DenseFloorCells), and its statistics count each rank's timer once.
func TestSparseBuilderFor8000Ranks(t *testing.T) {
	const ranks = 8000
	ids := make([]ThreadID, ranks)
	for i := range ids {
		ids[i] = ThreadID{Node: i}
	}
	var tr *Trial
	var total runtime.MemStats
	runtime.ReadMemStats(&total)
	allocBefore := total.TotalAlloc
	alloc := retainedBy(func() {
		b, err := NewBuilder(ids)
		if err != nil {
			t.Fatal(err)
		}
		b.Sparse = true
		m := b.Metric("TIME")
		for r := range ranks {
			b.AddValues(b.Node("main"), r, m, 1, 2)
			b.AddValues(b.Node(fmt.Sprintf("own %d", r)), r, m, float64(r), float64(r))
		}
		if tr, err = b.Finish("sparse", Source{}); err != nil {
			t.Fatal(err)
		}
	})
	if !tr.IsSparse() || tr.PresentCells() != 2*ranks || len(tr.Nodes) != ranks+1 {
		t.Fatalf("sparse %v, %d cells, %d nodes", tr.IsSparse(), tr.PresentCells(), len(tr.Nodes))
	}
	runtime.ReadMemStats(&total)
	t.Logf("retains %d KiB, allocated %d MiB in all", alloc>>10, (total.TotalAlloc-allocBefore)>>20)
	if alloc > 8<<20 || total.TotalAlloc-allocBefore > 64<<20 {
		t.Errorf("retains %d MB, allocated %d MB", alloc>>20, (total.TotalAlloc-allocBefore)>>20)
	}
	st := tr.Statistics()
	own := tr.NodeIndex("own 4321")
	main := tr.NodeIndex("main")
	if st.Count[own] != 1 || st.Exclusive[0].Total[own] != 4321 || st.Exclusive[0].MeanAll[own] != 4321.0/ranks ||
		st.Count[main] != ranks || st.Inclusive[0].Total[main] != 2*ranks {
		t.Errorf("statistics: count %d total %v mean %v; main count %d total %v", st.Count[own], st.Exclusive[0].Total[own],
			st.Exclusive[0].MeanAll[own], st.Count[main], st.Inclusive[0].Total[main])
	}
	if err := tr.MakeDense("cluster"); err == nil {
		t.Error("MakeDense accepted a sparse trial")
	}
}

// retainedBy runs f and returns the growth of the live heap after it
// (what f's results hold).
func retainedBy(f func()) int64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.GC()
	runtime.ReadMemStats(&after)
	return int64(after.HeapAlloc) - int64(before.HeapAlloc)
}
