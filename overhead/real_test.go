package overhead

import (
	"fmt"
	"github.com/taudb-analyze/taudb-analyze/classify"
	"math"
	"sort"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/analysis"
	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/drg/reader"
	"github.com/taudb-analyze/taudb-analyze/internal/realdata"
)

const east02 = "ParaToolsInc-taucmdr/jupyter/east02-mm-profile/"

// eastSeries reads the np = 1..8 MPI matmult series.
func eastSeries(t *testing.T) ([]*drg.Trial, []float64) {
	t.Helper()
	var trials []*drg.Trial
	var p []float64
	for i := 0; i < 8; i++ {
		tr := readReal(t, fmt.Sprintf("%s%d", east02, i))
		trials = append(trials, tr)
		p = append(p, processes(t, tr))
	}
	return trials, p
}

func readReal(t *testing.T, rel string) *drg.Trial {
	t.Helper()
	tr, err := reader.Read(realdata.Real(t, rel), "")
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// logTable writes a table to the test log.
func logTable(t *testing.T, tb *analysis.Table) {
	t.Helper()
	var b strings.Builder
	for _, c := range tb.Columns {
		fmt.Fprintf(&b, "%-14.14s ", c.Name)
	}
	b.WriteString("\n")
	for i := 0; i < tb.NumRows(); i++ {
		for _, c := range tb.Columns {
			if c.Kind == analysis.Text {
				fmt.Fprintf(&b, "%-14.14s ", c.Text[i])
			} else {
				fmt.Fprintf(&b, "%14.1f ", c.Num[i])
			}
		}
		b.WriteString("\n")
	}
	t.Logf("%s:\n%s", tb.Name, b.String())
}

func TestEastSeries(t *testing.T) {
	trials, p := eastSeries(t)
	for i, x := range p {
		if x != float64(i+1) {
			t.Fatalf("trial %d has %v processes, want %d", i, x, i+1)
		}
	}
	// The MPI regions TAU wrote: only MPI_Init and MPI_Finalize (this
	// matmult computes the whole product on every rank and sends nothing).
	for _, tr := range trials {
		var mpi []string
		for i := range tr.Regions {
			if tr.Regions[i].HasGroup("MPI") {
				mpi = append(mpi, tr.Regions[i].Name)
			}
		}
		sort.Strings(mpi)
		if strings.Join(mpi, ",") != "MPI_Finalize(),MPI_Init()" {
			t.Fatalf("%s: MPI regions %q", tr.Name, mpi)
		}
	}
	for _, agg := range []analysis.Aggregate{analysis.AggregateMax, analysis.AggregateMean, analysis.AggregateMin} {
		res, err := analyzeP(trials, p, Options{Aggregate: agg})
		if err != nil {
			t.Fatal(err)
		}
		checkExact(t, res)
		tot := res.Table("totals")
		for i := 0; i < tot.NumRows(); i++ {
			id, un, to := tot.Num("identified", i), tot.Num("unidentified", i), tot.Num("t_o", i)
			if id+un != to || math.IsNaN(to) {
				t.Errorf("%s p=%d: identified + unidentified != T_o", agg, i+1)
			}
		}
		if agg != analysis.AggregateMax {
			continue
		}
		logTable(t, res.Table("experiments"))
		logTable(t, tot)
		// T_s = the np=1 ".TAU application" inclusive time (SOURCES.md:
		// 4.45 s) less its 3198 µs in MPI_Init and MPI_Finalize; T_p at
		// np=8 is the largest over the ranks (9.53 s).
		const ts = 4453569 - 3198
		if res.Params["t_s"] != "4.450371e+06" || res.Params["baseline"] != "0" {
			t.Errorf("params %v", res.Params)
		}
		for i, tr := range trials {
			var want float64
			for _, v := range tr.MainInclusive(tr.TimeMetric()) {
				want = math.Max(want, v)
			}
			if tot.Num("t_p", i) != want {
				t.Errorf("p=%d: T_p %v, want %v", i+1, tot.Num("t_p", i), want)
			}
			if tot.Num("t_o", i) != want-ts/float64(i+1) && !near(tot.Num("t_o", i), want-ts/float64(i+1)) {
				t.Errorf("p=%d: T_o %v", i+1, tot.Num("t_o", i))
			}
		}
		if tot.Num("t_p", 0) != 4453569 || tot.Num("t_p", 7) != 9529715 || tot.Num("t_o", 0) != 3198 {
			t.Errorf("T_p %v .. %v", tot.Num("t_p", 0), tot.Num("t_p", 7))
		}
		// MPI_Init and MPI_Finalize are control of parallelism; nothing is
		// data movement or synchronization.
		rt := res.Table("regions")
		for i := 0; i < rt.NumRows(); i++ {
			name := rt.Text("region", i)
			if strings.HasPrefix(name, "MPI_") != (rt.Text("category", i) == string(ControlOfParallelism)) ||
				strings.HasPrefix(name, "MPI_") && rt.Text("sub", i) != classify.SubMPIInitFinalize {
				t.Errorf("%s %s: %s / %s", name, rt.Text("experiment", i), rt.Text("category", i), rt.Text("sub", i))
			}
		}
		for col := 1; col <= 8; col++ {
			c := fmt.Sprintf("p%d", col)
			if cell(t, res, "data movement", "", c) != 0 || cell(t, res, "synchronization", "", c) != 0 {
				t.Errorf("%s: data movement or synchronization not 0", c)
			}
		}
		// Every rank multiplies the whole matrix: compute and
		// compute_interchange are replicated code at every p > 1, and
		// loss of parallelism dominates T_o at p = 8.
		for _, name := range []string{"void compute(double **, double **, double **, int, int, int) C", "void compute_interchange(double **, double **, double **, int, int, int) C"} {
			for col := 2; col <= 8; col++ {
				i := regionRow(res, name, fmt.Sprintf("p=%d", col))
				if i < 0 || rt.Text("loss_kind", i) != SubReplicated {
					t.Errorf("%s at p=%d: not replicated", name, col)
					continue
				}
				// ρ = its time on the last rank - S_b/p, S_b its time at p = 1.
				sb := rt.Num("time", regionRow(res, name, "p=1"))
				if want := rt.Num("time", i) - sb/float64(col); !near(rt.Num("overhead", i), want) {
					t.Errorf("%s at p=%d: loss %v, want %v", name, col, rt.Num("overhead", i), want)
				}
			}
		}
		if l, to := cell(t, res, "loss of parallelism", "", "p8"), cell(t, res, "total overhead", "", "p8"); !(l > 0.9*to) {
			t.Errorf("p=8: loss %v of T_o %v", l, to)
		}
		t.Logf("findings: %q", res.Findings)
	}
}

// TestEastRulesFile reclassifies MPI_Finalize as synchronization with a rules
// file: the table moves its time from control of parallelism to
// synchronization.
func TestEastRulesFile(t *testing.T) {
	trials, p := eastSeries(t)
	rules, err := classify.LoadRules("../testdata/rules/reclassify_finalize.yaml")
	if err != nil {
		t.Fatal(err)
	}
	before, err := analyzeP(trials, p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := analyzeP(trials, p, Options{Rules: rules})
	if err != nil {
		t.Fatal(err)
	}
	checkExact(t, res)
	rt := res.Table("regions")
	for col := 1; col <= 8; col++ {
		label, c := fmt.Sprintf("p=%d", col), fmt.Sprintf("p%d", col)
		fin, ini := regionRow(res, "MPI_Finalize()", label), regionRow(res, "MPI_Init()", label)
		if rt.Text("category", fin) != string(Synchronization) || rt.Text("rule", fin) != "finalize-wait" {
			t.Errorf("%s: MPI_Finalize %s by %s", label, rt.Text("category", fin), rt.Text("rule", fin))
		}
		if got := cell(t, res, "synchronization", "MPI finalize (waiting for the slowest rank)", c); got != rt.Num("time", fin) {
			t.Errorf("%s: synchronization %v, MPI_Finalize %v", label, got, rt.Num("time", fin))
		}
		if got := cell(t, res, "control of parallelism", "MPI init", c); got != rt.Num("time", ini) {
			t.Errorf("%s: control %v, MPI_Init %v", label, got, rt.Num("time", ini))
		}
		if hasRow(res, "control of parallelism", classify.SubMPIInitFinalize) {
			t.Error("the MPI init/finalize row should be gone")
		}
		// Loss of parallelism and T_o do not depend on the MPI rules.
		if cell(t, res, "loss of parallelism", "", c) != cell(t, before, "loss of parallelism", "", c) ||
			cell(t, res, "total overhead", "", c) != cell(t, before, "total overhead", "", c) {
			t.Errorf("%s: loss or T_o changed", label)
		}
	}
}

// TestCPIMPI classifies the MPI calls of Hatchet's cpi trial (4 ranks) in a
// single experiment with a given sequential time.
func TestCPIMPI(t *testing.T) {
	tr := readReal(t, "LLNL-hatchet/tau-cpi-mpi")
	res, err := analyzeP([]*drg.Trial{tr}, []float64{processes(t, tr)}, Options{SequentialTime: 40000})
	if err != nil {
		t.Fatal(err)
	}
	checkExact(t, res)
	want := map[string][2]string{
		"MPI_Init()":               {"control of parallelism", classify.SubMPIInitFinalize},
		"MPI_Finalize()":           {"control of parallelism", classify.SubMPIInitFinalize},
		"MPI_Comm_size()":          {"additional computation", classify.SubUnitID},
		"MPI_Comm_rank()":          {"additional computation", classify.SubUnitID},
		"MPI_Get_processor_name()": {"additional computation", classify.SubUnitID},
		"MPI_Bcast()":              {"data movement", classify.SubMPICollective},
		"MPI_Reduce()":             {"data movement", classify.SubMPICollective},
		"MPI_File_open()":          {"data movement", classify.SubMPIIO},
		"MPI_Info_create()":        {"control of parallelism", classify.SubMPIOther},
		"MPI_Info_free()":          {"control of parallelism", classify.SubMPIOther},
		"MPI_Comm_get_attr()":      {"control of parallelism", classify.SubMPIManagement},
	}
	rt := res.Table("regions")
	seen := map[string]bool{}
	for i := 0; i < rt.NumRows(); i++ {
		name := rt.Text("region", i)
		if w, ok := want[name]; ok {
			seen[name] = true
			if rt.Text("category", i) != w[0] || rt.Text("sub", i) != w[1] {
				t.Errorf("%s: %s / %s, want %s / %s", name, rt.Text("category", i), rt.Text("sub", i), w[0], w[1])
			}
		}
	}
	if len(seen) != len(want) {
		t.Errorf("regions seen %v", seen)
	}
	if res.Params["t_s"] != "40000" || cell(t, res, "ideal time", "", "p4") != 10000 {
		t.Errorf("T_s %v", res.Params["t_s"])
	}
	logTable(t, res.Table("experiments"))
}

// TestWorkflowMPI classifies the richer MPI mix of TAU's workflow example
// (8 ranks: nonblocking point-to-point, waits, barriers, collectives,
// Cartesian topologies, ADIOS) and checks the per-process view.
func TestWorkflowMPI(t *testing.T) {
	tr := readReal(t, "UO-OACISS-tau2/examples/workflow_consolidation/xmain_0")
	p := []float64{processes(t, tr)}
	res, err := analyzeP([]*drg.Trial{tr}, p, Options{SequentialTime: 1e8})
	if err != nil {
		t.Fatal(err)
	}
	checkExact(t, res)
	want := map[string][2]string{
		"MPI_Send()":        {"data movement", classify.SubMPIPointToPoint},
		"MPI_Isend()":       {"data movement", classify.SubMPIPointToPoint},
		"MPI_Irecv()":       {"data movement", classify.SubMPIPointToPoint},
		"MPI_Allreduce()":   {"data movement", classify.SubMPICollective},
		"MPI_Allgather()":   {"data movement", classify.SubMPICollective},
		"MPI_Alltoallv()":   {"data movement", classify.SubMPICollective},
		"MPI_Gather()":      {"data movement", classify.SubMPICollective},
		"MPI_Barrier()":     {"synchronization", classify.SubMPIBarrier},
		"MPI_Wait()":        {"synchronization", classify.SubMPIWaitTest},
		"MPI_Waitall()":     {"synchronization", classify.SubMPIWaitTest},
		"MPI_Cart_create()": {"control of parallelism", classify.SubMPIManagement},
		"MPI_Cart_sub()":    {"control of parallelism", classify.SubMPIManagement},
		"MPI_Comm_dup()":    {"control of parallelism", classify.SubMPIManagement},
		"ADIOS write":       {"data movement", classify.SubIOLibrary},
		"ADIOS open":        {"data movement", classify.SubIOLibrary},
	}
	rt := res.Table("regions")
	for name, w := range want {
		i := regionRow(res, name, "p=8")
		if i < 0 {
			t.Errorf("no row for %s", name)
			continue
		}
		if rt.Text("category", i) != w[0] || rt.Text("sub", i) != w[1] {
			t.Errorf("%s: %s / %s, want %s / %s", name, rt.Text("category", i), rt.Text("sub", i), w[0], w[1])
		}
	}
	// The synchronization of process 0 alone is its own barrier and wait
	// time; the max over processes is at least as large.
	r0, err := analyzeP([]*drg.Trial{tr}, p, Options{SequentialTime: 1e8, Restrict: "0"})
	if err != nil {
		t.Fatal(err)
	}
	checkExact(t, r0)
	var sync0 float64
	m := tr.TimeMetric()
	for i := range tr.Regions {
		name := tr.Regions[i].Name
		if name == "MPI_Barrier()" || name == "MPI_Wait()" || name == "MPI_Waitall()" {
			sync0 += tr.Values[m].Exclusive[tr.Cell(tr.Regions[i].Flat, tr.ThreadIndex(0, 0, 0))]
		}
	}
	if got := cell(t, r0, "synchronization", "", "p8"); !near(got, sync0) {
		t.Errorf("process 0 synchronization %v, want %v", got, sync0)
	}
	// The max view is one process, the one that finishes last, for every
	// category: restricting to that process gives the same table.
	last, lastT := 0, math.Inf(-1)
	for th, v := range tr.MainInclusive(m) {
		if v > lastT {
			last, lastT = tr.Threads[th].Node, v
		}
	}
	rmax, err := analyzeP([]*drg.Trial{tr}, p, Options{SequentialTime: 1e8, Aggregate: analysis.AggregateMax})
	if err != nil {
		t.Fatal(err)
	}
	rlast, err := analyzeP([]*drg.Trial{tr}, p, Options{SequentialTime: 1e8, Restrict: fmt.Sprint(last)})
	if err != nil {
		t.Fatal(err)
	}
	if cell(t, rmax, "total execution time", "", "p8") != lastT {
		t.Errorf("max view T_p %v, want %v", cell(t, rmax, "total execution time", "", "p8"), lastT)
	}
	for _, k := range OverheadCategories() {
		if a, b := cell(t, rmax, string(k), "", "p8"), cell(t, rlast, string(k), "", "p8"); a != b {
			t.Errorf("%s: max view %v, process %d %v", k, a, last, b)
		}
	}
	logTable(t, res.Table("experiments"))
}

// TestOpenMPReal classifies the OPARI2 regions of a 12-thread OpenMP trial,
// with threads as the unit.
func TestOpenMPReal(t *testing.T) {
	tr := readReal(t, "stevenpl98-ParallelFinalProject/parallel-omp12/MULTI__TIME")
	res, err := analyzeP([]*drg.Trial{tr}, []float64{float64(len(tr.Threads))}, Options{Unit: UnitThread, SequentialTime: 1e6})
	if err != nil {
		t.Fatal(err)
	}
	checkExact(t, res)
	rt := res.Table("regions")
	kinds := map[string]int{}
	for i := 0; i < rt.NumRows(); i++ {
		short := classify.MatchName(rt.Text("region", i))
		var want string
		switch {
		case strings.Contains(short, "(barrier enter/exit)"):
			want = string(Synchronization) + "/" + classify.SubOMPBarrier
		case strings.Contains(short, "(parallel fork/join)"):
			want = string(ControlOfParallelism) + "/" + classify.SubOMPForkJoin
		case strings.Contains(short, "(loop body)"), strings.Contains(short, "(parallel begin/end)"):
			want = string(Computation) + "/" + classify.SubOMPConstructBody
		case strings.HasPrefix(short, "MPI_"):
			want = string(ControlOfParallelism) + "/" + classify.SubMPIInitFinalize
		default:
			want = string(Computation) + "/"
		}
		kinds[want]++
		if got := rt.Text("category", i) + "/" + rt.Text("sub", i); got != want {
			t.Errorf("%s: %s, want %s", short, got, want)
		}
	}
	if kinds[string(Synchronization)+"/"+classify.SubOMPBarrier] == 0 || kinds[string(ControlOfParallelism)+"/"+classify.SubOMPForkJoin] == 0 {
		t.Errorf("kinds %v", kinds)
	}
	logTable(t, res.Table("experiments"))
}

// TestRealSeriesAddUp runs every multi-trial real series of the shared data
// (the matmult series at np = 1..8 and the ring example at 2..8 ranks),
// given in a shuffled order, with every aggregate: experiments come out in
// p order, no category is negative, identified + unidentified = T_o, and a
// category above T_o or a negative unidentified comes with the finding
// that explains it (checkExact).
func TestRealSeriesAddUp(t *testing.T) {
	series := map[string][]string{
		"matmult": {east02 + "7", east02 + "0", east02 + "3", east02 + "1", east02 + "5", east02 + "2", east02 + "6", east02 + "4"},
		"ring": {"UO-OACISS-tau2/perfexplorer/StackedBarChart/6.ppk", "UO-OACISS-tau2/perfexplorer/StackedBarChart/2.ppk",
			"UO-OACISS-tau2/perfexplorer/StackedBarChart/8.ppk", "UO-OACISS-tau2/perfexplorer/StackedBarChart/4.ppk"},
	}
	for name, paths := range series {
		var trials []*drg.Trial
		var p []float64
		for _, rel := range paths {
			tr := readReal(t, rel)
			trials = append(trials, tr)
			p = append(p, processes(t, tr))
		}
		for _, agg := range []analysis.Aggregate{analysis.AggregateMean, analysis.AggregateMax, analysis.AggregateMin} {
			res, err := analyzeP(trials, p, Options{Aggregate: agg})
			if err != nil {
				t.Fatalf("%s %s: %v", name, agg, err)
			}
			checkExact(t, res)
			tot := res.Table("totals")
			for i := 1; i < tot.NumRows(); i++ {
				if tot.Num("p", i) <= tot.Num("p", i-1) {
					t.Errorf("%s %s: experiments not in p order: %v after %v", name, agg, tot.Num("p", i), tot.Num("p", i-1))
				}
			}
			for i := 0; i < tot.NumRows(); i++ {
				to := tot.Num("t_o", i)
				for _, k := range OverheadCategories() {
					v := tot.Num(strings.ReplaceAll(string(k), " ", "_"), i)
					if v > to && !hasFinding(res, "Superlinear") && !hasFinding(res, "exceeds T_o") {
						t.Errorf("%s %s p=%v: %s %v > T_o %v with no finding", name, agg, tot.Num("p", i), k, v, to)
					}
				}
			}
			if agg == analysis.AggregateMean {
				t.Logf("%s findings: %q", name, res.Findings)
			}
			// The matmult series ran 5 to 8 ranks on the 4 cores of east02.
			if name == "matmult" && !hasFinding(res, "p=8 (7) is oversubscribed: 8 ranks on the 4 cores of east02") {
				t.Errorf("matmult: no oversubscription finding in %q", res.Findings)
			}
		}
	}
}
