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

// postgres measures rows 2 and 4 in a private database: SaveTrial against
// psql \copy of the same rows, then LoadTrial against COPY TO STDOUT of the
// rows it reads.
func (b *bench) postgres(ctx context.Context) (err error) {
	pg, err := createDatabase(ctx, b.pgAdmin)
	if err != nil {
		return err
	}
	defer func() {
		if e := pg.drop(context.WithoutCancel(ctx)); e != nil && err == nil {
			err = e
		}
	}()
	db, err := store.Open(ctx, pg.url)
	if err != nil {
		return fmt.Errorf("open the bench database: %w", err)
	}
	defer db.Close()
	if _, err := db.Init(ctx); err != nil {
		return fmt.Errorf("create the schema: %w", err)
	}
	tr, err := generate(b.mode.Ingest, 2, "ingest")
	if err != nil {
		return err
	}
	order, _, err := exportOrder(ctx, db)
	if err != nil {
		return err
	}

	// Untimed: save, export every table's rows of the trial, delete.
	id, err := db.SaveTrial(ctx, tr, store.SaveOptions{})
	if err != nil {
		return fmt.Errorf("save the trial: %w", err)
	}
	dir := filepath.Join(b.tmp, "pgcsv")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("make the CSV folder: %w", err)
	}
	conn, err := db.Pool().Acquire(ctx)
	if err != nil {
		return fmt.Errorf("acquire a connection: %w", err)
	}
	defer conn.Release()
	var total int64
	var script strings.Builder
	for _, t := range order {
		f, err := os.Create(filepath.Join(dir, t+".csv"))
		if err != nil {
			return fmt.Errorf("export %s: %w", t, err)
		}
		tag, err := conn.Conn().PgConn().CopyTo(ctx, f, "COPY "+t+" TO STDOUT (FORMAT csv)")
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("export %s: %w", t, err)
		}
		total += tag.RowsAffected()
		fmt.Fprintf(&script, "\\copy %s FROM '%s' (FORMAT csv)\n", t, filepath.Join(dir, t+".csv"))
	}
	if err := db.DeleteTrial(ctx, id); err != nil {
		return fmt.Errorf("delete the exported trial: %w", err)
	}
	if err := checkEmpty(ctx, db, order); err != nil {
		return err
	}

	// Timed: SaveTrial, then (after deleting it) psql \copy of the CSVs.
	start := time.Now()
	id2, err := db.SaveTrial(ctx, tr, store.SaveOptions{})
	if err != nil {
		return fmt.Errorf("save the trial: %w", err)
	}
	save := time.Since(start).Seconds()
	if err := db.DeleteTrial(ctx, id2); err != nil {
		return fmt.Errorf("delete the saved trial: %w", err)
	}
	sqlFile := filepath.Join(dir, "copy.sql")
	if err := os.WriteFile(sqlFile, []byte(script.String()), 0o644); err != nil {
		return fmt.Errorf("write the psql script: %w", err)
	}
	m, err := Run(ctx, false, "psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "--single-transaction", "-d", pg.url, "-f", sqlFile)
	if err != nil {
		return fmt.Errorf("psql \\copy: %w", err)
	}
	rows := float64(total)
	b.add(Row{Step: 2, Figure: "ingest into PostgreSQL: SaveTrial, " + b.mode.Ingest.String() + ", depth 2", Value: rows / save, Unit: "rows/s",
		Ref: rows / m.Wall.Seconds(), RefUnit: "rows/s", RefWhat: "psql `\\copy` of the same rows into the same tables, one transaction",
		Notes: fmt.Sprintf("%s rows in %d tables; save %.2f s, \\copy %.2f s", Num(rows), len(order), save, m.Wall.Seconds())})

	// The trial \copy put back is the one LoadTrial reads.
	return b.fetch(ctx, db, conn.Conn().PgConn(), id)
}

// checkEmpty fails when a table of tables holds rows: the benchmark's
// database must hold nothing but the trial it measures.
func checkEmpty(ctx context.Context, db *store.DB, tables []string) error {
	for _, t := range tables {
		var n int64
		if err := db.Pool().QueryRow(ctx, "SELECT COUNT(*) FROM "+t).Scan(&n); err != nil {
			return fmt.Errorf("count the rows of %s: %w", t, err)
		}
		if n != 0 {
			return fmt.Errorf("table %s holds %d rows after deleting the only trial", t, n)
		}
	}
	return nil
}
