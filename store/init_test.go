package store_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/store"
	"github.com/taudb-analyze/taudb-analyze/store/storetest"
)

// perfDMFSchema is an excerpt of the PerfDMF-era schema (TAU's
// etc/dbschema.txt, before 2012): the application / experiment / trial
// hierarchy, and interval_event as a table.
const perfDMFSchema = `
CREATE TABLE application (id INTEGER NOT NULL PRIMARY KEY, name TEXT);
CREATE TABLE experiment (id INTEGER NOT NULL PRIMARY KEY, application INTEGER NOT NULL REFERENCES application(id), name TEXT);
CREATE TABLE trial (id INTEGER NOT NULL PRIMARY KEY, experiment INTEGER NOT NULL REFERENCES experiment(id), name TEXT,
  node_count INT, contexts_per_node INT, threads_per_context INT);
CREATE TABLE metric (id INTEGER NOT NULL PRIMARY KEY, trial INTEGER NOT NULL REFERENCES trial(id), name TEXT NOT NULL);
CREATE TABLE interval_event (id INTEGER NOT NULL PRIMARY KEY, trial INTEGER NOT NULL REFERENCES trial(id), name TEXT NOT NULL,
  group_name TEXT, source_file TEXT, line_number INT, line_number_end INT);
INSERT INTO application (id, name) VALUES (1, 'app');
`

// initFails runs Init, expects it to fail with an error wrapping want and
// saying each of says, and checks that nothing was created.
func initFails(t *testing.T, db *store.DB, want error, says ...string) {
	t.Helper()
	ctx := context.Background()
	before, err := db.Catalog(ctx)
	if err != nil {
		t.Fatal(err)
	}
	res, err := db.Init(ctx)
	if err == nil {
		t.Fatalf("Init succeeded (%v), want an error", res)
	}
	if !errors.Is(err, want) {
		t.Errorf("Init error %q does not wrap %q", err, want)
	}
	for _, s := range says {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("Init error %q does not say %q", err, s)
		}
	}
	after, err := db.Catalog(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(before.Tables, after.Tables) || !slices.Equal(before.Views, after.Views) {
		t.Errorf("a refused Init changed the database:\n%+v\n%+v", before, after)
	}
	if _, err := db.CheckSchema(ctx); !errors.Is(err, want) {
		t.Errorf("CheckSchema error %v does not wrap %q", err, want)
	}
}

func TestInitRefusesPerfDMFSchema(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		storetest.Exec(t, db, perfDMFSchema)
		initFails(t, db, store.ErrPerfDMFSchema, "PerfDMF", "table application", "table interval_event", "TAUdb schema (version 2)", "--db")
	})
}

func TestInitRefusesPerfDMFWithoutApplicationTable(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		storetest.Exec(t, db, `CREATE TABLE interval_event (id INTEGER PRIMARY KEY, trial INTEGER, name TEXT)`)
		initFails(t, db, store.ErrPerfDMFSchema, "table interval_event")
	})
}

func TestInitRefusesTAUdbNamesWithoutSchemaVersion(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		storetest.Exec(t, db, `CREATE TABLE trial (id INTEGER PRIMARY KEY, name TEXT); CREATE TABLE thread (id INTEGER PRIMARY KEY)`)
		initFails(t, db, store.ErrUnsupportedSchema, "trial, thread", "no schema_version")
	})
}

func TestInitRefusesOtherSchemaVersions(t *testing.T) {
	for _, c := range []struct {
		version string
		want    error
		says    string
	}{
		{"0", store.ErrPerfDMFSchema, "PerfDMF"},
		{"1", store.ErrUnsupportedSchema, "found TAUdb schema version 1; taudb-analyze needs version 2"},
		{"3", store.ErrUnsupportedSchema, "version 3, newer"},
	} {
		t.Run("version"+c.version, func(t *testing.T) {
			storetest.Run(t, func(t *testing.T, db *store.DB) {
				storetest.Exec(t, db, `CREATE TABLE schema_version (version INT NOT NULL, description VARCHAR NOT NULL);
					INSERT INTO schema_version VALUES (`+c.version+`, 'x')`)
				initFails(t, db, c.want, c.says)
			})
		})
	}
}

