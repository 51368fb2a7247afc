package main

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"strconv"
)

// TargetPeakMB is the memory target for every end-to-end step:
// 4 GB (4,000 MB of 10^6 bytes).
const TargetPeakMB = 4000

// endToEnd measures row 6: the built CLI run step by step on a private
// PostgreSQL database (synth, load, stats, imbalance, report), each step's
// values/s (values = threads × (regions+1) × metrics, per second of the
// step's wall time) next to `cat` of the generated profile files in the
// same unit, and the peak RSS of all steps against TargetPeakMB.
func (b *bench) endToEnd(ctx context.Context) (err error) {
	s := b.mode.EndToEnd
	pg, err := createDatabase(ctx, b.pgAdmin)
	if err != nil {
		return err
	}
	defer func() {
		if e := pg.drop(context.WithoutCancel(ctx)); e != nil && err == nil {
			err = e
		}
	}()
	out := filepath.Join(b.tmp, "e2e")
	data := filepath.Join(out, "p"+strconv.Itoa(s.Threads))
	db := []string{"--db", pg.url, "-q"}
	steps := []struct {
		name string
		args []string
	}{
		{"synth", []string{"synth", "--out", out, "--processes", strconv.Itoa(s.Threads), "--regions", strconv.Itoa(s.Regions),
			"--metrics", strconv.Itoa(s.Metrics), "--depth", "1"}},
		{"db init", append(db, "db", "init")},
		{"load", append(db, "load", "-n", "e2e", data)},
		{"stats", append(db, "stats", "--trial", "e2e")},
		{"imbalance", append(db, "imbalance", "--trial", "e2e")},
		{"report", append(db, "report", "--out", filepath.Join(b.tmp, "e2e-report"), "--trial", "e2e", "--analyses", "imbalance")},
	}
	vals := float64(s.Threads * (s.Regions + 1) * s.Metrics)
	var catRate, peak float64
	var peakStep string
	for i, st := range steps {
		m, err := Run(ctx, false, b.cli, st.args...)
		if err != nil {
			return fmt.Errorf("%s: %w", st.name, err)
		}
		if m.PeakMB > peak {
			peak, peakStep = m.PeakMB, st.name
		}
		if i == 0 {
			var files []string
			err := filepath.WalkDir(data, func(p string, d fs.DirEntry, err error) error {
				if err == nil && d.Type().IsRegular() {
					files = append(files, p)
				}
				return err
			})
			if err != nil {
				return fmt.Errorf("list %s: %w", data, err)
			}
			sec, err := catSeconds(ctx, files)
			if err != nil {
				return err
			}
			catRate = vals / sec
		}
		if st.name == "db init" {
			continue
		}
		b.add(Row{Step: 6, Figure: "CLI " + st.name + ", " + s.String() + ", depth 1", Value: vals / m.Wall.Seconds(), Unit: "values/s",
			Ref: catRate, RefUnit: "values/s", RefWhat: "`cat` of the generated profile files",
			Notes: fmt.Sprintf("%.2f s, peak %s MB", m.Wall.Seconds(), Num(m.PeakMB))})
	}
	b.add(Row{Step: 6, Figure: "CLI peak RSS of all steps (" + peakStep + ")", Value: peak, Unit: "MB",
		Ref: TargetPeakMB, RefUnit: "MB", RefWhat: "the issue's target", Notes: "ratio ≤ 1 meets the target"})
	return nil
}
