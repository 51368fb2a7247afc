package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/taudb-analyze/taudb-analyze/analysis"
	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/result"
	"github.com/taudb-analyze/taudb-analyze/store"
)

// resultTrials is the number of trials of the speedup study whose result
// row 3b stores (the study: 8 trials).
const resultTrials = 8

// speedupStudy generates resultTrials trials of 2, 4, 8, ... threads ×
// regions regions (depth 1, one metric) and returns them with their speedup
// result.
func speedupStudy(regions int) ([]*drg.Trial, *result.Result, error) {
	var trials []*drg.Trial
	var exps []analysis.Experiment
	for i := range resultTrials {
		tr, err := generate(Size{2 << i, regions, 1}, 1, fmt.Sprintf("p%d", 2<<i))
		if err != nil {
			return nil, nil, err
		}
		trials = append(trials, tr)
		exps = append(exps, analysis.Experiment{Trial: tr, P: float64(len(tr.Threads))})
	}
	res, err := analysis.Speedup(exps, analysis.SpeedupOptions{})
	if err != nil {
		return nil, nil, fmt.Errorf("speedup of the generated series: %w", err)
	}
	return trials, res, nil
}

// sqliteResult measures row 3b: SaveResult of a speedup study's result
// into an embedded database against the sqlite3 shell's .import --csv of
// the same analysis_result_value rows (exported after the save, untimed)
// into the same table, with its index and foreign key, in one transaction.
// The shell cannot import NULL, so the export writes NULL as \N and the
// import script sets those back to NULL inside the timed transaction.
func (b *bench) sqliteResult(ctx context.Context) error {
	trials, res, err := speedupStudy(b.mode.ResultRegions)
	if err != nil {
		return err
	}
	path := filepath.Join(b.tmp, "result.db")
	db, err := store.OpenSQLite(ctx, path)
	if err != nil {
		return fmt.Errorf("open %s: %w", path, err)
	}
	defer func() { db.Close() }()
	if _, err := db.Init(ctx); err != nil {
		return fmt.Errorf("create the schema: %w", err)
	}
	var ids []int64
	for _, tr := range trials {
		id, err := db.SaveTrial(ctx, tr, store.SaveOptions{})
		if err != nil {
			return fmt.Errorf("save trial %s: %w", tr.Name, err)
		}
		ids = append(ids, id)
	}
	start := time.Now()
	if _, err := db.SaveResult(ctx, res, ids); err != nil {
		return fmt.Errorf("save the result: %w", err)
	}
	save := time.Since(start).Seconds()
	var cells int64
	if err := db.SQL().QueryRowContext(ctx, `SELECT COUNT(*) FROM analysis_result_value`).Scan(&cells); err != nil {
		return fmt.Errorf("count the cells: %w", err)
	}
	if err := db.Close(); err != nil {
		return fmt.Errorf("close %s: %w", path, err)
	}
	imp, err := b.importCells(ctx, path)
	if err != nil {
		return err
	}
	if db, err = store.OpenSQLite(ctx, path); err != nil {
		return fmt.Errorf("reopen %s: %w", path, err)
	}
	var back, nulls int64
	err = db.SQL().QueryRowContext(ctx, `SELECT COUNT(*), COUNT(*) - COUNT(value_num) - COUNT(value_text) FROM analysis_result_value`).Scan(&back, &nulls)
	if err != nil || back != cells {
		return fmt.Errorf("sqlite3 .import put back %d cells of %d (%v)", back, cells, err)
	}
	rows := float64(cells)
	b.add(Row{Step: 3, Figure: fmt.Sprintf("store a result into SQLite: SaveResult of speedup over %d generated trials × %d regions", resultTrials, b.mode.ResultRegions),
		Value: rows / save, Unit: "cells/s", Ref: rows / imp, RefUnit: "cells/s",
		RefWhat: "`sqlite3` shell `.import --csv` of the same analysis_result_value rows into the same table (index, foreign key), one transaction",
		Notes:   fmt.Sprintf("%s cells (%d NULL); SaveResult %.3f s (every table of the result), .import %.3f s", Num(rows), nulls, save, imp)})
	return nil
}

// importCells exports analysis_result_value of the database at path to CSV,
// empties the table, and returns the seconds the sqlite3 shell takes to
// import the CSV back (with \N turned back into NULL) in one transaction.
func (b *bench) importCells(ctx context.Context, path string) (float64, error) {
	dir := filepath.Join(b.tmp, "resultcsv")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, fmt.Errorf("make the CSV folder: %w", err)
	}
	csv := filepath.Join(dir, "cells.csv")
	export := fmt.Sprintf(".bail on\n.mode csv\n.nullvalue '\\N'\n.output '%s'\nSELECT * FROM analysis_result_value;\n.output stdout\nDELETE FROM analysis_result_value;\n", csv)
	if err := sqliteShell(ctx, path, filepath.Join(dir, "export.sql"), export); err != nil {
		return 0, fmt.Errorf("export the cells: %w", err)
	}
	imp := fmt.Sprintf(".bail on\nPRAGMA foreign_keys=ON;\nPRAGMA cache_size=-65536;\nPRAGMA temp_store=2;\nBEGIN IMMEDIATE;\n.import --csv '%s' analysis_result_value\n"+
		"UPDATE analysis_result_value SET value_num = NULL WHERE value_num = '\\N';\nUPDATE analysis_result_value SET value_text = NULL WHERE value_text = '\\N';\nCOMMIT;\n", csv)
	script := filepath.Join(dir, "import.sql")
	if err := os.WriteFile(script, []byte(imp), 0o644); err != nil {
		return 0, fmt.Errorf("write the import script: %w", err)
	}
	m, err := Run(ctx, false, "sqlite3", "-init", os.DevNull, path, ".read '"+script+"'")
	if err != nil {
		return 0, fmt.Errorf("sqlite3 .import: %w", err)
	}
	return m.Wall.Seconds(), nil
}
