package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/taudb-analyze/taudb-analyze/store"
)

// databaseURL returns the URL of the database to use: from --config NAME
// or --config-file FILE (TAU's perfdmf.cfg files), else --db, $TAUDB_URL or
// the embedded default (store.ResolveURL). --db and a TAU configuration
// together are a usage error.
func (a *app) databaseURL() (string, error) {
	if a.config != "" && a.configFile != "" {
		return "", usagef("give --config or --config-file, not both")
	}
	if (a.config != "" || a.configFile != "") && a.db != "" {
		return "", usagef("give --db or a TAU configuration (--config, --config-file), not both")
	}
	path := a.configFile
	if a.config != "" {
		p, err := store.ConfigPath(a.config)
		if err != nil {
			return "", err
		}
		path = p
	}
	if path != "" {
		cfg, err := store.ReadTAUConfig(path)
		if err != nil {
			return "", err
		}
		return cfg.URL()
	}
	return store.ResolveURL(a.db, os.Getenv)
}

// openDB opens the database the global flags name for writing. With
// ensureSchema (the commands that load trials), an SQLite database without
// schema gets one (store.Init), saying so, so that a fresh machine works
// without "db init"; any other database must hold TAUdb schema version 2
// (store.CheckSchema). Either way taudb-analyze's own tables are added to a
// TAUdb that lacks them (one TAU's tools made), saying so (see addOwnTables).
func (a *app) openDB(ctx context.Context, ensureSchema bool) (*store.DB, error) {
	u, err := a.databaseURL()
	if err != nil {
		return nil, err
	}
	db, err := a.openStore(ctx, u)
	if err != nil {
		return nil, err
	}
	a.detail("database %s (%s)", db.URL(), db.Dialect())
	if !ensureSchema {
		return db, nil
	}
	if _, err := db.CheckSchema(ctx); err != nil {
		if !errors.Is(err, store.ErrNoSchema) || db.Dialect() != store.SQLite {
			db.Close()
			return nil, err
		}
		res, err := db.Init(ctx)
		if err != nil {
			db.Close()
			return nil, err
		}
		a.info("%s: %s", db.URL(), res)
		return db, nil
	}
	if err := a.addOwnTables(ctx, db); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// openFor opens the database for a command that writes (write: it stores
// a result, a metric, a view or deletes) or only reads. A writing command
// needs the TAUdb schema (it never creates it: only "db init" and "load"
// do) and adds taudb-analyze's own tables when missing, saying so; a
// reading one opens the database read-only (store.OpenReadOnly: an SQLite
// file that does not exist is an error, nothing is ever written) and
// refuses a database without the TAUdb schema.
func (a *app) openFor(ctx context.Context, write bool) (*store.DB, error) {
	u, err := a.databaseURL()
	if err != nil {
		return nil, err
	}
	var db *store.DB
	if write {
		// Only "db init" and "load" create a database: a write command
		// never leaves an empty file behind a mistyped path.
		if d, p, perr := store.ParseURL(u); perr == nil && d == store.SQLite && p != ":memory:" {
			if _, serr := os.Stat(p); errors.Is(serr, os.ErrNotExist) {
				return nil, fmt.Errorf("open sqlite:%s: %w: nothing is stored there yet (\"taudb-analyze load\" or \"db init\" creates it)", p, store.ErrNoDatabase)
			}
		}
		db, err = a.openStore(ctx, u)
	} else {
		noteOpen(u)
		db, err = store.OpenReadOnly(ctx, u)
	}
	if err != nil {
		return nil, err
	}
	a.detail("database %s (%s, %s)", db.URL(), db.Dialect(), map[bool]string{true: "read-write", false: "read-only"}[write])
	if _, err := db.CheckSchema(ctx); err != nil {
		db.Close()
		if errors.Is(err, store.ErrNoSchema) {
			return nil, fmt.Errorf("%w; this command never adds it (\"taudb-analyze db init\" or a first \"load\" does)", err)
		}
		return nil, err
	}
	if write {
		if err := a.addOwnTables(ctx, db); err != nil {
			db.Close()
			return nil, err
		}
	}
	return db, nil
}

// openedHook, when set (by tests), is told of every database the command
// opens: a study opens its database once, whatever it runs.
var openedHook func(url string)

func noteOpen(url string) {
	if openedHook != nil {
		openedHook(url)
	}
}

// openStore opens the database at url for reading and writing.
func (a *app) openStore(ctx context.Context, url string) (*store.DB, error) {
	noteOpen(url)
	return store.Open(ctx, url)
}

// openRead opens the database read-only (openFor).
func (a *app) openRead(ctx context.Context) (*store.DB, error) { return a.openFor(ctx, false) }

// addOwnTables adds taudb-analyze's own tables to a TAUdb schema that lacks
// them (one made by TAU's own tools), in a transaction of their own, and
// says so: this happens once per database, before the first write. TAU's
// tools ignore the tables.
func (a *app) addOwnTables(ctx context.Context, db *store.DB) error {
	missing, err := db.MissingOwnTables(ctx)
	if err != nil || len(missing) == 0 {
		return err
	}
	res, err := db.Init(ctx)
	if err != nil {
		return err
	}
	if len(res.AddedTables) > 0 {
		a.info("%s: added taudb-analyze's own tables to this TAUdb (once; TAU's tools ignore them): %s", db.URL(), strings.Join(res.AddedTables, ", "))
	}
	return nil
}

// info prints a progress message on stderr, unless --quiet.
func (a *app) info(format string, args ...any) {
	if !a.quiet {
		fmt.Fprintln(a.errOut, escapeText(fmt.Sprintf(format, args...), "\n"))
	}
}

// detail prints what is being done, with timings, on stderr with
// --verbose only.
func (a *app) detail(format string, args ...any) {
	if a.verbose && !a.quiet {
		fmt.Fprintln(a.errOut, "· "+escapeText(fmt.Sprintf(format, args...), "\n"))
	}
}

// since is the time elapsed since start, rounded for a person.
func since(start time.Time) time.Duration {
	return time.Since(start).Round(time.Millisecond)
}

func (a *app) dbCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "db",
		Short: "Manage the TAUdb database",
		Example: `  taudb-analyze db init
  taudb-analyze --db postgres://me@dbhost/taudb db init`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return usagef("db needs a subcommand: init, check")
		},
	}
	cmd.AddCommand(a.dbInitCmd(), a.dbCheckCmd())
	return cmd
}

