package classify

import (
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// region makes a region as a Builder would (name canonicalized, location
// parsed).
func region(t testing.TB, name, groups string) drg.Region {
	t.Helper()
	b, err := drg.NewBuilder([]drg.ThreadID{{}})
	if err != nil {
		t.Fatal(err)
	}
	m := b.Metric("TIME")
	n := b.Node(name)
	if groups != "" {
		b.SetGroups(n, groups)
	}
	b.AddCalls(n, 0, 1, 0)
	b.AddValues(n, 0, m, 1, 1)
	tr, err := b.Finish("x", drg.Source{Format: "profile"})
	if err != nil {
		t.Fatal(err)
	}
	return tr.Regions[0]
}

func TestDefaultRulesClassify(t *testing.T) {
	omp := " [OpenMP location: file:/home/u/parallel.c <116, 123>]"
	for _, c := range []struct{ name, groups, cat, sub string }{
		// MPI, as TAU's wrapper writes it (trailing blanks, "()").
		{"MPI_Send()  ", "MPI", "data movement", SubMPIPointToPoint},
		{"MPI_Recv()", "MPI", "data movement", SubMPIPointToPoint},
		{"MPI_Isend()", "MPI", "data movement", SubMPIPointToPoint},
		{"MPI_Irecv()", "MPI", "data movement", SubMPIPointToPoint},
		{"MPI_Ssend()", "MPI", "data movement", SubMPIPointToPoint},
		{"MPI_Sendrecv_replace()", "MPI", "data movement", SubMPIPointToPoint},
		{"MPI_Iprobe()", "MPI", "data movement", SubMPIPointToPoint},
		{"MPI_Probe()", "MPI", "data movement", SubMPIPointToPoint},
		{"MPI_Send_init()", "MPI", "data movement", SubMPIPointToPoint},
		{"MPI_Startall()", "MPI", "data movement", SubMPIPointToPoint},
		{"MPI_Send() [ <message size> = <1024> ]", "MPI", "data movement", SubMPIPointToPoint},
		{"MPI_Recv() [THROTTLED]", "MPI", "data movement", SubMPIPointToPoint},
		{"MPI_SEND()", "MPI", "data movement", SubMPIPointToPoint},
		{"MPI_Allreduce()", "MPI", "data movement", SubMPICollective},
		{"MPI_Bcast()", "MPI", "data movement", SubMPICollective},
		{"MPI_Ibcast()", "MPI", "data movement", SubMPICollective},
		{"MPI_Alltoallv()", "MPI", "data movement", SubMPICollective},
		{"MPI_Allgather()", "MPI", "data movement", SubMPICollective},
		{"MPI_Reduce_scatter_block()", "MPI", "data movement", SubMPICollective},
		{"MPI_Neighbor_alltoallw()", "MPI", "data movement", SubMPICollective},
		{"MPI_Allreduce_init()", "MPI", "data movement", SubMPICollective},
		{"MPI_Exscan()", "MPI", "data movement", SubMPICollective},
		{"MPI_Put()", "MPI", "data movement", SubMPIOneSided},
		{"MPI_Get()", "MPI", "data movement", SubMPIOneSided},
		{"MPI_Rget_accumulate()", "MPI", "data movement", SubMPIOneSided},
		{"MPI_Accumulate()", "MPI", "data movement", SubMPIOneSided},
		{"MPI_Fetch_and_op()", "MPI", "data movement", SubMPIOneSided},
		{"MPI_Compare_and_swap()", "MPI", "data movement", SubMPIOneSided},
		{"MPI_File_write_all()", "MPI", "data movement", SubMPIIO},
		{"MPI_File_open()", "MPI", "data movement", SubMPIIO},
		{"MPI_File_read_at_all_begin()", "MPI", "data movement", SubMPIIO},
		{"MPI_Barrier()", "MPI", "synchronization", SubMPIBarrier},
		{"MPI_Ibarrier()", "MPI", "synchronization", SubMPIBarrier},
		{"MPI_Wait()", "MPI", "synchronization", SubMPIWaitTest},
		{"MPI_Waitall()", "MPI", "synchronization", SubMPIWaitTest},
		{"MPI_Waitany()", "MPI", "synchronization", SubMPIWaitTest},
		{"MPI_Testsome()", "MPI", "synchronization", SubMPIWaitTest},
		{"MPI_Test()", "MPI", "synchronization", SubMPIWaitTest},
		{"MPI_Win_fence()", "MPI", "synchronization", SubMPIWindowSync},
		{"MPI_Win_lock()", "MPI", "synchronization", SubMPIWindowSync},
		{"MPI_Win_unlock_all()", "MPI", "synchronization", SubMPIWindowSync},
		{"MPI_Win_post()", "MPI", "synchronization", SubMPIWindowSync},
		{"MPI_Win_start()", "MPI", "synchronization", SubMPIWindowSync},
		{"MPI_Win_complete()", "MPI", "synchronization", SubMPIWindowSync},
		{"MPI_Win_wait()", "MPI", "synchronization", SubMPIWindowSync},
		{"MPI_Win_flush_local()", "MPI", "synchronization", SubMPIWindowSync},
		{"MPI_Init()", "MPI", "control of parallelism", SubMPIInitFinalize},
		{"MPI_Init_thread()", "MPI", "control of parallelism", SubMPIInitFinalize},
		{"MPI_Finalize()", "MPI", "control of parallelism", SubMPIInitFinalize},
		{"MPI_Comm_split()", "MPI", "control of parallelism", SubMPIManagement},
		{"MPI_Comm_dup()", "MPI", "control of parallelism", SubMPIManagement},
		{"MPI_Comm_free()", "MPI", "control of parallelism", SubMPIManagement},
		{"MPI_Comm_get_attr()", "MPI", "control of parallelism", SubMPIManagement},
		{"MPI_Cart_create()", "MPI", "control of parallelism", SubMPIManagement},
		{"MPI_Cart_sub()", "MPI", "control of parallelism", SubMPIManagement},
		{"MPI_Group_incl()", "MPI", "control of parallelism", SubMPIManagement},
		{"MPI_Dist_graph_create_adjacent()", "MPI", "control of parallelism", SubMPIManagement},
		{"MPI_Intercomm_merge()", "MPI", "control of parallelism", SubMPIManagement},
		{"MPI_Win_create()", "MPI", "control of parallelism", SubMPIManagement},
		{"MPI_Win_free()", "MPI", "control of parallelism", SubMPIManagement},
		{"MPI_Comm_spawn()", "MPI", "control of parallelism", SubMPISpawn},
		{"MPI_Comm_spawn_multiple()", "MPI", "control of parallelism", SubMPISpawn},
		{"MPI_Comm_get_parent()", "MPI", "control of parallelism", SubMPISpawn},
		{"MPI_Type_commit()", "MPI", "control of parallelism", SubMPIOther},
		{"MPI_Wtime()", "MPI", "control of parallelism", SubMPIOther},
		{"MPI_Get_count()", "MPI", "control of parallelism", SubMPIOther},
		{"MPI_Reduce_local()", "MPI", "control of parallelism", SubMPIOther},
		{"MPI_Info_create()", "MPI", "control of parallelism", SubMPIOther},
		{"MPI_Pack()", "", "control of parallelism", SubMPIOther},
		{"my_mpi_helper", "MPI", "control of parallelism", SubMPIOther},
		{"MPI_Comm_rank()", "MPI", "additional computation", SubUnitID},
		{"MPI_Comm_size()", "MPI", "additional computation", SubUnitID},
		{"MPI_Get_processor_name()", "MPI", "additional computation", SubUnitID},
		// OpenMP: OPARI2 region view, OPARI2 construct view, OMPT, API, runtimes.
		{"barrier (barrier enter/exit)" + omp, "OpenMP", "synchronization", SubOMPBarrier},
		{"for (barrier enter/exit)" + omp, "OpenMP", "synchronization", SubOMPBarrier},
		{"parallel (barrier enter/exit)" + omp, "OpenMP", "synchronization", SubOMPBarrier},
		{"barrier enter/exit [OpenMP]", "OpenMP", "synchronization", SubOMPBarrier},
		{"OpenMP_BARRIER", "TAU_OPENMP", "synchronization", SubOMPBarrier},
		{"OpenMP_WAIT_BARRIER", "TAU_OPENMP", "synchronization", SubOMPBarrier},
		{"OpenMP_Sync_Region_Barrier_Implicit ADDR <4011f0>", "TAU_OPENMP", "synchronization", SubOMPBarrier},
		{"OpenMP_Sync_Region_Barrier_Explicit main [{a.c} {12}]", "TAU_OPENMP", "synchronization", SubOMPBarrier},
		{"GOMP_barrier", "", "synchronization", SubOMPBarrier},
		{"GOMP_loop_end", "", "synchronization", SubOMPBarrier},
		{"__kmpc_barrier", "", "synchronization", SubOMPBarrier},
		{"critical (critical enter/exit)" + omp, "OpenMP", "synchronization", SubOMPCritical},
		{"OpenMP_Mutex_Waiting_Critical ADDR <4011f0>", "TAU_OPENMP", "synchronization", SubOMPCritical},
		{"OpenMP_CRITICAL_REGION_WAIT", "TAU_OPENMP", "synchronization", SubOMPCritical},
		{"__kmpc_critical", "", "synchronization", SubOMPCritical},
		{"omp_set_lock", "OpenMP", "synchronization", SubOMPLock},
		{"omp_unset_nest_lock()", "OpenMP", "synchronization", SubOMPLock},
		{"omp_test_lock", "OpenMP", "synchronization", SubOMPLock},
		{"OpenMP_LOCK_WAIT", "TAU_OPENMP", "synchronization", SubOMPLock},
		{"OpenMP_Mutex_Waiting_Lock ADDR <4011f0>", "TAU_OPENMP", "synchronization", SubOMPLock},
		{"atomic (atomic enter/exit)" + omp, "OpenMP", "synchronization", SubOMPAtomic},
		{"OpenMP_ATOMIC_REGION_WAIT", "TAU_OPENMP", "synchronization", SubOMPAtomic},
		{"ordered (ordered enter/exit)" + omp, "OpenMP", "synchronization", SubOMPOrdered},
		{"taskwait (taskwait begin/end)" + omp, "OpenMP", "synchronization", SubOMPTaskwait},
		{"OpenMP_TASKWAIT", "TAU_OPENMP", "synchronization", SubOMPTaskwait},
		{"OpenMP_Sync_Region_Taskgroup ADDR <1>", "TAU_OPENMP", "synchronization", SubOMPTaskwait},
		{"flush (flush enter/exit)" + omp, "OpenMP", "synchronization", SubOMPFlush},
		{"pthread_mutex_lock", "", "synchronization", SubPthreadSync},
		{"pthread_barrier_wait", "", "synchronization", SubPthreadSync},
		{"parallel (parallel fork/join)" + omp, "OpenMP", "control of parallelism", SubOMPForkJoin},
		{"parallel fork/join [OpenMP]", "OpenMP", "control of parallelism", SubOMPForkJoin},
		{"OpenMP_PARALLEL_REGION", "TAU_OPENMP", "control of parallelism", SubOMPForkJoin},
		{"OpenMP_Parallel_Region ADDR <4011f0>", "TAU_OPENMP", "control of parallelism", SubOMPForkJoin},
		{"__kmpc_fork_call", "", "control of parallelism", SubOMPForkJoin},
		{"GOMP_parallel", "", "control of parallelism", SubOMPForkJoin},
		{"GOMP_loop_dynamic_next", "", "control of parallelism", SubOMPScheduling},
		{"__kmpc_dispatch_next_4", "", "control of parallelism", SubOMPScheduling},
		{"__kmpc_for_static_init_8", "", "control of parallelism", SubOMPScheduling},
		{"single (single enter/exit)" + omp, "OpenMP", "control of parallelism", SubOMPWorkSharing},
		{"sections (sections enter/exit)" + omp, "OpenMP", "control of parallelism", SubOMPWorkSharing},
		{"OpenMP_SINGLE_OTHERS", "TAU_OPENMP", "control of parallelism", SubOMPWorkSharing},
		{"task (task create begin/end)" + omp, "OpenMP", "control of parallelism", SubOMPTaskCreation},
		{"__kmpc_omp_task_alloc", "", "control of parallelism", SubOMPTaskCreation},
		{"omp_set_num_threads", "OpenMP", "control of parallelism", SubOMPRuntime},
		{"omp_init_lock", "OpenMP", "control of parallelism", SubOMPRuntime},
		{"omp_get_thread_num", "OpenMP", "additional computation", SubUnitID},
		{"omp_get_num_threads()", "OpenMP", "additional computation", SubUnitID},
		{"pthread_create", "", "control of parallelism", SubThreadCreation},
		{"pthread_join", "", "control of parallelism", SubThreadCreation},
		// OpenMP bodies: computation.
		{"parallel (parallel begin/end)" + omp, "OpenMP", "computation", SubOMPConstructBody},
		{"for (loop body)" + omp, "OpenMP", "computation", SubOMPConstructBody},
		{"critical (critical begin/end)" + omp, "OpenMP", "computation", SubOMPConstructBody},
		{"single (single begin/end)" + omp, "OpenMP", "computation", SubOMPConstructBody},
		{"master (master begin/end)" + omp, "OpenMP", "computation", SubOMPConstructBody},
		{"task (task begin/end)" + omp, "OpenMP", "computation", SubOMPConstructBody},
		{"OpenMP_IMPLICIT_TASK", "TAU_OPENMP", "computation", SubOMPConstructBody},
		{"OpenMP_Implicit_Task", "TAU_OPENMP", "computation", SubOMPConstructBody},
		{"OpenMP_Work_Loop ADDR <4011f0>", "TAU_OPENMP", "computation", SubOMPConstructBody},
		{"OpenMP_LOOP", "TAU_OPENMP", "computation", SubOMPConstructBody},
		{"OpenMP_LOCK", "TAU_OPENMP", "computation", SubOMPConstructBody},
		{"OpenMP_Task ADDR <1>", "TAU_OPENMP", "computation", SubOMPConstructBody},
		// I/O.
		{"read()", "TAU_IO", "data movement", SubPOSIXIO},
		{"write()", "TAU_IO", "data movement", SubPOSIXIO},
		{"fopen", "", "data movement", SubPOSIXIO},
		{"lseek64()", "", "data movement", SubPOSIXIO},
		{"fsync", "", "data movement", SubPOSIXIO},
		{"my_io_thing", "TAU_IO", "data movement", SubPOSIXIO},
		{"ADIOS write", "TAU_USER", "data movement", SubIOLibrary},
		{"adios2_put", "", "data movement", SubIOLibrary},
		// The program's own code.
		{".TAU application", "TAU_USER", "computation", ""},
		{"int main(int, char **) C [{matmult.c} {209,1}-{299,1}]", "TAU_DEFAULT", "computation", ""},
		{"readMatrix", "TAU_USER", "computation", ""},
		{"double **allocateMatrix(int, int) C [{matmult.c} {42,1}-{49,1}]", "TAU_USER", "computation", ""},
		{"OpenMP_BARRIER_helper_of_mine", "", "computation", ""},
	} {
		reg := region(t, c.name, c.groups)
		r, ok := Classify(Default(), &reg)
		got, sub := "computation", ""
		if ok {
			got, sub = string(r.Category), r.Sub
		}
		if got != c.cat || sub != c.sub {
			t.Errorf("%q (group %q): %s / %s (rule %s), want %s / %s", c.name, c.groups, got, sub, r.ID, c.cat, c.sub)
		}
	}
}

func TestDefaultRulesWellFormed(t *testing.T) {
	ids := map[string]bool{}
	for i, r := range Default() {
		if r.ID == "" || ids[r.ID] {
			t.Errorf("rule %d: id %q missing or repeated", i+1, r.ID)
		}
		ids[r.ID] = true
		if r.Source != "default" || r.kind == kindUnset {
			t.Errorf("rule %s: source %q kind %v", r.ID, r.Source, r.kind)
		}
		if r.Category != Computation && r.Sub == "" {
			t.Errorf("rule %s: no sub-category", r.ID)
		}
	}
	// DefaultRules hands out copies.
	a := Default()
	a[0].Category = DataMovement
	if Default()[0].Category != Computation {
		t.Error("DefaultRules returned shared storage")
	}
	for _, r := range Default() {
		if _, err := ParseClass(r.Class); err != nil {
			t.Errorf("rule %s: %v", r.ID, err)
		}
	}
}

func TestRuleMatchForms(t *testing.T) {
	send := region(t, "MPI_Send()  ", "MPI")
	alloc := region(t, "double **allocateMatrix(int, int) C [{matmult.c} {42,1}-{49,1}]", "TAU_USER")
	omp := region(t, "for (barrier enter/exit) [OpenMP location: file:/a/b.c <1, 2>]", "OpenMP")
	for _, c := range []struct {
		match, group string
		reg          *drg.Region
		want         bool
	}{
		{"MPI_Send", "", &send, true},
		{"MPI_Send()", "", &send, true},
		{"MPI_Send()  ", "", &send, true},
		{"MPI_Sen", "", &send, false},
		{"MPI_Se*", "", &send, true},
		{"MPI_Send", "mpi", &send, true},
		{"MPI_Send", "TAU_USER", &send, false},
		{"", "MPI", &send, true},
		{"/^MPI_Send$/", "", &send, true},
		{`/^MPI_Send\(\)$/`, "", &send, true},
		{"/Recv/", "", &send, false},
		{"double **allocateMatrix(int, int) C", "", &alloc, true},
		{"double **allocateMatrix(int, int) C [{matmult.c} {42,1}-{49,1}]", "", &alloc, true},
		{"double **alloc*", "", &alloc, true},
		{"/matmult\\.c/", "", &alloc, true},
		{"for (barrier enter/exit)", "", &omp, true},
		{"for (barrier*", "", &omp, true},
		{"*", "", &omp, true},
	} {
		r, err := NewRule("", c.match, c.group, Synchronization, "", ClassMPI, "")
		if err != nil {
			t.Errorf("%q: %v", c.match, err)
			continue
		}
		if got := r.Matches(c.reg); got != c.want {
			t.Errorf("match %q group %q on %q: %v, want %v", c.match, c.group, c.reg.Name, got, c.want)
		}
		// A rule literal (not compiled) matches the same way.
		lit := Rule{Match: c.match, Group: c.group, Category: Synchronization, Class: ClassMPI}
		if got := lit.Matches(c.reg); got != c.want {
			t.Errorf("literal rule %q: %v, want %v", c.match, got, c.want)
		}
	}
	for _, c := range []struct {
		match, group string
		cat          Category
		want         string
	}{
		{"", "", DataMovement, "neither match nor group"},
		{"/(/", "", DataMovement, "bad regular expression"},
		{"//", "", DataMovement, "empty regular expression"},
		{"x", "", LossOfParallelism, "computed by the analysis"},
		{"x", "", "waiting", "unknown category"},
	} {
		if _, err := NewRule("", c.match, c.group, c.cat, "", ClassMPI, ""); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("NewRule(%q, %q, %q): %v, want %q", c.match, c.group, c.cat, err, c.want)
		}
	}
	r, _ := NewRule("", "x", "", "Data_Movement", "", ClassMPI, "")
	if r.Category != DataMovement || r.Sub != DefaultSub {
		t.Errorf("normalized rule %+v", r)
	}
}

