// Package overhead is SCALEA's classification of temporal overheads (Truong
// and Fahringer, section 3 and Figure 2) applied to TAU trials: the
// overhead of each experiment, T_o = T_p - T_s/p, split into data movement,
// synchronization, control of parallelism, additional computation, loss of
// parallelism and unidentified overhead, per experiment (the paper's Figure
// 13 table), per region (region-to-overhead) and per category
// (overhead-to-region).
//
// # Figures
//
// Analyze takes the trials of a set of experiments and the number of
// processes p of each (ProcessCount gives the number of distinct TAU node
// ranks, the usual choice). Its documentation holds every formula; in
// short:
//
//	T_p          = A_k T_k, T_k = a process's main-region inclusive time
//	T_s          = T_1 of a 1-process baseline, or p_b*T_b of the
//	               smallest-p baseline, or a given sequential time
//	T_o          = T_p - T_s/p (negative with superlinear speedup)
//	category     = A_k of the per-process sums of the exclusive times of
//	               the regions the rules put in the category
//	loss(r)      = A_{k ran r} t_k(r) - S(r)/p  for a region executed by
//	               q < p processes (unparallelized: q = 1; partially
//	               parallelized: 1 < q < p), S(r) = Σ_k t_k(r)
//	             = A_{k ran r} t_k(r) * (p-1)/p  for replicated code
//	identified   = data movement + synchronization + control of
//	               parallelism + additional computation + loss
//	unidentified = T_o - identified (exactly: see the exact grid below)
//
// A is the aggregate over processes: the maximum by default, because the
// slowest process determines T_p (SCALEA takes the execution time as the
// maximum over processes); the mean and the minimum are options. Each
// category is the same aggregate of the per-process category sums (for the
// maximum: the category time of the process that spends the most in that
// category), so with the maximum the categories of different processes may
// add up to more than T_o and leave a negative unidentified overhead, which
// is reported as it is. Loss of parallelism is computed per region (the
// aggregate over the processes that executed the region) and summed over
// the regions.
//
// Only computation regions (no rule, or a rule that says "computation") are
// tested for loss of parallelism: a region a rule counts in a category is
// never counted twice. A region is replicated code when every process
// executed it and its time per process did not shrink versus the baseline
// as a divided work would: m/m_b >= p_b/p + θ(1 - p_b/p) with m = S(r)/q,
// m_b the baseline's, θ = 0.5 by default.
//
// Exact grid: all the figures of one experiment are rounded to a common
// power of two q, so small that 2^53*q exceeds twice the sum of their
// magnitudes; every sum and difference of grid values is then exact, and
// identified + unidentified == T_o, T_p - T_s/p == T_o and the sum of the
// category rows == identified hold to the last bit.
//
// # Rules
//
// Rules map regions to a category and sub-category by name (exact, prefix
// or regular expression, TAU's decorations and a trailing "()" handled, see
// Rule) and/or TAU group. The first matching rule wins; a region no rule
// matches is computation. DefaultRules covers MPI (every MPI-3 family by
// pattern), OpenMP (OPARI2 and OMPT timer names, the lock API, GNU and LLVM
// runtime entry points), POSIX threads, POSIX and C I/O, and ADIOS. A rules
// file (see ParseRules and LoadRules for the format) adds rules ahead of
// the defaults, or overrides or removes default rules by id:
//
//	[[rule]]
//	match    = "MPI_Waitall"
//	category = "data movement"
//	sub      = "MPI point-to-point"
//
// RulesTable renders rules as a table, RulesText as the text below.
//
// # Default rules
//
// In matching order (generated from DefaultRules by RulesText; the test
// TestDocRuleTable keeps this copy current):
//
//	rule 1: omp-body-opari -> computation / OpenMP construct body
//	    match /(^|\()(parallel begin/end|loop body|master begin/end|single begin/end|section begin/end|critical begin/end|ordered begin/end|task begin/end|untied task begin/end|workshare enter/exit|inst region begin/end)(\)|$)/
//	    (OPARI2 timers of a construct's body; a loop's iterations are in its loop body timer)
//	rule 2: omp-body-ompt -> computation / OpenMP construct body
//	    match /^OpenMP_(IMPLICIT_TASK|Implicit_Task|INITIAL_TASK|TASK|Task|MASTER_REGION|Master|Masked|SINGLE_IN_BLOCK|Work_Single_Executor|LOOP|Work_Loop|SECTIONS|Work_Sections|WORKSHARE|Work_Workshare|Work_Distribute|Work_Taskloop|Work_Scope|CRITICAL_REGION|ATOMIC_REGION|ORDERED_REGION|LOCK|Mutex_Acquired_\w+|Thread_Type_\w+)\b/
//	    (OMPT timers of work: implicit and explicit tasks, loops (their iterations), single/master bodies, time holding a lock)
//	rule 3: omp-barrier-opari -> synchronization / OpenMP barrier
//	    match /(^|\()barrier enter/exit(\)|$)/
//	    (explicit barriers and the implicit barriers of parallel, for, single and sections ("for (barrier enter/exit)"))
//	rule 4: omp-barrier-ompt -> synchronization / OpenMP barrier
//	    match /^OpenMP_(BARRIER|WAIT_BARRIER|Sync_Region_Barrier\w*|Sync_Region_Reduction)\b/
//	    (OMPT barrier and reduction synchronization regions)
//	rule 5: omp-barrier-runtime -> synchronization / OpenMP barrier
//	    match /^(GOMP_barrier(_cancel)?|GOMP_loop_end(_cancel)?|GOMP_sections_end(_cancel)?|__kmpc_barrier|__kmpc_(end_)?reduce(_nowait)?)$/
//	    (runtime barriers; GOMP_loop_end and GOMP_sections_end wait at the construct's barrier)
//	rule 6: omp-critical-opari -> synchronization / OpenMP critical
//	    match /(^|\()critical enter/exit(\)|$)/
//	    (entering and leaving a critical section (the body is critical begin/end))
//	rule 7: omp-critical-ompt -> synchronization / OpenMP critical
//	    match /^OpenMP_(CRITICAL_REGION_WAIT|Mutex_Waiting_Critical)\b/
//	rule 8: omp-critical-runtime -> synchronization / OpenMP critical
//	    match /^(GOMP_critical(_name)?_(start|end)|__kmpc_(end_)?critical(_with_hint)?)$/
//	rule 9: omp-lock-api -> synchronization / OpenMP lock
//	    match /^omp_(set|test|unset)_(nest_)?lock$/
//	    (the OpenMP lock API (TAU's POMP2 lock wrappers))
//	rule 10: omp-lock-ompt -> synchronization / OpenMP lock
//	    match /^OpenMP_(LOCK_WAIT|Mutex_Waiting_(Nest_|Test_|Test_Nest_)?Lock)\b/
//	rule 11: omp-lock-runtime -> synchronization / OpenMP lock
//	    match /^__kmpc_(set|test|unset)_(nest_)?lock$/
//	rule 12: omp-atomic-opari -> synchronization / OpenMP atomic
//	    match /(^|\()atomic enter/exit(\)|$)/
//	rule 13: omp-atomic-ompt -> synchronization / OpenMP atomic
//	    match /^OpenMP_(ATOMIC_REGION_WAIT|Mutex_Waiting_Atomic)\b/
//	rule 14: omp-atomic-runtime -> synchronization / OpenMP atomic
//	    match /^(GOMP_atomic_(start|end)|__kmpc_atomic_\w+)$/
//	rule 15: omp-ordered-opari -> synchronization / OpenMP ordered
//	    match /(^|\()ordered enter/exit(\)|$)/
//	    (waiting for the ordered turn (the body is ordered begin/end))
//	rule 16: omp-ordered-ompt -> synchronization / OpenMP ordered
//	    match /^OpenMP_(ORDERED_REGION_WAIT|Mutex_Waiting_Ordered)\b/
//	rule 17: omp-ordered-runtime -> synchronization / OpenMP ordered
//	    match /^(GOMP_ordered_(start|end)|__kmpc_(end_)?ordered)$/
//	rule 18: omp-taskwait -> synchronization / OpenMP taskwait/taskgroup
//	    match /(^|\()taskwait begin/end(\)|$)|^OpenMP_(TASKWAIT|WAIT_TASKWAIT|TASKGROUP|WAIT_TASKGROUP|Sync_Region_Taskwait|Sync_Region_Taskgroup)\b|^(GOMP_taskwait|GOMP_taskgroup_end|__kmpc_omp_taskwait|__kmpc_end_taskgroup)$/
//	rule 19: omp-flush -> synchronization / OpenMP flush
//	    match /(^|\()flush enter/exit(\)|$)|^(GOMP_flush|__kmpc_flush)$/
//	rule 20: pthread-sync -> synchronization / POSIX threads synchronization
//	    match /^pthread_(mutex_(lock|trylock|timedlock)|spin_(lock|trylock)|rwlock_(rd|wr|timedrd|timedwr|tryrd|trywr)lock|cond_(wait|timedwait)|barrier_wait)$/
//	    (single-address space, like OpenMP's)
//	rule 21: omp-fork-join-opari -> control of parallelism / OpenMP fork/join
//	    match /(^|\()parallel fork/join(\)|$)/
//	    (the master's time from fork to join outside the body (the body is parallel begin/end))
//	rule 22: omp-fork-join-ompt -> control of parallelism / OpenMP fork/join
//	    match /^OpenMP_(PARALLEL_REGION|Parallel_Region)\b/
//	    (exclusive time only: the body is the nested implicit task timer)
//	rule 23: omp-fork-join-runtime -> control of parallelism / OpenMP fork/join
//	    match /^(GOMP_parallel(_start|_end)?|GOMP_parallel_(loop|sections)_\w+|GOMP_teams\w*|__kmpc_fork_(call|teams)|__kmpc_push_num_(threads|teams)|__kmpc_(end_)?serialized_parallel)$/
//	rule 24: omp-scheduling -> control of parallelism / OpenMP loop scheduling
//	    match /^(GOMP_loop_\w+|__kmpc_dispatch_\w+|__kmpc_for_static_\w+|__kmpc_dist_\w+)$/
//	    (runtime entry points that hand out iterations (GOMP_loop_end is a barrier, above))
//	rule 25: omp-work-sharing -> control of parallelism / OpenMP work sharing
//	    match /(^|\()(single enter/exit|sections enter/exit)(\)|$)|^OpenMP_(SINGLE_OTHERS|Work_Single_Other)\b|^(GOMP_single_(start|copy_start)|GOMP_sections_(start|next)|__kmpc_(end_)?(single|master|masked)|__kmpc_sections_\w+)$/
//	    (deciding which thread runs a single or section)
//	rule 26: omp-task-creation -> control of parallelism / OpenMP task creation
//	    match /(^|\()(task create begin/end|task create begin/create end|untied task create begin/end)(\)|$)|^(GOMP_task|GOMP_taskloop\w*|__kmpc_omp_task(_alloc|_with_deps)?|__kmpc_taskloop)$/
//	rule 27: thread-creation -> control of parallelism / thread creation
//	    match /^pthread_(create|join)$/
//	rule 28: unit-identification-mpi -> additional computation / processing unit identification
//	    match /(?i)^MPI_(Comm_(rank|size|remote_size)|Group_(rank|size)|Get_processor_name|Query_thread|Is_thread_main)$/
//	    (SCALEA counts requests for processing unit identifications as additional computation)
//	rule 29: unit-identification-omp -> additional computation / processing unit identification
//	    match /^omp_(get_(thread_num|num_threads|max_threads|num_procs|level|active_level|ancestor_thread_num|team_size|team_num|num_teams|thread_limit)|in_parallel)$/
//	rule 30: omp-runtime -> control of parallelism / OpenMP runtime calls
//	    match /^omp_\w+$/
//	    (other OpenMP API calls (omp_set_num_threads, omp_init_lock, ...))
//	rule 31: mpi-io -> data movement / MPI-IO
//	    match /(?i)^MPI_(File_\w+|Register_datarep)$/
//	rule 32: mpi-p2p -> data movement / MPI point-to-point
//	    match /(?i)^MPI_((I|Ib|Is|Ir|B|S|R)?send|(I|M|Im)?recv|I?sendrecv(_replace)?|(B|S|R)?send_init|Recv_init|Psend_init|Precv_init|Startall|Start|Pready\w*|Parrived|(I|M|Im)?probe|Buffer_(attach|detach)|Cancel|Request_free)$/
//	    (sends, receives, probes, persistent requests)
//	rule 33: mpi-collective -> data movement / MPI collective
//	    match /(?i)^MPI_(I?(bcast|gather|gatherv|scatter|scatterv|allgather|allgatherv|alltoall|alltoallv|alltoallw|reduce|allreduce|reduce_scatter|reduce_scatter_block|scan|exscan)|I?neighbor_(allgather|allgatherv|alltoall|alltoallv|alltoallw))(_init)?$/
//	    (blocking, nonblocking and persistent collectives, neighborhood collectives (MPI_Barrier is synchronization))
//	rule 34: mpi-rma -> data movement / MPI one-sided (RMA)
//	    match /(?i)^MPI_(R?put|R?get|R?accumulate|R?get_accumulate|Fetch_and_op|Compare_and_swap)$/
//	    (remote memory access, accumulate included (SCALEA's communication of accumulate operation))
//	rule 35: mpi-barrier -> synchronization / MPI barrier
//	    match /(?i)^MPI_I?barrier(_init)?$/
//	rule 36: mpi-wait-test -> synchronization / MPI wait/test
//	    match /(?i)^MPI_((Wait|Test)(all|any|some)?|Request_get_status(_all|_any|_some)?)$/
//	    (completing nonblocking requests)
//	rule 37: mpi-window-sync -> synchronization / MPI window sync/locks
//	    match /(?i)^MPI_Win_(fence|lock|unlock|lock_all|unlock_all|post|start|complete|wait|test|flush|flush_all|flush_local|flush_local_all|sync)$/
//	    (active (fence, post/start/complete/wait) and passive (lock/unlock, flush) target synchronization)
//	rule 38: mpi-init-finalize -> control of parallelism / MPI init/finalize
//	    match /(?i)^MPI_(Init|Init_thread|Finalize|Initialized|Finalized|Abort|Session_(init|finalize))$/
//	rule 39: mpi-spawn -> control of parallelism / MPI spawn
//	    match /(?i)^MPI_(Comm_spawn(_multiple)?|Comm_get_parent|Comm_accept|Comm_connect|Comm_join|Comm_disconnect|Open_port|Close_port|(Publish|Lookup|Unpublish)_name)$/
//	    (dynamic process management)
//	rule 40: mpi-management -> control of parallelism / MPI communicator/group/topology/window management
//	    match /(?i)^MPI_(Comm_\w+|Group_\w+|Cart_\w+|Cartdim_get|Graph_\w+|Graphdims_get|Dist_graph_\w+|Topo_test|Dims_create|Intercomm_\w+|Keyval_\w+|Attr_\w+|Win_\w+)$/
//	    (creating, splitting, querying and freeing communicators, groups, topologies and windows)
//	rule 41: mpi-other-name -> control of parallelism / MPI other
//	    match MPI_*
//	    (every other MPI routine: datatypes, packing, info, attributes, errors, timers)
//	rule 42: mpi-other-group -> control of parallelism / MPI other
//	    group MPI
//	    (any other region TAU put in group MPI)
//	rule 43: posix-io -> data movement / POSIX I/O
//	    match /^(open|open64|openat|creat|creat64|close|read|write|pread|pread64|pwrite|pwrite64|readv|writev|preadv|pwritev|lseek|lseek64|fsync|fdatasync|dup|dup2|fopen|fopen64|fdopen|freopen|fclose|fread|fwrite|fseek|fseeko|ftell|rewind|fflush|fprintf|fscanf|fputs|fgets|fputc|fgetc|getc|putc|ungetc|aio_read|aio_write|aio_return|aio_error|lio_listio)$/
//	    (TAU's POSIX I/O wrapper names, with or without "()")
//	rule 44: posix-io-group -> data movement / POSIX I/O
//	    group TAU_IO
//	    (any other region in TAU's I/O group)
//	rule 45: io-library -> data movement / I/O library (ADIOS)
//	    match /^(ADIOS |adios_|adios2_)/
//	END OF RULE TABLE
package overhead
