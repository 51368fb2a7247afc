package analysis

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// randomPair builds one random small trial twice from the same cells,
// densely and sparsely (drg.Builder.StartSparse before any value): threads
// on a few processes, flat and callpath nodes, MPI and computation
// regions, two metrics, some cells given twice.
func randomPair(t *testing.T, seed uint64) (dense, sparse *drg.Trial) {
	r := rand.New(rand.NewPCG(seed, 11))
	nt := 1 + r.IntN(10)
	ids := make([]drg.ThreadID, nt)
	for i := range ids {
		ids[i] = drg.ThreadID{Node: i / 3, Thread: i % 3}
	}
	names := []string{"main", "main => compute", "compute", "MPI_Send()", "main => MPI_Send()", "MPI_Recv()",
		"main => compute => MPI_Recv()", "io_write", "main => io_write"}
	type cell struct {
		name      string
		th, m     int
		c, ex, in float64
	}
	var cells []cell
	for th := range nt { // every thread has main, the largest inclusive value
		cells = append(cells, cell{name: "main", th: th, c: 1, ex: r.Float64() * 10, in: 1000 + r.Float64()*100})
	}
	for range r.IntN(60) {
		cells = append(cells, cell{name: names[r.IntN(len(names))], th: r.IntN(nt), m: r.IntN(2),
			c: float64(1 + r.IntN(4)), ex: r.Float64() * 100, in: 100 + r.Float64()*100})
	}
	build := func(sparse bool) *drg.Trial {
		b, err := drg.NewBuilder(ids)
		if err != nil {
			t.Fatal(err)
		}
		if sparse {
			b.StartSparse()
		}
		ms := []int{b.Metric("TIME"), b.Metric("PAPI_TOT_CYC")}
		for _, c := range cells {
			n := b.Node(c.name)
			b.AddCalls(n, c.th, c.c, 0)
			b.AddValues(n, c.th, ms[c.m], c.ex, c.in)
		}
		tr, err := b.Finish(fmt.Sprintf("random %d", seed), drg.Source{Format: "profile"})
		if err != nil {
			t.Fatal(err)
		}
		return tr
	}
	return build(false), build(true)
}

// TestSparseAnalysesEqualDense runs imbalance (flat and callpath,
// exclusive and inclusive), regions (every scope, with the children of
// main), summary (by thread and by process) and compare (against another
// random trial of the same layout) on random small trials
// stored densely and sparsely: results (every table, parameter and
// finding) and errors are the same.
func TestSparseAnalysesEqualDense(t *testing.T) {
	runs := map[string]func(*drg.Trial) (*Result, error){}
	for _, cp := range []bool{false, true} {
		for _, incl := range []bool{false, true} {
			runs[fmt.Sprintf("imbalance callpath=%v inclusive=%v", cp, incl)] = func(tr *drg.Trial) (*Result, error) {
				return Imbalance(tr, ImbalanceOptions{Callpath: cp, Inclusive: incl})
			}
		}
	}
	for _, of := range []string{"", "max", "total", "0.0.1", "1"} {
		runs["regions of "+of] = func(tr *drg.Trial) (*Result, error) {
			return Regions(tr, RegionsOptions{Of: of, Top: All, Children: "main"})
		}
	}
	for _, by := range []string{"thread", "process"} {
		runs["summary by "+by] = func(tr *drg.Trial) (*Result, error) { return Summary(tr, SummaryOptions{By: by}) }
	}
	compared := 0
	for seed := range uint64(200) {
		d, s := randomPair(t, seed)
		d2, s2 := randomPair(t, seed+1000)
		for _, incl := range []bool{false, true} {
			runs[fmt.Sprintf("compare inclusive=%v", incl)] = func(tr *drg.Trial) (*Result, error) {
				other := d2
				if tr.IsSparse() {
					other = s2
				}
				return Compare(tr, other, CompareOptions{Inclusive: incl})
			}
		}
		if !s.IsSparse() {
			t.Fatal("not sparse")
		}
		for name, run := range runs {
			rd, errd := run(d)
			rs, errs := run(s)
			if fmt.Sprint(errd) != fmt.Sprint(errs) {
				t.Fatalf("seed %d %s: errors %v and %v", seed, name, errd, errs)
			}
			if errd != nil {
				continue
			}
			compared++
			if a, b := fmt.Sprintf("%+v", *rd), fmt.Sprintf("%+v", *rs); a != b {
				t.Fatalf("seed %d %s:\ndense  %s\nsparse %s", seed, name, a, b)
			}
		}
	}
	if compared < 1000 {
		t.Errorf("only %d results compared", compared)
	}
}
