package overhead

import (
	"errors"
	"github.com/taudb-analyze/taudb-analyze/classify"
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/analysis"
	"github.com/taudb-analyze/taudb-analyze/drg"
)

// The hand-built pair of experiments most tests use.
//
// "seq", p = 1: main inclusive 1000 with children replicated_part 100,
// parallel_part 100, serial_part 80 (T_s = T_1 = 1000).
//
// "par", p = 4, processes 0..3, main inclusive 550, 560, 570, 580, children:
//
//	MPI_Send()       10 20 30 40   data movement / MPI point-to-point
//	MPI_Allreduce()   5  5  5  5   data movement / MPI collective
//	MPI_Barrier()     7  7  7  7   synchronization / MPI barrier
//	MPI_Waitall()     3  -  -  -   synchronization / MPI wait/test
//	MPI_Init()       50 50 50 50   control of parallelism / MPI init/finalize
//	MPI_Comm_rank()   1  1  1  1   additional computation / unit identification
//	serial_part      80  -  -  -   unparallelized: 80 - 80/4 = 60
//	partial_part     30 50  -  -   partially parallelized: 50 - 80/4 = 30 (max)
//	replicated_part 100 100 100 100  replicated (100 = baseline's): 100*3/4 = 75
//	parallel_part    25 25 25 25   divided (25/100 = p_b/p): no loss
//
// T_s is the useful work of "seq", 1000 (it has no MPI time), so the ideal
// time at p = 4 is 250. With the process that finishes last (max: process
// 3, T_p = 580, rule time 45+7+50+1 = 103, W = 477, X = 227): the work
// claim of replicated_part, 100 - 100/4 = 75, is paid from X; serial_part
// (λ = 80 - 80/4 = 60) and partial_part (λ = 80/2 - 80/4 = 20) ran
// elsewhere, so process 3 waited for them: their 80 is paid from its
// synchronization (7) and the rest (73) from X. Loss 155, synchronization
// 0, identified 45+0+50+1+155 = 251, T_o = 330, unidentified 79.
func seqTrial(t testing.TB) *drg.Trial {
	return build(t, "seq", procs(1), mainRecs([]float64{1000}, []rec{
		{name: "replicated_part", excl: 100, incl: 100},
		{name: "parallel_part", excl: 100, incl: 100},
		{name: "serial_part", excl: 80, incl: 80},
	}))
}

func parTrial(t testing.TB) *drg.Trial {
	return build(t, "par", procs(4), mainRecs([]float64{550, 560, 570, 580}, cat(
		onEach("MPI_Send()", "MPI", 10, 20, 30, 40),
		onEach("MPI_Allreduce()", "MPI", 5, 5, 5, 5),
		onEach("MPI_Barrier()", "MPI", 7, 7, 7, 7),
		onEach("MPI_Waitall()", "MPI", 3),
		onEach("MPI_Init()", "MPI", 50, 50, 50, 50),
		onEach("MPI_Comm_rank()", "MPI", 1, 1, 1, 1),
		onEach("serial_part", "TAU_USER", 80),
		onEach("partial_part", "TAU_USER", 30, 50),
		onEach("replicated_part", "TAU_USER", 100, 100, 100, 100),
		onEach("parallel_part", "TAU_USER", 25, 25, 25, 25),
	)))
}

func pair(t testing.TB) ([]*drg.Trial, []float64) {
	return []*drg.Trial{seqTrial(t), parTrial(t)}, []float64{1, 4}
}

