package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
)

// Errors that Init and CheckSchema wrap, for callers that must tell the
// cases apart (errors.Is).
var (
	// ErrNoSchema means that the database holds no TAUdb schema yet: run Init
	// ("taudb-analyze db init").
	ErrNoSchema = errors.New("no TAUdb schema")
	// ErrPerfDMFSchema means that the database holds the PerfDMF-era schema
	// (before 2012), which taudb-analyze does not read or write.
	ErrPerfDMFSchema = errors.New("PerfDMF-era schema, not TAUdb")
	// ErrUnsupportedSchema means a schema that is neither TAUdb version 2 nor
	// absent: another TAUdb version, an incomplete TAUdb schema, or tables of
	// TAUdb's names without TAUdb's schema_version table.
	ErrUnsupportedSchema = errors.New("unsupported schema")
)

// initLockKey is the PostgreSQL advisory lock that serializes concurrent
// Init calls on one database (an arbitrary constant).
const initLockKey = 7_305_268_131_926_466_211

// InitResult reports what Init found or did.
type InitResult struct {
	// Dialect is the database system.
	Dialect Dialect
	// Version is the TAUdb schema version found or created (SchemaVersion).
	Version int
	// Created is true when this call created the TAUdb schema, false when it
	// was already there.
	Created bool
	// AddedTables are taudb-analyze's own tables that this call added to a
	// TAUdb schema that lacked them (one created by TAU's own tools, say).
	AddedTables []string
}

// String says what happened: "created TAUdb schema version 2" or "found
// TAUdb schema version 2" (followed by the tables added, if any).
func (r InitResult) String() string {
	if r.Created {
		return fmt.Sprintf("created TAUdb schema version %d", r.Version)
	}
	s := fmt.Sprintf("found TAUdb schema version %d", r.Version)
	if len(r.AddedTables) > 0 {
		s += "; added the taudb-analyze table(s) " + strings.Join(r.AddedTables, ", ")
	}
	return s
}

// Init creates the TAUdb schema (schema/postgres.sql or schema/sqlite.sql)
// and taudb-analyze's own tables if they are absent, in one transaction, and
// reports which schema version it found or created. It is idempotent: on a
// database that already holds TAUdb schema version 2 it only adds those of
// taudb-analyze's own tables that are missing, and otherwise changes nothing.
//
// Init refuses, changing nothing, a database that holds a PerfDMF-era schema
// (ErrPerfDMFSchema), another TAUdb schema version, an incomplete TAUdb
// schema, or tables named like TAUdb's without TAUdb's schema_version table
// (ErrUnsupportedSchema).
//
// On a fresh PostgreSQL database Init creates the partitioned layout of
// timer_call_data, timer_value and counter_value (schema/
// partition_postgres.sql, docs/partitions.md): the same columns, keys and
// indexes, range-partitioned by each trial's block of ids. It never
// converts an existing database.
func (db *DB) Init(ctx context.Context) (InitResult, error) {
	res := InitResult{Dialect: db.dialect, Version: SchemaVersion}
	taudbSQL, oursSQL, err := SchemaSQL(db.dialect)
	if err != nil {
		return res, err
	}
	err = db.inTx(ctx, func(r runner) error {
		if db.dialect == Postgres {
			if err := r.exec(ctx, fmt.Sprintf("SELECT pg_advisory_xact_lock(%d)", int64(initLockKey))); err != nil {
				return fmt.Errorf("lock the database for init: %w", err)
			}
		}
		cat, err := readCatalog(ctx, r, db.dialect)
		if err != nil {
			return err
		}
		version, err := db.classify(ctx, r, cat)
		switch {
		case errors.Is(err, ErrNoSchema):
			if db.dialect == Postgres && !db.plainInit {
				if taudbSQL, err = partitionedPostgresSchema(); err != nil {
					return err
				}
			}
			if err := r.exec(ctx, taudbSQL); err != nil {
				return fmt.Errorf("create the TAUdb schema: %w", err)
			}
			if err := r.exec(ctx, oursSQL); err != nil {
				return fmt.Errorf("create the taudb-analyze tables: %w", err)
			}
			res.Created = true
			return nil
		case err != nil:
			return err
		}
		res.Version = version
		for _, t := range ownTables {
			if !cat.HasTable(t) {
				res.AddedTables = append(res.AddedTables, t)
			}
		}
		if len(res.AddedTables) > 0 {
			if err := r.exec(ctx, oursSQL); err != nil {
				return fmt.Errorf("create the taudb-analyze tables: %w", err)
			}
		}
		return nil
	})
	if err != nil {
		return InitResult{Dialect: db.dialect}, fmt.Errorf("init %s: %w", db.display, err)
	}
	return res, nil
}

// CheckSchema verifies that the database holds TAUdb schema version 2 and
// returns that version. It fails with an error wrapping ErrNoSchema when the
// database is empty (run Init), ErrPerfDMFSchema or ErrUnsupportedSchema as
// Init would. It changes nothing.
func (db *DB) CheckSchema(ctx context.Context) (int, error) {
	r, err := db.runner()
	if err != nil {
		return 0, err
	}
	cat, err := readCatalog(ctx, r, db.dialect)
	if err != nil {
		return 0, fmt.Errorf("check the schema of %s: %w", db.display, err)
	}
	v, err := db.classify(ctx, r, cat)
	if err != nil {
		if errors.Is(err, ErrNoSchema) {
			return 0, fmt.Errorf("%s: %w: run \"taudb-analyze db init\" first", db.display, err)
		}
		return 0, fmt.Errorf("%s: %w", db.display, err)
	}
	return v, nil
}

