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
	tauSize, err := dirSize(dir)
	if err != nil {
		return err
	}
	if err := b.parseForeign(ctx, dir, tauSize); err != nil {
		return err
	}

	real, haveReal := b.realPerfExplorer()
	if haveReal {
		if err := b.parseRealPPK(ctx, real); err != nil {
			return err
		}
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

	if haveReal {
		xml := filepath.Join(real, "MetadataCorrelation", "tauprofile-unweighted.xml")
		if err := b.parseFiles(ctx, "snapshot XML, real merged file of the shared data", []string{xml},
			func() error { _, err := (snapshot.Reader{Path: xml}).Read(); return err }); err != nil {
			return err
		}
	}
	gen := filepath.Join(b.tmp, "merged.xml")
	if _, err := writeMergedXML(gen, b.mode.XML); err != nil {
		return err
	}
	return b.parseFiles(ctx, fmt.Sprintf("snapshot XML, generated merged file of %d threads × %d events × 2 metrics", b.mode.XML.Threads, b.mode.XML.Regions), []string{gen},
		func() error { _, err := (snapshot.Reader{Path: gen}).Read(); return err })
}

// realPerfExplorer returns the folder of the real PerfExplorer examples
// (packed profiles and a merged XML file) in the shared data folder next to
// the repository (../shared/data/real, or $TAUDB_SHARED_DATA), and whether
// it is there: the repository does not carry other projects' data, so
// without it the rows of real files are left out, saying so in the log.
func (b *bench) realPerfExplorer() (string, bool) {
	root := os.Getenv("TAUDB_SHARED_DATA")
	if root == "" {
		root = filepath.Join(b.repo, "..", "shared", "data", "real")
	}
	dir := filepath.Join(root, "UO-OACISS-tau2", "perfexplorer")
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		b.logf("no real data at %s: the rows of real ppk and XML files are left out", dir)
		return dir, false
	}
	return dir, true
}

// parseRealPPK measures the ppk reader on the real packed profiles of dir.
func (b *bench) parseRealPPK(ctx context.Context, dir string) error {
	ppks, err := filepath.Glob(filepath.Join(dir, "*", "*.ppk"))
	if err != nil || len(ppks) == 0 {
		return fmt.Errorf("find the real .ppk files under %s: %v", dir, err)
	}
	return b.parseFiles(ctx, fmt.Sprintf("ppk, the %d real files of the shared data", len(ppks)), ppks,
		func() error {
			for _, p := range ppks {
				if _, err := (ppk.Reader{Path: p}).Read(); err != nil {
					return err
				}
			}
			return nil
		})
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

// dirSize returns the bytes of the regular files under dir.
func dirSize(dir string) (int64, error) {
	var size int64
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		info, err := d.Info()
		size += info.Size()
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("size of %s: %w", dir, err)
	}
	return size, nil
}