func TestAnalyzeMax(t *testing.T) {
	trials, p := pair(t)
	res, err := analyzeP(trials, p, Options{Aggregate: analysis.AggregateMax})
	if err != nil {
		t.Fatal(err)
	}
	checkExact(t, res)
	want := map[[2]string]float64{
		{"data movement", ""}:                                   45,
		{"data movement", classify.SubMPIPointToPoint}:          40,
		{"data movement", classify.SubMPICollective}:            5,
		{"synchronization", ""}:                                 0,
		{"synchronization", classify.SubMPIBarrier}:             0,
		{"synchronization", classify.SubMPIWaitTest}:            0,
		{"control of parallelism", ""}:                          50,
		{"control of parallelism", classify.SubMPIInitFinalize}: 50,
		{"additional computation", ""}:                          1,
		{"additional computation", classify.SubUnitID}:          1,
		{"loss of parallelism", ""}:                             155,
		{"loss of parallelism", SubUnparallelized}:              60,
		{"loss of parallelism", SubPartial}:                     20,
		{"loss of parallelism", SubReplicated}:                  75,
		{"total identified", ""}:                                251,
		{"unidentified", ""}:                                    79,
		{"total overhead", ""}:                                  330,
		{"total execution time", ""}:                            580,
		{"ideal time", ""}:                                      250,
	}
	for k, v := range want {
		if got := cell(t, res, k[0], k[1], "p4"); got != v {
			t.Errorf("p4 %s / %s = %v, want %v", k[0], k[1], got, v)
		}
	}
	// The baseline: T_o = 0 exactly; its MPI-free figures are 0.
	if got := cell(t, res, "total overhead", "", "p1"); got != 0 {
		t.Errorf("baseline T_o = %v, want 0", got)
	}
	if got := cell(t, res, "total execution time", "", "p1"); got != 1000 {
		t.Errorf("baseline T_p = %v, want 1000", got)
	}
	if res.Params["t_s"] != "1000" || !strings.HasPrefix(res.Params["t_s_rule"], "the useful work of the baseline") || res.Params["baseline"] != "0" {
		t.Errorf("params %v", res.Params)
	}
	tot := res.Table("totals")
	if tot.Num("speedup", 1) != 1000.0/580 || tot.Num("efficiency", 1) != 1000.0/(4*580) {
		t.Errorf("speedup %v efficiency %v", tot.Num("speedup", 1), tot.Num("efficiency", 1))
	}
	if tot.Text("baseline", 0) != "yes" || tot.Text("baseline", 1) != "no" {
		t.Error("baseline column")
	}
	// Region-to-overhead rows.
	for _, c := range []struct {
		region, cat, kind string
		q, time, ov       float64
	}{
		{"MPI_Send()", "data movement", "", 4, 40, 40},
		{"MPI_Waitall()", "synchronization", "", 1, 0, 0},
		{"MPI_Barrier()", "synchronization", "", 4, 7, 0},
		{"serial_part", "computation", SubUnparallelized, 1, 0, 60},
		{"partial_part", "computation", SubPartial, 2, 0, 20},
		{"replicated_part", "computation", SubReplicated, 4, 100, 75},
		{"parallel_part", "computation", "", 4, 25, 0},
		{"main", "computation", "", 4, 352, 0},
	} {
		i := regionRow(res, c.region, "p=4")
		if i < 0 {
			t.Errorf("no regions row for %s", c.region)
			continue
		}
		rt := res.Table("regions")
		if rt.Text("category", i) != c.cat || rt.Text("loss_kind", i) != c.kind || rt.Num("units", i) != c.q ||
			rt.Num("time", i) != c.time || rt.Num("overhead", i) != c.ov {
			t.Errorf("%s: category %q kind %q units %v time %v overhead %v; want %q %q %v %v %v", c.region,
				rt.Text("category", i), rt.Text("loss_kind", i), rt.Num("units", i), rt.Num("time", i), rt.Num("overhead", i),
				c.cat, c.kind, c.q, c.time, c.ov)
		}
		if want := 100 * c.ov / 330; !near(rt.Num("percent_of_overhead", i), want) {
			t.Errorf("%s: percent_of_overhead %v, want %v", c.region, rt.Num("percent_of_overhead", i), want)
		}
	}
	// No loss on the 1-process baseline.
	if i := regionRow(res, "serial_part", "p=1"); i < 0 || res.Table("regions").Num("overhead", i) != 0 {
		t.Error("serial_part must have no loss at p=1")
	}
	// Findings name the top region.
	found := false
	for _, f := range res.Findings {
		if strings.HasPrefix(f, "replicated_part holds 23% of the overhead at p=4") {
			found = true
		}
	}
	if !found {
		t.Errorf("findings %q", res.Findings)
	}
}