// classify tells what schema the catalog shows. It returns SchemaVersion for
// a complete TAUdb schema version 2, an error wrapping ErrNoSchema when no
// TAUdb or PerfDMF relation is there, and otherwise an error wrapping
// ErrPerfDMFSchema or ErrUnsupportedSchema that says what was found and what
// to do.
func (db *DB) classify(ctx context.Context, r runner, cat Catalog) (int, error) {
	if !cat.HasTable("schema_version") {
		if found := perfDMFFound(cat); len(found) > 0 {
			return 0, fmt.Errorf("%w: the database holds the pre-2012 PerfDMF layout (%s), which taudb-analyze does not read or write; "+
				"it works with the TAUdb schema (version %d) only. Point --db at another database or schema (\"taudb-analyze db init\" creates TAUdb in an empty one) "+
				"and move the trials over: export them from ParaProf as packed profiles (.ppk) and load those with taudb-analyze load",
				ErrPerfDMFSchema, strings.Join(found, ", "), SchemaVersion)
		}
		var taken []string
		for _, n := range append(append([]string(nil), taudbTables...), taudbViews...) {
			if cat.HasTable(n) || cat.HasView(n) {
				taken = append(taken, n)
			}
		}
		if len(taken) > 0 {
			return 0, fmt.Errorf("%w: the database has relations named like TAUdb's (%s) but no schema_version table, so it is not a TAUdb schema; "+
				"taudb-analyze will not create TAUdb over them. Point --db at another database or schema",
				ErrUnsupportedSchema, strings.Join(taken, ", "))
		}
		return 0, ErrNoSchema
	}

	var version sql.NullInt64
	err := r.query(ctx, "SELECT MAX(version) FROM schema_version", func(scan func(...any) error) error {
		return scan(&version)
	})
	if err != nil {
		return 0, fmt.Errorf("read schema_version: %w", err)
	}
	switch {
	case !version.Valid:
		return 0, fmt.Errorf("%w: the schema_version table is empty, so the TAUdb schema version is unknown", ErrUnsupportedSchema)
	case version.Int64 == 0:
		return 0, fmt.Errorf("%w: schema_version says 0, the PerfDMF-era schema; taudb-analyze works with the TAUdb schema (version %d) only. "+
			"Point --db at another database or schema, and move the trials over as ParaProf packed profiles (.ppk)", ErrPerfDMFSchema, SchemaVersion)
	case version.Int64 < SchemaVersion:
		return 0, fmt.Errorf("%w: found TAUdb schema version %d; taudb-analyze needs version %d (TAU 2.22, November 2012, and later). "+
			"Upgrade the database with TAU's tools, or point --db at another database or schema", ErrUnsupportedSchema, version.Int64, SchemaVersion)
	case version.Int64 > SchemaVersion:
		return 0, fmt.Errorf("%w: found TAUdb schema version %d, newer than version %d that taudb-analyze knows", ErrUnsupportedSchema, version.Int64, SchemaVersion)
	}

	var missing []string
	for _, t := range taudbTables {
		if !cat.HasTable(t) {
			missing = append(missing, "table "+t)
		}
	}
	for _, v := range taudbViews {
		if !cat.HasView(v) {
			missing = append(missing, "view "+v)
		}
	}
	if len(missing) > 0 {
		return 0, fmt.Errorf("%w: the TAUdb schema version %d is incomplete: missing %s; taudb-analyze does not repair a schema it did not create. "+
			"Restore the missing relations from TAU's etc/taudb.sql, or point --db at another database or schema",
			ErrUnsupportedSchema, SchemaVersion, strings.Join(missing, ", "))
	}
	return SchemaVersion, nil
}

// perfDMFFound returns the PerfDMF-only tables that the catalog holds, if
// they show a PerfDMF-era database: the application table (what TAU's C API
// looks for), interval_event or atomic_event as tables rather than views, or
// experiment together with trial. A lone table named experiment, say, is not
// enough: TAUdb has no such table, so it is in nobody's way.
func perfDMFFound(cat Catalog) []string {
	var found []string
	for _, n := range perfDMFMarkers {
		if cat.HasTable(n) {
			found = append(found, "table "+n)
		}
	}
	if cat.HasTable("application") || cat.HasTable("interval_event") || cat.HasTable("atomic_event") ||
		(cat.HasTable("experiment") && cat.HasTable("trial")) {
		return found
	}
	return nil
}

// MissingOwnTables lists taudb-analyze's own tables (schema/ours_*.sql)
// that the database lacks: all of them in a TAUdb made by TAU's own tools.
// Reading never needs them; Init adds them.
func (db *DB) MissingOwnTables(ctx context.Context) ([]string, error) {
	cat, err := db.Catalog(ctx)
	if err != nil {
		return nil, fmt.Errorf("list the tables of %s: %w", db.display, err)
	}
	var out []string
	for _, t := range ownTables {
		if !cat.HasTable(t) {
			out = append(out, t)
		}
	}
	return out, nil
}
