package store_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/store"
	"github.com/taudb-analyze/taudb-analyze/store/storetest"
)

// The TAUdb schema as the manual gives it ("SQL for TAUdb" in
// seeds/taudb-manual.txt), written out here independently of the .sql files:
// every table with its columns in order, every CREATE INDEX, every view.
var manualColumns = map[string][]string{
	"schema_version":       {"version", "description"},
	"data_source":          {"id", "name", "description"},
	"derived_thread_type":  {"id", "name", "description"},
	"trial":                {"id", "name", "data_source", "node_count", "contexts_per_node", "threads_per_context", "total_threads"},
	"thread":               {"id", "trial", "node_rank", "context_rank", "thread_rank", "thread_index"},
	"metric":               {"id", "trial", "name", "derived"},
	"timer":                {"id", "trial", "name", "short_name", "source_file", "line_number", "line_number_end", "column_number", "column_number_end"},
	"timer_group":          {"timer", "group_name"},
	"timer_parameter":      {"timer", "parameter_name", "parameter_value"},
	"timer_callpath":       {"id", "timer", "parent"},
	"time_range":           {"id", "iteration_start", "iteration_end", "time_start", "time_end"},
	"timer_call_data":      {"id", "timer_callpath", "thread", "calls", "subroutines", "time_range"},
	"timer_value":          {"timer_call_data", "metric", "inclusive_value", "exclusive_value", "inclusive_percent", "exclusive_percent", "sum_exclusive_squared"},
	"counter":              {"id", "trial", "name"},
	"counter_value":        {"counter", "timer_callpath", "thread", "sample_count", "maximum_value", "minimum_value", "mean_value", "standard_deviation"},
	"primary_metadata":     {"trial", "name", "value"},
	"secondary_metadata":   {"id", "trial", "thread", "timer_callpath", "time_range", "parent", "name", "value", "is_array"},
	"taudb_view":           {"id", "parent", "name", "conjoin"},
	"taudb_view_parameter": {"taudb_view", "table_name", "column_name", "operator", "value"},
	"analysis_settings":    {"id", "taudb_view", "application", "experiment", "trial", "metric", "method", "dimension_reduction", "normalization"},
	"analysis_result":      {"id", "analysis_settings", "description", "thumbnail_size", "image_size", "thumbnail", "image", "result_type"},
}

// ourColumns are taudb-analyze's own tables.
var ourColumns = map[string][]string{
	"analysis_result_value":       {"id", "analysis_result", "table_name", "row_index", "column_name", "value_num", "value_text"},
	"timer_callpath_name":         {"timer_callpath", "name"},
	"analysis_settings_parameter": {"analysis_settings", "name", "value"},
	"analysis_settings_trial":     {"analysis_settings", "position", "trial"},
	"analysis_result_column":      {"analysis_result", "position", "table_name", "column_name", "unit", "kind"},
	"trial_call_data_range":       {"trial", "first_id", "last_id"},
	"timer_call_data_count":       {"timer_call_data", "calls", "subroutines"},
	"counter_value_count":         {"counter", "thread", "sample_count"},
	"trial_long_name":             {"trial", "short_name", "full_name"},
	"trial_value_page":            {"trial", "first_thread", "threads", "stream", "page", "data"},
	"watch_interval": {"run", "trial", "interval_index", "time_start", "time_end", "ranks", "missing", "region", "ranks_present",
		"calls", "total", "mean", "minimum", "maximum", "stddev", "min_rank", "max_rank"},
	"watch_anomaly": {"run", "trial", "interval_index", "position", "kind", "rank", "region", "value", "expected", "message"},
}

var eventValueColumns = []string{"interval_event", "node", "context", "thread", "metric", "inclusive_percentage",
	"inclusive", "exclusive_percentage", "exclusive", "call", "subroutines", "inclusive_per_call", "sum_exclusive_squared"}

var atomicValueColumns = []string{"atomic_event", "node", "context", "thread", "sample_count",
	"maximum_value", "minimum_value", "mean_value", "standard_deviation"}