func TestMatchName(t *testing.T) {
	for in, want := range map[string]string{
		"MPI_Send()  ": "MPI_Send()",
		"void compute(double **) C [{matmult.c} {90,1}-{109,1}]":              "void compute(double **) C",
		"barrier (barrier enter/exit) [OpenMP location: file:/a/b.c <4, 4>]":  "barrier (barrier enter/exit)",
		"barrier enter/exit [OpenMP]":                                         "barrier enter/exit",
		"int foo(int) C [{foo.c} {3,1}-{7,1}]   [ <size> = <100> ]":           "int foo(int) C",
		"double multiply(double, double) C [{m.c} {59,1}-{61,1}] [THROTTLED]": "double multiply(double, double) C",
		"MPI_Recv() [THROTTLED]":                                              "MPI_Recv()",
		"[weird":                                                              "[weird",
	} {
		if got := MatchName(in); got != want {
			t.Errorf("MatchName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParseCategory(t *testing.T) {
	for in, want := range map[string]Category{
		"data movement": DataMovement, "Data_Movement": DataMovement, " synchronization ": Synchronization,
		"control-of-parallelism": ControlOfParallelism, "ADDITIONAL COMPUTATION": AdditionalComputation,
		"loss of  parallelism": LossOfParallelism, "unidentified": Unidentified, "computation": Computation,
	} {
		if got, err := ParseCategory(in); err != nil || got != want {
			t.Errorf("ParseCategory(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := ParseCategory("io"); err == nil {
		t.Error("want an error")
	}
}

// TestDefaultClasses checks the class and category of the default rules on
// the names the former summary classifier documented (its classes are the
// oracle), and that class and category agree on I/O.
func TestDefaultClasses(t *testing.T) {
	for _, c := range []struct {
		name, groups string
		class        Class
		cat          Category
	}{
		{"MPI_Send()", "MPI", ClassMPI, DataMovement},
		{"MPI_Barrier()", "MPI", ClassMPI, Synchronization},
		{"MPI_Comm_rank()", "MPI", ClassMPI, AdditionalComputation},
		{"MPI_File_open()", "MPI", ClassIO, DataMovement},
		{"MPI_File_write_all()", "", ClassIO, DataMovement},
		{"PMPI_Barrier", "", ClassMPI, ControlOfParallelism},
		{"fopen()", "", ClassIO, DataMovement},
		{"read()", "TAU_USER", ClassIO, DataMovement},
		{"anything", "TAU_IO", ClassIO, DataMovement},
		{"anything", "IO", ClassIO, DataMovement},
		{"ADIOS write", "TAU_USER", ClassIO, DataMovement},
		{"anything", "ADIOS2", ClassIO, DataMovement},
		{"my_read()", "TAU_USER", ClassComputation, Computation},
		{"omp_set_lock", "", ClassOpenMP, Synchronization},
		{"OpenMP_BARRIER: x", "", ClassOpenMP, Synchronization},
		{"parallel (parallel) [OpenMP location: file:a.c <1, 2>]", "", ClassOpenMP, Computation},
		{"loop body [OpenMP]", "", ClassOpenMP, Computation},
		{"anything", "TAU_OPENMP", ClassOpenMP, Computation},
		{"pthread_mutex_lock", "", ClassComputation, Synchronization},
		{"[SAMPLE] compute [{m.c} {97}]", "TAU_SAMPLE", ClassSampled, Computation},
		{"[CONTEXT] .TAU application", "TAU_SAMPLE_CONTEXT", ClassSampled, Computation},
		{"TAU_SHUTDOWN", "", ClassOther, Computation},
		{"anything", "TAU_INTERNAL", ClassOther, Computation},
		{".TAU application", "TAU_DEFAULT", ClassComputation, Computation},
	} {
		reg := region(t, c.name, c.groups)
		r, ok := Classify(Default(), &reg)
		if !ok {
			r = Rule{Class: ClassComputation, Category: Computation}
		}
		if r.Class != c.class || r.Category != c.cat || ClassOf(Default(), &reg) != c.class {
			t.Errorf("%q (group %q): %s / %s (rule %s), want %s / %s", c.name, c.groups, r.Class, r.Category, r.ID, c.class, c.cat)
		}
	}
}
