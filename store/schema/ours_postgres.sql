-- taudb-analyze's own tables, for PostgreSQL. TAUdb has no place for these;
-- they live beside the TAUdb tables (postgres.sql) and never change them.
-- Every statement is IF NOT EXISTS: store.Init runs this file on a fresh
-- database right after postgres.sql, and on an existing TAUdb database (one
-- created by TAU's own tools, say) to add the tables that are missing.

/* Numeric analysis results: the tables of numbers behind an analysis_result
   (per-region speedups, cluster averages, PCA coordinates, ...), one row per
   cell. table_name names one result table of the analysis, row_index and
   column_name place the cell in it, and the value is either a number
   (value_num) or a text (value_text). Deleting the analysis_result deletes
   its cells. */
CREATE TABLE IF NOT EXISTS analysis_result_value (
    id                  BIGSERIAL        NOT NULL    PRIMARY KEY,
    analysis_result     INTEGER          NOT NULL,
    table_name          TEXT             NOT NULL,
    row_index           INTEGER          NOT NULL,
    column_name         TEXT             NOT NULL,
    value_num           DOUBLE PRECISION NULL,
    value_text          TEXT             NULL,
    FOREIGN KEY (analysis_result) REFERENCES analysis_result(id)
        ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE INDEX IF NOT EXISTS analysis_result_value_index
    ON analysis_result_value (analysis_result, table_name);

/* The full name of a call-graph node (timer_callpath row) whose name is not
   what TAU's tools rebuild from the parent chain ("<parent's name> => <timer
   name>", or the timer's name for a row without parent). That happens for
   throttled timers: TAU names the flat function "f [THROTTLED]" but keeps
   "A => f" in its callpaths, so the row of "A => f" points at the timer
   "f [THROTTLED]". store.SaveTrial writes a row here only for such nodes
   (none for most trials), and store.LoadTrial reads it so that every node
   comes back under its own name. Deleting the timer_callpath row deletes
   its name, so TAU's own tools can still delete trials. */
CREATE TABLE IF NOT EXISTS timer_callpath_name (
    timer_callpath      INTEGER          NOT NULL    PRIMARY KEY,
    name                TEXT             NOT NULL,
    FOREIGN KEY (timer_callpath) REFERENCES timer_callpath(id)
        ON DELETE CASCADE ON UPDATE CASCADE
);

/* The parameters of an analysis: every setting that changes its result
   (analysis_settings has columns only for PerfExplorer's method,
   dimension reduction and normalization), one row per name. */
CREATE TABLE IF NOT EXISTS analysis_settings_parameter (
    analysis_settings   INTEGER          NOT NULL,
    name                TEXT             NOT NULL,
    value               TEXT             NOT NULL,
    PRIMARY KEY (analysis_settings, name),
    FOREIGN KEY (analysis_settings) REFERENCES analysis_settings(id)
        ON DELETE CASCADE ON UPDATE CASCADE
);

/* The trials of an analysis, in the order it took them (analysis_settings
   has room for one trial only; a speedup or overhead study has many). */
CREATE TABLE IF NOT EXISTS analysis_settings_trial (
    analysis_settings   INTEGER          NOT NULL,
    position            INTEGER          NOT NULL,
    trial               INTEGER          NOT NULL,
    PRIMARY KEY (analysis_settings, position),
    FOREIGN KEY (analysis_settings) REFERENCES analysis_settings(id)
        ON DELETE CASCADE ON UPDATE CASCADE,
    FOREIGN KEY (trial) REFERENCES trial(id)
        ON DELETE CASCADE ON UPDATE CASCADE
);

/* The columns of each table of numbers (an analysis_result of result_type
   100), in order, with their unit and kind ("number" or "text"), so that a
   stored result is printed again exactly as it was computed. */
CREATE TABLE IF NOT EXISTS analysis_result_column (
    analysis_result     INTEGER          NOT NULL,
    position            INTEGER          NOT NULL,
    table_name          TEXT             NOT NULL,
    column_name         TEXT             NOT NULL,
    unit                TEXT             NOT NULL,
    kind                TEXT             NOT NULL,
    PRIMARY KEY (analysis_result, position),
    FOREIGN KEY (analysis_result) REFERENCES analysis_result(id)
        ON DELETE CASCADE ON UPDATE CASCADE
);

/* The range of timer_call_data ids that holds every row of a trial (its
   real, derived and snapshot threads' rows): first_id <= id <= last_id.
   store.SaveTrial reserves a trial's ids in one block and writes this row in
   the same transaction; store.LoadTrial and store.Stats read the trial's
   timer_call_data and timer_value rows as ranges of their indexes, bounded
   by it, instead of joining whole tables. A trial without a row here (one
   TAU's own loader wrote) has its range computed when it is read. Deleting
   the trial deletes its row, so TAU's own tools can still delete trials. */
CREATE TABLE IF NOT EXISTS trial_call_data_range (
    trial               INTEGER          NOT NULL    PRIMARY KEY,
    first_id            INTEGER          NOT NULL,
    last_id             INTEGER          NOT NULL,
    FOREIGN KEY (trial) REFERENCES trial(id)
        ON DELETE CASCADE ON UPDATE CASCADE
);

/* A copy of each trial's real threads' values, column by column, in pages
   of at most 8000 bytes, for reading a large trial back at the speed of a
   sequential read (store/valuepages.go): one TAUdb row per value costs the
   server and the client per row. Threads come in blocks [first_thread,
   first_thread + threads) of the trial's thread order; per block, stream 0
   is the layout (the nodes' timer_callpath ids and which (node, thread)
   cells hold values) and streams 1, 2, 3+2m, 4+2m are the calls,
   subroutines, inclusive and exclusive values of the m-th metric (id
   order), little-endian float64 of the cells that hold values. store.SaveTrial
   writes them in the trial's transaction; store.LoadTrial reads them
   instead of timer_call_data and timer_value when they cover every thread.
   TAU's tools neither read nor need them; deleting the trial deletes them. */
CREATE TABLE IF NOT EXISTS trial_value_page (
    trial               INTEGER          NOT NULL,
    first_thread        INTEGER          NOT NULL,
    threads             INTEGER          NOT NULL,
    stream              INTEGER          NOT NULL,
    page                INTEGER          NOT NULL,
    data                BYTEA            NOT NULL,
    PRIMARY KEY (trial, first_thread, stream, page),
    FOREIGN KEY (trial) REFERENCES trial(id)
        ON DELETE CASCADE ON UPDATE CASCADE
);

ALTER TABLE trial_value_page ALTER COLUMN data SET STORAGE PLAIN;

/* Counts beyond TAUdb's 32-bit INT columns, kept exactly. TAUdb stores a
   record's calls and subroutines (timer_call_data) and a user event's
   sample count (counter_value) as INT; a hot leaf called 3,000,000,000
   times does not fit. store.SaveTrial writes such a count as 2147483647 in
   TAU's column (what TAU's own tools then read) and exactly here, one row
   per record or event value that needs it (usually none); store.LoadTrial
   reads it from here. Deleting the trial deletes the rows. */
CREATE TABLE IF NOT EXISTS timer_call_data_count (
    timer_call_data     INTEGER          NOT NULL    PRIMARY KEY,
    calls               BIGINT           NOT NULL,
    subroutines         BIGINT           NOT NULL,
    FOREIGN KEY (timer_call_data) REFERENCES timer_call_data(id)
        ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE TABLE IF NOT EXISTS counter_value_count (
    counter             INTEGER          NOT NULL,
    thread              INTEGER          NOT NULL,
    sample_count        BIGINT           NOT NULL,
    PRIMARY KEY (counter, thread),
    FOREIGN KEY (counter) REFERENCES counter(id)
        ON DELETE CASCADE ON UPDATE CASCADE,
    FOREIGN KEY (thread) REFERENCES thread(id)
        ON DELETE CASCADE ON UPDATE CASCADE
);

/* The full text of a name longer than the 2,048 bytes TAUdb's indexed name
   columns take (a region or a user event): the trial stores the name
   shortened by drg.ShortName (its start and a hash of the whole), and this
   table maps that short name back to the full one. store.SaveTrial writes a
   row per shortened name (none for most trials). Deleting the trial deletes
   its rows. */
CREATE TABLE IF NOT EXISTS trial_long_name (
    trial               INTEGER          NOT NULL,
    short_name          TEXT             NOT NULL,
    full_name           TEXT             NOT NULL,
    PRIMARY KEY (trial, short_name),
    FOREIGN KEY (trial) REFERENCES trial(id)
        ON DELETE CASCADE ON UPDATE CASCADE
);

/* A running application watched (taudb-analyze watch): each interval's
   cross-rank statistics of the program (region ".program", the ranks' main
   inclusive time) and of every region (exclusive time), one row per
   (watch, interval, region), written as each interval closes. run names
   one watch; trial is the trial stored when the watch ended (NULL while it
   runs or with nothing stored), and deleting that trial deletes its rows.
   TAUdb's time_range rows would need a row per rank, region and interval
   and a trial that exists before the run ends. */
CREATE TABLE IF NOT EXISTS watch_interval (
    run                 TEXT             NOT NULL,
    trial               INTEGER          NULL,
    interval_index      INTEGER          NOT NULL,
    time_start          BIGINT           NOT NULL,
    time_end            BIGINT           NOT NULL,
    ranks               INTEGER          NOT NULL,
    missing             INTEGER          NOT NULL,
    region              TEXT             NOT NULL,
    ranks_present       INTEGER          NOT NULL,
    calls               DOUBLE PRECISION NOT NULL,
    total               DOUBLE PRECISION NOT NULL,
    mean                DOUBLE PRECISION NOT NULL,
    minimum             DOUBLE PRECISION NOT NULL,
    maximum             DOUBLE PRECISION NOT NULL,
    stddev              DOUBLE PRECISION NOT NULL,
    min_rank            TEXT             NOT NULL,
    max_rank            TEXT             NOT NULL,
    PRIMARY KEY (run, interval_index, region),
    FOREIGN KEY (trial) REFERENCES trial(id)
        ON DELETE CASCADE ON UPDATE CASCADE
);

/* The anomalies a watch flagged, in the order flagged per interval: kind
   (rank against the other ranks, against its own history, region or
   program against its history), the rank and region, the value and what
   was expected, and the message shown. */
CREATE TABLE IF NOT EXISTS watch_anomaly (
    run                 TEXT             NOT NULL,
    trial               INTEGER          NULL,
    interval_index      INTEGER          NOT NULL,
    position            INTEGER          NOT NULL,
    kind                TEXT             NOT NULL,
    rank                TEXT             NOT NULL,
    region              TEXT             NOT NULL,
    value               DOUBLE PRECISION NOT NULL,
    expected            DOUBLE PRECISION NOT NULL,
    message             TEXT             NOT NULL,
    PRIMARY KEY (run, interval_index, position),
    FOREIGN KEY (trial) REFERENCES trial(id)
        ON DELETE CASCADE ON UPDATE CASCADE
);
