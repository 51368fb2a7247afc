package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/taudb-analyze/taudb-analyze/drg/caliper"
	"github.com/taudb-analyze/taudb-analyze/drg/cube"
	"github.com/taudb-analyze/taudb-analyze/drg/hpctoolkit"
	"github.com/taudb-analyze/taudb-analyze/drg/profile"
	"github.com/taudb-analyze/taudb-analyze/synth/otherfmt"
)

// Foreign is the size of the generated inputs of the readers of other
// profilers' formats (row 1): a calling context tree of Nodes nodes
// (10-ary) on Threads threads (CUBE locations); the HPCToolkit database has
// Threads/2 threads (its metric-db files hold twice the rows: call sites)
// and the .cali file Threads/8 ranks (its text takes about 8 times the
// bytes of a binary value per value), so that the inputs are of one size.
type Foreign struct{ Nodes, Threads int }

// foreignRuns is how many times each reader and the TAU profile reader are
// timed, alternately: the rows report the sums.
const foreignRuns = 3

// foreignReader is one reader of another format with its generated input.
type foreignReader struct {
	what string
	// shape names the generated input's size.
	shape func(s Foreign) string
	write func(dir string, s Foreign) (int64, error)
	read  func(dir string) error
}

// cubeShape names the size of a generated .cubex.
func cubeShape(s Foreign) string {
	return fmt.Sprintf("%d call-tree nodes × %d locations", s.Nodes, s.Threads)
}

// foreignReaders are the readers measured, with their inputs.
var foreignReaders = []foreignReader{
	{"Caliper .cali", func(s Foreign) string {
		return fmt.Sprintf("%d ranks × %d nested regions", max(1, s.Threads/8), s.Nodes)
	}, func(dir string, s Foreign) (int64, error) {
		return otherfmt.WriteCali(filepath.Join(dir, "gen.cali"), max(1, s.Threads/8), s.Nodes)
	}, func(dir string) error {
		_, err := caliper.Reader{Path: filepath.Join(dir, "gen.cali")}.Read()
		return err
	}},
	{"Score-P .cubex (plain)", cubeShape, func(dir string, s Foreign) (int64, error) {
		return otherfmt.WriteCubex(filepath.Join(dir, "gen.cubex"), s.Nodes, s.Threads, false)
	}, func(dir string) error {
		_, err := cube.Reader{Path: filepath.Join(dir, "gen.cubex")}.Read()
		return err
	}},
	{"Score-P .cubex (zlib: compressed bytes counted)", cubeShape, func(dir string, s Foreign) (int64, error) {
		return otherfmt.WriteCubex(filepath.Join(dir, "gen.cubex"), s.Nodes, s.Threads, true)
	}, func(dir string) error {
		_, err := cube.Reader{Path: filepath.Join(dir, "gen.cubex")}.Read()
		return err
	}},
	{"Score-P .cubex (zlib), inflating its data members only, no parsing: the bound of the row above", cubeShape, func(dir string, s Foreign) (int64, error) {
		return otherfmt.WriteCubex(filepath.Join(dir, "gen.cubex"), s.Nodes, s.Threads, true)
	}, func(dir string) error { return otherfmt.InflateCubex(filepath.Join(dir, "gen.cubex")) }},
	{"HPCToolkit experiment.xml + metric-db", func(s Foreign) string {
		return fmt.Sprintf("%d procedure frames × %d threads", s.Nodes, max(1, s.Threads/2))
	}, func(dir string, s Foreign) (int64, error) {
		return otherfmt.WriteHPCToolkit(dir, s.Nodes, max(1, s.Threads/2))
	}, func(dir string) error { _, err := hpctoolkit.Reader{Path: dir}.Read(); return err }},
}

// parseForeign adds a row per reader of another format: its MB/s per byte
// of its generated input as stored, against the TAU profile reader's MB/s
// on the profile folder tauDir (tauSize bytes) timed alternately with it
// in the same run (after a garbage collection before each read).
func (b *bench) parseForeign(ctx context.Context, tauDir string, tauSize int64) error {
	readTAU := func() error { _, err := profile.Reader{Path: tauDir}.Read(); return err }
	s := b.mode.Foreign
	for i, r := range foreignReaders {
		if err := ctx.Err(); err != nil {
			return err
		}
		dir := filepath.Join(b.tmp, fmt.Sprintf("foreign-%d", i))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("parse %s: %w", r.what, err)
		}
		size, err := r.write(dir, s)
		if err != nil {
			return fmt.Errorf("parse %s: %w", r.what, err)
		}
		read := func() error { return r.read(dir) }
		sec, tauSec, err := alternate(read, readTAU)
		if err != nil {
			return fmt.Errorf("parse %s: %w", r.what, err)
		}
		mb, tauMB := float64(size)*foreignRuns/1e6, float64(tauSize)*foreignRuns/1e6
		b.add(Row{Step: 1, Figure: fmt.Sprintf("parse %s, generated %s", r.what, r.shape(s)), Value: mb / sec, Unit: "MB/s",
			Ref: tauMB / tauSec, RefWhat: "TAU profile reader on the profile folder above, same run", RefUnit: "MB/s",
			Notes: fmt.Sprintf("%s MB, read %d× alternately with the profile folder", Num(float64(size)/1e6), foreignRuns)})
		if err := os.RemoveAll(dir); err != nil {
			return fmt.Errorf("remove %s: %w", dir, err)
		}
	}
	return nil
}

// alternate reads once untimed each (page cache, heap), then times read
// and ref alternately foreignRuns times, returning their total seconds.
func alternate(read, ref func() error) (sec, refSec float64, err error) {
	for _, f := range []func() error{read, ref} {
		if err := f(); err != nil {
			return 0, 0, err
		}
	}
	timeOne := func(f func() error) (float64, error) {
		runtime.GC()
		start := time.Now()
		err := f()
		return time.Since(start).Seconds(), err
	}
	for range foreignRuns {
		s, err := timeOne(read)
		if err != nil {
			return 0, 0, err
		}
		r, err := timeOne(ref)
		if err != nil {
			return 0, 0, err
		}
		sec, refSec = sec+s, refSec+r
	}
	return sec, refSec, nil
}
