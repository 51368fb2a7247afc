package store

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// loadPagesQuery reads a trial's pages in block, stream and page order: a
// range of the primary key.
const loadPagesQuery = `SELECT first_thread, threads, stream, page, data FROM trial_value_page WHERE trial = $1 ORDER BY first_thread, stream, page`

// loadMetricPagesQuery is loadPagesQuery reading the streams up to $2
// (the layout, and the calls and subroutines unless left unread) and
// those of one metric ($3, $4: its inclusive and exclusive streams), for
// LoadTrialMetric. The stream condition is checked on the primary key's
// entries: the other streams' rows (one heap page each) are not read.
const loadMetricPagesQuery = `SELECT first_thread, threads, stream, page, data FROM trial_value_page WHERE trial = $1 AND (stream <= $2 OR stream IN ($3, $4)) ORDER BY first_thread, stream, page`

// errPages is wrapped by the error of a trial whose pages do not hold what
// SaveTrial writes.
var errPages = errors.New("the trial's rows of " + pageTable + " are inconsistent (run \"taudb-analyze db check\"; deleting them makes the trial read from timer_value)")

// maxNodesPerBlock bounds what reserve allocates ahead of a stream's pages:
// no more than 8 bytes per thread of the block for each of this many nodes
// (a layout claiming more only gets the room its pages bring).
const maxNodesPerBlock = 1 << 16

// errPagesMetrics is the error of pages written before the trial got
// another metric (ratio --save-metric, or ParaProf's upload of a derived
// metric): readPages then leaves the trial to timer_value.
var errPagesMetrics = errors.New("the pages predate a metric")

// pageReader gathers one block's streams as the pages arrive and adds the
// block to the builder when the next block starts.
type pageReader struct {
	l       *loader
	metrics []int // builder metric of the m-th metric in id order; -1 when not read (LoadTrialMetric)
	noCalls bool  // the calls and subroutines streams are not read (MetricRead.WithoutCalls)
	nt      int   // the trial's threads
	first   int   // the current block: first thread, threads
	threads int
	streams [][]byte
	next    int // the thread the next block must start at
	cells   int // the current block's cells, from its layout; -1 until known
	// stale is set when the first block's pages hold another number of
	// metrics than the trial (errPagesMetrics): the rest is skipped.
	stale bool
}

// readPages reads the trial's values from its pages, when it has any, and
// reports whether it did. Pages that do not cover the trial's threads, or
// do not decode, are an error wrapping errPages.
func (l *loader) readPages(ctx context.Context) (bool, error) {
	have, err := hasTable(ctx, l.r, l.d, pageTable)
	if err != nil || !have {
		return false, err
	}
	pr := &pageReader{l: l, nt: len(l.threads), first: -1, cells: -1}
	query, args := pr.plan()
	rows := 0
	err = withPlan(ctx, l.r, l.d, pinPagePlan, func() error {
		return l.r.query(ctx, query, func(scan func(...any) error) error {
			var first, threads, stream, page int64
			var data []byte
			if err := scan(&first, &threads, &stream, &page, &data); err != nil {
				return err
			}
			rows++
			return pr.add(int(first), int(threads), int(stream), int(page), data)
		}, args...)
	})
	if err == nil {
		err = pr.flush()
	}
	switch {
	case errors.Is(err, errPages) || errors.Is(err, drg.ErrTooSparse):
		return false, err
	case err != nil:
		return false, fmt.Errorf("read %s: %w", pageTable, err)
	case rows == 0:
		return false, nil
	}
	if pr.stale {
		return false, nil
	}
	if pr.next != pr.nt {
		return false, fmt.Errorf("%w: its blocks end at thread %d of %d", errPages, pr.next, pr.nt)
	}
	return true, nil
}

// plan sets the builder metric of each of the trial's metrics, in id
// order, and returns the query of the pages to read and its arguments:
// every stream, or with a metric picked (LoadTrialMetric) the layout,
// calls, subroutines and that metric's streams.
func (pr *pageReader) plan() (string, []any) {
	ids := make([]int64, 0, len(pr.l.metrics)+len(pr.l.skipped))
	for id := range pr.l.metrics {
		ids = append(ids, id)
	}
	for id := range pr.l.skipped {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		b, ok := pr.l.metrics[id]
		if !ok {
			b = -1
		}
		pr.metrics = append(pr.metrics, b)
	}
	picked := pr.l.picked
	if picked < 0 {
		return loadPagesQuery, []any{pr.l.id}
	}
	pr.noCalls = pr.l.metric.WithoutCalls
	upTo := streamSubroutines
	if pr.noCalls {
		upTo = streamLayout
	}
	return loadMetricPagesQuery, []any{pr.l.id, upTo, streamValues + 2*picked, streamValues + 2*picked + 1}
}

// wanted reports whether stream s of a block is read: every stream but
// those of the metrics left unread, and the calls and subroutines when
// noCalls.
func (pr *pageReader) wanted(s int) bool {
	if s < streamValues {
		return s == streamLayout || !pr.noCalls
	}
	m := (s - streamValues) / 2
	return m < len(pr.metrics) && pr.metrics[m] >= 0
}

