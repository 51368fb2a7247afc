package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/taudb-analyze/taudb-analyze/store"
)

// postgres measures rows 2 and 4 in a private database that Init creates
// (the partitioned layout): SaveTrial against psql \copy of the same rows
// into unconstrained, unindexed copies of the tables, at the ingest size
// (followed by LoadTrial against COPY TO STDOUT of the rows it reads) and
// at the second ingest size.
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
	for i, s := range []Size{b.mode.Ingest, b.mode.Ingest2} {
		if s.Threads == 0 {
			continue
		}
		id, err := b.ingestPostgres(ctx, db, pg.url, s, 2-i) // the second: 301 nodes, as TAU's comparison
		if err != nil {
			return err
		}
		if i == 0 {
			if err := b.fetchPostgres(ctx, db, id); err != nil {
				return err
			}
		}
		if err := db.DeleteTrial(ctx, id); err != nil {
			return fmt.Errorf("delete the measured trial: %w", err)
		}
	}
	return nil
}

// fetchPostgres measures row 4 on trial id.
func (b *bench) fetchPostgres(ctx context.Context, db *store.DB, id int64) error {
	conn, err := db.Pool().Acquire(ctx)
	if err != nil {
		return fmt.Errorf("acquire a connection: %w", err)
	}
	defer conn.Release()
	return b.fetch(ctx, db, conn.Conn().PgConn(), id)
}

// ingestPostgres measures one row 2: SaveTrial of a generated trial of
// size s (callpath depth), then psql \copy of the same rows (exported as CSV after
// an untimed save) into copies of the tables made with CREATE TABLE (LIKE):
// the columns and NOT NULLs, no index, no key, no trigger; one transaction.
// It returns the id of the timed save's trial, left in the database.
func (b *bench) ingestPostgres(ctx context.Context, db *store.DB, url string, s Size, depth int) (int64, error) {
	tr, err := generate(s, depth, "ingest")
	if err != nil {
		return 0, err
	}
	layout, err := db.Layout(ctx)
	if err != nil {
		return 0, err
	}
	order, _, err := exportOrder(ctx, db)
	if err != nil {
		return 0, err
	}
	// Untimed: save, export every table's rows of the trial, delete.
	id, err := db.SaveTrial(ctx, tr, store.SaveOptions{})
	if err != nil {
		return 0, fmt.Errorf("save the trial: %w", err)
	}
	dir := filepath.Join(b.tmp, "pgcsv")
	total, script, err := exportCSV(ctx, db.Pool(), dir, order)
	if err != nil {
		return 0, err
	}
	if err := db.DeleteTrial(ctx, id); err != nil {
		return 0, fmt.Errorf("delete the exported trial: %w", err)
	}
	if err := checkEmpty(ctx, db, order); err != nil {
		return 0, err
	}

	// Timed: SaveTrial, then psql \copy of the CSVs into the copies.
	start := time.Now()
	id2, err := db.SaveTrial(ctx, tr, store.SaveOptions{})
	if err != nil {
		return 0, fmt.Errorf("save the trial: %w", err)
	}
	save := time.Since(start).Seconds()
	sqlFile := filepath.Join(dir, "copy.sql")
	if err := os.WriteFile(sqlFile, []byte(script), 0o644); err != nil {
		return 0, fmt.Errorf("write the psql script: %w", err)
	}
	m, err := Run(ctx, false, "psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "--single-transaction", "-d", url, "-f", sqlFile)
	if err != nil {
		return 0, fmt.Errorf("psql \\copy: %w", err)
	}
	if err := dropCopies(ctx, db.Pool(), order); err != nil {
		return 0, err
	}
	rows := float64(total)
	b.add(Row{Step: 2, Figure: fmt.Sprintf("ingest into PostgreSQL (%s layout): SaveTrial, %s, depth %d", layout, s, depth), Value: rows / save, Unit: "rows/s",
		Ref: rows / m.Wall.Seconds(), RefUnit: "rows/s", RefWhat: "psql `\\copy` of the same rows into unconstrained, unindexed copies of the tables (CREATE TABLE … (LIKE …)), one transaction",
		Notes: fmt.Sprintf("%s rows in %d tables (%d call-graph nodes); save %.2f s, \\copy %.2f s", Num(rows), len(order), len(tr.Nodes), save, m.Wall.Seconds())})
	return id2, nil
}

// copyName is the name of the unconstrained copy of table the reference
// loads into.
func copyName(table string) string { return "bench_copy_" + table }

// exportCSV writes every row of the tables of order into dir as CSV (one
// file per table) and returns their number and the psql script that
// creates the unconstrained copies of the tables and \copies the files
// into them.
func exportCSV(ctx context.Context, pool *pgxpool.Pool, dir string, order []string) (int64, string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, "", fmt.Errorf("make the CSV folder: %w", err)
	}
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return 0, "", fmt.Errorf("acquire a connection: %w", err)
	}
	defer conn.Release()
	var total int64
	var script strings.Builder
	for _, t := range order {
		file := filepath.Join(dir, t+".csv")
		f, err := os.Create(file)
		if err != nil {
			return 0, "", fmt.Errorf("export %s: %w", t, err)
		}
		tag, err := conn.Conn().PgConn().CopyTo(ctx, f, "COPY (SELECT * FROM "+t+") TO STDOUT (FORMAT csv)")
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return 0, "", fmt.Errorf("export %s: %w", t, err)
		}
		total += tag.RowsAffected()
		fmt.Fprintf(&script, "CREATE TABLE %s (LIKE %s);\n\\copy %s FROM '%s' (FORMAT csv)\n", copyName(t), t, copyName(t), file)
	}
	return total, script.String(), nil
}

// dropCopies drops the reference's copies of the tables.
func dropCopies(ctx context.Context, pool *pgxpool.Pool, order []string) error {
	for _, t := range order {
		if _, err := pool.Exec(ctx, "DROP TABLE IF EXISTS "+copyName(t)); err != nil {
			return fmt.Errorf("drop %s: %w", copyName(t), err)
		}
	}
	return nil
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
