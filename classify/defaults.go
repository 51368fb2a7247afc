package classify

// The sub-categories of the default rules (the leaves of SCALEA's Figure 2
// that TAU's region names can reveal). Synchronization subs are
// multi-address space (MPI) or single-address space (OpenMP, POSIX
// threads), as in Figure 2(c).
const (
	SubMPIPointToPoint  = "MPI point-to-point"
	SubMPICollective    = "MPI collective"
	SubMPIOneSided      = "MPI one-sided (RMA)"
	SubMPIIO            = "MPI-IO"
	SubPOSIXIO          = "POSIX I/O"
	SubIOLibrary        = "I/O library (ADIOS)"
	SubMPIBarrier       = "MPI barrier"
	SubMPIWaitTest      = "MPI wait/test"
	SubMPIWindowSync    = "MPI window sync/locks"
	SubOMPBarrier       = "OpenMP barrier"
	SubOMPCritical      = "OpenMP critical"
	SubOMPLock          = "OpenMP lock"
	SubOMPAtomic        = "OpenMP atomic"
	SubOMPOrdered       = "OpenMP ordered"
	SubOMPTaskwait      = "OpenMP taskwait/taskgroup"
	SubOMPFlush         = "OpenMP flush"
	SubPthreadSync      = "POSIX threads synchronization"
	SubMPIInitFinalize  = "MPI init/finalize"
	SubMPIManagement    = "MPI communicator/group/topology/window management"
	SubMPISpawn         = "MPI spawn"
	SubMPIOther         = "MPI other"
	SubOMPForkJoin      = "OpenMP fork/join"
	SubOMPScheduling    = "OpenMP loop scheduling"
	SubOMPWorkSharing   = "OpenMP work sharing"
	SubOMPTaskCreation  = "OpenMP task creation"
	SubOMPRuntime       = "OpenMP runtime calls"
	SubThreadCreation   = "thread creation"
	SubUnitID           = "processing unit identification"
	SubOMPConstructBody = "OpenMP construct body"
)

// Default returns the default classification rules in matching order
// (the first matching rule wins; a region no rule matches is computation).
// They cover the names TAU writes for MPI (its MPI wrapper: "MPI_Send()",
// every MPI-3 routine family by pattern, in group MPI), OpenMP (OPARI2:
// "<construct> (<event>) [OpenMP location: file:F <L1, L2>]" and
// "<event> [OpenMP]"; TAU's OMPT tools: "OpenMP_BARRIER",
// "OpenMP_Sync_Region_Barrier ADDR <...>", ...; the omp_* lock API; GNU
// and LLVM runtime entry points when a tool instruments them), POSIX
// threads, POSIX and C I/O (TAU's I/O wrapper, group TAU_IO) and ADIOS.
// The table is reproduced in the package documentation.
//
// OpenMP timers that hold the body of a construct (OPARI's "parallel
// begin/end", "loop body", "master begin/end", "single begin/end", ...,
// OMPT's implicit task, loop and task timers) are computation; so the
// exclusive time of "parallel (parallel fork/join)" (the master's time from
// fork to join outside the body) is fork/join overhead, and an OpenMP loop
// timer, which spans the loop's iterations, is not loop-scheduling
// overhead: only runtime scheduling entry points (GOMP_loop_*_next,
// __kmpc_dispatch_*) are. Requests for processing unit identifications
// (MPI_Comm_rank, omp_get_thread_num, ...) are additional computation, as
// SCALEA's section 3 puts them; algorithmic changes are invisible in names,
// so no other default rule assigns additional computation.
//
// Classes: MPI rules give mpi (MPI-IO gives io), OpenMP rules openmp (the
// construct bodies too: the time inside OpenMP constructs as TAU measures
// it), I/O rules io, POSIX threads computation. Samples come first (class
// sampled, computation for overhead); catch-alls at the end give a class
// to what the overhead rules leave as computation: other OpenMP timers and
// groups (openmp), TAU's own timers (other), and PMPI_ names (mpi, control
// of parallelism).
func Default() []Rule {
	return append([]Rule(nil), defaultRules...)
}

// defaultRules is built once; Default hands out copies.
var defaultRules = buildDefaults()

