package store

import (
	_ "embed"
	"fmt"
)

// SchemaVersion is the TAUdb schema version this package creates, reads and
// writes: the schema_version row of the TAUdb manual ("Changes after Nov. 9,
// 2012 release").
const SchemaVersion = 2

// The DDL, one file per dialect. postgres.sql is the TAUdb manual's schema
// verbatim; sqlite.sql adapts it where SQLite forces it, and says how at its
// top. ours_*.sql hold taudb-analyze's own tables.
var (
	//go:embed schema/postgres.sql
	postgresSchema string
	//go:embed schema/sqlite.sql
	sqliteSchema string
	//go:embed schema/ours_postgres.sql
	oursPostgresSchema string
	//go:embed schema/ours_sqlite.sql
	oursSQLiteSchema string
)

// SchemaSQL returns the DDL that Init runs for dialect d: taudb creates the
// TAUdb tables, indexes, seeded rows and compatibility views; ours creates
// taudb-analyze's own tables (all IF NOT EXISTS).
func SchemaSQL(d Dialect) (taudb, ours string, err error) {
	switch d {
	case Postgres:
		return postgresSchema, oursPostgresSchema, nil
	case SQLite:
		return sqliteSchema, oursSQLiteSchema, nil
	}
	return "", "", fmt.Errorf("schema for dialect %q: unknown dialect", d)
}

// taudbTables are the tables of the TAUdb schema (version 2), in the order
// the manual creates them.
var taudbTables = []string{
	"schema_version",
	"data_source",
	"derived_thread_type",
	"trial",
	"thread",
	"metric",
	"timer",
	"timer_group",
	"timer_parameter",
	"timer_callpath",
	"time_range",
	"timer_call_data",
	"timer_value",
	"counter",
	"counter_value",
	"primary_metadata",
	"secondary_metadata",
	"taudb_view",
	"taudb_view_parameter",
	"analysis_settings",
	"analysis_result",
}

// taudbViews are the compatibility views of the TAUdb schema, which give the
// PerfDMF-era names (interval_event, atomic_event, ...) to TAUdb's data.
var taudbViews = []string{
	"interval_event",
	"interval_event_value",
	"interval_location_profile",
	"interval_total_summary",
	"interval_mean_summary",
	"atomic_event",
	"atomic_event_value",
	"atomic_location_profile",
	"atomic_total_summary",
	"atomic_mean_summary",
}

// ownTables are taudb-analyze's own tables (schema/ours_*.sql).
var ownTables = []string{
	"analysis_result_value",
	"timer_callpath_name",
	"analysis_settings_parameter",
	"analysis_settings_trial",
	"analysis_result_column",
	"trial_call_data_range",
	pageTable,
	"timer_call_data_count",
	"counter_value_count",
	longNameTable,
	"watch_interval",
	"watch_anomaly",
}

// longNameTable holds the full text of names shortened for TAUdb
// (schema/ours_*.sql).
const longNameTable = "trial_long_name"

// perfDMFMarkers are tables that exist in a PerfDMF-era database (schema
// version 0, before 2012) and not in TAUdb: TAUdb removed the application /
// experiment hierarchy, and interval_event and atomic_event, tables in
// PerfDMF, are views in TAUdb. TAU's C API tells the two apart the same way,
// by looking for the application table.
var perfDMFMarkers = []string{
	"application",
	"experiment",
	"interval_event",
	"atomic_event",
}