var manualViewColumns = map[string][]string{
	"interval_event":            {"id", "trial", "name", "group_name", "source_file", "line_number", "line_number_end"},
	"interval_event_value":      eventValueColumns,
	"interval_location_profile": eventValueColumns,
	"interval_total_summary":    eventValueColumns,
	"interval_mean_summary":     eventValueColumns,
	"atomic_event":              {"id", "trial", "name", "group_name", "source_file", "line_number"},
	"atomic_event_value":        atomicValueColumns,
	"atomic_location_profile":   atomicValueColumns,
	"atomic_total_summary":      atomicValueColumns,
	"atomic_mean_summary":       atomicValueColumns,
}

var manualIndexes = []string{
	"timer_trial_index", "timer_group_index", "timer_value_index", "counter_trial_index",
	"counter_value_index", "primary_metadata_index", "secondary_metadata_index",
	"trial_name_index", "timer_name_index", "timer_callpath_parent", "thread_trial",
	"timer_call_data_timer_callpath", "counter_name_index", "timer_call_data_thread",
}

var ourIndexes = []string{"analysis_result_value_index"}

func sortedKeys(ms ...map[string][]string) []string {
	var out []string
	for _, m := range ms {
		for k := range m {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

func sorted(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		out = append(out, l...)
	}
	slices.Sort(out)
	return out
}

func TestInitCreatesEveryTableViewAndIndex(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		res, err := db.Init(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !res.Created || res.Version != 2 || res.Dialect != db.Dialect() || len(res.AddedTables) != 0 {
			t.Errorf("Init = %+v, want created version 2", res)
		}
		if got, want := res.String(), "created TAUdb schema version 2"; got != want {
			t.Errorf("Init says %q, want %q", got, want)
		}
		cat, err := db.Catalog(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if want := sortedKeys(manualColumns, ourColumns); !slices.Equal(cat.Tables, want) {
			t.Errorf("tables:\n got %v\nwant %v", cat.Tables, want)
		}
		if want := sortedKeys(manualViewColumns); !slices.Equal(cat.Views, want) {
			t.Errorf("views:\n got %v\nwant %v", cat.Views, want)
		}
		idx := ourIndexes
		if db.Dialect() == store.Postgres { // the partitioned layout's (partition_postgres.sql)
			idx = append([]string{"secondary_metadata_thread"}, idx...)
		}
		if want := sorted(manualIndexes, idx); !slices.Equal(cat.Indexes, want) {
			t.Errorf("indexes:\n got %v\nwant %v", cat.Indexes, want)
		}
		if v, err := db.CheckSchema(ctx); err != nil || v != 2 {
			t.Errorf("CheckSchema = %d, %v; want 2", v, err)
		}
	})
}

// columns lists the columns of a table or view, in order.
func columns(t *testing.T, db *store.DB, rel string) []string {
	t.Helper()
	q := `SELECT name FROM pragma_table_info($1) ORDER BY cid`
	if db.Dialect() == store.Postgres {
		q = `SELECT column_name::text FROM information_schema.columns
		     WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position`
	}
	var out []string
	for _, r := range storetest.Query(t, db, q, rel) {
		out = append(out, r[0])
	}
	return out
}

func TestInitColumnsAsInTheManual(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		if _, err := db.Init(context.Background()); err != nil {
			t.Fatal(err)
		}
		for _, m := range []map[string][]string{manualColumns, ourColumns, manualViewColumns} {
			for rel, want := range m {
				if got := columns(t, db, rel); !slices.Equal(got, want) {
					t.Errorf("%s columns:\n got %v\nwant %v", rel, got, want)
				}
			}
		}
	})
}

func TestInitSeedsRows(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		if _, err := db.Init(context.Background()); err != nil {
			t.Fatal(err)
		}
		checkSeeds(t, db)
	})
}

