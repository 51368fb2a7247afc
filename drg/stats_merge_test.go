package drg

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestStatsMergerMatchesWhole splits random trials into runs of threads,
// merges the runs' statistics and compares them with the whole trial's:
// counts, minima and maxima exactly, the rest within rounding. Runs lack
// nodes other runs have, and some threads have no record for a node, so
// the "nulls as 0" statistics count absent threads.
func TestStatsMergerMatchesWhole(t *testing.T) {
	for seed := range uint64(200) {
		r := rand.New(rand.NewPCG(seed, 11))
		nt := 1 + r.IntN(20)
		names := []string{"main", "main => f", "f", "g", "main => g", "u"}
		type cell struct {
			node      string
			th        int
			ex, incl  float64
			calls, sb float64
		}
		var cells []cell
		for range 1 + r.IntN(60) {
			cells = append(cells, cell{node: names[r.IntN(len(names))], th: r.IntN(nt), ex: r.Float64() * 1e6, incl: 1e6 + r.Float64()*1e6,
				calls: float64(1 + r.IntN(9)), sb: float64(r.IntN(4))})
		}
		build := func(lo, hi int) *Trial {
			ids := make([]ThreadID, 0, hi-lo)
			for th := lo; th < hi; th++ {
				ids = append(ids, ThreadID{Node: th})
			}
			b, err := NewBuilder(ids)
			if err != nil {
				t.Fatal(err)
			}
			b.Metric("TIME")
			for _, c := range cells {
				if c.th < lo || c.th >= hi {
					continue
				}
				n := b.Node(c.node)
				b.AddCalls(n, c.th-lo, c.calls, c.sb)
				b.AddValues(n, c.th-lo, 0, c.ex, c.incl)
			}
			tr, err := b.Finish("t", Source{})
			if err != nil {
				t.Fatal(err)
			}
			return tr
		}
		whole := build(0, nt)
		m := NewStatsMerger(0, 1)
		index := map[string]int{}
		for lo := 0; lo < nt; {
			hi := min(nt, lo+1+r.IntN(5))
			part := build(lo, hi)
			nodeOf := make([]int, len(part.Nodes))
			for i, n := range part.Nodes {
				g, ok := index[n.Name]
				if !ok {
					g = len(index)
					index[n.Name] = g
				}
				nodeOf[i] = g
			}
			m.Grow(len(index))
			m.Add(part.Statistics(), nodeOf, hi-lo)
			lo = hi
		}
		got, want := m.Statistics(), whole.Statistics()
		for i, n := range whole.Nodes {
			g, ok := index[n.Name]
			if !ok {
				if want.Count[i] != 0 {
					t.Fatalf("seed %d: node %q with %d records is in no part", seed, n.Name, want.Count[i])
				}
				continue
			}
			if got.Count[g] != want.Count[i] {
				t.Fatalf("seed %d: node %q: count %d, want %d", seed, n.Name, got.Count[g], want.Count[i])
			}
			cols := []struct {
				name    string
				got, wt *Column
			}{{"calls", &got.Calls, &want.Calls}, {"subroutines", &got.Subroutines, &want.Subroutines},
				{"inclusive", &got.Inclusive[0], &want.Inclusive[0]}, {"exclusive", &got.Exclusive[0], &want.Exclusive[0]}}
			for _, c := range cols {
				for _, d := range DerivedThreads {
					a, b := c.got.Get(d)[g], c.wt.Get(d)[i]
					exact := d == Min || d == Max
					if exact && a != b || !exact && math.Abs(a-b) > 1e-12*math.Max(1, math.Abs(b)) {
						t.Fatalf("seed %d: node %q %s %s: merged %v, whole %v", seed, n.Name, c.name, d, a, b)
					}
				}
			}
		}
	}
}