// add takes one page.
func (pr *pageReader) add(first, threads, stream, page int, data []byte) error {
	if pr.stale {
		return nil
	}
	if first != pr.first {
		if err := pr.flush(); err != nil || pr.stale {
			return err
		}
		if first != pr.next || threads <= 0 || first+threads > pr.nt {
			return fmt.Errorf("%w: a block of %d threads at thread %d, after %d of %d threads", errPages, threads, first, pr.next, pr.nt)
		}
		pr.first, pr.threads = first, threads
		pr.streams = make([][]byte, numStreams(len(pr.metrics)))
	}
	if threads != pr.threads || stream < 0 || stream >= len(pr.streams) || !pr.wanted(stream) || page != pages(len(pr.streams[stream])) || len(pr.streams[stream])%pageBytes != 0 {
		return fmt.Errorf("%w: block at thread %d: stream %d page %d out of order", errPages, first, stream, page)
	}
	if pr.streams[stream] == nil && stream > streamLayout {
		pr.reserve(stream)
	}
	pr.streams[stream] = append(pr.streams[stream], data...)
	return nil
}

// reserve makes room for a value stream of the current block as its first
// page arrives: 8 bytes per cell of the layout, read before it, so that the
// stream is not copied as it grows. A layout that does not decode reserves
// nothing (flush reports it).
func (pr *pageReader) reserve(stream int) {
	if pr.cells < 0 {
		if _, _, bitmap, ok := decodeLayout(pr.streams[streamLayout], pr.threads); ok {
			pr.cells = popcount(bitmap)
		}
	}
	if pr.cells >= 0 && 8*pr.cells <= 8*pr.threads*maxNodesPerBlock {
		pr.streams[stream] = make([]byte, 0, 8*pr.cells)
	}
}

// decodedBlock is a block of pages checked and ready to add to the
// builder: its first thread and width, its nodes, the bitmap of its cells
// and its streams.
type decodedBlock struct {
	first, w int
	nodes    []int
	bitmap   []byte
	streams  [][]byte
}

// flush checks the current block and adds it to the builder. (Adding it
// in a goroutine of its own while the next block is read was tried: with
// two blocks alive the process spent twice the system time on fresh
// memory, and the 131,072-thread trial read in 27–34 s instead of 22 s.)
func (pr *pageReader) flush() error {
	if pr.first < 0 {
		return nil
	}
	nodes, bitmap, err := pr.layout()
	if errors.Is(err, errPagesMetrics) && pr.first == 0 {
		pr.stale, pr.first = true, -1
		return nil
	}
	if err != nil {
		return err
	}
	total := popcount(bitmap)
	for s := streamCalls; s < len(pr.streams); s++ {
		if pr.wanted(s) && len(pr.streams[s]) != 8*total {
			return fmt.Errorf("%w: block at thread %d: stream %d holds %d bytes for %d cells", errPages, pr.first, s, len(pr.streams[s]), total)
		}
	}
	blk := decodedBlock{first: pr.first, w: pr.threads, nodes: nodes, bitmap: bitmap, streams: pr.streams}
	pr.next, pr.first, pr.streams, pr.cells = pr.first+pr.threads, -1, nil, -1
	return pr.addBlock(blk)
}

// addBlock adds a block's cells to the builder, a node's row at a time;
// the metrics left unread (pr.metrics −1) are skipped.
func (pr *pageReader) addBlock(blk decodedBlock) error {
	w, nb := blk.w, slices.Max(append([]int{-1}, pr.metrics...))+1
	calls, subrs, keep := make([]float64, w), make([]float64, w), make([]bool, w)
	if pr.noCalls {
		calls, subrs = nil, nil // AddRow leaves them 0
	}
	incl, excl := make([][]float64, nb), make([][]float64, nb)
	for m := range nb {
		incl[m], excl[m] = make([]float64, w), make([]float64, w)
	}
	value := func(s, at int) float64 {
		return math.Float64frombits(binary.LittleEndian.Uint64(blk.streams[s][8*at:]))
	}
	at := 0
	for i, n := range blk.nodes {
		for k := range w {
			keep[k] = cellSet(blk.bitmap, i*w+k)
			if !keep[k] {
				if calls != nil {
					calls[k], subrs[k] = 0, 0
				}
				for m := range nb {
					incl[m][k], excl[m][k] = 0, 0
				}
				continue
			}
			if calls != nil {
				calls[k], subrs[k] = value(streamCalls, at), value(streamSubroutines, at)
			}
			for m, b := range pr.metrics {
				if b >= 0 {
					incl[b][k] = value(streamValues+2*m, at)
					excl[b][k] = value(streamValues+2*m+1, at)
				}
			}
			at++
		}
		pr.l.b.AddRow(n, blk.first, nil, keep, excl, incl, calls, subrs)
	}
	return pr.l.b.Err()
}

// layout decodes stream 0: the builder node of each of the block's nodes
// and the bitmap of its cells.
func (pr *pageReader) layout() ([]int, []byte, error) {
	nm, ids, bitmap, ok := decodeLayout(pr.streams[streamLayout], pr.threads)
	switch {
	case nm != len(pr.metrics) && len(pr.streams[streamLayout]) >= layoutHeader:
		return nil, nil, fmt.Errorf("%w: %d metrics in the pages, %d in the trial", errPagesMetrics, nm, len(pr.metrics))
	case !ok:
		return nil, nil, fmt.Errorf("%w: block at thread %d: a layout of %d bytes that does not decode", errPages, pr.first, len(pr.streams[streamLayout]))
	}
	nodes := make([]int, len(ids))
	for i, cp := range ids {
		n, ok := pr.l.nodes[cp]
		if !ok {
			return nil, nil, fmt.Errorf("%w: block at thread %d: timer_callpath %d is not the trial's", errPages, pr.first, cp)
		}
		nodes[i] = n
	}
	return nodes, bitmap, nil
}
