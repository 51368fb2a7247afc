package store

import (
	"context"
	"fmt"
)

// loadLayoutsQuery reads the layout streams of a trial's pages, block by
// block: a range of the primary key filtered on the stream, so that only
// the layouts' heap rows are read.
const loadLayoutsQuery = `SELECT first_thread, threads, page, data FROM trial_value_page WHERE trial = $1 AND stream = 0 ORDER BY first_thread, page`

// pageThreadCounts sets each node's Threads to the number of the trial's
// real threads that have a record of it, from the layouts of the trial's
// pages (the bits set in the node's row of each block's bitmap): a read of
// a few bytes per node and block instead of a count over every row of the
// trial. It reports false, changing nothing, when the trial has no pages
// or its layouts do not cover its threads or do not decode; Stats then
// counts the rows.
func pageThreadCounts(ctx context.Context, r runner, d Dialect, id int64, at map[int64]int, nodes []NodeStats) (bool, error) {
	have, err := hasTable(ctx, r, d, pageTable)
	if err != nil || !have {
		return false, err
	}
	var nt int
	if err := r.query(ctx, `SELECT COUNT(*) FROM thread WHERE trial = $1 AND node_rank >= 0`,
		func(scan func(...any) error) error { return scan(&nt) }, id); err != nil {
		return false, fmt.Errorf("count the threads: %w", err)
	}
	lc := layoutCounter{counts: map[int64]int{}, first: -1}
	err = withPlan(ctx, r, d, pinPagePlan, func() error {
		return r.query(ctx, loadLayoutsQuery, func(scan func(...any) error) error {
			var first, threads, page int64
			var data []byte
			if err := scan(&first, &threads, &page, &data); err != nil {
				return err
			}
			lc.add(int(first), int(threads), int(page), data)
			return nil
		}, id)
	})
	if err != nil {
		return false, fmt.Errorf("read the layouts of %s: %w", pageTable, err)
	}
	lc.flush()
	if lc.bad || lc.covered != nt || nt == 0 {
		return false, nil
	}
	for cp, n := range lc.counts {
		if i, ok := at[cp]; ok {
			nodes[i].Threads = n
		}
	}
	return true, nil
}

// layoutCounter adds up the layouts' bits per timer_callpath id, block by
// block in thread order; bad is set by a gap, an overlap or a layout that
// does not decode.
type layoutCounter struct {
	counts         map[int64]int
	first, threads int
	covered        int
	data           []byte
	bad            bool
}

// add takes one page of a layout.
func (lc *layoutCounter) add(first, threads, page int, data []byte) {
	if first != lc.first {
		lc.flush()
		if first != lc.covered || threads <= 0 {
			lc.bad = true
		}
		lc.first, lc.threads, lc.data = first, threads, nil
	}
	if page != pages(len(lc.data)) || len(lc.data)%pageBytes != 0 {
		lc.bad = true
	}
	lc.data = append(lc.data, data...)
}

// flush counts the current block's bits.
func (lc *layoutCounter) flush() {
	if lc.first < 0 || lc.bad {
		return
	}
	w := lc.threads
	_, ids, bitmap, ok := decodeLayout(lc.data, w)
	if !ok {
		lc.bad = true
		return
	}
	for i, cp := range ids {
		n := 0
		for k := i * w; k < (i+1)*w; k++ {
			if cellSet(bitmap, k) {
				n++
			}
		}
		lc.counts[cp] += n
	}
	lc.covered += w
	lc.first = -1
}
