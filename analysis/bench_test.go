package analysis

import (
	"fmt"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// benchTrial generates a trial of nt threads with a main region and nr
// children (every tenth an MPI routine), values varying by thread.
func benchTrial(b *testing.B, nt, nr int) *drg.Trial { return benchLayout(b, nt, nr, false) }

// benchLayout is benchTrial stored sparsely (drg.SparseValues) when
// sparse is set.
func benchLayout(b *testing.B, nt, nr int, sparse bool) *drg.Trial {
	b.Helper()
	ids := make([]drg.ThreadID, nt)
	for i := range ids {
		ids[i] = drg.ThreadID{Node: i}
	}
	bl, err := drg.NewBuilder(ids)
	if err != nil {
		b.Fatal(err)
	}
	if sparse {
		bl.StartSparse()
	}
	m := bl.Metric("TIME")
	main := bl.Node("main")
	kids := make([]int, nr)
	flats := make([]int, nr)
	for r := range kids {
		name := fmt.Sprintf("f%d", r)
		if r%10 == 0 {
			name = fmt.Sprintf("MPI_Op%d()", r)
		}
		kids[r] = bl.Node("main => " + name)
		flats[r] = bl.Node(name)
	}
	for th := 0; th < nt; th++ {
		var sum float64
		for r := range kids {
			v := float64((th*7+r*13)%101 + 1)
			sum += v
			bl.AddCalls(kids[r], th, 1, 0)
			bl.AddValues(kids[r], th, m, v, v)
			bl.AddCalls(flats[r], th, 1, 0)
			bl.AddValues(flats[r], th, m, v, v)
		}
		bl.AddCalls(main, th, 1, float64(nr))
		bl.AddValues(main, th, m, 10, sum+10)
	}
	tr, err := bl.Finish("bench", drg.Source{Format: "profile"})
	if err != nil {
		b.Fatal(err)
	}
	return tr
}

// BenchmarkSparseLayout runs imbalance, regions and summary on one trial
// of 1,024 threads × 200 regions (every cell present) stored densely and
// sparsely: the cost of reading values through SparseValues against the
// dense columns, in the same run.
func BenchmarkSparseLayout(b *testing.B) {
	for _, sparse := range []bool{false, true} {
		tr := benchLayout(b, 1024, 200, sparse)
		layout := map[bool]string{false: "dense", true: "sparse"}[sparse]
		b.Run("imbalance/"+layout, func(b *testing.B) {
			for b.Loop() {
				if _, err := Imbalance(tr, ImbalanceOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("regions/"+layout, func(b *testing.B) {
			for b.Loop() {
				if _, err := Regions(tr, RegionsOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("summary/"+layout, func(b *testing.B) {
			for b.Loop() {
				if _, err := Summary(tr, SummaryOptions{By: "thread"}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkAnalyses(b *testing.B) {
	tr := benchTrial(b, 1024, 200)
	b.Run("imbalance", func(b *testing.B) {
		for b.Loop() {
			if _, err := Imbalance(tr, ImbalanceOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("regions", func(b *testing.B) {
		for b.Loop() {
			if _, err := Regions(tr, RegionsOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("summary", func(b *testing.B) {
		for b.Loop() {
			if _, err := Summary(tr, SummaryOptions{By: "thread"}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("correlate", func(b *testing.B) {
		for b.Loop() {
			if _, err := Correlate(tr, CorrelateOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