// checkSeeds verifies the rows the manual inserts, once each.
func checkSeeds(t *testing.T, db *store.DB) {
	t.Helper()
	check := func(q string, want [][]string) {
		t.Helper()
		if got := storetest.Query(t, db, q); !slices.EqualFunc(got, want, slices.Equal[[]string]) {
			t.Errorf("%s:\n got %v\nwant %v", q, got, want)
		}
	}
	check(`SELECT version, description FROM schema_version`,
		[][]string{{"2", "Changes after Nov. 9, 2012 release"}})
	check(`SELECT id, name, description FROM data_source ORDER BY id`, [][]string{
		{"0", "ppk", "TAU Packed profiles (TAU)"},
		{"1", "TAU profiles", "TAU profiles (TAU)"},
		{"2", "DynaProf", "PAPI DynaProf profiles (UTK)"},
		{"3", "mpiP", "mpiP: Lightweight, Scalable MPI Profiling (Vetter, Chambreau)"},
		{"4", "HPM", "HPM Toolkit profiles (IBM)"},
		{"5", "gprof", "gprof profiles (GNU)"},
		{"6", "psrun", "PerfSuite psrun profiles (NCSA)"},
		{"7", "pprof", "TAU pprof.dat output (TAU)"},
		{"8", "Cube", "Cube data (FZJ)"},
		{"9", "HPCToolkit", "HPC Toolkit profiles (Rice Univ.)"},
		{"10", "SNAP", "TAU Snapshot profiles (TAU)"},
		{"11", "OMPP", "OpenMP Profiler profiles (Fuerlinger)"},
		{"12", "PERIXML", "Data Exchange Format (PERI)"},
		{"13", "GPTL", "General Purpose Timing Library (ORNL)"},
		{"14", "Paraver", "Paraver profiles (BSC)"},
		{"15", "IPM", "Integrated Performance Monitoring (NERSC)"},
		{"16", "Google", "Google profiles (Google)"},
		{"17", "Cube3", "Cube 3D profiles (FZJ)"},
		{"100", "Gyro", "Self-timing profiles from Gyro application"},
		{"101", "GAMESS", "Self-timing profiles from GAMESS application"},
		{"999", "Other", "Other profiles"},
	})
	check(`SELECT id, name, description FROM derived_thread_type ORDER BY id DESC`, [][]string{
		{"-1", "MEAN", "MEAN (nulls ignored)"},
		{"-2", "TOTAL", "TOTAL"},
		{"-3", "STDDEV", "STDDEV (nulls ignored)"},
		{"-4", "MIN", "MIN"},
		{"-5", "MAX", "MAX"},
		{"-6", "MEAN", "MEAN (nulls are 0 value)"},
		{"-7", "STDDEV", "STDDEV (nulls are 0 value)"},
	})
	check(`SELECT id, parent, name, conjoin FROM taudb_view`, [][]string{{"1", "NULL", "All Trials", "and"}})
	check(`SELECT taudb_view, table_name, column_name, operator, value FROM taudb_view_parameter`,
		[][]string{{"1", "trial", "total_threads", ">", "-1"}})
	for _, empty := range []string{"trial", "thread", "metric", "timer", "analysis_settings", "analysis_result", "analysis_result_value"} {
		check(`SELECT count(*) FROM `+empty, [][]string{{"0"}})
	}
}

func TestInitIsIdempotent(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if _, err := db.Init(ctx); err != nil {
			t.Fatal(err)
		}
		before, err := db.Catalog(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 2; i++ {
			res, err := db.Init(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if res.Created || res.Version != 2 || len(res.AddedTables) != 0 {
				t.Errorf("Init again = %+v, want found version 2", res)
			}
			if got, want := res.String(), "found TAUdb schema version 2"; got != want {
				t.Errorf("Init again says %q, want %q", got, want)
			}
		}
		after, err := db.Catalog(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(before.Tables, after.Tables) || !slices.Equal(before.Views, after.Views) || !slices.Equal(before.Indexes, after.Indexes) {
			t.Errorf("the catalog changed:\n%+v\n%+v", before, after)
		}
		checkSeeds(t, db) // not seeded twice
	})
}

func TestInitConcurrentCallsCreateOnce(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		const n = 4
		results := make(chan store.InitResult, n)
		errs := make(chan error, n)
		for i := 0; i < n; i++ {
			go func() {
				res, err := db.Init(context.Background())
				results <- res
				errs <- err
			}()
		}
		created := 0
		for i := 0; i < n; i++ {
			if err := <-errs; err != nil {
				t.Error(err)
			}
			if (<-results).Created {
				created++
			}
		}
		if created != 1 {
			t.Errorf("%d of %d concurrent Init calls created the schema, want 1", created, n)
		}
		checkSeeds(t, db)
	})
}

