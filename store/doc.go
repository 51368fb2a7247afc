// Package store keeps TAU trials and analysis results in a TAUdb database.
//
// Two database systems are supported with one schema, TAUdb's (schema
// version 2, as given in the TAUdb manual):
//
//   - PostgreSQL, through github.com/jackc/pgx/v5, for teams and large trials;
//     a database written here can be opened by TAU's own tools.
//   - SQLite, through the pure-Go driver modernc.org/sqlite, as the embedded
//     default that needs no database server.
//
// Open chooses between them from a URL (see Open and ResolveURL for the
// rules), ReadTAUConfig reads TAU's own perfdmf.cfg files, and Init creates
// the schema. Passwords never appear in what this package prints or returns:
// see Redact.
//
// # Trials
//
// SaveTrial writes a drg.Trial, LoadTrial reads it back, Trials lists the
// trials, FindTrial resolves an id or a name, DeleteTrial removes one and
// Stats reads the derived statistics stored with it. SelectTrials picks the
// trials of a multi-trial analysis by reference, by a where expression over
// their fields and metadata, or by a TAUdb view, as the command line's
// --trials, --where and --view do:
//
//	trials, err := db.SelectTrials(ctx, store.Selection{
//		Where:   `application == "lulesh" && num(meta["Power Cap"]) >= 150`,
//		Minimum: 2,
//	})
//
// SaveTrial writes the rows TAU's Java loader (taudb_loadtrial) writes, as
// formats/taudb-mapping.md describes them:
//
//   - trial: name, data_source (drg.Source.DataSource), node_count,
//     contexts_per_node, threads_per_context and total_threads as counts
//     (drg.Trial.Layout);
//   - thread: the real threads in (node, context, thread) order with TAU's
//     thread_index, then the seven derived threads in TAU's order −1, −3,
//     −2, −5, −4, −6, −7, with node_rank = context_rank = thread_rank =
//     thread_index = the code;
//   - metric in trial order; timer, one per region, in sorted-name order,
//     with short_name, source_file and the line and column span;
//     timer_group and timer_parameter for each timer;
//   - timer_callpath: one row per call-graph node, a flat node without
//     parent, a callpath node with its parent node's row; nodes no thread
//     has data for get a row too, as in TAU;
//   - timer_call_data: one row per (node, real thread) record, with its
//     calls and subroutines, and rows of the derived threads (below);
//   - timer_value: one row per timer_call_data row and metric, with the
//     inclusive and exclusive values, their percentages, and for the derived
//     threads sum_exclusive_squared = Σ exclusive² over the real threads
//     (NULL for real threads, as TAU writes it);
//   - counter: one per user event, named in full (a context event
//     "EVENT : A => B" included), timer_callpath NULL as in TAU's Java
//     loader; counter_value for each (event, real thread) record;
//   - primary_metadata: the trial attributes, plus "Application" and
//     "Experiment" from SaveOptions; secondary_metadata: each thread's own
//     attributes, id a random UUID, is_array false.
//
// All of it goes in one transaction. On PostgreSQL the ids of every table
// are reserved first, in one statement, as consecutive blocks of the tables'
// sequences (under an advisory lock, which is released when the statement
// ends), and every table is then written with COPY, timer_value included,
// since the timer_call_data ids are known in advance. A writer that takes
// ids without that lock (TAU's own loader) may, in a narrow window, obtain
// an id inside a reserved block; one of the two inserts then fails on the
// primary key and its transaction rolls back, so the database is never
// corrupted. On SQLite the transaction begins IMMEDIATE, which holds the
// single write lock, so ids are taken as one more than the largest id and
// the largest AUTOINCREMENT ever handed out; the rows go in through prepared
// multi-row INSERTs.
//
// # Where SaveTrial differs from TAU's loader
//
// TAU's loader is lossy or wrong in places (taudb-mapping.md §4–§6);
// SaveTrial does what is right, except where TAU's own tools depend on the
// quirk:
//
//   - Derived threads: rows for all seven derived threads of every node
//     that at least one real thread has a record of. TAU writes a derived
//     thread's row only where that thread's calls statistic is > 0, so its
//     STDDEV rows are missing wherever all threads made the same number of
//     calls. The values are drg.Trial.Statistics: population standard
//     deviations, "nulls ignored" over the threads with a record.
//   - Real threads: one timer_call_data row per record, also one with 0
//     calls (TAU skips those, losing the record's presence).
//   - Calls and subroutines: timer_call_data.calls, .subroutines and
//     counter_value.sample_count are INT columns. The counts are rounded to
//     the nearest integer (TAU truncates). A count beyond the 32-bit range
//     (3,000,000,000 calls of a hot leaf; a TOTAL thread's sum) is written
//     as 2147483647 there, what TAU's tools then read, and exactly in
//     taudb-analyze's tables timer_call_data_count and counter_value_count,
//     from which LoadTrial reads it; a count beyond a 64-bit integer is
//     refused, naming the node and thread. A database without those tables
//     ("db init" adds them) refuses a trial that needs them rather than
//     clamp. Real threads' counts are integers in TAU's files, so they
//     survive; the
//     derived threads' mean calls lose their fraction (−6 may read 0 where
//     the mean is below 0.5, as in TAU, where interval_event_value's
//     inclusive_per_call then divides by zero).
//   - Percentages: real thread t: 100·v/main_t, where main_t is the largest
//     inclusive value of any of t's nodes (drg.Trial.MainInclusive), as TAU.
//     Derived thread d: 100·v/drg.DerivedMain(main, d), that is relative to
//     Σ_t main_t for TOTAL and to the mean Σ_t main_t/N for the others, for
//     inclusive and exclusive alike. TAU uses its TOTAL base for the −1
//     inclusive percentage, and for −3 and −7 divides by the mean (with or
//     without ×100, yielding NaN for 0); those are not percentages of any
//     one thing and are not repeated.
//   - counter_value.standard_deviation holds the raw Σx² of the samples, as
//     TAU's Java loader and C API both write it, because TAU's tools reading
//     the database recompute the standard deviation from it
//     (√|Σx²/n − mean²|). The column's name is TAU's; its content is not a
//     standard deviation.
//   - data_source: the model's, 10 (SNAP) for TAU XML where TAU writes 2,
//     which its own data_source table calls DynaProf. LoadTrial reads 2 as
//     XML too. gprof and gprof2dot trials get 5 (gprof); Caliper trials
//     999 (Other), which LoadTrial cannot tell from other formats, so their
//     loaded drg.Source.Format is "" (the metadata "File Type Name" says
//     Caliper).
//   - Values go to PostgreSQL unchanged; TAU clamps timer_value on
//     PostgreSQL (below 1e-307 to 0, above 1e308 to 9e307).
//   - Callpath nodes ParaProf derived (group TAU_CALLPATH_DERIVED,
//     drg.Node.Derived) get no data, as in TAU; such a node gets a
//     timer_callpath row only when it is the parent of a stored node, as TAU
//     creates it to resolve the child's parent ("[SUMMARY]" nodes).
//   - Names: a callpath row's name is not stored in TAUdb; TAU's tools
//     rebuild it from the parent chain. Where that gives another name than
//     the node's (a throttled timer "f [THROTTLED]" whose callpaths say
//     "A => f"), the node's name goes to taudb-analyze's own table
//     timer_callpath_name (one row per such node, usually none), which
//     LoadTrial reads.
//   - Names longer than TAUdb's 2,048 bytes (a region, a user event) are
//     stored shortened (drg.ShortName: their start and a hash of the
//     whole); their full text goes to taudb-analyze's own table
//     trial_long_name, which LoadTrial reads back into drg.Trial.LongNames
//     (on a database without the table the trial has only the short names).
//   - User events keep the trial's order, not TAU's sorted order.
//
// # Concurrent clients: locking and waiting
//
// Any number of processes may use one database at once. The rules:
//
//   - Every save is one transaction: SaveTrial, SaveTrials (all the trials
//     of one "load a/ b/ c/" together), SaveMetric, SaveResult and
//     DeleteTrial either commit whole or leave nothing.
//   - A result and everything stored with it commit together:
//     SaveResultWith writes a derived metric (ResultExtras.Metric, what
//     "ratio --save-metric" stores), the result's rows and its pictures
//     (ResultExtras.Images, the PNGs "cluster" draws with package
//     report/images) in one transaction, so that a failure at any step (a
//     picture's insert, a metric name taken, a trial deleted meanwhile)
//     leaves neither a result without its pictures nor a metric without
//     its result. SaveImages adds pictures to a result stored before.
//   - Names: TAUdb has no unique constraint on trial.name (and one cannot be
//     added without changing TAU's schema), so a save that must not repeat
//     a name (SaveOptions.IfExists NameRefuse or NameReuse; SaveMetric
//     always) takes a lock on the name inside its transaction and only then
//     looks for it: on PostgreSQL a transaction-level advisory lock keyed
//     by a 64-bit hash of (scope, name), scope "trial" or "metric/TRIAL-ID",
//     taken in key order; on SQLite the transaction's write lock (BEGIN
//     IMMEDIATE), which is exclusive already. Of two savers of one name the
//     second waits for the first to commit, then sees its row: it fails with
//     a *NameTakenError (ErrNameTaken), or with NameReuse returns the stored
//     trial.
//   - Trials and what hangs off them: SaveResult and SaveMetric lock their
//     trials' rows (PostgreSQL FOR SHARE; several savers at once) and check
//     that they still exist; DeleteTrial locks its trial's row FOR UPDATE
//     before it deletes anything. Whichever comes first finishes first: a
//     result saved first is deleted with its trial, a save that comes after
//     the delete fails with ErrNoTrial and writes nothing. (Without the
//     lock a delete running alongside a result save left the result's rows
//     pointing at no analysis_settings.)
//   - Ids on PostgreSQL: SaveTrial reserves its id blocks under a
//     session-level advisory lock that one statement takes and releases,
//     so saves wait for one another only for that statement.
//   - Waiting on SQLite: one writer at a time. Write transactions begin
//     IMMEDIATE, taking the write lock at once (a deferred transaction that
//     upgrades from read to write can deadlock, and SQLite then fails it
//     without waiting); a writer that finds the lock taken waits up to the
//     busy timeout, ten minutes unless TAUDB_SQLITE_BUSY_TIMEOUT says
//     otherwise (see SQLiteBusyTimeout), and then fails with ErrBusy.
//     Readers never wait for writers (WAL journal). Opening a new file races
//     with other opens over the switch to WAL; an open that SQLite refuses
//     with SQLITE_BUSY is retried until the busy timeout. No raw "database
//     is locked" error is returned.
//   - A full disk: a WAL reader needs the -shm index file, and creating or
//     extending it fails on a full disk; OpenSQLite then opens the file in
//     exclusive locking mode, which keeps the index in memory, so reads
//     work (this process holds the file's lock until it closes it).
//
// # Snapshots
//
// The earlier snapshots of a trial read from TAU snapshot XML
// (drg.Trial.Series) are kept in TAUdb's own place for them: each snapshot
// is a time_range row (iteration_start = iteration_end = the snapshot's
// number among its thread's snapshots, from 0; time_start = time_end = its
// timestamp in microseconds since the epoch), timer_call_data rows of its
// thread pointing at that time_range (one per node of the snapshot, with
// calls and subroutines) and their timer_value rows (percentages of the
// snapshot's largest inclusive value), and a secondary_metadata row named
// SnapshotKey ("TAU Snapshot") whose thread and time_range are the
// snapshot's and whose value is its name. That row ties the time range to
// the trial (time_range has no trial column), keeps snapshots without
// nodes, and keeps the series' order (time_range id order). TAU's
// compatibility view interval_location_profile shows the snapshots' rows
// too, as further rows of their threads.
//
// # Loading
//
// LoadTrial builds the trial through drg.NewBuilder with one streamed query
// per table in one read-only transaction; the derived threads' rows are not
// read (drg computes the statistics).
//
// A trial SaveTrial wrote also has its real threads' values in
// taudb-analyze's table trial_value_page, written in the same transaction:
// per block of threads, the nodes and which cells hold values, then the
// calls, subroutines and each metric's inclusive and exclusive values,
// column by column as little-endian float64, in rows of at most 8,000
// bytes (stored inline, not TOASTed). LoadTrial reads those instead of
// one timer_call_data and one timer_value row per value: a sequential
// read of a range of the table's primary key, whole rows of a node added
// at once (drg.Builder.AddRow). The pages must cover every thread and
// decode to the trial's nodes, or the load fails naming the table; pages
// that hold fewer metrics than the trial (a metric added later by
// SaveMetric, or by ParaProf) are left aside and the trial is read from
// its rows, as is a trial without pages (TAU's loader wrote it, or an
// older taudb-analyze) or a part of a trial (LoadTrialPart).
// LoadTrialMetric reads the layout, calls and subroutines streams and the
// streams of one metric only (the primary key's entries of the others are
// skipped, and their rows, one heap page each, not read): 5 of the 7
// streams of a trial of two metrics for an analysis of one metric, 3 for
// one that reads no call counts (MetricRead.WithoutCalls).
//
// The trial's timer_call_data and timer_value rows, nearly all of its rows,
// are read within the range of timer_call_data ids that holds them: the
// block SaveTrial reserved, which it records in taudb-analyze's table
// trial_call_data_range, or, for a trial without such a row (one TAU's own
// loader wrote, or a database whose table "db init" has not added yet), the
// smallest and largest id of the rows of the trial's threads, found through
// TAUdb's index on timer_call_data(thread). Bounded so, PostgreSQL reads
// both tables as index ranges merged in id order, in time linear in the
// trial's rows however many other trials the database holds; joined by
// trial alone it hashed the trial's timer_call_data and scanned every
// trial's timer_value, spilling to temporary files once the hash outgrew
// work_mem. The range only bounds the scan: rows inside it are still taken
// by their thread's trial. A tool that added timer_call_data rows to a
// trial after the save, outside its block, would leave them unread:
// CheckIntegrity ("db check") reports such trials, and deleting their
// trial_call_data_range row makes the range computed again. Stats reads
// within the same range. A trial saved by SaveTrial comes back
// equal, value by value, except for:
//
//   - the order of a region's groups: timer_group keeps no order, so they
//     come back sorted by name;
//   - the data of ParaProf-derived callpath nodes, which is not stored (a
//     stored one comes back as an empty node, Derived because its region is
//     in group TAU_DERIVED);
//   - Source.Path, which names the database and trial
//     ("URL#trial=ID"), and Warnings, which are not stored.
//
// # A TAUdb that TAU's tools wrote
//
// taudb-analyze's own tables (schema/ours_*.sql) are an optimisation and
// a place for what TAUdb has no room for, never a requirement for reading:
// on a TAUdb made and filled by TAU's own tools alone every read works
// (Trials, LoadTrial, Stats, Results, LoadResult, Views, CheckIntegrity),
// falling back to what TAU's tables hold: callpath names rebuilt from the
// parent chain, the call-data range computed, results listed from
// analysis_settings and analysis_result (PerfExplorer's, shown as their
// method, trial, metric and number of images). MissingOwnTables says which
// are absent; Init adds them in a transaction of their own (the CLI does so
// before its first write, saying so once). TAU's quirks are read right:
//
//   - STDDEV rows TAU's loader left out (wherever all threads made the same
//     number of calls) are computed by Stats from the threads' rows, as
//     population standard deviations, and marked StatValue.Computed (their
//     percentages NaN);
//   - NaN percentages TAU stored (0/0 in STDDEV rows) stay NaN here; the
//     CLI prints them as null in JSON and "-" in tables;
//   - calls of the derived threads are whole numbers (INT columns): TAU's
//     loader truncates, SaveTrial rounds.
//
// # Read-only opening
//
// OpenReadOnly opens a database for commands that change nothing: an
// SQLite file with mode=ro (immutable when it is in WAL mode in a folder
// nobody may write), never created when absent (ErrNoDatabase), its
// journal mode untouched; PostgreSQL with default_transaction_read_only.
//
// # Views and results across tools
//
// SaveTrial with an Application (and Experiment) also creates, in the
// trial's transaction, the views TAU's taudb_loadtrial -a/-x gives a trial
// (AppViewPrefix+APP with the child ExpViewPrefix+EXP, each selecting by
// primary_metadata), reusing them when they exist. A result whose trials
// another tool deleted (analysis_settings_trial rows cascade away) is
// reported by CheckIntegrity (IncompleteResults), listed with
// ResultInfo.MissingTrials and loaded with a finding saying it is
// incomplete.
//
// PerfExplorer's cluster viewer (PerfExplorerServer.getPerformanceResults
// in TAU's tools/src/perfexplorer/src/server/PerfExplorerServer.java) on a
// TAUdb (schema version above 0) selects the newest analysis_settings row
// with "trial = ? and metric = ? and method in (?, ?, ?)" (the trial and
// metric ids picked in its tree, the methods of
// AnalysisType.getClusterMethods: "K Means", "Hierarchical", "Density
// Based (DBSCAN)"), then reads every analysis_result row of it, in id
// order, through getBinaryStream(...).read(...) of thumbnail and image: a
// row with a NULL thumbnail or image ends the read with a
// NullPointerException. Its insertRequest writes application and
// experiment NULL on a TAUdb (they are ids only in the old PerfDMF
// schema), and AnalysisTask.saveAnalysisResult writes every
// analysis_result row with thumbnail, image, their sizes and result_type
// (ChartType's code). SaveResult therefore gives a clustering result a
// second settings row written after its own (insertViewerSettings), with
// the same trial, metric and PerfExplorer strings, that holds only its
// pictures (SaveResultWith, SaveImages): PerfExplorer's query always finds such a row
// first and reads only rows with images, while the result's tables of
// numbers (result_type 100, no image) stay on its own row. Results does
// not list the viewer row; DeleteResult and DeleteTrial remove it.
package store
