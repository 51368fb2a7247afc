package callquery

import (
	"math"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// cp is one call-graph node of a hand-made trial: its path, and its mean
// inclusive and exclusive TIME (thread 0 has half, thread 1 one and a
// half times the mean, so the mean over both is the value given).
type cp struct {
	path       string
	incl, excl float64
}

// forest is the test trial: two trees, rooted at main and worker.
//
//	main 130/0
//	├── init 20/5
//	│   ├── MPI_Init() 5/5
//	│   └── read 10/10
//	├── solve 100/10
//	│   └── step 90/10
//	│       ├── compute [{solver.c} {10,1}-{20,1}] 50/40
//	│       │   └── blas [{blas.f} {5,1}-{9,1}] 10/10
//	│       └── exchange 30/5
//	│           ├── MPI_Send() 15/15
//	│           └── MPI_Recv() 10/10
//	└── finalize 10/5
//	    └── MPI_Finalize() 5/5
//	worker 40/10
//	└── exchange 30/5
//	    ├── MPI_Send() 20/20
//	    └── MPI_Recv() 5/5
var forest = []cp{
	{"main", 130, 0},
	{"main => init", 20, 5},
	{"main => init => MPI_Init()", 5, 5},
	{"main => init => read", 10, 10},
	{"main => solve", 100, 10},
	{"main => solve => step", 90, 10},
	{"main => solve => step => compute [{solver.c} {10,1}-{20,1}]", 50, 40},
	{"main => solve => step => compute [{solver.c} {10,1}-{20,1}] => blas [{blas.f} {5,1}-{9,1}]", 10, 10},
	{"main => solve => step => exchange", 30, 5},
	{"main => solve => step => exchange => MPI_Send()", 15, 15},
	{"main => solve => step => exchange => MPI_Recv()", 10, 10},
	{"main => finalize", 10, 5},
	{"main => finalize => MPI_Finalize()", 5, 5},
	{"worker", 40, 10},
	{"worker => exchange", 30, 5},
	{"worker => exchange => MPI_Send()", 20, 20},
	{"worker => exchange => MPI_Recv()", 5, 5},
}

// groups of the forest's regions.
var forestGroups = map[string]string{
	"MPI_Init()": "MPI", "MPI_Send()": "MPI", "MPI_Recv()": "MPI", "MPI_Finalize()": "MPI",
	"read": "TAU_IO | TAU_USER",
}

// build makes a trial of two threads from the nodes: each node gets its
// values, each region's flat node (when not listed) the sum of its
// contexts' exclusive values and of the inclusive values of its outermost
// contexts, and a second metric RATIO = exclusive/exclusive (1, or NaN for 0/0).
func build(t testing.TB, nodes []cp, groups map[string]string) *drg.Trial {
	t.Helper()
	b, err := drg.NewBuilder([]drg.ThreadID{{Node: 0}, {Node: 1}})
	if err != nil {
		t.Fatal(err)
	}
	tm, ratio := b.Metric("TIME"), b.Metric("RATIO")
	listed := map[string]bool{}
	for _, n := range nodes {
		listed[n.path] = true
	}
	add := func(name string, incl, excl float64) {
		i := b.Node(name)
		for th, f := range []float64{0.5, 1.5} {
			b.AddValues(i, th, tm, excl*f, incl*f)
			b.AddValues(i, th, ratio, excl/excl, excl/excl)
			b.AddCalls(i, th, 1, 0)
		}
	}
	flatIncl, flatExcl := map[string]float64{}, map[string]float64{}
	var order []string
	for _, n := range nodes {
		add(n.path, n.incl, n.excl)
		parts := strings.Split(n.path, drg.CallpathSeparator)
		leaf := parts[len(parts)-1]
		if len(parts) == 1 || listed[leaf] {
			continue
		}
		if _, ok := flatExcl[leaf]; !ok {
			order = append(order, leaf)
		}
		flatExcl[leaf] += n.excl
		if !slices.Contains(parts[:len(parts)-1], leaf) {
			flatIncl[leaf] += n.incl
		}
	}
	for _, leaf := range order {
		add(leaf, flatIncl[leaf], flatExcl[leaf])
	}
	for name, g := range groups {
		b.SetGroups(b.Node(name), g)
	}
	tr, err := b.Finish("forest", drg.Source{Format: "profile"})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// run parses and matches q on tr, failing the test on an error.
func run(t *testing.T, tr *drg.Trial, q string) *Result {
	t.Helper()
	pq, err := Parse(q)
	if err != nil {
		t.Fatalf("Parse(%q): %v", q, err)
	}
	r, err := pq.Match(tr)
	if err != nil {
		t.Fatalf("Match(%q): %v", q, err)
	}
	return r
}

// names returns the call paths of the result's nodes, sorted.
func names(tr *drg.Trial, r *Result) []string {
	var out []string
	for _, n := range r.Nodes {
		out = append(out, tr.Nodes[n].Name)
	}
	sort.Strings(out)
	return out
}

// expect checks that q matches exactly the nodes with the given paths.
func expect(t *testing.T, tr *drg.Trial, q string, want ...string) {
	t.Helper()
	got := names(tr, run(t, tr, q))
	w := append([]string(nil), want...)
	sort.Strings(w)
	if !slices.Equal(got, w) {
		t.Errorf("%s\n got %d nodes:\n  %s\nwant %d:\n  %s", q, len(got), strings.Join(got, "\n  "), len(w), strings.Join(w, "\n  "))
	}
}

const (
	cmpt  = "compute [{solver.c} {10,1}-{20,1}]"
	blas  = "blas [{blas.f} {5,1}-{9,1}]"
	stepP = "main => solve => step"
	exch  = stepP + " => exchange"
)

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }
