package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/taudb-analyze/taudb-analyze/drg"
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
	dir := filepath.Join(b.tmp, "pgcsv")
	conn, err := db.Pool().Acquire(ctx)
	if err != nil {
		return fmt.Errorf("acquire a connection: %w", err)
	}
	defer conn.Release()
	id, total, script, err := exportTrialCSV(ctx, db, conn.Conn().PgConn(), tr, order, dir)
	if err != nil {
		return err
	}
	save, copyWall, err := timeSaveAndCopy(ctx, db, pg.url, tr, script, dir)
	if err != nil {
		return err
	}
	rows := float64(total)
	b.add(Row{Step: 2, Figure: "ingest into PostgreSQL: SaveTrial, " + b.mode.Ingest.String() + ", depth 2", Value: rows / save, Unit: "rows/s",
		Ref: rows / copyWall, RefUnit: "rows/s", RefWhat: "psql `\\copy` of the same rows into the same tables, one transaction",
		Notes: fmt.Sprintf("%s rows in %d tables; save %.2f s, \\copy %.2f s", Num(rows), len(order), save, copyWall)})

	// The trial \copy put back is the one LoadTrial reads.
	return b.fetch(ctx, db, conn.Conn().PgConn(), id)
}

// exportTrialCSV saves tr (untimed), writes every table's rows of it to
// dir/TABLE.csv with COPY TO STDOUT, and deletes it again. It returns the
// trial's id (which psql's \copy brings back), the number of rows and the
// psql script that copies the files back in.
func exportTrialCSV(ctx context.Context, db *store.DB, pc *pgconn.PgConn, tr *drg.Trial, order []string, dir string) (id, total int64, script string, err error) {
	id, err = db.SaveTrial(ctx, tr, store.SaveOptions{})
	if err != nil {
		return 0, 0, "", fmt.Errorf("save the trial: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, 0, "", fmt.Errorf("make the CSV folder: %w", err)
	}
	var sb strings.Builder
	for _, t := range order {
		f, err := os.Create(filepath.Join(dir, t+".csv"))
		if err != nil {
			return 0, 0, "", fmt.Errorf("export %s: %w", t, err)
		}
		tag, err := pc.CopyTo(ctx, f, "COPY "+t+" TO STDOUT (FORMAT csv)")
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return 0, 0, "", fmt.Errorf("export %s: %w", t, err)
		}
		total += tag.RowsAffected()
		fmt.Fprintf(&sb, "\\copy %s FROM '%s' (FORMAT csv)\n", t, filepath.Join(dir, t+".csv"))
	}
	if err := db.DeleteTrial(ctx, id); err != nil {
		return 0, 0, "", fmt.Errorf("delete the exported trial: %w", err)
	}
	if err := checkEmpty(ctx, db, order); err != nil {
		return 0, 0, "", err
	}
	return id, total, sb.String(), nil
}

// timeSaveAndCopy times SaveTrial of tr, deletes that trial, and times psql
// running script (the \copy of the exported CSVs, one transaction) on the
// database at url. It returns both times in seconds.
func timeSaveAndCopy(ctx context.Context, db *store.DB, url string, tr *drg.Trial, script, dir string) (save, copyWall float64, err error) {
	start := time.Now()
	id, err := db.SaveTrial(ctx, tr, store.SaveOptions{})
	if err != nil {
		return 0, 0, fmt.Errorf("save the trial: %w", err)
	}
	save = time.Since(start).Seconds()
	if err := db.DeleteTrial(ctx, id); err != nil {
		return 0, 0, fmt.Errorf("delete the saved trial: %w", err)
	}
	sqlFile := filepath.Join(dir, "copy.sql")
	if err := os.WriteFile(sqlFile, []byte(script), 0o644); err != nil {
		return 0, 0, fmt.Errorf("write the psql script: %w", err)
	}
	m, err := Run(ctx, false, "psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "--single-transaction", "-d", url, "-f", sqlFile)
	if err != nil {
		return 0, 0, fmt.Errorf("psql \\copy: %w", err)
	}
	return save, m.Wall.Seconds(), nil
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
