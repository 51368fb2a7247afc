package main

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/taudb-analyze/taudb-analyze/drg/ppk"
	"github.com/taudb-analyze/taudb-analyze/drg/profile"
	"github.com/taudb-analyze/taudb-analyze/drg/snapshot"
)

// minParseBytes is the least number of bytes a parse row reads: smaller
// inputs are read (and cat-ed) that many times over, so that starting cat
// does not dominate its time.
const minParseBytes = 16 << 20

// parse measures row 1: each reader's MB/s against cat of the same files.
func (b *bench) parse(ctx context.Context) error {
	dir := filepath.Join(b.tmp, "profile")
	tr, err := generate(b.mode.Parse, 2, "parse")
	if err != nil {
		return err
	}
	if err := profile.Write(dir, tr); err != nil {
		return fmt.Errorf("write the generated profile: %w", err)
	}
	if err := b.parseRow(ctx, "profile folder, generated "+b.mode.Parse.String()+", depth 2", dir,
		func() error { _, err := (profile.Reader{Path: dir}).Read(); return err }); err != nil {
		return err
	}

	real := filepath.Join(b.repo, "testdata", "real", "UO-OACISS-tau2", "perfexplorer")
	ppks, err := filepath.Glob(filepath.Join(real, "*", "*.ppk"))
	if err != nil || len(ppks) == 0 {
		return fmt.Errorf("find the real .ppk files under %s: %v", real, err)
	}
	if err := b.parseFiles(ctx, fmt.Sprintf("ppk, the %d real files of testdata", len(ppks)), ppks,
		func() error {
			for _, p := range ppks {
				if _, err := (ppk.Reader{Path: p}).Read(); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
		return err
	}
	p := filepath.Join(b.tmp, "generated.ppk")
	if err := ppk.WriteFile(p, tr); err != nil {
		return fmt.Errorf("write the generated ppk: %w", err)
	}
	if err := b.parseFiles(ctx, "ppk, generated "+b.mode.Parse.String()+" (gzip: the reference reads the compressed bytes)", []string{p},
		func() error { _, err := (ppk.Reader{Path: p}).Read(); return err }); err != nil {
		return err
	}
	tr = nil

	xml := filepath.Join(real, "MetadataCorrelation", "tauprofile-unweighted.xml")
	if err := b.parseFiles(ctx, "snapshot XML, real merged file of testdata", []string{xml},
		func() error { _, err := (snapshot.Reader{Path: xml}).Read(); return err }); err != nil {
		return err
	}
	gen := filepath.Join(b.tmp, "merged.xml")
	if _, err := writeMergedXML(gen, b.mode.XML); err != nil {
		return err
	}
	return b.parseFiles(ctx, fmt.Sprintf("snapshot XML, generated merged file of %d threads × %d events × 2 metrics", b.mode.XML.Threads, b.mode.XML.Regions), []string{gen},
		func() error { _, err := (snapshot.Reader{Path: gen}).Read(); return err })
}

// parseRow measures a reader of the folder dir against cat of its files.
func (b *bench) parseRow(ctx context.Context, what, dir string, read func() error) error {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("list %s: %w", dir, err)
	}
	return b.parseFiles(ctx, what, files, read)
}

// parseFiles adds the row of one reader: read parses all of files; it is
// repeated (and the file list given to cat as many times) until
// minParseBytes are read. MB/s = bytes read / seconds, MB = 10^6 bytes.
// The page cache is warmed by an untimed cat first.
func (b *bench) parseFiles(ctx context.Context, what string, files []string, read func() error) error {
	var size int64
	for _, f := range files {
		st, err := os.Stat(f)
		if err != nil {
			return fmt.Errorf("parse %s: %w", what, err)
		}
		size += st.Size()
	}
	reps := int(min(1000, max(1, (minParseBytes+size-1)/max(size, 1))))
	var args []string
	for range reps {
		args = append(args, files...)
	}
	catSec, err := catSeconds(ctx, args)
	if err != nil {
		return fmt.Errorf("parse %s: %w", what, err)
	}
	start := time.Now()
	for range reps {
		if err := read(); err != nil {
			return fmt.Errorf("parse %s: %w", what, err)
		}
	}
	sec := time.Since(start).Seconds()
	mb := float64(size) * float64(reps) / 1e6
	b.add(Row{Step: 1, Figure: "parse " + what, Value: mb / sec, Unit: "MB/s",
		Ref: mb / catSec, RefUnit: "MB/s", RefWhat: "`cat` of the same files",
		Notes: fmt.Sprintf("%s MB in %d files, read %d×", Num(float64(size)/1e6), len(files), reps)})
	return nil
}