func TestAnalyzeMeanMin(t *testing.T) {
	trials, p := pair(t)
	for _, c := range []struct {
		agg                           analysis.Aggregate
		dm, sync, ctrl, add, loss, tp float64
		unpar, partial, repl          float64
	}{
		// mean: DM mean(15,25,35,45) = 30, sync mean(10,7,7,7) = 7.75,
		// rule time 88.75, W = 476.25, X = 226.25; replicated 75 from X;
		// the waiting for serial (60) and partial (20) from sync (7.75)
		// and X (72.25): sync 0, loss 155, unidentified 79.
		{"mean", 30, 0, 50, 1, 155, 565, 60, 20, 75},
		// min: process 0 (T_p 550, DM 15, sync 10, X = 474-250 = 224) ran
		// serial and partial itself: work claims 80-20 = 60, 30-20 = 10,
		// replicated 75, all paid from X; sync stays 10.
		{"min", 15, 10, 50, 1, 145, 550, 60, 10, 75},
		{"MAX", 45, 0, 50, 1, 155, 580, 60, 20, 75},
	} {
		res, err := analyzeP(trials, p, Options{Aggregate: c.agg})
		if err != nil {
			t.Fatal(err)
		}
		checkExact(t, res)
		to := c.tp - 250
		id := c.dm + c.sync + c.ctrl + c.add + c.loss
		for _, x := range []struct {
			cat, sub string
			want     float64
		}{
			{"data movement", "", c.dm}, {"synchronization", "", c.sync}, {"control of parallelism", "", c.ctrl},
			{"additional computation", "", c.add}, {"loss of parallelism", "", c.loss},
			{"loss of parallelism", SubUnparallelized, c.unpar}, {"loss of parallelism", SubPartial, c.partial},
			{"loss of parallelism", SubReplicated, c.repl},
			{"total execution time", "", c.tp}, {"total overhead", "", to},
			{"total identified", "", id}, {"unidentified", "", to - id},
		} {
			if got := cell(t, res, x.cat, x.sub, "p4"); got != x.want {
				t.Errorf("%s: %s / %s = %v, want %v", c.agg, x.cat, x.sub, got, x.want)
			}
		}
		if res.Params["aggregate"] != strings.ToLower(string(c.agg)) {
			t.Errorf("aggregate param %q", res.Params["aggregate"])
		}
	}
}