func TestInitRefusesIncompleteSchema(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		if _, err := db.Init(context.Background()); err != nil {
			t.Fatal(err)
		}
		storetest.Exec(t, db, `DROP VIEW atomic_mean_summary; DROP TABLE timer_parameter`)
		initFails(t, db, store.ErrUnsupportedSchema, "incomplete", "table timer_parameter", "view atomic_mean_summary")
	})
}

// TestInitAddsOwnTablesToATAUdbSchema plays a TAUdb database made by TAU's
// own tools, which lacks taudb-analyze's tables.
func TestInitAddsOwnTablesToATAUdbSchema(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		taudb, _, err := store.SchemaSQL(db.Dialect())
		if err != nil {
			t.Fatal(err)
		}
		storetest.Exec(t, db, taudb)
		res, err := db.Init(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if res.Created || !slices.Equal(res.AddedTables, []string{"analysis_result_value", "timer_callpath_name", "analysis_settings_parameter", "analysis_settings_trial", "analysis_result_column", "trial_call_data_range", "trial_value_page", "timer_call_data_count", "counter_value_count", "trial_long_name", "watch_interval", "watch_anomaly"}) {
			t.Errorf("Init = %+v, want found and our tables added", res)
		}
		if got, want := res.String(), "found TAUdb schema version 2; added the taudb-analyze table(s) analysis_result_value, timer_callpath_name, analysis_settings_parameter, analysis_settings_trial, analysis_result_column, trial_call_data_range, trial_value_page, timer_call_data_count, counter_value_count, trial_long_name, watch_interval, watch_anomaly"; got != want {
			t.Errorf("Init says %q, want %q", got, want)
		}
		cat, err := db.Catalog(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !cat.HasTable("analysis_result_value") || !slices.Contains(cat.Indexes, "analysis_result_value_index") {
			t.Errorf("analysis_result_value or its index missing: %+v", cat)
		}
		checkSeeds(t, db)
	})
}

func TestInitLeavesOtherTablesAlone(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		storetest.Exec(t, db, `CREATE TABLE experiment (id INTEGER PRIMARY KEY); CREATE TABLE notes (id INTEGER PRIMARY KEY)`)
		res, err := db.Init(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if !res.Created {
			t.Errorf("Init = %+v, want created", res)
		}
		checkSeeds(t, db)
	})
}

func TestCheckSchemaOnEmptyDatabase(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		_, err := db.CheckSchema(context.Background())
		if !errors.Is(err, store.ErrNoSchema) || !strings.Contains(err.Error(), "db init") {
			t.Errorf("CheckSchema on an empty database: %v, want ErrNoSchema and a hint to run db init", err)
		}
	})
}

func TestClosedDatabase(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		if err := db.Close(); err != nil {
			t.Errorf("second Close: %v", err)
		}
		if _, err := db.Init(context.Background()); err == nil || !strings.Contains(err.Error(), "closed") {
			t.Errorf("Init on a closed database: %v", err)
		}
		if _, err := db.Catalog(context.Background()); err == nil {
			t.Error("Catalog on a closed database did not fail")
		}
	})
}

// TestInitIsOneTransaction makes the schema script fail half-way (an index
// name of the script is taken) and checks that nothing of it remains.
func TestInitIsOneTransaction(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		storetest.Exec(t, db, `CREATE TABLE other (x INTEGER); CREATE INDEX thread_trial ON other (x)`)
		_, err := db.Init(ctx)
		if err == nil || !strings.Contains(err.Error(), "create the TAUdb schema") {
			t.Fatalf("Init = %v, want a failure creating the schema", err)
		}
		cat, err := db.Catalog(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(cat.Tables, []string{"other"}) || len(cat.Views) != 0 || !slices.Equal(cat.Indexes, []string{"thread_trial"}) {
			t.Errorf("a failed Init left %+v behind", cat)
		}
	})
}
