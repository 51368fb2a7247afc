package store

import (
	"context"
	"fmt"
	"strings"
)

// Reference is one reference from the rows of a table to those of another:
// a foreign key of the schema, or one of the references TAUdb makes without
// a FOREIGN KEY clause (see implicitReferences).
type Reference struct {
	// Table and Columns are the referencing (child) side.
	Table   string
	Columns []string
	// Parent and ParentColumns are the referenced side.
	Parent        string
	ParentColumns []string
	// Declared is true for a FOREIGN KEY of the schema, false for a
	// reference TAUdb leaves undeclared.
	Declared bool
}

// String returns "table(columns) -> parent(columns)".
func (r Reference) String() string {
	return fmt.Sprintf("%s(%s) -> %s(%s)", r.Table, strings.Join(r.Columns, ", "), r.Parent, strings.Join(r.ParentColumns, ", "))
}

// Orphans is a reference with rows that point at no row of the parent.
type Orphans struct {
	Reference
	// Rows is the number of child rows whose (non-NULL) key matches no
	// parent row.
	Rows int64
}

// Integrity is what CheckIntegrity found.
type Integrity struct {
	// References is the number of references checked.
	References int
	// Orphans lists the references with orphan rows; empty when none.
	Orphans []Orphans
	// EmptyTrials are the ids of trials without any thread row: what a
	// partial load would leave (SaveTrial writes a trial and its threads in
	// one transaction).
	EmptyTrials []int64
	// OutOfRange are the ids of trials with timer_call_data rows outside
	// the range trial_call_data_range holds for them (rows another tool
	// added after the save), which LoadTrial and Stats would not read.
	OutOfRange []int64
	// PagesShort are the ids of trials whose rows of trial_value_page do
	// not cover their real threads exactly (LoadTrial would refuse them).
	PagesShort []int64
	// IncompleteResults are the ids of stored results some of whose trials
	// were deleted after the result was saved (by another tool).
	IncompleteResults []int64
	// SQLiteCheck is what SQLite's PRAGMA integrity_check said when it was
	// not "ok" (empty for PostgreSQL and for a sound SQLite file).
	SQLiteCheck []string
}

// OK reports whether nothing was found.
func (in Integrity) OK() bool {
	return len(in.Orphans) == 0 && len(in.EmptyTrials) == 0 && len(in.OutOfRange) == 0 && len(in.PagesShort) == 0 && len(in.IncompleteResults) == 0 && len(in.SQLiteCheck) == 0
}

// Problems lists what was found, one sentence each.
func (in Integrity) Problems() []string {
	var p []string
	for _, o := range in.Orphans {
		p = append(p, fmt.Sprintf("%d rows of %s point at no row of %s", o.Rows, o.Reference, o.Parent))
	}
	for _, id := range in.EmptyTrials {
		p = append(p, fmt.Sprintf("trial %d has no thread rows (a partial trial)", id))
	}
	for _, id := range in.OutOfRange {
		p = append(p, fmt.Sprintf("trial %d has timer_call_data rows outside its row of %s (delete that row: the range is then computed)", id, callRangeTable))
	}
	for _, id := range in.PagesShort {
		p = append(p, fmt.Sprintf("trial %d has rows of %s that do not cover its threads (delete them: the trial is then read from timer_value)", id, pageTable))
	}
	for _, id := range in.IncompleteResults {
		p = append(p, fmt.Sprintf("result %d lost some of its trials (deleted since it was saved): it is incomplete", id))
	}
	for _, s := range in.SQLiteCheck {
		p = append(p, "SQLite integrity_check: "+s)
	}
	return p
}

// implicitReferences are references that TAUdb's schema makes without a
// FOREIGN KEY clause; CheckIntegrity checks them as if declared.
var implicitReferences = []Reference{
	{Table: "analysis_result", Columns: []string{"analysis_settings"}, Parent: "analysis_settings", ParentColumns: []string{"id"}},
}

// postgresForeignKeysQuery lists the foreign keys of the tables of the
// current schema (the first of the search_path), one row per column pair,
// ordered so that the columns of one key are consecutive and in key order.
// A key declared on a partition (the partitioned layout's key from each
// timer_value partition to its timer_call_data partition) is listed under
// the partitioned tables' names, once per partition (ForeignKeys keeps
// one); the copies PostgreSQL makes of a parent's keys on its partitions
// (conparentid set) are not listed.
const postgresForeignKeysQuery = `
SELECT c.conname, COALESCE(cp.relname, cl.relname), a.attname, COALESCE(fp.relname, fcl.relname), fa.attname
FROM pg_catalog.pg_constraint c
JOIN pg_catalog.pg_class cl ON cl.oid = c.conrelid
JOIN pg_catalog.pg_namespace n ON n.oid = cl.relnamespace
JOIN pg_catalog.pg_class fcl ON fcl.oid = c.confrelid
LEFT JOIN pg_catalog.pg_inherits ci ON ci.inhrelid = cl.oid AND cl.relispartition
LEFT JOIN pg_catalog.pg_class cp ON cp.oid = ci.inhparent
LEFT JOIN pg_catalog.pg_inherits fi ON fi.inhrelid = fcl.oid AND fcl.relispartition
LEFT JOIN pg_catalog.pg_class fp ON fp.oid = fi.inhparent
CROSS JOIN LATERAL unnest(c.conkey, c.confkey) WITH ORDINALITY AS k(attnum, fattnum, ord)
JOIN pg_catalog.pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum
JOIN pg_catalog.pg_attribute fa ON fa.attrelid = c.confrelid AND fa.attnum = k.fattnum
WHERE c.contype = 'f' AND n.nspname = current_schema() AND c.conparentid = 0
ORDER BY 2, c.conname, k.ord`