// defaultRow is one default rule: id, match, group, SCALEA category,
// sub-category, note and coarse class.
type defaultRow struct {
	id, match, group string
	cat              Category
	sub, note        string
	class            Class
}

// defaultTable is the default rule table, in matching order.
var defaultTable = []defaultRow{
	// Sampled regions first: their time lies inside their timers'.
	{"sampled-name", `/^\[(SAMPLE|CONTEXT|UNWIND|INTERMEDIATE)\] /`, "", Computation, "",
		"event-based samples; splits skip them, overhead counts them as computation as before", ClassSampled},
	{"sampled-group", "", `/(?i)^(TAU_SAMPLE|TAU_SAMPLE_CONTEXT|TAU_UNWIND)$/`, Computation, "", "", ClassSampled},

	// OpenMP construct bodies: computation (and subject to the loss of
	// parallelism test), ahead of every OpenMP overhead rule.
	{"omp-body-opari",
		`/(^|\()(parallel begin/end|loop body|master begin/end|single begin/end|section begin/end|critical begin/end|ordered begin/end|task begin/end|untied task begin/end|workshare enter/exit|inst region begin/end)(\)|$)/`,
		"", Computation, SubOMPConstructBody,
		"OPARI2 timers of a construct's body; a loop's iterations are in its loop body timer", ClassOpenMP},
	{"omp-body-ompt",
		`/^OpenMP_(IMPLICIT_TASK|Implicit_Task|INITIAL_TASK|TASK|Task|MASTER_REGION|Master|Masked|SINGLE_IN_BLOCK|Work_Single_Executor|LOOP|Work_Loop|SECTIONS|Work_Sections|WORKSHARE|Work_Workshare|Work_Distribute|Work_Taskloop|Work_Scope|CRITICAL_REGION|ATOMIC_REGION|ORDERED_REGION|LOCK|Mutex_Acquired_\w+|Thread_Type_\w+)\b/`,
		"", Computation, SubOMPConstructBody,
		"OMPT timers of work: implicit and explicit tasks, loops (their iterations), single/master bodies, time holding a lock", ClassOpenMP},

	// OpenMP synchronization (single-address space).
	{"omp-barrier-opari", `/(^|\()barrier enter/exit(\)|$)/`, "", Synchronization, SubOMPBarrier,
		"explicit barriers and the implicit barriers of parallel, for, single and sections (\"for (barrier enter/exit)\")", ClassOpenMP},
	{"omp-barrier-ompt", `/^OpenMP_(BARRIER|WAIT_BARRIER|Sync_Region_Barrier\w*|Sync_Region_Reduction)\b/`, "", Synchronization, SubOMPBarrier,
		"OMPT barrier and reduction synchronization regions", ClassOpenMP},
	{"omp-barrier-runtime", `/^(GOMP_barrier(_cancel)?|GOMP_loop_end(_cancel)?|GOMP_sections_end(_cancel)?|__kmpc_barrier|__kmpc_(end_)?reduce(_nowait)?)$/`, "", Synchronization, SubOMPBarrier,
		"runtime barriers; GOMP_loop_end and GOMP_sections_end wait at the construct's barrier", ClassOpenMP},
	{"omp-critical-opari", `/(^|\()critical enter/exit(\)|$)/`, "", Synchronization, SubOMPCritical,
		"entering and leaving a critical section (the body is critical begin/end)", ClassOpenMP},
	{"omp-critical-ompt", `/^OpenMP_(CRITICAL_REGION_WAIT|Mutex_Waiting_Critical)\b/`, "", Synchronization, SubOMPCritical, "", ClassOpenMP},
	{"omp-critical-runtime", `/^(GOMP_critical(_name)?_(start|end)|__kmpc_(end_)?critical(_with_hint)?)$/`, "", Synchronization, SubOMPCritical, "", ClassOpenMP},
	{"omp-lock-api", `/^omp_(set|test|unset)_(nest_)?lock$/`, "", Synchronization, SubOMPLock, "the OpenMP lock API (TAU's POMP2 lock wrappers)", ClassOpenMP},
	{"omp-lock-ompt", `/^OpenMP_(LOCK_WAIT|Mutex_Waiting_(Nest_|Test_|Test_Nest_)?Lock)\b/`, "", Synchronization, SubOMPLock, "", ClassOpenMP},
	{"omp-lock-runtime", `/^__kmpc_(set|test|unset)_(nest_)?lock$/`, "", Synchronization, SubOMPLock, "", ClassOpenMP},
	{"omp-atomic-opari", `/(^|\()atomic enter/exit(\)|$)/`, "", Synchronization, SubOMPAtomic, "", ClassOpenMP},
	{"omp-atomic-ompt", `/^OpenMP_(ATOMIC_REGION_WAIT|Mutex_Waiting_Atomic)\b/`, "", Synchronization, SubOMPAtomic, "", ClassOpenMP},
	{"omp-atomic-runtime", `/^(GOMP_atomic_(start|end)|__kmpc_atomic_\w+)$/`, "", Synchronization, SubOMPAtomic, "", ClassOpenMP},
	{"omp-ordered-opari", `/(^|\()ordered enter/exit(\)|$)/`, "", Synchronization, SubOMPOrdered,
		"waiting for the ordered turn (the body is ordered begin/end)", ClassOpenMP},
	{"omp-ordered-ompt", `/^OpenMP_(ORDERED_REGION_WAIT|Mutex_Waiting_Ordered)\b/`, "", Synchronization, SubOMPOrdered, "", ClassOpenMP},
	{"omp-ordered-runtime", `/^(GOMP_ordered_(start|end)|__kmpc_(end_)?ordered)$/`, "", Synchronization, SubOMPOrdered, "", ClassOpenMP},
	{"omp-taskwait", `/(^|\()taskwait begin/end(\)|$)|^OpenMP_(TASKWAIT|WAIT_TASKWAIT|TASKGROUP|WAIT_TASKGROUP|Sync_Region_Taskwait|Sync_Region_Taskgroup)\b|^(GOMP_taskwait|GOMP_taskgroup_end|__kmpc_omp_taskwait|__kmpc_end_taskgroup)$/`,
		"", Synchronization, SubOMPTaskwait, "", ClassOpenMP},
	{"omp-flush", `/(^|\()flush enter/exit(\)|$)|^(GOMP_flush|__kmpc_flush)$/`, "", Synchronization, SubOMPFlush, "", ClassOpenMP},
	{"pthread-sync", `/^pthread_(mutex_(lock|trylock|timedlock)|spin_(lock|trylock)|rwlock_(rd|wr|timedrd|timedwr|tryrd|trywr)lock|cond_(wait|timedwait)|barrier_wait)$/`,
		"", Synchronization, SubPthreadSync, "single-address space, like OpenMP's", ClassComputation},

	// OpenMP and thread control of parallelism.
	{"omp-fork-join-opari", `/(^|\()parallel fork/join(\)|$)/`, "", ControlOfParallelism, SubOMPForkJoin,
		"the master's time from fork to join outside the body (the body is parallel begin/end)", ClassOpenMP},
	{"omp-fork-join-ompt", `/^OpenMP_(PARALLEL_REGION|Parallel_Region)\b/`, "", ControlOfParallelism, SubOMPForkJoin,
		"exclusive time only: the body is the nested implicit task timer", ClassOpenMP},
	{"omp-fork-join-runtime", `/^(GOMP_parallel(_start|_end)?|GOMP_parallel_(loop|sections)_\w+|GOMP_teams\w*|__kmpc_fork_(call|teams)|__kmpc_push_num_(threads|teams)|__kmpc_(end_)?serialized_parallel)$/`,
		"", ControlOfParallelism, SubOMPForkJoin, "", ClassOpenMP},
	{"omp-scheduling", `/^(GOMP_loop_\w+|__kmpc_dispatch_\w+|__kmpc_for_static_\w+|__kmpc_dist_\w+)$/`, "", ControlOfParallelism, SubOMPScheduling,
		"runtime entry points that hand out iterations (GOMP_loop_end is a barrier, above)", ClassOpenMP},
	{"omp-work-sharing", `/(^|\()(single enter/exit|sections enter/exit)(\)|$)|^OpenMP_(SINGLE_OTHERS|Work_Single_Other)\b|^(GOMP_single_(start|copy_start)|GOMP_sections_(start|next)|__kmpc_(end_)?(single|master|masked)|__kmpc_sections_\w+)$/`,
		"", ControlOfParallelism, SubOMPWorkSharing, "deciding which thread runs a single or section", ClassOpenMP},
	{"omp-task-creation", `/(^|\()(task create begin/end|task create begin/create end|untied task create begin/end)(\)|$)|^(GOMP_task|GOMP_taskloop\w*|__kmpc_omp_task(_alloc|_with_deps)?|__kmpc_taskloop)$/`,
		"", ControlOfParallelism, SubOMPTaskCreation, "", ClassOpenMP},
	{"thread-creation", `/^pthread_(create|join)$/`, "", ControlOfParallelism, SubThreadCreation, "", ClassComputation},

	// Requests for processing unit identifications (SCALEA section 3).
	{"unit-identification-mpi", `/(?i)^MPI_(Comm_(rank|size|remote_size)|Group_(rank|size)|Get_processor_name|Query_thread|Is_thread_main)$/`,
		"", AdditionalComputation, SubUnitID, "SCALEA counts requests for processing unit identifications as additional computation", ClassMPI},
	{"unit-identification-omp", `/^omp_(get_(thread_num|num_threads|max_threads|num_procs|level|active_level|ancestor_thread_num|team_size|team_num|num_teams|thread_limit)|in_parallel)$/`,
		"", AdditionalComputation, SubUnitID, "", ClassOpenMP},
	{"omp-runtime", `/^omp_\w+$/`, "", ControlOfParallelism, SubOMPRuntime, "other OpenMP API calls (omp_set_num_threads, omp_init_lock, ...)", ClassOpenMP},

	// MPI data movement.
	{"mpi-io", `/(?i)^MPI_(File_\w+|Register_datarep)$/`, "", DataMovement, SubMPIIO, "", ClassIO},
	{"mpi-p2p", `/(?i)^MPI_((I|Ib|Is|Ir|B|S|R)?send|(I|M|Im)?recv|I?sendrecv(_replace)?|(B|S|R)?send_init|Recv_init|Psend_init|Precv_init|Startall|Start|Pready\w*|Parrived|(I|M|Im)?probe|Buffer_(attach|detach)|Cancel|Request_free)$/`,
		"", DataMovement, SubMPIPointToPoint, "sends, receives, probes, persistent requests", ClassMPI},
	{"mpi-collective", `/(?i)^MPI_(I?(bcast|gather|gatherv|scatter|scatterv|allgather|allgatherv|alltoall|alltoallv|alltoallw|reduce|allreduce|reduce_scatter|reduce_scatter_block|scan|exscan)|I?neighbor_(allgather|allgatherv|alltoall|alltoallv|alltoallw))(_init)?$/`,
		"", DataMovement, SubMPICollective, "blocking, nonblocking and persistent collectives, neighborhood collectives (MPI_Barrier is synchronization)", ClassMPI},
	{"mpi-rma", `/(?i)^MPI_(R?put|R?get|R?accumulate|R?get_accumulate|Fetch_and_op|Compare_and_swap)$/`, "", DataMovement, SubMPIOneSided,
		"remote memory access, accumulate included (SCALEA's communication of accumulate operation)", ClassMPI},

	// MPI synchronization (multi-address space).
	{"mpi-barrier", `/(?i)^MPI_I?barrier(_init)?$/`, "", Synchronization, SubMPIBarrier, "", ClassMPI},
	{"mpi-wait-test", `/(?i)^MPI_((Wait|Test)(all|any|some)?|Request_get_status(_all|_any|_some)?)$/`, "", Synchronization, SubMPIWaitTest,
		"completing nonblocking requests", ClassMPI},
	{"mpi-window-sync", `/(?i)^MPI_Win_(fence|lock|unlock|lock_all|unlock_all|post|start|complete|wait|test|flush|flush_all|flush_local|flush_local_all|sync)$/`,
		"", Synchronization, SubMPIWindowSync, "active (fence, post/start/complete/wait) and passive (lock/unlock, flush) target synchronization", ClassMPI},

	// MPI control of parallelism.
	{"mpi-init-finalize", `/(?i)^MPI_(Init|Init_thread|Finalize|Initialized|Finalized|Abort|Session_(init|finalize))$/`, "", ControlOfParallelism, SubMPIInitFinalize, "", ClassMPI},
	{"mpi-spawn", `/(?i)^MPI_(Comm_spawn(_multiple)?|Comm_get_parent|Comm_accept|Comm_connect|Comm_join|Comm_disconnect|Open_port|Close_port|(Publish|Lookup|Unpublish)_name)$/`,
		"", ControlOfParallelism, SubMPISpawn, "dynamic process management", ClassMPI},
	{"mpi-management", `/(?i)^MPI_(Comm_\w+|Group_\w+|Cart_\w+|Cartdim_get|Graph_\w+|Graphdims_get|Dist_graph_\w+|Topo_test|Dims_create|Intercomm_\w+|Keyval_\w+|Attr_\w+|Win_\w+)$/`,
		"", ControlOfParallelism, SubMPIManagement, "creating, splitting, querying and freeing communicators, groups, topologies and windows", ClassMPI},
	{"mpi-other-name", "MPI_*", "", ControlOfParallelism, SubMPIOther,
		"every other MPI routine: datatypes, packing, info, attributes, errors, timers", ClassMPI},
	{"mpi-other-group", "", "MPI", ControlOfParallelism, SubMPIOther, "any other region TAU put in group MPI", ClassMPI},

	// File I/O.
	{"posix-io", `/^(open|open64|openat|creat|creat64|close|read|write|pread|pread64|pwrite|pwrite64|readv|writev|preadv|pwritev|lseek|lseek64|fsync|fdatasync|dup|dup2|fopen|fopen64|fdopen|freopen|fclose|fread|fwrite|fseek|fseeko|ftell|rewind|fflush|fprintf|fscanf|fputs|fgets|fputc|fgetc|getc|putc|ungetc|aio_read|aio_write|aio_return|aio_error|lio_listio)$/`,
		"", DataMovement, SubPOSIXIO, "TAU's POSIX I/O wrapper names, with or without \"()\"", ClassIO},
	{"posix-io-group", "", "TAU_IO", DataMovement, SubPOSIXIO, "any other region in TAU's I/O group", ClassIO},
	{"io-library", `/^(ADIOS |adios_|adios2_)/`, "", DataMovement, SubIOLibrary, "", ClassIO},
	{"io-library-group", "", `/(?i)^ADIOS2?$/`, DataMovement, SubIOLibrary, "regions in group ADIOS or ADIOS2", ClassIO},
	{"io-group", "", "IO", DataMovement, SubPOSIXIO, "regions in group IO", ClassIO},

	// Catch-alls that only name a class: MPI's profiling interface, the
	// rest of OpenMP (a parallel-region timer's exclusive time holds the
	// body's work when the body has no timer of its own, so it stays
	// computation for overhead), TAU's own timers.
	{"pmpi", "PMPI_*", "", ControlOfParallelism, SubMPIOther, "MPI's profiling interface, called directly", ClassMPI},
	{"openmp-other-name", `/^(OpenMP_|omp_|OMP_|parallel \(|parallel begin|parallel fork|barrier \(|barrier enter|GOMP_|__kmpc_)|\[OpenMP location: /`,
		"", Computation, "", "other OpenMP timers: class openmp, computation for overhead", ClassOpenMP},
	{"openmp-other-group", "", "/(?i)openmp/", Computation, "", "any other region in a group containing OPENMP", ClassOpenMP},
	{"tau-internal-group", "", "TAU_INTERNAL", Computation, "", "TAU's own measurement timers", ClassOther},
	{"tau-internal-name", "TAU_*", "", Computation, "", "", ClassOther},
}

func buildDefaults() []Rule {
	rules := make([]Rule, 0, len(defaultTable))
	for _, d := range defaultTable {
		r := Rule{ID: d.id, Match: d.match, Group: d.group, Category: d.cat, Sub: d.sub, Class: d.class, Note: d.note, Source: "default"}
		if err := r.compile(); err != nil {
			panic("classify: default rule " + d.id + ": " + err.Error())
		}
		rules = append(rules, r)
	}
	return rules
}
