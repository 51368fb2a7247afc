-- The partitioned layout of TAUdb's three big tables, for PostgreSQL
-- databases that `taudb-analyze db init` creates. It runs right after
-- postgres.sql, on a fresh database, in the same transaction, and before
-- ours_postgres.sql. It replaces the (empty) timer_call_data, timer_value
-- and counter_value of postgres.sql with tables of the same columns, types,
-- NULL constraints, primary key, indexes (same names) and foreign keys,
-- range-partitioned:
--
--   timer_call_data  by id               (a trial's block of ids)
--   timer_value      by timer_call_data  (the same block)
--   counter_value    by counter          (a trial's block of counter ids)
--
-- store.SaveTrial gives every trial it saves one partition of each
-- (timer_call_data_tN, timer_value_tN, counter_value_tN, N the trial id):
-- it COPYs the rows into a fresh table and attaches it in the save's
-- transaction, which checks the keys once, set-based, and builds the
-- indexes in bulk. Rows other tools write (TAU's loader takes its ids from
-- the same sequences, outside every trial's block) land in the _default
-- partitions, whose foreign keys are checked row by row as before.
--
-- One key is declared per partition rather than on the parent: a
-- timer_value row's timer_call_data must exist in the timer_call_data
-- partition of the same range (timer_value_tN references
-- timer_call_data_tN, timer_value_default references
-- timer_call_data_default). Both are partitioned by the same ids, so this
-- is the same condition as a key on the parents, and checking it (on
-- attach, or when a trial's partitions are dropped) reads one trial's rows
-- instead of every trial's.

DROP TABLE timer_value;
DROP TABLE counter_value;
DROP TABLE timer_call_data;

CREATE TABLE timer_call_data (
 id          SERIAL NOT NULL PRIMARY KEY,
 timer_callpath       INT NOT NULL,
 thread      INT NOT NULL,
 calls       INT,
 subroutines INT,
 time_range  INT,
 FOREIGN KEY(timer_callpath) REFERENCES timer_callpath(id)
   ON DELETE NO ACTION ON UPDATE NO ACTION,
 FOREIGN KEY(thread) REFERENCES thread(id)
   ON DELETE NO ACTION ON UPDATE NO ACTION,
 FOREIGN KEY(time_range) REFERENCES time_range(id)
   ON DELETE NO ACTION ON UPDATE NO ACTION
) PARTITION BY RANGE (id);
CREATE TABLE timer_call_data_default PARTITION OF timer_call_data DEFAULT;

CREATE TABLE timer_value (
 timer_call_data       INT NOT NULL,
 metric                INT NOT NULL,
 inclusive_value       DOUBLE PRECISION,
 exclusive_value       DOUBLE PRECISION,
 inclusive_percent     DOUBLE PRECISION,
 exclusive_percent     DOUBLE PRECISION,
 sum_exclusive_squared DOUBLE PRECISION,
 FOREIGN KEY(metric) REFERENCES metric(id)
   ON DELETE NO ACTION ON UPDATE NO ACTION
) PARTITION BY RANGE (timer_call_data);
CREATE TABLE timer_value_default PARTITION OF timer_value DEFAULT;
ALTER TABLE timer_value_default ADD FOREIGN KEY(timer_call_data)
   REFERENCES timer_call_data_default(id) ON DELETE NO ACTION ON UPDATE NO ACTION;
CREATE INDEX timer_value_index on timer_value (timer_call_data, metric);

CREATE TABLE counter_value (
 counter            INT NOT NULL,
 timer_callpath     INT,
 thread             INT NOT NULL,
 sample_count       INT,
 maximum_value      DOUBLE PRECISION,
 minimum_value      DOUBLE PRECISION,
 mean_value         DOUBLE PRECISION,
 standard_deviation DOUBLE PRECISION,
 FOREIGN KEY(counter) REFERENCES counter(id)
   ON DELETE NO ACTION ON UPDATE NO ACTION,
 FOREIGN KEY(timer_callpath) REFERENCES timer_callpath(id)
   ON DELETE NO ACTION ON UPDATE NO ACTION,
 FOREIGN KEY(thread) REFERENCES thread(id)
   ON DELETE NO ACTION ON UPDATE NO ACTION
) PARTITION BY RANGE (counter);
CREATE TABLE counter_value_default PARTITION OF counter_value DEFAULT;
CREATE INDEX counter_value_index on counter_value (counter, thread);

CREATE INDEX timer_call_data_timer_callpath on
    timer_call_data(timer_callpath);
CREATE INDEX timer_call_data_thread on timer_call_data(thread);

-- Not a change to the tables: an index TAU's schema lacks. Deleting a
-- thread row makes PostgreSQL check, for each thread, that no
-- secondary_metadata row refers to it; without an index on the column that
-- check reads the whole table (every trial's metadata) once per thread,
-- and deleting a 65,536-thread trial spent 6 minutes in it.
CREATE INDEX secondary_metadata_thread on secondary_metadata (thread);
