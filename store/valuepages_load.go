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
	metrics []int // builder metric of the m-th metric in id order
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
	ids := make([]int64, 0, len(l.metrics))
	for id := range l.metrics {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		pr.metrics = append(pr.metrics, l.metrics[id])
	}
	rows := 0
	err = withPlan(ctx, l.r, l.d, pinPagePlan, func() error {
		return l.r.query(ctx, loadPagesQuery, func(scan func(...any) error) error {
			var first, threads, stream, page int64
			var data []byte
			if err := scan(&first, &threads, &stream, &page, &data); err != nil {
				return err
			}
			rows++
			return pr.add(int(first), int(threads), int(stream), int(page), data)
		}, l.id)
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
	if threads != pr.threads || stream < 0 || stream >= len(pr.streams) || page != pages(len(pr.streams[stream])) || len(pr.streams[stream])%pageBytes != 0 {
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
		if len(pr.streams[s]) != 8*total {
			return fmt.Errorf("%w: block at thread %d: stream %d holds %d bytes for %d cells", errPages, pr.first, s, len(pr.streams[s]), total)
		}
	}
	blk := decodedBlock{first: pr.first, w: pr.threads, nodes: nodes, bitmap: bitmap, streams: pr.streams}
	pr.next, pr.first, pr.streams, pr.cells = pr.first+pr.threads, -1, nil, -1
	return pr.addBlock(blk)
}

// addBlock adds a block's cells to the builder, a node's row at a time.
func (pr *pageReader) addBlock(blk decodedBlock) error {
	w, nm := blk.w, len(pr.metrics)
	calls, subrs, keep := make([]float64, w), make([]float64, w), make([]bool, w)
	incl, excl := make([][]float64, nm), make([][]float64, nm)
	for m := range nm {
		incl[pr.metrics[m]], excl[pr.metrics[m]] = make([]float64, w), make([]float64, w)
	}
	value := func(s, at int) float64 {
		return math.Float64frombits(binary.LittleEndian.Uint64(blk.streams[s][8*at:]))
	}
	at := 0
	for i, n := range blk.nodes {
		for k := range w {
			keep[k] = cellSet(blk.bitmap, i*w+k)
			if !keep[k] {
				calls[k], subrs[k] = 0, 0
				for m := range nm {
					incl[m][k], excl[m][k] = 0, 0
				}
				continue
			}
			calls[k], subrs[k] = value(streamCalls, at), value(streamSubroutines, at)
			for m := range nm {
				incl[pr.metrics[m]][k] = value(streamValues+2*m, at)
				excl[pr.metrics[m]][k] = value(streamValues+2*m+1, at)
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