func (a *app) dbInitCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "init",
		Short: "Create the TAUdb schema if absent (idempotent)",
		Long: `init creates TAUdb's schema (version 2: every table, index, seeded row and
compatibility view of TAU's etc/taudb.sql) and taudb-analyze's own tables in
the database, in one transaction. On a database that already holds TAUdb
version 2 it only adds the taudb-analyze tables that are missing, and says
"found TAUdb schema version 2". It refuses a PerfDMF-era or other schema,
changing nothing.`,
		Example: `  taudb-analyze db init
  taudb-analyze --db postgres://me@dbhost/taudb db init
  taudb-analyze --config myteam db init`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			db, err := a.openDB(ctx, false)
			if err != nil {
				return err
			}
			defer db.Close()
			res, err := db.Init(ctx)
			if err != nil {
				return err
			}
			switch a.format {
			case "json":
				added := res.AddedTables
				if added == nil {
					added = []string{}
				}
				return writeJSON(a.out, map[string]any{
					"database": db.URL(), "dialect": res.Dialect.String(), "version": res.Version,
					"created": res.Created, "added_tables": added, "message": res.String(),
				})
			case "csv":
				tb := table{header: []string{"database", "dialect", "version", "created", "message"}}
				tb.add(db.URL(), res.Dialect.String(), fmt.Sprint(res.Version), fmt.Sprint(res.Created), res.String())
				return tb.writeCSV(a.out)
			}
			fmt.Fprintf(a.out, "%s: %s\n", db.URL(), res)
			return nil
		},
	}
}

func (a *app) dbCheckCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "check",
		Short: "Check the database for orphan rows and partial trials",
		Long: `check reads the whole database and reports what would make it inconsistent:
rows that point, through any foreign key of the schema (or TAUdb's
undeclared analysis_result.analysis_settings), at a row that does not exist;
trials without any thread (what an interrupted load would leave); and, for
the embedded database, anything SQLite's integrity_check finds. It changes
nothing. It exits 0 when the database is consistent and 1 otherwise.`,
		Example: `  taudb-analyze db check
  taudb-analyze --db postgres://me@dbhost/taudb --format json db check`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			db, err := a.openRead(ctx)
			if err != nil {
				return err
			}
			defer db.Close()
			in, err := db.CheckIntegrity(ctx)
			if err != nil {
				return err
			}
			problems := in.Problems()
			switch a.format {
			case "json":
				if problems == nil {
					problems = []string{}
				}
				if err := writeJSON(a.out, map[string]any{"database": db.URL(), "references": in.References,
					"ok": in.OK(), "problems": problems}); err != nil {
					return err
				}
			case "csv":
				tb := table{header: []string{"problem"}}
				for _, p := range problems {
					tb.add(p)
				}
				if err := tb.writeCSV(a.out); err != nil {
					return err
				}
			default:
				for _, p := range problems {
					fmt.Fprintln(a.out, p)
				}
				if in.OK() {
					fmt.Fprintf(a.out, "%s: consistent (%d references checked)\n", db.URL(), in.References)
				}
			}
			if !in.OK() {
				return fmt.Errorf("%s: %d integrity problems", db.URL(), len(problems))
			}
			return nil
		},
	}
}
