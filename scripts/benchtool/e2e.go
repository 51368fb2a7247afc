package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// TargetPeakMB is the memory target for every end-to-end step:
// 4 GB (4,000 MB of 10^6 bytes).
const TargetPeakMB = 4000

// e2eSmallFactor divides the threads of the end-to-end trial for the
// reference run: every step is measured at N/4 threads first, in the same
// run, so that each step's growth is known.
const e2eSmallFactor = 4

// clusterStep is the end-to-end step that clusters the trial's threads with
// k chosen automatically; its peak memory (the trial and its thread ×
// region matrices) is left out of the all-steps peak, whose target was set
// for the other steps, as is synth's (the generator of the input, not a
// step of a user's).
const clusterStep = "cluster (automatic k)"

// e2eStep is one command of the end-to-end run.
type e2eStep struct {
	name string
	args []string
}

// endToEnd measures row 6: the built CLI run step by step on a private
// PostgreSQL database (synth, load, stats, imbalance, regions, report), at
// the mode's size and at a quarter of its threads. Each step's figure is
// its rate in values/s (values = threads × (regions+1) × metrics, per
// second of wall time) at the full size, its reference the same step's rate
// at the quarter size; the ratio is the throughput kept when the trial grows
// 4×, and the notes give the growth exponent log(t2/t1)/log(4) (1 is
// linear). A last row holds the peak RSS of all steps against TargetPeakMB.
func (b *bench) endToEnd(ctx context.Context) error {
	big := b.mode.EndToEnd
	small := big
	factor := b.mode.E2EFactor
	if factor == 0 {
		factor = e2eSmallFactor
	}
	small.Threads = max(1, big.Threads/factor)
	smallRun, err := b.runEndToEnd(ctx, small, "e2e-small", false)
	if err != nil {
		return fmt.Errorf("end to end at %s: %w", small, err)
	}
	bigRun, err := b.runEndToEnd(ctx, big, "e2e", true)
	if err != nil {
		return fmt.Errorf("end to end at %s: %w", big, err)
	}
	nSmall := float64(small.Threads * (small.Regions + 1) * small.Metrics)
	nBig := float64(big.Threads * (big.Regions + 1) * big.Metrics)
	var peak float64
	var peakStep string
	for i, m := range bigRun {
		s := smallRun[i]
		if m.PeakMB > peak && m.step != clusterStep && m.step != "synth" {
			peak, peakStep = m.PeakMB, m.step
		}
		if m.step == "load" {
			b.add(Row{Step: 6, Figure: "CLI load peak RSS, " + big.String(), Value: m.PeakMB, Unit: "MB",
				Ref: TargetPeakMB, RefUnit: "MB", RefWhat: "the issue's target", Notes: "ratio ≤ 1 meets the target"})
		}
		if m.step == "db init" {
			continue
		}
		g := Growth(s.Wall.Seconds(), m.Wall.Seconds(), nSmall, nBig)
		b.add(Row{Step: 6, Figure: "CLI " + m.step + ", " + big.String() + ", depth 1", Value: nBig / m.Wall.Seconds(), Unit: "values/s",
			Ref: nSmall / s.Wall.Seconds(), RefUnit: "values/s", RefWhat: fmt.Sprintf("the same step at %d threads", small.Threads),
			Notes: fmt.Sprintf("%.2f s, peak %s MB (at %d threads: %.2f s, %s MB); %s", m.Wall.Seconds(), Num(m.PeakMB),
				small.Threads, s.Wall.Seconds(), Num(s.PeakMB), GrowthNote(g))})
	}
	b.add(Row{Step: 6, Figure: "CLI peak RSS of all steps but synth and cluster (" + peakStep + "), " + big.String(), Value: peak, Unit: "MB",
		Ref: TargetPeakMB, RefUnit: "MB", RefWhat: "the issue's target", Notes: "ratio ≤ 1 meets the target"})
	return nil
}

// stepRun is one step's measure.
type stepRun struct {
	step string
	Measured
}

// runEndToEnd runs the CLI steps on a trial of size s in a private
// database, which it drops at the end, and removes the generated files.
// With check, it also adds the row of clusterObjective before the drop.
func (b *bench) runEndToEnd(ctx context.Context, s Size, name string, check bool) (out []stepRun, err error) {
	pg, err := createDatabase(ctx, b.pgAdmin)
	if err != nil {
		return nil, err
	}
	defer func() {
		if e := pg.drop(context.WithoutCancel(ctx)); e != nil && err == nil {
			err = e
		}
	}()
	dir := filepath.Join(b.tmp, name)
	defer os.RemoveAll(dir)
	data := filepath.Join(dir, "p"+strconv.Itoa(s.Threads))
	db := []string{"--db", pg.url, "-q"}
	steps := []e2eStep{
		{"synth", []string{"synth", "--out", dir, "--processes", strconv.Itoa(s.Threads), "--regions", strconv.Itoa(s.Regions),
			"--metrics", strconv.Itoa(s.Metrics), "--depth", "1"}},
		{"db init", append(db, "db", "init")},
		{"load", append(db, "load", "-n", "e2e", data)},
		{"stats", append(db, "stats", "--trial", "e2e")},
		{"imbalance", append(db, "imbalance", "--trial", "e2e")},
		{"regions", append(db, "regions", "--trial", "e2e")},
		{"report", append(db, "report", "--out", filepath.Join(dir, "report"), "--trial", "e2e", "--analyses", "imbalance,summary")},
		{clusterStep, append(db, "--format", "json", "cluster", "--trial", "e2e", "--no-save")},
	}
	for _, st := range steps {
		m, err := Run(ctx, st.name == clusterStep, b.cli, st.args...)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", st.name, err)
		}
		out = append(out, stepRun{st.name, m})
		if st.name == "load" {
			os.RemoveAll(dir) // the files are in the database: free their disk for its indexes
		}
	}
	if check {
		row, err := clusterObjective(ctx, pg.url, "e2e", out[len(out)-1].Stdout, s.Threads)
		if err != nil {
			return nil, fmt.Errorf("cluster objective: %w", err)
		}
		b.add(row)
	}
	return out, nil
}
