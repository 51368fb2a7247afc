package analysis

import (
	"github.com/taudb-analyze/taudb-analyze/classify"
	"reflect"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

func TestNodeNames(t *testing.T) {
	tr := handTrial(t)
	// 0.0.1 and 1.0.1 have no host of their own: they take their process's.
	if got, want := NodeNames(tr), []string{"hostA", "hostA", "hostB", "hostB"}; !reflect.DeepEqual(got, want) {
		t.Errorf("node names %v, want %v", got, want)
	}
	bare := build(t, spec{name: "bare", threads: threads("0.0.0", "3.0.0"),
		recs: []rec{{node: "f", th: 0, excl: 1, incl: 1}, {node: "f", th: 1, excl: 1, incl: 1}}})
	if got, want := NodeNames(bare), []string{"0", "3"}; !reflect.DeepEqual(got, want) {
		t.Errorf("no metadata: %v, want %v", got, want)
	}
}

func TestSummaryByHand(t *testing.T) {
	tr := handTrial(t)
	res, err := Summary(tr, SummaryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]string{"metric": "TIME", "by": "node", "node": "all", "value": "exclusive"} {
		if res.Params[k] != v {
			t.Errorf("param %s = %q, want %q", k, res.Params[k], v)
		}
	}
	mt := mustTable(t, res, "members")
	if mt.NumRows() != 2 {
		t.Fatalf("%d members", mt.NumRows())
	}
	// hostA = 0.0.0 + 0.0.1: computation (main excl + work) 70 + 60, MPI
	// 40, OpenMP 30; hostB = 1.0.0 + 1.0.1: computation 80 + 55, MPI 60,
	// I/O (fwrite) 5.
	want := map[string]map[string]float64{
		"hostA": {"computation": 130, "mpi": 40, "openmp": 30, "io": 0, "other": 0, "total": 200,
			"threads": 2, "processes": 1, "main_inclusive": 200, "io_percent": 0, "mpi_percent": 20},
		"hostB": {"computation": 135, "mpi": 60, "openmp": 0, "io": 5, "other": 0, "total": 200,
			"threads": 2, "processes": 1, "main_inclusive": 200, "io_percent": 2.5, "computation_percent": 67.5},
	}
	for host, cols := range want {
		i := row(t, mt, "node", host)
		for c, v := range cols {
			near(t, host+" "+c, mt.Num(c, i), v)
		}
	}
	st := mustTable(t, res, "stats")
	c := row(t, st, "class", "computation")
	near(t, "computation min", st.Num("min", c), 130)
	near(t, "computation max", st.Num("max", c), 135)
	near(t, "computation mean", st.Num("mean", c), 132.5)
	near(t, "computation mean %", st.Num("mean_percent", c), 66.25)
	if st.Text("min_member", c) != "hostA" || st.Text("max_member", c) != "hostB" {
		t.Errorf("computation extremes %s %s", st.Text("min_member", c), st.Text("max_member", c))
	}
	tot := row(t, st, "class", "total")
	near(t, "total mean %", st.Num("mean_percent", tot), 100)

	// Per thread, restricted to hostB (SCALEA's drill-down).
	res, err = Summary(tr, SummaryOptions{By: "thread", Node: "hostB"})
	if err != nil {
		t.Fatal(err)
	}
	mt = mustTable(t, res, "members")
	if mt.NumRows() != 2 || mt.Text("thread", 0) != "1.0.0" || mt.Text("thread", 1) != "1.0.1" {
		t.Fatalf("hostB threads: %d rows", mt.NumRows())
	}
	near(t, "1.0.1 io", mt.Num("io", 1), 5)
	near(t, "1.0.1 computation", mt.Num("computation", 1), 55)
	near(t, "1.0.1 mpi %", mt.Num("mpi_percent", 1), 40)
	if res.Params["node"] != "hostB" || res.Params["by"] != "thread" {
		t.Errorf("params %v", res.Params)
	}

	// Per process: 0 and 1.
	res, err = Summary(tr, SummaryOptions{By: "process"})
	if err != nil {
		t.Fatal(err)
	}
	mt = mustTable(t, res, "members")
	if mt.NumRows() != 2 || mt.Text("process", 1) != "1" {
		t.Fatalf("processes %d", mt.NumRows())
	}
	near(t, "process 1 mpi", mt.Num("mpi", 1), 60)
}

func TestSummaryClasses(t *testing.T) {
	cases := map[string]struct {
		groups string
		class  string
	}{
		"MPI_Send()":                  {"MPI", classify.ClassMPI},
		"MPI_File_write()":            {"MPI", classify.ClassIO},
		"PMPI_Barrier":                {"", classify.ClassMPI},
		"fopen()":                     {"", classify.ClassIO},
		"read()":                      {"TAU_USER", classify.ClassIO},
		"my_read()":                   {"TAU_USER", classify.ClassComputation},
		"ADIOS write":                 {"TAU_USER", classify.ClassIO},
		"omp_set_lock":                {"", classify.ClassOpenMP},
		"OpenMP_BARRIER: x":           {"", classify.ClassOpenMP},
		"barrier enter/exit [OpenMP]": {"", classify.ClassOpenMP},
		"anything":                    {"TAU_OPENMP", classify.ClassOpenMP},
		"for (barrier enter/exit) [OpenMP location: file:a.c <1, 2>]": {"", classify.ClassOpenMP},
		"[SAMPLE] compute [{m.c} {97}]":                               {"TAU_SAMPLE", classify.ClassSampled},
		"[CONTEXT] .TAU application":                                  {"TAU_SAMPLE_CONTEXT", classify.ClassSampled},
		".TAU application":                                            {"TAU_DEFAULT", classify.ClassComputation},
		"TAU_SHUTDOWN":                                                {"", classify.ClassOther},
		"int main(int, char **) C [{m.c} {1,1}-{9,1}]":                {"TAU_DEFAULT", classify.ClassComputation},
	}
	for name, c := range cases {
		// ShortName as drg derives it for a name with a source location.
		short, _, _ := strings.Cut(name, " [{")
		r := drg.Region{Name: name, ShortName: short, Groups: drg.SplitGroups(c.groups)}
		if got := classify.ClassOf(classify.Default(), &r); got != c.class {
			t.Errorf("%q: %s, want %s", name, got, c.class)
		}
	}
	// One classifier for every split: MPI-IO is I/O even without group MPI
	// (the former imbalance split counted it as MPI, and I/O calls as
	// computation), and the overhead category agrees (data movement).
	for _, name := range []string{"MPI_File_open()", "fwrite()"} {
		r := drg.Region{Name: name, ShortName: name}
		k, _ := classify.Classify(classify.Default(), &r)
		if k.Class != classify.ClassIO || k.Category != classify.DataMovement {
			t.Errorf("%s: %s / %s, want io / data movement", name, k.Class, k.Category)
		}
	}
}

// TestSummaryMM7: the 8 ranks of the taucmdr mm trial ran on one machine
// (east02, from the trial metadata): one node with 8 processes; per process
// the classes sum to the flat exclusive values of the rank.
func TestSummaryMM7(t *testing.T) {
	tr := readReal(t, mm7)
	res, err := Summary(tr, SummaryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	mt := mustTable(t, res, "members")
	if mt.NumRows() != 1 || mt.Text("node", 0) != "east02" {
		t.Fatalf("nodes: %d rows, first %q", mt.NumRows(), mt.Text("node", 0))
	}
	near(t, "processes", mt.Num("processes", 0), 8)
	near(t, "threads", mt.Num("threads", 0), 8)
	near(t, "io", mt.Num("io", 0), 0)

	res, err = Summary(tr, SummaryOptions{By: "process", Node: "east02"})
	if err != nil {
		t.Fatal(err)
	}
	mt = mustTable(t, res, "members")
	m := tr.TimeMetric()
	nt := len(tr.Threads)
	main := tr.MainInclusive(m)
	for th := 0; th < nt; th++ {
		var sum float64
		for _, f := range tr.Flat() {
			if tr.Has(f, th) {
				sum += tr.Values[m].Exclusive[f*nt+th]
			}
		}
		near(t, "total", mt.Num("total", th), sum)
		near(t, "main", mt.Num("main_inclusive", th), main[th])
		var pct float64
		for _, c := range splitClasses {
			pct += mt.Num(c+"_percent", th)
		}
		near(t, "percent sum", pct, 100)
	}
}

func TestSummaryBadOptions(t *testing.T) {
	tr := handTrial(t)
	_, err := Summary(tr, SummaryOptions{Node: "hostC"})
	wantErr(t, "unknown node", err, "hostC", "hostA", "hostB")
	_, err = Summary(tr, SummaryOptions{By: "rack"})
	wantErr(t, "unknown level", err, "rack")
	_, err = Summary(tr, SummaryOptions{Metric: "nosuch"})
	wantErr(t, "unknown metric", err, "nosuch", "TIME")
}
