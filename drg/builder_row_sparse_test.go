package drg

import (
	"math/rand/v2"
	"testing"
)

// TestAddRowSparseEqualsDense: rows added with AddRow to a builder that
// stores values sparsely (StartSparse) read the same as the same rows
// added to a dense builder, with and without cols, keep, incl and calls.
func TestAddRowSparseEqualsDense(t *testing.T) {
	for seed := uint64(0); seed < 50; seed++ {
		r := rand.New(rand.NewPCG(seed, 3))
		nt := 2 + r.IntN(10)
		ids := make([]ThreadID, nt)
		for i := range ids {
			ids[i] = ThreadID{Node: i}
		}
		type row struct {
			node, first  int
			cols         []int
			keep         []bool
			excl, incl   [][]float64
			calls, subrs []float64
		}
		var rows []row
		for range 1 + r.IntN(6) {
			n := 1 + r.IntN(nt)
			rw := row{node: r.IntN(3), first: r.IntN(nt - n + 1)}
			if r.IntN(2) == 0 {
				rw.first = 0
				rw.cols = r.Perm(nt)[:n]
			}
			if r.IntN(2) == 0 {
				rw.keep = make([]bool, n)
				for k := range rw.keep {
					rw.keep[k] = r.IntN(3) > 0
				}
			}
			col := func() []float64 {
				c := make([]float64, n)
				for k := range c {
					c[k] = float64(r.IntN(100))
				}
				return c
			}
			rw.excl = [][]float64{col(), col()}
			if r.IntN(2) == 0 {
				rw.incl = [][]float64{col(), col()}
			}
			if r.IntN(2) == 0 {
				rw.calls, rw.subrs = col(), col()
			}
			rows = append(rows, rw)
		}
		build := func(sparse bool) *Trial {
			b, err := NewBuilder(ids)
			if err != nil {
				t.Fatal(err)
			}
			b.Metric("TIME")
			b.Metric("PAPI_TOT_CYC")
			for _, name := range []string{"main", "f", "g"} {
				b.Node(name)
			}
			if sparse {
				b.StartSparse()
			}
			for _, rw := range rows {
				b.AddRow(rw.node, rw.first, rw.cols, rw.keep, rw.excl, rw.incl, rw.calls, rw.subrs)
			}
			tr, err := b.Finish("rows", Source{})
			if err != nil {
				t.Fatal(err)
			}
			return tr
		}
		dense, sparse := build(false), build(true)
		if !sparse.IsSparse() {
			t.Fatalf("seed %d: StartSparse did not make a sparse trial", seed)
		}
		if err := sparse.MakeDense("the test"); err != nil {
			t.Fatal(err)
		}
		if !sameDense(dense, sparse) {
			t.Fatalf("seed %d: AddRow on a sparse builder differs from the dense one", seed)
		}
	}
}
