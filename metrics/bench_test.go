package metrics

import (
	"math/rand/v2"
	"testing"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/vm"
	"github.com/taudb-analyze/taudb-analyze/drg"
)

// generated builds a trial of threads × nodes cells with metrics TIME and
// PAPI_FP_OPS; about 1 cell in 10 is absent and 1 in 50 has a zero time.
func generated(t testing.TB, threads, nodes int) *drg.Trial {
	t.Helper()
	ids := make([]drg.ThreadID, threads)
	for i := range ids {
		ids[i] = drg.ThreadID{Node: i}
	}
	b, err := drg.NewBuilder(ids)
	if err != nil {
		t.Fatal(err)
	}
	tm, fp := b.Metric("TIME"), b.Metric("PAPI_FP_OPS")
	r := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < nodes; n++ {
		node := b.Node("region " + string(rune('A'+n%26)) + string(rune('a'+n/26%26)) + string(rune('0'+n/676)))
		for th := 0; th < threads; th++ {
			if r.IntN(10) == 0 {
				continue
			}
			excl := 1 + r.Float64()*1000
			if r.IntN(50) == 0 {
				excl = 0
			}
			b.AddValues(node, th, tm, excl, excl+r.Float64()*1000)
			b.AddValues(node, th, fp, excl*r.Float64()*100, excl*r.Float64()*200)
			b.AddCalls(node, th, float64(1+r.IntN(5)), float64(r.IntN(3)))
		}
	}
	tr, err := b.Finish("generated", drg.Source{Format: "profile"})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// BenchmarkEvaluate evaluates PAPI_FP_OPS / TIME (and a longer expression)
// on 1024 threads × 500 nodes, reporting the time per cell; each cell is
// evaluated twice (inclusive and exclusive).
func BenchmarkEvaluate(b *testing.B) {
	tr := generated(b, 1024, 500)
	cells := float64(len(tr.Nodes) * len(tr.Threads))
	for _, src := range []string{
		"PAPI_FP_OPS / TIME",
		"TIME > 0 ? (PAPI_FP_OPS / TIME) * 100 + sqrt(CALLS) : 0",
	} {
		e, err := Compile(src, Names(tr))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(src, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := Evaluate(tr, e); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/cells, "ns/cell")
		})
	}
}

// BenchmarkExprVM is the comparison that chose the vector machine: expr's
// own VM run once per cell and pass with a reused environment (a map, as
// metric names are only known at run time, or a struct), computing
// PAPI_FP_OPS / TIME on the same trial.
func BenchmarkExprVM(b *testing.B) {
	tr := generated(b, 1024, 500)
	cells := len(tr.Nodes) * len(tr.Threads)
	time, fp := tr.Values[0], tr.Values[1]
	b.Run("map env", func(b *testing.B) {
		env := map[string]any{"TIME": 0.0, "PAPI_FP_OPS": 0.0}
		prog, err := expr.Compile("PAPI_FP_OPS / TIME", expr.Env(env))
		if err != nil {
			b.Fatal(err)
		}
		var m vm.VM
		out := make([]float64, cells)
		b.ReportAllocs()
		for b.Loop() {
			for _, pass := range [][2][]float64{{time.Inclusive, fp.Inclusive}, {time.Exclusive, fp.Exclusive}} {
				for c := 0; c < cells; c++ {
					if !tr.Present.Get(c) {
						continue
					}
					env["TIME"], env["PAPI_FP_OPS"] = pass[0][c], pass[1][c]
					v, err := m.Run(prog, env)
					if err != nil {
						b.Fatal(err)
					}
					out[c] = v.(float64)
				}
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(cells), "ns/cell")
	})
	b.Run("struct env", func(b *testing.B) {
		type cellEnv struct{ TIME, PAPI_FP_OPS float64 }
		var env cellEnv
		prog, err := expr.Compile("PAPI_FP_OPS / TIME", expr.Env(cellEnv{}))
		if err != nil {
			b.Fatal(err)
		}
		var m vm.VM
		out := make([]float64, cells)
		b.ReportAllocs()
		for b.Loop() {
			for _, pass := range [][2][]float64{{time.Inclusive, fp.Inclusive}, {time.Exclusive, fp.Exclusive}} {
				for c := 0; c < cells; c++ {
					if !tr.Present.Get(c) {
						continue
					}
					env.TIME, env.PAPI_FP_OPS = pass[0][c], pass[1][c]
					v, err := m.Run(prog, &env)
					if err != nil {
						b.Fatal(err)
					}
					out[c] = v.(float64)
				}
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(cells), "ns/cell")
	})
}
