package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/drg/profile"
	"github.com/taudb-analyze/taudb-analyze/drg/reader"
	"github.com/taudb-analyze/taudb-analyze/store"
)

// loadChunks is a TAU profile folder that load reads and saves a chunk of
// threads at a time (store.PendingTrial.Chunks): it reports warnings as
// chunks come, and counts the trial's nodes and user events for the
// summary line.
type loadChunks struct {
	a        *app
	c        *profile.Chunks
	path     string
	l        *loaded
	nodes    map[string]bool
	counters map[string]bool
	reading  time.Duration
}

// Threads returns the trial's threads.
func (w *loadChunks) Threads() []drg.ThreadID { return w.c.Threads() }

// Next reads the next chunk.
func (w *loadChunks) Next() (*drg.Trial, error) {
	start := time.Now()
	t, err := w.c.Next()
	w.reading += time.Since(start)
	if errors.Is(err, io.EOF) {
		w.l.Nodes, w.l.Counters = len(w.nodes), len(w.counters)
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", w.path, err)
	}
	for _, msg := range t.Warnings {
		w.a.info("warning: %s: %s", w.path, msg)
	}
	for _, n := range t.Nodes {
		w.nodes[n.Name] = true
	}
	for _, c := range t.Counters {
		w.counters[c.Name] = true
	}
	w.l.Format, w.l.Threads, w.l.Metrics = "profile", len(w.c.Threads()), len(t.Metrics)
	if w.l.Name == "" {
		w.l.Name = t.Name
	}
	return t, nil
}

// chunked returns the reader that loads path a chunk of threads at a time,
// or nil to read it whole: when per < 0, when the database lacks the
// partitioned layout (chunks need it), when path is not a folder of TAU
// profiles, when its first file does not parse (the whole read then
// reports the error in the load's transaction), or when one chunk holds
// all its threads. per = 0 sizes the
// chunks to profile.ChunkBytes.
func (a *app) chunked(ctx context.Context, db *store.DB, path, format string, per int, l *loaded) (*loadChunks, error) {
	if per < 0 || db.Dialect() != store.Postgres {
		return nil, nil
	}
	if st, err := os.Stat(path); err != nil || !st.IsDir() {
		return nil, nil
	}
	if format == "" {
		var err error
		if format, err = reader.Detect(path); err != nil {
			return nil, nil // the whole read reports it
		}
	}
	if format != "profile" {
		return nil, nil
	}
	layout, err := db.Layout(ctx)
	if err != nil || layout != store.LayoutPartitioned {
		return nil, err
	}
	c, err := profile.Reader{Path: path}.Chunks(per)
	if err != nil {
		return nil, nil // the whole read reports it, as for every other path
	}
	if len(c.Threads()) <= c.PerChunk() {
		return nil, nil
	}
	a.detail("reading %s %d threads at a time (%d threads)", path, c.PerChunk(), len(c.Threads()))
	return &loadChunks{a: a, c: c, path: path, l: l, nodes: map[string]bool{}, counters: map[string]bool{}}, nil
}