// sqliteForeignKeysQuery lists the foreign keys of the tables of the main
// database, one row per column pair; a key naming no parent column refers
// to the parent's primary key (sqliteParentKeyQuery).
const sqliteForeignKeysQuery = `
SELECT m.name, f.id, f."table", f."from", COALESCE(f."to", '')
FROM sqlite_master m, pragma_foreign_key_list(m.name) f
WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite\_%' ESCAPE '\'
ORDER BY m.name, f.id, f.seq`

// sqliteParentKeyQuery lists the primary key columns of table $1 in order.
const sqliteParentKeyQuery = `SELECT name FROM pragma_table_info($1) WHERE pk > 0 ORDER BY pk`

// ForeignKeys lists the foreign keys of the database's schema (the current
// schema of PostgreSQL, the main database of SQLite), by child table.
func (db *DB) ForeignKeys(ctx context.Context) ([]Reference, error) {
	r, err := db.runner()
	if err != nil {
		return nil, err
	}
	var refs []Reference
	var last string
	add := func(key, table, col, parent, pcol string) {
		if key != last || len(refs) == 0 {
			refs = append(refs, Reference{Table: table, Parent: parent, Declared: true})
			last = key
		}
		ref := &refs[len(refs)-1]
		ref.Columns = append(ref.Columns, col)
		ref.ParentColumns = append(ref.ParentColumns, pcol)
	}
	if db.dialect == Postgres {
		err = r.query(ctx, postgresForeignKeysQuery, func(scan func(...any) error) error {
			var con, table, col, parent, pcol string
			if err := scan(&con, &table, &col, &parent, &pcol); err != nil {
				return err
			}
			add(table+"\x00"+con, table, col, parent, pcol)
			return nil
		})
	} else {
		err = r.query(ctx, sqliteForeignKeysQuery, func(scan func(...any) error) error {
			var table, parent, col, pcol string
			var id int64
			if err := scan(&table, &id, &parent, &col, &pcol); err != nil {
				return err
			}
			add(fmt.Sprintf("%s\x00%d", table, id), table, col, parent, pcol)
			return nil
		})
		for i := range refs {
			if err != nil {
				break
			}
			ref := &refs[i]
			if !slicesAllEmpty(ref.ParentColumns) {
				continue
			}
			var pk []string
			err = r.query(ctx, sqliteParentKeyQuery, func(scan func(...any) error) error {
				var name string
				if err := scan(&name); err != nil {
					return err
				}
				pk = append(pk, name)
				return nil
			}, ref.Parent)
			if err == nil && len(pk) != len(ref.Columns) {
				err = fmt.Errorf("foreign key %s: the parent's primary key has %d columns", ref, len(pk))
			}
			ref.ParentColumns = pk
		}
	}
	if err != nil {
		return nil, fmt.Errorf("list the foreign keys of %s: %w", db.display, err)
	}
	return uniqueRefs(refs), nil
}

// uniqueRefs drops the references equal to an earlier one (the same key
// declared on every partition), keeping the order.
func uniqueRefs(refs []Reference) []Reference {
	seen := map[string]bool{}
	out := refs[:0]
	for _, r := range refs {
		if k := r.String(); !seen[k] {
			seen[k] = true
			out = append(out, r)
		}
	}
	return out
}

func slicesAllEmpty(s []string) bool {
	for _, x := range s {
		if x != "" {
			return false
		}
	}
	return true
}