func TestForeignKeysAreEnforced(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		if _, err := db.Init(context.Background()); err != nil {
			t.Fatal(err)
		}
		// NO ACTION foreign keys of TAUdb.
		if err := storetest.ExecErr(db, `INSERT INTO metric (trial, name) VALUES (12345, 'TIME')`); err == nil {
			t.Error("a metric of a missing trial was accepted")
		}
		if err := storetest.ExecErr(db, `INSERT INTO trial (name, data_source) VALUES ('t', 4242)`); err == nil {
			t.Error("a trial of a missing data_source was accepted")
		}
		// Our table: the foreign key, and ON DELETE CASCADE.
		if err := storetest.ExecErr(db, `INSERT INTO analysis_result_value (analysis_result, table_name, row_index, column_name, value_num)
			VALUES (12345, 'speedup', 0, 'p', 1)`); err == nil {
			t.Error("a value of a missing analysis_result was accepted")
		}
		storetest.Exec(t, db, `INSERT INTO analysis_settings (method, dimension_reduction, normalization) VALUES ('K Means', 'None', 'None')`)
		storetest.Exec(t, db, `INSERT INTO analysis_result (analysis_settings, description, result_type) VALUES (1, 'clusters', 3)`)
		storetest.Exec(t, db, `INSERT INTO analysis_result_value (analysis_result, table_name, row_index, column_name, value_num, value_text)
			VALUES (1, 'averages', 0, 'TIME', 2.5, NULL), (1, 'averages', 0, 'region', NULL, 'main')`)
		got := storetest.Query(t, db, `SELECT table_name, row_index, column_name, value_num, value_text FROM analysis_result_value ORDER BY id`)
		want := [][]string{{"averages", "0", "TIME", "2.5", "NULL"}, {"averages", "0", "region", "NULL", "main"}}
		if !slices.EqualFunc(got, want, slices.Equal[[]string]) {
			t.Errorf("analysis_result_value = %v, want %v", got, want)
		}
		storetest.Exec(t, db, `DELETE FROM analysis_result WHERE id = 1`)
		if got := storetest.Query(t, db, `SELECT count(*) FROM analysis_result_value`); got[0][0] != "0" {
			t.Errorf("%s values left after deleting their analysis_result", got[0][0])
		}
	})
}

