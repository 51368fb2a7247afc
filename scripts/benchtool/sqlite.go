package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/taudb-analyze/taudb-analyze/store"
)

// sqlite measures row 3: SaveTrial into an embedded database file against
// the sqlite3 shell's .import --csv of the same rows into the same tables.
//
// The shell cannot import NULL (an empty CSV field becomes ”), so its
// script defers the foreign key checks to COMMIT and, inside the timed
// transaction, sets the nullable foreign key columns that came in as ”
// back to NULL. Its connection gets the pragmas the store sets (foreign
// keys on, 64 MiB page cache, temporary files in memory).
func (b *bench) sqlite(ctx context.Context) error {
	path := filepath.Join(b.tmp, "bench.db")
	tr, err := generate(b.mode.Ingest, 2, "ingest")
	if err != nil {
		return err
	}
	db, err := store.OpenSQLite(ctx, path)
	if err != nil {
		return fmt.Errorf("open %s: %w", path, err)
	}
	defer func() { db.Close() }()
	if _, err := db.Init(ctx); err != nil {
		return fmt.Errorf("create the schema: %w", err)
	}
	order, refs, err := exportOrder(ctx, db)
	if err != nil {
		return err
	}
	nullable, err := nullableForeignKeys(ctx, db, order, refs)
	if err != nil {
		return err
	}

	// Untimed: save, export with the shell, delete.
	id, err := db.SaveTrial(ctx, tr, store.SaveOptions{})
	if err != nil {
		return fmt.Errorf("save the trial: %w", err)
	}
	total, err := countRows(ctx, db, order)
	if err != nil {
		return err
	}
	dir := filepath.Join(b.tmp, "sqlitecsv")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("make the CSV folder: %w", err)
	}
	export, imp := sqliteScripts(dir, order, nullable)
	if err := db.Close(); err != nil {
		return fmt.Errorf("close %s: %w", path, err)
	}
	if err := sqliteShell(ctx, path, filepath.Join(dir, "export.sql"), export); err != nil {
		return fmt.Errorf("export the trial: %w", err)
	}
	if db, err = store.OpenSQLite(ctx, path); err != nil {
		return fmt.Errorf("reopen %s: %w", path, err)
	}
	if err := db.DeleteTrial(ctx, id); err != nil {
		return fmt.Errorf("delete the exported trial: %w", err)
	}

	// Timed: SaveTrial; then, deleted again, the shell's import.
	start := time.Now()
	id2, err := db.SaveTrial(ctx, tr, store.SaveOptions{})
	if err != nil {
		return fmt.Errorf("save the trial: %w", err)
	}
	save := time.Since(start).Seconds()
	if err := db.DeleteTrial(ctx, id2); err != nil {
		return fmt.Errorf("delete the saved trial: %w", err)
	}
	if err := db.Close(); err != nil {
		return fmt.Errorf("close %s: %w", path, err)
	}
	wall, err := importAndCount(ctx, path, filepath.Join(dir, "import.sql"), imp, order, total)
	if err != nil {
		return err
	}
	rows := float64(total)
	b.add(Row{Step: 3, Figure: "ingest into SQLite: SaveTrial, " + b.mode.Ingest.String() + ", depth 2", Value: rows / save, Unit: "rows/s",
		Ref: rows / wall, RefUnit: "rows/s", RefWhat: "`sqlite3` shell `.import --csv` of the same rows into the same tables, one transaction",
		Notes: fmt.Sprintf("%s rows in %d tables; save %.2f s, .import %.2f s (incl. '' → NULL in %d nullable FK columns)", Num(rows), len(order), save, wall, len(nullable))})
	return nil
}

