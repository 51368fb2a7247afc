package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// bench is one run of the benchmark: its mode, where things are, and the
// rows measured so far.
type bench struct {
	mode Mode
	// repo is the repository's root (the shared real data is found next
	// to it), tmp the private folder of generated data, cli the built
	// taudb-analyze binary.
	repo, tmp, cli string
	// pgAdmin is the PostgreSQL URL the private database is created from.
	pgAdmin string
	// self is this program's executable, re-run for the analysis children.
	self string
	log  io.Writer
	rows []Row
	// only lists the steps to run, comma-separated ("" for all).
	only string
}

// add appends a row and logs it.
func (b *bench) add(r Row) {
	b.rows = append(b.rows, r)
	fmt.Fprintf(b.log, "benchtool: %d %s: %s %s (reference %s %s, ratio %.2f)\n", r.Step, r.Figure, Num(r.Value), r.Unit, Num(r.Ref), r.RefUnit, r.Ratio())
}

// logf prints progress on the log.
func (b *bench) logf(format string, args ...any) {
	fmt.Fprintf(b.log, "benchtool: "+format+"\n", args...)
}

// run measures every row in order: parse, PostgreSQL ingest and fetch,
// SQLite ingest, analyses, end to end.
func (b *bench) run(ctx context.Context) error {
	steps := []struct {
		name string
		fn   func(context.Context) error
	}{
		{"parse", b.parse},
		{"postgres", b.postgres},
		{"sqlite", b.sqlite},
		{"sqlite result", b.sqliteResult},
		{"analyses", b.analyses},
		{"end to end", b.endToEnd},
	}
	for _, s := range steps {
		if b.only != "" && !slices.Contains(strings.Split(b.only, ","), s.name) {
			continue
		}
		start := time.Now()
		if err := s.fn(ctx); err != nil {
			return fmt.Errorf("%s: %w", s.name, err)
		}
		b.logf("%s done in %s", s.name, time.Since(start).Round(time.Millisecond))
	}
	return nil
}
