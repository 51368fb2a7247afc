package storetest

// TAUSchemaPostgres is a TAUdb schema (version 2) as TAU's own
// taudb_configure creates it on PostgreSQL, and nothing of taudb-analyze's:
// the tables and columns of TAU's tools/src/perfdmf/etc/taudb.sql and of
// the TAUdb manual, written for these tests (not a copy of either file).
// Its foreign keys are TAU's: NO ACTION, except where the manual's
// analysis tables cascade. TAU's compatibility views (interval_event, ...)
// are here with simplified bodies: taudb-analyze only checks that they
// exist and never reads them.
const TAUSchemaPostgres = `
CREATE TABLE schema_version (version INT NOT NULL, description VARCHAR NOT NULL);
INSERT INTO schema_version VALUES (2, 'Changes after Nov. 9, 2012 release');
CREATE TABLE data_source (id INT UNIQUE NOT NULL, name VARCHAR NOT NULL, description VARCHAR);
INSERT INTO data_source (id, name, description) VALUES (0, 'ppk', 'TAU Packed profiles (TAU)'),
  (1, 'TAU profiles', 'TAU profiles (TAU)'), (2, 'DynaProf', 'PAPI DynaProf profiles (UTK)'),
  (10, 'SNAP', 'TAU Snapshot profiles (TAU)'), (999, 'Other', 'Other profiles');
CREATE TABLE derived_thread_type (id INT NOT NULL, name VARCHAR NOT NULL, description VARCHAR NOT NULL);
INSERT INTO derived_thread_type VALUES (-1, 'MEAN', 'MEAN (nulls ignored)'), (-2, 'TOTAL', 'TOTAL'),
  (-3, 'STDDEV', 'STDDEV (nulls ignored)'), (-4, 'MIN', 'MIN'), (-5, 'MAX', 'MAX'),
  (-6, 'MEAN', 'MEAN (nulls are 0 value)'), (-7, 'STDDEV', 'STDDEV (nulls are 0 value)');
CREATE TABLE trial (id SERIAL NOT NULL PRIMARY KEY, name VARCHAR, data_source INT REFERENCES data_source(id),
  node_count INT, contexts_per_node INT, threads_per_context INT, total_threads INT);
CREATE TABLE thread (id SERIAL NOT NULL PRIMARY KEY, trial INT NOT NULL REFERENCES trial(id),
  node_rank INT NOT NULL, context_rank INT NOT NULL, thread_rank INT NOT NULL, thread_index INT NOT NULL);
CREATE TABLE metric (id SERIAL NOT NULL PRIMARY KEY, trial INT NOT NULL REFERENCES trial(id),
  name VARCHAR NOT NULL, derived BOOLEAN NOT NULL DEFAULT FALSE);
CREATE TABLE timer (id SERIAL NOT NULL PRIMARY KEY, trial INT NOT NULL REFERENCES trial(id), name VARCHAR NOT NULL,
  short_name VARCHAR NOT NULL, source_file VARCHAR, line_number INT, line_number_end INT,
  column_number INT, column_number_end INT);
CREATE INDEX timer_trial_index ON timer (trial, name);
CREATE TABLE timer_group (timer INT REFERENCES timer(id), group_name VARCHAR NOT NULL);
CREATE INDEX timer_group_index ON timer_group (timer, group_name);
CREATE TABLE timer_parameter (timer INT REFERENCES timer(id), parameter_name VARCHAR NOT NULL, parameter_value VARCHAR NOT NULL);
CREATE TABLE timer_callpath (id SERIAL NOT NULL PRIMARY KEY, timer INT NOT NULL REFERENCES timer(id),
  parent INT REFERENCES timer_callpath(id));
CREATE TABLE time_range (id SERIAL NOT NULL PRIMARY KEY, iteration_start INT NOT NULL, iteration_end INT,
  time_start BIGINT NOT NULL, time_end BIGINT);
CREATE TABLE timer_call_data (id SERIAL NOT NULL PRIMARY KEY, timer_callpath INT NOT NULL REFERENCES timer_callpath(id),
  thread INT NOT NULL REFERENCES thread(id), calls INT, subroutines INT, time_range INT REFERENCES time_range(id));
CREATE INDEX timer_call_data_thread ON timer_call_data (thread);
CREATE TABLE timer_value (timer_call_data INT NOT NULL REFERENCES timer_call_data(id), metric INT NOT NULL REFERENCES metric(id),
  inclusive_value DOUBLE PRECISION, exclusive_value DOUBLE PRECISION, inclusive_percent DOUBLE PRECISION,
  exclusive_percent DOUBLE PRECISION, sum_exclusive_squared DOUBLE PRECISION);
CREATE INDEX timer_value_index ON timer_value (timer_call_data, metric);
CREATE TABLE counter (id SERIAL NOT NULL PRIMARY KEY, trial INT NOT NULL REFERENCES trial(id), name VARCHAR NOT NULL);
CREATE TABLE counter_value (counter INT NOT NULL REFERENCES counter(id), timer_callpath INT REFERENCES timer_callpath(id),
  thread INT NOT NULL REFERENCES thread(id), sample_count INT, maximum_value DOUBLE PRECISION,
  minimum_value DOUBLE PRECISION, mean_value DOUBLE PRECISION, standard_deviation DOUBLE PRECISION);
CREATE TABLE primary_metadata (trial INT NOT NULL REFERENCES trial(id), name VARCHAR NOT NULL, value VARCHAR);
CREATE INDEX primary_metadata_index ON primary_metadata (trial, name);
CREATE TABLE secondary_metadata (id VARCHAR NOT NULL PRIMARY KEY, trial INT NOT NULL REFERENCES trial(id),
  thread INT REFERENCES thread(id), timer_callpath INT REFERENCES timer_callpath(id), time_range INT REFERENCES time_range(id),
  parent VARCHAR REFERENCES secondary_metadata(id), name VARCHAR NOT NULL, value VARCHAR, is_array BOOLEAN DEFAULT FALSE);
CREATE TABLE taudb_view (id SERIAL NOT NULL PRIMARY KEY, parent INTEGER REFERENCES taudb_view(id) ON DELETE CASCADE,
  name VARCHAR NOT NULL, conjoin VARCHAR NOT NULL);
CREATE TABLE taudb_view_parameter (taudb_view INTEGER NOT NULL REFERENCES taudb_view(id) ON DELETE CASCADE,
  table_name VARCHAR NOT NULL, column_name VARCHAR NOT NULL, operator VARCHAR NOT NULL, value VARCHAR NOT NULL);
INSERT INTO taudb_view (parent, name, conjoin) VALUES (NULL, 'All Trials', 'and');
INSERT INTO taudb_view_parameter VALUES (1, 'trial', 'total_threads', '>', '-1');
CREATE TABLE analysis_settings (id SERIAL NOT NULL PRIMARY KEY, taudb_view INTEGER REFERENCES taudb_view(id) ON DELETE CASCADE,
  application INTEGER, experiment INTEGER, trial INTEGER REFERENCES trial(id) ON DELETE CASCADE,
  metric INTEGER REFERENCES metric(id) ON DELETE CASCADE, method VARCHAR(255) NOT NULL,
  dimension_reduction VARCHAR(255) NOT NULL, normalization VARCHAR(255) NOT NULL);
CREATE TABLE analysis_result (id SERIAL NOT NULL PRIMARY KEY, analysis_settings INTEGER NOT NULL,
  description VARCHAR(255) NOT NULL, thumbnail_size INTEGER, image_size INTEGER, thumbnail BYTEA, image BYTEA,
  result_type INTEGER NOT NULL);
CREATE VIEW interval_event AS SELECT cp.id, t.trial, t.name FROM timer_callpath cp JOIN timer t ON t.id = cp.timer;
CREATE VIEW interval_event_value AS SELECT tcd.timer_callpath AS interval_event, tcd.thread, tv.metric,
  tv.inclusive_value AS inclusive, tv.exclusive_value AS exclusive, tcd.calls AS call
  FROM timer_call_data tcd JOIN timer_value tv ON tv.timer_call_data = tcd.id;
CREATE VIEW interval_location_profile AS SELECT * FROM interval_event_value;
CREATE VIEW interval_total_summary AS SELECT v.* FROM interval_event_value v JOIN thread h ON h.id = v.thread WHERE h.thread_index = -2;
CREATE VIEW interval_mean_summary AS SELECT v.* FROM interval_event_value v JOIN thread h ON h.id = v.thread WHERE h.thread_index = -1;
CREATE VIEW atomic_event AS SELECT id, trial, name FROM counter;
CREATE VIEW atomic_event_value AS SELECT counter AS atomic_event, thread, sample_count, maximum_value,
  minimum_value, mean_value, standard_deviation FROM counter_value;
CREATE VIEW atomic_location_profile AS SELECT * FROM atomic_event_value;
CREATE VIEW atomic_total_summary AS SELECT * FROM atomic_event_value WHERE false;
CREATE VIEW atomic_mean_summary AS SELECT * FROM atomic_event_value WHERE false;
`