func TestBaselineChoices(t *testing.T) {
	seq, par := seqTrial(t), parTrial(t)
	// A 2-process baseline: each process spends 20 in MPI_Send and 280 in
	// work, so T_s = 560, its useful work, and its T_o = 300 - 560/2 = 20,
	// its own MPI time, not 0. At p = 4 (30 in MPI_Send, 140 of work
	// each), T_o = 170 - 140 = 30, all of it data movement.
	two := build(t, "two", procs(2), mainRecs([]float64{300, 300}, onEach("MPI_Send()", "MPI", 20, 20)))
	four := build(t, "four", procs(4), mainRecs([]float64{170, 170, 170, 170}, onEach("MPI_Send()", "MPI", 30, 30, 30, 30)))
	res, err := analyzeP([]*drg.Trial{four, two}, []float64{4, 2}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkExact(t, res)
	if res.Params["baseline"] != "0" || res.Params["baseline_trial"] != "two" || res.Params["t_s"] != "560" {
		t.Errorf("params %v", res.Params)
	}
	for col, want := range map[string]float64{"p2": 20, "p4": 30} {
		if got := cell(t, res, "total overhead", "", col); got != want {
			t.Errorf("T_o at %s = %v, want %v", col, got, want)
		}
		if got := cell(t, res, "data movement", "", col); got != want {
			t.Errorf("data movement at %s = %v, want %v", col, got, want)
		}
		if got := cell(t, res, "unidentified", "", col); got != 0 {
			t.Errorf("unidentified at %s = %v, want 0", col, got)
		}
	}
	// Given sequential time.
	res, err = analyzeP([]*drg.Trial{seq, par}, []float64{1, 4}, Options{SequentialTime: 1234})
	if err != nil {
		t.Fatal(err)
	}
	checkExact(t, res)
	if got := cell(t, res, "ideal time", "", "p4"); got != 308.5 {
		t.Errorf("ideal = %v, want 1234/4", got)
	}
	if got := cell(t, res, "total overhead", "", "p1"); got != 1000-1234 {
		t.Errorf("T_o at p=1 = %v, want -234", got)
	}
	if res.Params["t_s_rule"] != "given sequential time" || res.Params["sequential_time"] != "1234" {
		t.Errorf("params %v", res.Params)
	}
	// An explicit baseline, by name: the p=4 trial, T_s = its useful work
	// (550-76) + (560-83) + (570-93) + (580-103) = 1905; at p = 4 the
	// average process's T_o = 565 - 1905/4 = 88.75, its rule time.
	res, err = analyzeP([]*drg.Trial{seq, par}, []float64{1, 4}, Options{Baseline: par.Name})
	if err != nil {
		t.Fatal(err)
	}
	checkExact(t, res)
	if got := cell(t, res, "total overhead", "", "p4"); got != 88.75 {
		t.Errorf("T_o at the chosen baseline = %v, want 88.75", got)
	}
	if got := cell(t, res, "total overhead", "", "p1"); got != 1000-1905 {
		t.Errorf("T_o at p=1 = %v, want 1000-1905", got)
	}
	// With the p=4 baseline nothing can be replicated at p <= 4, and X = 0:
	// the waiting for serial and partial code is paid from the 7.75 of
	// synchronization only.
	if got := cell(t, res, "loss of parallelism", "", "p4"); got != 7.75 {
		t.Errorf("loss at the p=4 baseline = %v, want 7.75 (no replicated code)", got)
	}
	// Default: the p=1 trial even when it is not first.
	res, err = analyzeP([]*drg.Trial{par, seq}, []float64{4, 1}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Params["baseline"] != "0" || res.Params["baseline_trial"] != "seq" || res.Trials[0] != "seq" {
		t.Errorf("default baseline (index in p order) %v", res.Params)
	}
}

// TestReplicatedSmallestBaseline: with p_b = 2 and p = 4 a region is
// replicated when m/m_b >= 0.5 + 0.5*0.5 = 0.75.
func TestReplicatedSmallestBaseline(t *testing.T) {
	two := build(t, "two", procs(2), mainRecs([]float64{300, 300}, cat(
		onEach("same", "", 100, 100), onEach("halved", "", 100, 100), onEach("edge", "", 100, 100))))
	four := build(t, "four", procs(4), mainRecs([]float64{300, 300, 300, 300}, cat(
		onEach("same", "", 100, 100, 100, 100), onEach("halved", "", 50, 50, 50, 50), onEach("edge", "", 75, 75, 75, 75))))
	res, err := analyzeP([]*drg.Trial{two, four}, []float64{2, 4}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkExact(t, res)
	rt := res.Table("regions")
	for name, kind := range map[string]string{"same": SubReplicated, "halved": "", "edge": SubReplicated} {
		i := regionRow(res, name, "p=4")
		if rt.Text("loss_kind", i) != kind {
			t.Errorf("%s: kind %q, want %q", name, rt.Text("loss_kind", i), kind)
		}
	}
	// ρ = A(t) - S_b/p: same 100 - 200/4 = 50, edge 75 - 200/4 = 25 (the
	// 2-process baseline counts replicated code twice in T_s).
	if got := cell(t, res, "loss of parallelism", SubReplicated, "p4"); got != 50+25 {
		t.Errorf("replicated loss %v, want 50 + 25", got)
	}
	// θ = 0.9 moves the bar to 0.95: "edge" (0.75) is no longer replicated.
	res, err = analyzeP([]*drg.Trial{two, four}, []float64{2, 4}, Options{ReplicatedThreshold: 0.9})
	if err != nil {
		t.Fatal(err)
	}
	if got := cell(t, res, "loss of parallelism", SubReplicated, "p4"); got != 50 {
		t.Errorf("replicated loss with θ=0.9: %v, want 50", got)
	}
	if res.Params["replicated_threshold"] != "0.9" {
		t.Error(res.Params)
	}
}

func TestSuperlinear(t *testing.T) {
	fast := build(t, "fast", procs(4), mainRecs([]float64{200, 190, 180, 170}, onEach("MPI_Send()", "MPI", 5, 5, 5, 5)))
	res, err := analyzeP([]*drg.Trial{seqTrial(t), fast}, []float64{1, 4}, Options{Aggregate: analysis.AggregateMax})
	if err != nil {
		t.Fatal(err)
	}
	checkExact(t, res)
	// Process 0 (T 200) did 195 of useful work, below T_s/p = 250.
	if !hasFinding(res, "the identified overhead exceeds T_o by 55 µs: the process that finishes last did 195 µs of useful work, less than the ideal share T_s/p = 250 µs") {
		t.Errorf("findings %q", res.Findings)
	}
	if got := cell(t, res, "total overhead", "", "p4"); got != -50 {
		t.Errorf("T_o = %v, want -50 (not clipped)", got)
	}
	if got := cell(t, res, "unidentified", "", "p4"); got != -55 {
		t.Errorf("unidentified = %v, want -55", got)
	}
	ok := false
	for _, f := range res.Findings {
		ok = ok || strings.HasPrefix(f, "Superlinear speedup at p=4: T_o = -50 µs < 0")
	}
	if !ok {
		t.Errorf("findings %q", res.Findings)
	}
}

// TestEverySubCategory builds one region per default sub-category (and a
// user rule's), each on all four processes with value (j+1)*(k+1) on
// process k, and checks every row of the table.
func TestEverySubCategory(t *testing.T) {
	loc := " [OpenMP location: file:/src/k.c <5, 9>]"
	regions := []struct{ name, group, cat, sub string }{
		{"MPI_Send()", "MPI", "data movement", classify.SubMPIPointToPoint},
		{"MPI_Allreduce()", "MPI", "data movement", classify.SubMPICollective},
		{"MPI_Put()", "MPI", "data movement", classify.SubMPIOneSided},
		{"MPI_File_write_all()", "MPI", "data movement", classify.SubMPIIO},
		{"write()", "TAU_IO", "data movement", classify.SubPOSIXIO},
		{"ADIOS write", "TAU_USER", "data movement", classify.SubIOLibrary},
		{"MPI_Barrier()", "MPI", "synchronization", classify.SubMPIBarrier},
		{"MPI_Waitall()", "MPI", "synchronization", classify.SubMPIWaitTest},
		{"MPI_Win_fence()", "MPI", "synchronization", classify.SubMPIWindowSync},
		{"barrier (barrier enter/exit)" + loc, "OpenMP", "synchronization", classify.SubOMPBarrier},
		{"critical (critical enter/exit)" + loc, "OpenMP", "synchronization", classify.SubOMPCritical},
		{"omp_set_lock", "OpenMP", "synchronization", classify.SubOMPLock},
		{"atomic (atomic enter/exit)" + loc, "OpenMP", "synchronization", classify.SubOMPAtomic},
		{"ordered (ordered enter/exit)" + loc, "OpenMP", "synchronization", classify.SubOMPOrdered},
		{"taskwait (taskwait begin/end)" + loc, "OpenMP", "synchronization", classify.SubOMPTaskwait},
		{"flush (flush enter/exit)" + loc, "OpenMP", "synchronization", classify.SubOMPFlush},
		{"pthread_mutex_lock", "TAU_PTHREAD", "synchronization", classify.SubPthreadSync},
		{"MPI_Init()", "MPI", "control of parallelism", classify.SubMPIInitFinalize},
		{"MPI_Comm_split()", "MPI", "control of parallelism", classify.SubMPIManagement},
		{"MPI_Comm_spawn()", "MPI", "control of parallelism", classify.SubMPISpawn},
		{"MPI_Type_commit()", "MPI", "control of parallelism", classify.SubMPIOther},
		{"parallel (parallel fork/join)" + loc, "OpenMP", "control of parallelism", classify.SubOMPForkJoin},
		{"GOMP_loop_dynamic_next", "TAU_DEFAULT", "control of parallelism", classify.SubOMPScheduling},
		{"single (single enter/exit)" + loc, "OpenMP", "control of parallelism", classify.SubOMPWorkSharing},
		{"task (task create begin/end)" + loc, "OpenMP", "control of parallelism", classify.SubOMPTaskCreation},
		{"omp_set_num_threads", "OpenMP", "control of parallelism", classify.SubOMPRuntime},
		{"pthread_create", "TAU_PTHREAD", "control of parallelism", classify.SubThreadCreation},
		{"MPI_Comm_rank()", "MPI", "additional computation", classify.SubUnitID},
		{"halo_recompute", "TAU_USER", "additional computation", "halo recomputation"},
	}
	user, err := classify.NewRule("halo", "halo_recompute", "", AdditionalComputation, "halo recomputation", classify.ClassComputation, "")
	if err != nil {
		t.Fatal(err)
	}
	rules := append([]classify.Rule{user}, classify.Default()...)
	var children []rec
	for j, r := range regions {
		v := float64(j + 1)
		children = append(children, onEach(r.name, r.group, v, 2*v, 3*v, 4*v)...)
	}
	incl := []float64{5000, 5001, 5002, 5003} // process 3 finishes last
	par := build(t, "all", procs(4), mainRecs(incl, children))
	for _, agg := range []analysis.Aggregate{"max", "mean"} {
		res, err := analyzeP([]*drg.Trial{seqTrial(t), par}, []float64{1, 4}, Options{Rules: rules, Aggregate: agg})
		if err != nil {
			t.Fatal(err)
		}
		checkExact(t, res)
		factor := 4.0 // process 3's (k+1)
		if agg == "mean" {
			factor = 2.5
		}
		catSum := map[string]float64{}
		for j, r := range regions {
			want := factor * float64(j+1)
			catSum[r.cat] += want
			if got := cell(t, res, r.cat, r.sub, "p4"); got != want {
				t.Errorf("%s: %s / %s = %v, want %v", agg, r.cat, r.sub, got, want)
			}
			i := regionRow(res, classify.MatchName(r.name), "p=4")
			if i < 0 || res.Table("regions").Text("category", i) != r.cat || res.Table("regions").Text("sub", i) != r.sub {
				t.Errorf("%s: regions row of %s", agg, r.name)
			}
		}
		for c, want := range catSum {
			if got := cell(t, res, c, "", "p4"); got != want {
				t.Errorf("%s: category %s = %v, want %v", agg, c, got, want)
			}
		}
		// Rows exist only for sub-categories with regions.
		if hasRow(res, "data movement", "other") || hasRow(res, "synchronization", classify.DefaultSub) {
			t.Error("unexpected empty sub-category rows")
		}
	}
}

// TestOpenMPThreads analyses an OpenMP trial with threads as the unit: a
// master region is unparallelized code, the parallel region's body is
// divided work, fork/join and barriers are overheads.
func TestOpenMPThreads(t *testing.T) {
	loc := " [OpenMP location: file:a.c <10, 20>]"
	seq := build(t, "omp1", threads(1), mainRecs([]float64{1000}, cat(
		onEach("parallel (parallel begin/end)"+loc, "OpenMP", 800),
		onEach("master (master begin/end)"+loc, "OpenMP", 40))))
	// main's exclusive time is 40 on every thread (160 in the baseline):
	// divided, not replicated.
	par := build(t, "omp4", threads(4), mainRecs([]float64{299, 248, 249, 250}, cat(
		onEach("parallel (parallel fork/join)"+loc, "OpenMP", 12),
		onEach("parallel (parallel begin/end)"+loc, "OpenMP", 200, 200, 200, 200),
		onEach("for (barrier enter/exit)"+loc, "OpenMP", 5, 6, 7, 8),
		onEach("critical (critical enter/exit)"+loc, "OpenMP", 2, 2, 2, 2),
		onEach("master (master begin/end)"+loc, "OpenMP", 40))))
	// The master thread finishes last (299): fork/join 12, barrier 5,
	// critical 2, useful work 280, X = 280 - 1000/4 = 30, which pays its
	// work claim for the master region, 40 - 40/4 = 30.
	res, err := analyzeP([]*drg.Trial{seq, par}, []float64{1, 4}, Options{Unit: UnitThread, Aggregate: analysis.AggregateMax})
	if err != nil {
		t.Fatal(err)
	}
	checkExact(t, res)
	for _, c := range []struct {
		cat, sub string
		want     float64
	}{
		{"control of parallelism", classify.SubOMPForkJoin, 12},
		{"synchronization", classify.SubOMPBarrier, 5},
		{"synchronization", classify.SubOMPCritical, 2},
		{"synchronization", "", 7},
		{"unidentified", "", 0},
		{"loss of parallelism", SubUnparallelized, 30},
		{"loss of parallelism", "", 30},
		{"total overhead", "", 299 - 250},
	} {
		if got := cell(t, res, c.cat, c.sub, "p4"); got != c.want {
			t.Errorf("%s / %s = %v, want %v", c.cat, c.sub, got, c.want)
		}
	}
	if hasRow(res, "loss of parallelism", SubReplicated) {
		t.Error("the divided parallel body must not be replicated code")
	}
	// With processes as the unit both trials are one process: p never
	// varies, which is a parameter study, refused.
	_, err = analyzeP([]*drg.Trial{seq, par}, []float64{1, 1}, Options{})
	var cp *analysis.ConstantPError
	if !errors.As(err, &cp) || cp.P != 1 || cp.Trials != 2 || !cp.Usage() {
		t.Errorf("equal p: error %v, want a ConstantPError", err)
	}
}

func TestRestrict(t *testing.T) {
	trials, p := pair(t)
	for _, c := range []struct {
		restrict           string
		tp, dm, sync, loss float64
		serial, partial    float64
		baselineDefined    bool
	}{
		{"0", 550, 15, 10, 145, 60, 10, true},
		{"0.0.0", 550, 15, 10, 145, 60, 10, true},
		// Processes 2 and 3 waited for serial (60) and partial (20) code:
		// paid from their synchronization (7) and their X (227, 224).
		{"2", 570, 35, 0, 155, 60, 20, false},
		{"3.0.0", 580, 45, 0, 155, 60, 20, false},
	} {
		res, err := analyzeP(trials, p, Options{Restrict: c.restrict})
		if err != nil {
			t.Fatal(err)
		}
		checkExact(t, res)
		for _, x := range []struct {
			cat, sub string
			want     float64
		}{
			{"total execution time", "", c.tp}, {"data movement", "", c.dm}, {"synchronization", "", c.sync},
			{"loss of parallelism", "", c.loss}, {"total overhead", "", c.tp - 250},
		} {
			if got := cell(t, res, x.cat, x.sub, "p4"); got != x.want {
				t.Errorf("restrict %s: %s = %v, want %v", c.restrict, x.cat, got, x.want)
			}
		}
		if i := regionRow(res, "serial_part", "p=4"); res.Table("regions").Num("overhead", i) != c.serial {
			t.Errorf("restrict %s: serial_part overhead %v", c.restrict, res.Table("regions").Num("overhead", i))
		}
		if i := regionRow(res, "partial_part", "p=4"); res.Table("regions").Num("overhead", i) != c.partial {
			t.Errorf("restrict %s: partial_part overhead %v", c.restrict, res.Table("regions").Num("overhead", i))
		}
		// The 1-process baseline has no process 2 or 3: undefined there,
		// but T_s still comes from it.
		base := cell(t, res, "total overhead", "", "p1")
		if math.IsNaN(base) == c.baselineDefined {
			t.Errorf("restrict %s: baseline T_o %v", c.restrict, base)
		}
		if res.Params["restrict"] != c.restrict || res.Params["t_s"] != "1000" {
			t.Errorf("params %v", res.Params)
		}
	}
}

func TestRegionAndCategoryViews(t *testing.T) {
	trials, p := pair(t)
	res, err := analyzeP(trials, p, Options{Region: "MPI_Send", Category: "loss_of_parallelism", Top: 2})
	if err != nil {
		t.Fatal(err)
	}
	checkExact(t, res)
	rt := res.Table("regions")
	// The average process (the default): MPI_Send mean(10,20,30,40) = 25;
	// loss 155 of T_o = 565 - 250 = 315.
	if rt.NumRows() != 1 || rt.Text("region", 0) != "MPI_Send()" || rt.Num("overhead", 0) != 25 || rt.Text("rule", 0) != "mpi-p2p" {
		t.Errorf("regions view: %d rows, %v", rt.NumRows(), rt.Columns)
	}
	ct := res.Table("category")
	if ct.NumRows() != 2 {
		t.Fatalf("category view: %d rows, want 2", ct.NumRows())
	}
	for i, want := range []struct {
		region, sub string
		ov          float64
	}{{"replicated_part", SubReplicated, 75}, {"serial_part", SubUnparallelized, 60}} {
		if ct.Text("region", i) != want.region || ct.Text("sub", i) != want.sub || ct.Num("overhead", i) != want.ov ||
			ct.Num("rank", i) != float64(i+1) || !near(ct.Num("percent_of_category", i), 100*want.ov/155) ||
			!near(ct.Num("percent_of_overhead", i), 100*want.ov/315) {
			t.Errorf("category row %d: %s %s %v", i, ct.Text("region", i), ct.Text("sub", i), ct.Num("overhead", i))
		}
	}
	// Every category, every region: data movement lists MPI_Send first.
	res, err = analyzeP(trials, p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ct = res.Table("category")
	first := map[string]string{}
	for i := 0; i < ct.NumRows(); i++ {
		k := ct.Text("category", i) + "|" + ct.Text("experiment", i)
		if _, ok := first[k]; !ok {
			first[k] = classify.MatchName(ct.Text("region", i))
		}
	}
	for k, v := range map[string]string{
		"data movement|p=4": "MPI_Send()", "synchronization|p=4": "MPI_Barrier()", "control of parallelism|p=4": "MPI_Init()",
		"additional computation|p=4": "MPI_Comm_rank()", "loss of parallelism|p=4": "replicated_part",
	} {
		if first[k] != v {
			t.Errorf("category view %s: first %q, want %q", k, first[k], v)
		}
	}
	// The regions table with all regions lists the largest overhead first.
	if classify.MatchName(res.Table("regions").Text("region", 0)) != "replicated_part" {
		t.Errorf("first region %q", res.Table("regions").Text("region", 0))
	}
}

func TestRulesFileChangesTable(t *testing.T) {
	trials, p := pair(t)
	rules, err := classify.LoadRules("../testdata/rules/waitall_as_p2p.yaml")
	if err != nil {
		t.Fatal(err)
	}
	res, err := analyzeP(trials, p, Options{Rules: rules})
	if err != nil {
		t.Fatal(err)
	}
	checkExact(t, res)
	// MPI_Waitall (3 on process 0) moves from synchronization to data
	// movement: data movement mean(18,25,35,45) = 30.75, its point-to-point
	// row mean(13,20,30,40) = 25.75; synchronization, mean 7, pays that
	// much of the waiting for serial and partial code (80): 0 is left, and
	// loss stays 155.
	for _, c := range []struct {
		cat, sub string
		want     float64
	}{{"data movement", "", 30.75}, {"data movement", classify.SubMPIPointToPoint, 25.75}, {"synchronization", "", 0}, {"loss of parallelism", "", 155}} {
		if got := cell(t, res, c.cat, c.sub, "p4"); got != c.want {
			t.Errorf("%s / %s = %v, want %v", c.cat, c.sub, got, c.want)
		}
	}
	if hasRow(res, "synchronization", classify.SubMPIWaitTest) {
		t.Error("MPI wait/test row should be gone")
	}
	if i := regionRow(res, "MPI_Waitall()", "p=4"); res.Table("regions").Text("category", i) != "data movement" ||
		res.Table("regions").Text("rule", i) != "waitall-p2p" {
		t.Errorf("MPI_Waitall row: %s %s", res.Table("regions").Text("category", i), res.Table("regions").Text("rule", i))
	}
	// The file also removes the unit-identification rule: MPI_Comm_rank
	// falls to the MPI management rule.
	if got := cell(t, res, "control of parallelism", classify.SubMPIManagement, "p4"); got != 1 {
		t.Errorf("management = %v, want 1", got)
	}
	if got := cell(t, res, "additional computation", "", "p4"); got != 0 {
		t.Errorf("additional computation = %v, want 0", got)
	}
	if !strings.HasPrefix(res.Params["rules"], "custom sha256:") {
		t.Errorf("rules param %q", res.Params["rules"])
	}
}

func TestAnalyzeErrors(t *testing.T) {
	trials, p := pair(t)
	badRule := classify.Rule{ID: "x", Match: "/(/", Category: DataMovement}
	for _, c := range []struct {
		name string
		p    []float64
		opt  Options
		want string
	}{
		{"p zero", []float64{0, 4}, Options{}, "want a whole number of processes"},
		{"p fraction", []float64{1, 2.5}, Options{}, "want a whole number of processes"},
		{"metric", p, Options{Metric: "PAPI_FP_OPS"}, `has no metric "PAPI_FP_OPS"`},
		{"aggregate", p, Options{Aggregate: "median"}, `aggregate "median"`},
		{"unit", p, Options{Unit: "node"}, `unit "node"`},
		{"baseline", p, Options{Baseline: "p5"}, `baseline "p5" is none of the experiments`},
		{"sequential", p, Options{SequentialTime: -1}, "sequential time -1"},
		{"restrict syntax", p, Options{Restrict: "1.2"}, "want a process N"},
		{"restrict absent", p, Options{Restrict: "9"}, "no trial has this process"},
		{"region", p, Options{Region: "nope"}, `no trial has a region "nope"`},
		{"category", p, Options{Category: "waiting"}, `unknown category "waiting"`},
		{"category computed", p, Options{Category: "unidentified"}, "has no regions to rank"},
		{"threshold", p, Options{ReplicatedThreshold: 2}, "replicated threshold 2"},
		{"top", p, Options{Top: -1}, "top -1"},
		{"rule", p, Options{Rules: []classify.Rule{badRule}}, "bad regular expression"},
	} {
		_, err := analyzeP(trials, c.p, c.opt)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
	if _, err := analyzeP(nil, nil, Options{}); err == nil {
		t.Error("no trials: want an error")
	}
	if _, err := analyzeP([]*drg.Trial{nil}, []float64{1}, Options{}); err == nil {
		t.Error("nil trial: want an error")
	}
}

// TestExactRandom checks the bit-exact invariants on random trials with
// awkward values: fractions, magnitudes from 1e-3 to 1e9, odd p.
func TestExactRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	names := []string{"MPI_Send()", "MPI_Recv()", "MPI_Allreduce()", "MPI_Barrier()", "MPI_Waitall()", "MPI_Init()",
		"MPI_Comm_rank()", "solve", "setup", "io_phase", "write()", "omp_set_lock"}
	val := func() float64 { return math.Pow(10, rng.Float64()*12-3) * (1 + rng.Float64()) }
	for iter := 0; iter < 200; iter++ {
		var trials []*drg.Trial
		var p []float64
		for e := 0; e < 1+rng.Intn(4); e++ {
			n := 1 + rng.Intn(7)
			var children []rec
			incl := make([]float64, n)
			for k := 0; k < n; k++ {
				incl[k] = val()
				for _, name := range names {
					if rng.Intn(3) > 0 {
						children = append(children, rec{name: name, th: k, excl: val() / 7, incl: 0})
					}
				}
			}
			for i := range children {
				children[i].incl = children[i].excl
			}
			trials = append(trials, build(t, "r", procs(n), mainRecs(incl, children)))
			p = append(p, float64(n))
		}
		opt := Options{Aggregate: []analysis.Aggregate{"max", "mean", "min"}[rng.Intn(3)]}
		if rng.Intn(3) == 0 {
			opt.SequentialTime = val()
		}
		res, err := analyzeP(trials, p, opt)
		var cp *analysis.ConstantPError
		if analysis.CheckPVaries("overhead", p) != nil && errors.As(err, &cp) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		checkExact(t, res)
		if t.Failed() {
			t.Fatalf("iteration %d", iter)
		}
	}
}