// sqliteScripts returns the sqlite3 shell's scripts that export every table
// of order to dir/TABLE.csv and import them back in one transaction, with
// the store's pragmas and the nullable foreign key columns set back to NULL.
func sqliteScripts(dir string, order []string, nullable [][2]string) (export, imp string) {
	var ex, im strings.Builder
	ex.WriteString(".bail on\n.mode csv\n")
	im.WriteString(".bail on\nPRAGMA foreign_keys=ON;\nPRAGMA busy_timeout=5000;\nPRAGMA cache_size=-65536;\nPRAGMA temp_store=2;\nBEGIN IMMEDIATE;\nPRAGMA defer_foreign_keys=ON;\n")
	for _, t := range order {
		f := filepath.Join(dir, t+".csv")
		fmt.Fprintf(&ex, ".output '%s'\nSELECT * FROM %s;\n", f, t)
		fmt.Fprintf(&im, ".import --csv '%s' %s\n", f, t)
	}
	for _, c := range nullable {
		fmt.Fprintf(&im, "UPDATE %s SET %s = NULL WHERE %s = '';\n", c[0], c[1], c[1])
	}
	im.WriteString("COMMIT;\n")
	return ex.String(), im.String()
}

// importAndCount writes the import script to file, times the sqlite3 shell
// running it on the (closed) database at path, and checks that it put back
// all total rows of the tables of order. It returns the time in seconds.
func importAndCount(ctx context.Context, path, file, script string, order []string, total int64) (float64, error) {
	if err := os.WriteFile(file, []byte(script), 0o644); err != nil {
		return 0, fmt.Errorf("write the import script: %w", err)
	}
	m, err := Run(ctx, false, "sqlite3", "-init", os.DevNull, path, ".read '"+file+"'")
	if err != nil {
		return 0, fmt.Errorf("sqlite3 .import: %w", err)
	}
	db, err := store.OpenSQLite(ctx, path)
	if err != nil {
		return 0, fmt.Errorf("reopen %s: %w", path, err)
	}
	defer db.Close()
	got, err := countRows(ctx, db, order)
	if err != nil {
		return 0, err
	}
	if got != total {
		return 0, fmt.Errorf("sqlite3 .import put back %d rows of %d", got, total)
	}
	return m.Wall.Seconds(), nil
}

// sqliteShell runs script (written to file) with the sqlite3 shell on the
// database at path.
func sqliteShell(ctx context.Context, path, file, script string) error {
	if err := os.WriteFile(file, []byte(script), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", file, err)
	}
	_, err := Run(ctx, false, "sqlite3", "-init", os.DevNull, path, ".read '"+file+"'")
	return err
}

// nullableForeignKeys returns the (table, column) pairs of the tables that
// are a foreign key's column and may be NULL.
func nullableForeignKeys(ctx context.Context, db *store.DB, tables []string, refs []store.Reference) ([][2]string, error) {
	in := map[string]bool{}
	for _, t := range tables {
		in[t] = true
	}
	seen := map[[2]string]bool{}
	var out [][2]string
	for _, r := range refs {
		if !in[r.Table] || !r.Declared {
			continue
		}
		for _, c := range r.Columns {
			k := [2]string{r.Table, c}
			if seen[k] {
				continue
			}
			seen[k] = true
			var notNull int
			err := db.SQL().QueryRowContext(ctx, `SELECT "notnull" FROM pragma_table_info(?) WHERE name = ?`, r.Table, c).Scan(&notNull)
			if err != nil {
				return nil, fmt.Errorf("read whether %s.%s may be NULL: %w", r.Table, c, err)
			}
			if notNull == 0 {
				out = append(out, k)
			}
		}
	}
	return out, nil
}

// countRows returns the number of rows of tables.
func countRows(ctx context.Context, db *store.DB, tables []string) (int64, error) {
	var total int64
	for _, t := range tables {
		var n int64
		if err := db.SQL().QueryRowContext(ctx, "SELECT COUNT(*) FROM "+t).Scan(&n); err != nil {
			return 0, fmt.Errorf("count the rows of %s: %w", t, err)
		}
		total += n
	}
	return total, nil
}