// TestCompatibilityViews fills a one-thread trial in by hand and reads it
// back through the PerfDMF-era views.
func TestCompatibilityViews(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		if _, err := db.Init(context.Background()); err != nil {
			t.Fatal(err)
		}
		storetest.Exec(t, db, `INSERT INTO trial (name, data_source, node_count, contexts_per_node, threads_per_context, total_threads)
			VALUES ('t', 1, 1, 1, 1, 1)`)
		storetest.Exec(t, db, `INSERT INTO thread (trial, node_rank, context_rank, thread_rank, thread_index) VALUES (1, 0, 0, 0, 0), (1, -2, -2, -2, -2)`)
		storetest.Exec(t, db, `INSERT INTO metric (trial, name) VALUES (1, 'TIME')`)
		storetest.Exec(t, db, `INSERT INTO timer (trial, name, short_name, source_file, line_number, line_number_end, column_number, column_number_end)
			VALUES (1, 'main [{a.c} {1,1}-{9,1}]', 'main', 'a.c', 1, 9, 1, 1)`)
		storetest.Exec(t, db, `INSERT INTO timer_group (timer, group_name) VALUES (1, 'TAU_DEFAULT')`)
		storetest.Exec(t, db, `INSERT INTO timer_callpath (timer, parent) VALUES (1, NULL)`)
		storetest.Exec(t, db, `INSERT INTO timer_call_data (timer_callpath, thread, calls, subroutines) VALUES (1, 1, 4, 0), (1, 2, 4, 0)`)
		storetest.Exec(t, db, `INSERT INTO timer_value (timer_call_data, metric, inclusive_value, exclusive_value, inclusive_percent, exclusive_percent)
			VALUES (1, 1, 10, 6, 100, 60), (2, 1, 10, 6, 100, 60)`)
		storetest.Exec(t, db, `INSERT INTO counter (trial, name) VALUES (1, 'bytes')`)
		storetest.Exec(t, db, `INSERT INTO counter_value (counter, thread, sample_count, maximum_value, minimum_value, mean_value, standard_deviation)
			VALUES (1, 1, 2, 8, 2, 5, 68)`)

		check := func(q string, want [][]string) {
			t.Helper()
			if got := storetest.Query(t, db, q); !slices.EqualFunc(got, want, slices.Equal[[]string]) {
				t.Errorf("%s:\n got %v\nwant %v", q, got, want)
			}
		}
		check(`SELECT id, trial, name, group_name, source_file, line_number, line_number_end FROM interval_event`,
			[][]string{{"1", "1", "main [{a.c} {1,1}-{9,1}]", "TAU_DEFAULT", "a.c", "1", "9"}})
		check(`SELECT interval_event, node, thread, inclusive, exclusive, call, inclusive_per_call FROM interval_location_profile`,
			[][]string{{"1", "0", "0", "10", "6", "4", "2.5"}})
		check(`SELECT node, inclusive FROM interval_total_summary`, [][]string{{"-2", "10"}})
		check(`SELECT count(*) FROM interval_mean_summary`, [][]string{{"0"}})
		check(`SELECT id, trial, name, group_name FROM atomic_event`, [][]string{{"1", "1", "bytes", "NULL"}})
		check(`SELECT atomic_event, node, sample_count, mean_value, standard_deviation FROM atomic_location_profile`,
			[][]string{{"1", "0", "2", "5", "68"}})
		// The manual's atomic_mean_summary selects thread >= -1: real threads too.
		check(`SELECT count(*) FROM atomic_mean_summary`, [][]string{{"1"}})
	})
}

func TestSchemaSQL(t *testing.T) {
	for _, d := range storetest.Dialects() {
		taudb, ours, err := store.SchemaSQL(d)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"CREATE TABLE schema_version", "'All Trials'", "interval_event_value", "atomic_mean_summary"} {
			if !strings.Contains(taudb, want) {
				t.Errorf("%s schema lacks %q", d, want)
			}
		}
		if !strings.Contains(ours, "CREATE TABLE IF NOT EXISTS analysis_result_value") {
			t.Errorf("%s: our schema lacks analysis_result_value", d)
		}
		if strings.Contains(taudb, "analysis_result_value") {
			t.Errorf("%s: TAUdb schema file holds one of our tables", d)
		}
	}
	if _, _, err := store.SchemaSQL("mysql"); err == nil {
		t.Error("SchemaSQL(mysql) did not fail")
	}
	pg, _, _ := store.SchemaSQL(store.Postgres)
	lite, _, _ := store.SchemaSQL(store.SQLite)
	for _, s := range []string{"SERIAL", "BYTEA", "CREATE OR REPLACE VIEW"} {
		if !strings.Contains(pg, s) {
			t.Errorf("postgres schema lacks %q", s)
		}
		if strings.Contains(stripComments(lite), s) {
			t.Errorf("sqlite schema still has %q", s)
		}
	}
}

// stripComments drops the "--" comment lines at the top of a schema file.
func stripComments(s string) string {
	var b strings.Builder
	for _, l := range strings.Split(s, "\n") {
		if !strings.HasPrefix(l, "--") {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}