// quoteIdent quotes a table or column name for SQL (both dialects):
// double quotes around it, a double quote inside doubled.
func quoteIdent(s string) string {
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

// orphanCountSQL builds the query that counts the rows of ref.Table whose
// key is set (no column NULL) and matches no row of ref.Parent. The names
// come from the schema's catalog or implicitReferences, never from input,
// and are quoted.
func orphanCountSQL(ref Reference) string {
	var set, match []string
	for i, c := range ref.Columns {
		set = append(set, "c."+quoteIdent(c)+" IS NOT NULL")
		match = append(match, "p."+quoteIdent(ref.ParentColumns[i])+" = c."+quoteIdent(c))
	}
	return "SELECT COUNT(*) FROM " + quoteIdent(ref.Table) + " c WHERE " + strings.Join(set, " AND ") +
		" AND NOT EXISTS (SELECT 1 FROM " + quoteIdent(ref.Parent) + " p WHERE " + strings.Join(match, " AND ") + ")"
}

// emptyTrialsQuery finds the trials without any thread row.
const emptyTrialsQuery = `SELECT t.id FROM trial t WHERE NOT EXISTS (SELECT 1 FROM thread h WHERE h.trial = t.id) ORDER BY t.id`

// outOfRangeQuery finds the trials whose stored timer_call_data range
// misses some of their rows.
const outOfRangeQuery = `SELECT r.trial FROM trial_call_data_range r WHERE EXISTS (
  SELECT 1 FROM timer_call_data tcd JOIN thread th ON th.id = tcd.thread
  WHERE th.trial = r.trial AND (tcd.id < r.first_id OR tcd.id > r.last_id)) ORDER BY r.trial`

// pagesShortQuery finds the trials whose pages' blocks do not cover their
// real threads exactly.
const pagesShortQuery = `SELECT p.trial FROM (
  SELECT b.trial, SUM(b.threads) AS covered FROM (SELECT DISTINCT trial, first_thread, threads FROM trial_value_page) b GROUP BY b.trial) p
WHERE p.covered <> (SELECT COUNT(*) FROM thread th WHERE th.trial = p.trial AND th.node_rank >= 0) ORDER BY p.trial`

// checkTrialTables runs the checks of taudb-analyze's per-trial tables
// the database has: trial_call_data_range (outOfRangeQuery) and
// trial_value_page (pagesShortQuery).
func checkTrialTables(ctx context.Context, r runner, d Dialect, in *Integrity) error {
	for _, c := range []struct {
		table, query string
		ids          *[]int64
	}{{callRangeTable, outOfRangeQuery, &in.OutOfRange}, {pageTable, pagesShortQuery, &in.PagesShort}} {
		have, err := hasTable(ctx, r, d, c.table)
		if err != nil || !have {
			if err != nil {
				return err
			}
			continue
		}
		err = r.query(ctx, c.query, func(scan func(...any) error) error {
			var id int64
			if err := scan(&id); err != nil {
				return err
			}
			*c.ids = append(*c.ids, id)
			return nil
		})
		if err != nil {
			return fmt.Errorf("check the trials' %s: %w", c.table, err)
		}
	}
	return nil
}

// CheckIntegrity checks that the database is consistent: for every foreign
// key of the schema, and for the references TAUdb leaves undeclared
// (analysis_result.analysis_settings), that no row points at a missing
// parent; that no trial lacks thread rows (what a partial load would
// leave); that each stored timer_call_data range holds all of its trial's
// rows; that each trial's pages cover its threads; and for SQLite that PRAGMA integrity_check says "ok". It reads
// only. The schema must be TAUdb's (see CheckSchema).
func (db *DB) CheckIntegrity(ctx context.Context) (Integrity, error) {
	var in Integrity
	refs, err := db.ForeignKeys(ctx)
	if err != nil {
		return in, err
	}
	if len(refs) == 0 {
		return in, fmt.Errorf("check the integrity of %s: the schema has no foreign keys; is it a TAUdb database?", db.display)
	}
	refs = append(refs, implicitReferences...)
	r, err := db.runner()
	if err != nil {
		return in, err
	}
	for _, ref := range refs {
		var n int64
		err := r.query(ctx, orphanCountSQL(ref), func(scan func(...any) error) error { return scan(&n) })
		if err != nil {
			return in, fmt.Errorf("check %s for orphan rows: %w", ref, err)
		}
		in.References++
		if n > 0 {
			in.Orphans = append(in.Orphans, Orphans{Reference: ref, Rows: n})
		}
	}
	err = r.query(ctx, emptyTrialsQuery, func(scan func(...any) error) error {
		var id int64
		if err := scan(&id); err != nil {
			return err
		}
		in.EmptyTrials = append(in.EmptyTrials, id)
		return nil
	})
	if err != nil {
		return in, fmt.Errorf("check for trials without threads: %w", err)
	}
	if err := checkTrialTables(ctx, r, db.dialect, &in); err != nil {
		return in, err
	}
	if in.IncompleteResults, err = incompleteResults(ctx, r, db.dialect); err != nil {
		return in, err
	}
	if db.dialect == SQLite {
		err = r.query(ctx, `PRAGMA integrity_check`, func(scan func(...any) error) error {
			var s string
			if err := scan(&s); err != nil {
				return err
			}
			if s != "ok" {
				in.SQLiteCheck = append(in.SQLiteCheck, s)
			}
			return nil
		})
		if err != nil {
			return in, fmt.Errorf("SQLite integrity_check of %s: %w", db.display, err)
		}
	}
	return in, nil
}
