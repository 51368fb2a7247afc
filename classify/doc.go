// Package classify is the one classifier of code regions: an ordered table of
// rules, kept as data, that puts every region of a TAU trial in both a SCALEA
// overhead category with a sub-category (used by the overhead analysis) and
// a coarse class (computation, mpi, openmp, io, other, sampled: used by
// imbalance's per-thread split, summary, the multiset split and every other
// split of time by class). The first matching rule wins; a region no rule
// matches is computation in both.
//
// A user's rules file (YAML, see ParseRules and docs/rules.md) adds rules
// ahead of the defaults, or overrides or removes default rules by id; every
// analysis given the resulting rules classifies alike.
//
// # MPI-IO
//
// MPI-IO routines (MPI_File_*, MPI_Register_datarep) are file I/O wherever
// time is split: coarse class io and SCALEA category data movement,
// sub-category MPI-IO (rule mpi-io). They come ahead of every other MPI rule,
// so summary, imbalance, the multiset split and overhead agree.
//
// # Default rules
//
// In matching order (generated from Default by RulesText; the test
// TestDocRuleTable keeps this copy current):
//
//	rule 1: sampled-name -> computation [class sampled]
//	    match /^\[(SAMPLE|CONTEXT|UNWIND|INTERMEDIATE)\] /
//	    (event-based samples; splits skip them, overhead counts them as computation as before)
//	rule 2: sampled-group -> computation [class sampled]
//	    group /(?i)^(TAU_SAMPLE|TAU_SAMPLE_CONTEXT|TAU_UNWIND)$/
//	rule 3: omp-body-opari -> computation / OpenMP construct body [class openmp]
//	    match /(^|\()(parallel begin/end|loop body|master begin/end|single begin/end|section begin/end|critical begin/end|ordered begin/end|task begin/end|untied task begin/end|workshare enter/exit|inst region begin/end)(\)|$)/
//	    (OPARI2 timers of a construct's body; a loop's iterations are in its loop body timer)
//	rule 4: omp-body-ompt -> computation / OpenMP construct body [class openmp]
//	    match /^OpenMP_(IMPLICIT_TASK|Implicit_Task|INITIAL_TASK|TASK|Task|MASTER_REGION|Master|Masked|SINGLE_IN_BLOCK|Work_Single_Executor|LOOP|Work_Loop|SECTIONS|Work_Sections|WORKSHARE|Work_Workshare|Work_Distribute|Work_Taskloop|Work_Scope|CRITICAL_REGION|ATOMIC_REGION|ORDERED_REGION|LOCK|Mutex_Acquired_\w+|Thread_Type_\w+)\b/
//	    (OMPT timers of work: implicit and explicit tasks, loops (their iterations), single/master bodies, time holding a lock)
//	rule 5: omp-barrier-opari -> synchronization / OpenMP barrier [class openmp]
//	    match /(^|\()barrier enter/exit(\)|$)/
//	    (explicit barriers and the implicit barriers of parallel, for, single and sections ("for (barrier enter/exit)"))
//	rule 6: omp-barrier-ompt -> synchronization / OpenMP barrier [class openmp]
//	    match /^OpenMP_(BARRIER|WAIT_BARRIER|Sync_Region_Barrier\w*|Sync_Region_Reduction)\b/
//	    (OMPT barrier and reduction synchronization regions)
//	rule 7: omp-barrier-runtime -> synchronization / OpenMP barrier [class openmp]
//	    match /^(GOMP_barrier(_cancel)?|GOMP_loop_end(_cancel)?|GOMP_sections_end(_cancel)?|__kmpc_barrier|__kmpc_(end_)?reduce(_nowait)?)$/
//	    (runtime barriers; GOMP_loop_end and GOMP_sections_end wait at the construct's barrier)
//	rule 8: omp-critical-opari -> synchronization / OpenMP critical [class openmp]
//	    match /(^|\()critical enter/exit(\)|$)/
//	    (entering and leaving a critical section (the body is critical begin/end))
//	rule 9: omp-critical-ompt -> synchronization / OpenMP critical [class openmp]
//	    match /^OpenMP_(CRITICAL_REGION_WAIT|Mutex_Waiting_Critical)\b/
//	rule 10: omp-critical-runtime -> synchronization / OpenMP critical [class openmp]
//	    match /^(GOMP_critical(_name)?_(start|end)|__kmpc_(end_)?critical(_with_hint)?)$/
//	rule 11: omp-lock-api -> synchronization / OpenMP lock [class openmp]
//	    match /^omp_(set|test|unset)_(nest_)?lock$/
//	    (the OpenMP lock API (TAU's POMP2 lock wrappers))
//	rule 12: omp-lock-ompt -> synchronization / OpenMP lock [class openmp]
//	    match /^OpenMP_(LOCK_WAIT|Mutex_Waiting_(Nest_|Test_|Test_Nest_)?Lock)\b/
//	rule 13: omp-lock-runtime -> synchronization / OpenMP lock [class openmp]
//	    match /^__kmpc_(set|test|unset)_(nest_)?lock$/
//	rule 14: omp-atomic-opari -> synchronization / OpenMP atomic [class openmp]
//	    match /(^|\()atomic enter/exit(\)|$)/
//	rule 15: omp-atomic-ompt -> synchronization / OpenMP atomic [class openmp]
//	    match /^OpenMP_(ATOMIC_REGION_WAIT|Mutex_Waiting_Atomic)\b/
//	rule 16: omp-atomic-runtime -> synchronization / OpenMP atomic [class openmp]
//	    match /^(GOMP_atomic_(start|end)|__kmpc_atomic_\w+)$/
//	rule 17: omp-ordered-opari -> synchronization / OpenMP ordered [class openmp]
//	    match /(^|\()ordered enter/exit(\)|$)/
//	    (waiting for the ordered turn (the body is ordered begin/end))
//	rule 18: omp-ordered-ompt -> synchronization / OpenMP ordered [class openmp]
//	    match /^OpenMP_(ORDERED_REGION_WAIT|Mutex_Waiting_Ordered)\b/
//	rule 19: omp-ordered-runtime -> synchronization / OpenMP ordered [class openmp]
//	    match /^(GOMP_ordered_(start|end)|__kmpc_(end_)?ordered)$/
//	rule 20: omp-taskwait -> synchronization / OpenMP taskwait/taskgroup [class openmp]
//	    match /(^|\()taskwait begin/end(\)|$)|^OpenMP_(TASKWAIT|WAIT_TASKWAIT|TASKGROUP|WAIT_TASKGROUP|Sync_Region_Taskwait|Sync_Region_Taskgroup)\b|^(GOMP_taskwait|GOMP_taskgroup_end|__kmpc_omp_taskwait|__kmpc_end_taskgroup)$/
//	rule 21: omp-flush -> synchronization / OpenMP flush [class openmp]
//	    match /(^|\()flush enter/exit(\)|$)|^(GOMP_flush|__kmpc_flush)$/
//	rule 22: pthread-sync -> synchronization / POSIX threads synchronization [class computation]
//	    match /^pthread_(mutex_(lock|trylock|timedlock)|spin_(lock|trylock)|rwlock_(rd|wr|timedrd|timedwr|tryrd|trywr)lock|cond_(wait|timedwait)|barrier_wait)$/
//	    (single-address space, like OpenMP's)
//	rule 23: omp-fork-join-opari -> control of parallelism / OpenMP fork/join [class openmp]
//	    match /(^|\()parallel fork/join(\)|$)/
//	    (the master's time from fork to join outside the body (the body is parallel begin/end))
//	rule 24: omp-fork-join-ompt -> control of parallelism / OpenMP fork/join [class openmp]
//	    match /^OpenMP_(PARALLEL_REGION|Parallel_Region)\b/
//	    (exclusive time only: the body is the nested implicit task timer)
//	rule 25: omp-fork-join-runtime -> control of parallelism / OpenMP fork/join [class openmp]
//	    match /^(GOMP_parallel(_start|_end)?|GOMP_parallel_(loop|sections)_\w+|GOMP_teams\w*|__kmpc_fork_(call|teams)|__kmpc_push_num_(threads|teams)|__kmpc_(end_)?serialized_parallel)$/
//	rule 26: omp-scheduling -> control of parallelism / OpenMP loop scheduling [class openmp]
//	    match /^(GOMP_loop_\w+|__kmpc_dispatch_\w+|__kmpc_for_static_\w+|__kmpc_dist_\w+)$/
//	    (runtime entry points that hand out iterations (GOMP_loop_end is a barrier, above))
//	rule 27: omp-work-sharing -> control of parallelism / OpenMP work sharing [class openmp]
//	    match /(^|\()(single enter/exit|sections enter/exit)(\)|$)|^OpenMP_(SINGLE_OTHERS|Work_Single_Other)\b|^(GOMP_single_(start|copy_start)|GOMP_sections_(start|next)|__kmpc_(end_)?(single|master|masked)|__kmpc_sections_\w+)$/
//	    (deciding which thread runs a single or section)
//	rule 28: omp-task-creation -> control of parallelism / OpenMP task creation [class openmp]
//	    match /(^|\()(task create begin/end|task create begin/create end|untied task create begin/end)(\)|$)|^(GOMP_task|GOMP_taskloop\w*|__kmpc_omp_task(_alloc|_with_deps)?|__kmpc_taskloop)$/
//	rule 29: thread-creation -> control of parallelism / thread creation [class computation]
//	    match /^pthread_(create|join)$/
//	rule 30: unit-identification-mpi -> additional computation / processing unit identification [class mpi]
//	    match /(?i)^MPI_(Comm_(rank|size|remote_size)|Group_(rank|size)|Get_processor_name|Query_thread|Is_thread_main)$/
//	    (SCALEA counts requests for processing unit identifications as additional computation)
//	rule 31: unit-identification-omp -> additional computation / processing unit identification [class openmp]
//	    match /^omp_(get_(thread_num|num_threads|max_threads|num_procs|level|active_level|ancestor_thread_num|team_size|team_num|num_teams|thread_limit)|in_parallel)$/
//	rule 32: omp-runtime -> control of parallelism / OpenMP runtime calls [class openmp]
//	    match /^omp_\w+$/
//	    (other OpenMP API calls (omp_set_num_threads, omp_init_lock, ...))
//	rule 33: mpi-io -> data movement / MPI-IO [class io]
//	    match /(?i)^MPI_(File_\w+|Register_datarep)$/
//	rule 34: mpi-p2p -> data movement / MPI point-to-point [class mpi]
//	    match /(?i)^MPI_((I|Ib|Is|Ir|B|S|R)?send|(I|M|Im)?recv|I?sendrecv(_replace)?|(B|S|R)?send_init|Recv_init|Psend_init|Precv_init|Startall|Start|Pready\w*|Parrived|(I|M|Im)?probe|Buffer_(attach|detach)|Cancel|Request_free)$/
//	    (sends, receives, probes, persistent requests)
//	rule 35: mpi-collective -> data movement / MPI collective [class mpi]
//	    match /(?i)^MPI_(I?(bcast|gather|gatherv|scatter|scatterv|allgather|allgatherv|alltoall|alltoallv|alltoallw|reduce|allreduce|reduce_scatter|reduce_scatter_block|scan|exscan)|I?neighbor_(allgather|allgatherv|alltoall|alltoallv|alltoallw))(_init)?$/
//	    (blocking, nonblocking and persistent collectives, neighborhood collectives (MPI_Barrier is synchronization))
//	rule 36: mpi-rma -> data movement / MPI one-sided (RMA) [class mpi]
//	    match /(?i)^MPI_(R?put|R?get|R?accumulate|R?get_accumulate|Fetch_and_op|Compare_and_swap)$/
//	    (remote memory access, accumulate included (SCALEA's communication of accumulate operation))
//	rule 37: mpi-barrier -> synchronization / MPI barrier [class mpi]
//	    match /(?i)^MPI_I?barrier(_init)?$/
//	rule 38: mpi-wait-test -> synchronization / MPI wait/test [class mpi]
//	    match /(?i)^MPI_((Wait|Test)(all|any|some)?|Request_get_status(_all|_any|_some)?)$/
//	    (completing nonblocking requests)
//	rule 39: mpi-window-sync -> synchronization / MPI window sync/locks [class mpi]
//	    match /(?i)^MPI_Win_(fence|lock|unlock|lock_all|unlock_all|post|start|complete|wait|test|flush|flush_all|flush_local|flush_local_all|sync)$/
//	    (active (fence, post/start/complete/wait) and passive (lock/unlock, flush) target synchronization)
//	rule 40: mpi-init-finalize -> control of parallelism / MPI init/finalize [class mpi]
//	    match /(?i)^MPI_(Init|Init_thread|Finalize|Initialized|Finalized|Abort|Session_(init|finalize))$/
//	rule 41: mpi-spawn -> control of parallelism / MPI spawn [class mpi]
//	    match /(?i)^MPI_(Comm_spawn(_multiple)?|Comm_get_parent|Comm_accept|Comm_connect|Comm_join|Comm_disconnect|Open_port|Close_port|(Publish|Lookup|Unpublish)_name)$/
//	    (dynamic process management)
//	rule 42: mpi-management -> control of parallelism / MPI communicator/group/topology/window management [class mpi]
//	    match /(?i)^MPI_(Comm_\w+|Group_\w+|Cart_\w+|Cartdim_get|Graph_\w+|Graphdims_get|Dist_graph_\w+|Topo_test|Dims_create|Intercomm_\w+|Keyval_\w+|Attr_\w+|Win_\w+)$/
//	    (creating, splitting, querying and freeing communicators, groups, topologies and windows)
//	rule 43: mpi-other-name -> control of parallelism / MPI other [class mpi]
//	    match MPI_*
//	    (every other MPI routine: datatypes, packing, info, attributes, errors, timers)
//	rule 44: mpi-other-group -> control of parallelism / MPI other [class mpi]
//	    group MPI
//	    (any other region TAU put in group MPI)
//	rule 45: posix-io -> data movement / POSIX I/O [class io]
//	    match /^(open|open64|openat|creat|creat64|close|read|write|pread|pread64|pwrite|pwrite64|readv|writev|preadv|pwritev|lseek|lseek64|fsync|fdatasync|dup|dup2|fopen|fopen64|fdopen|freopen|fclose|fread|fwrite|fseek|fseeko|ftell|rewind|fflush|fprintf|fscanf|fputs|fgets|fputc|fgetc|getc|putc|ungetc|aio_read|aio_write|aio_return|aio_error|lio_listio)$/
//	    (TAU's POSIX I/O wrapper names, with or without "()")
//	rule 46: posix-io-group -> data movement / POSIX I/O [class io]
//	    group TAU_IO
//	    (any other region in TAU's I/O group)
//	rule 47: io-library -> data movement / I/O library (ADIOS) [class io]
//	    match /^(ADIOS |adios_|adios2_)/
//	rule 48: io-library-group -> data movement / I/O library (ADIOS) [class io]
//	    group /(?i)^ADIOS2?$/
//	    (regions in group ADIOS or ADIOS2)
//	rule 49: io-group -> data movement / POSIX I/O [class io]
//	    group IO
//	    (regions in group IO)
//	rule 50: pmpi -> control of parallelism / MPI other [class mpi]
//	    match PMPI_*
//	    (MPI's profiling interface, called directly)
//	rule 51: openmp-other-name -> computation [class openmp]
//	    match /^(OpenMP_|omp_|OMP_|parallel \(|parallel begin|parallel fork|barrier \(|barrier enter|GOMP_|__kmpc_)|\[OpenMP location: /
//	    (other OpenMP timers: class openmp, computation for overhead)
//	rule 52: openmp-other-group -> computation [class openmp]
//	    group /(?i)openmp/
//	    (any other region in a group containing OPENMP)
//	rule 53: tau-internal-group -> computation [class other]
//	    group TAU_INTERNAL
//	    (TAU's own measurement timers)
//	rule 54: tau-internal-name -> computation [class other]
//	    match TAU_*
//	END OF RULE TABLE
package classify
