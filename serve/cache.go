package serve

import (
	"container/list"
	"context"
	"fmt"
	"sync"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// loadFunc reads a trial from the database.
type loadFunc func(ctx context.Context, id int64) (*drg.Trial, error)

// cachedTrial is one trial in the cache with what was computed from it.
type cachedTrial struct {
	id    int64
	trial *drg.Trial
	bytes int64
	// ready is closed when the load finished; err is its error.
	ready chan struct{}
	err   error
	// derived holds the columns and statistics computed from the trial
	// (see columns.go), keyed by what they are of.
	mu      sync.Mutex
	columns map[columnKey]*column
	tree    *drg.Tree
	calls   []nodeStat
}

// trialCache keeps loaded trials, at most maxBytes of them (estimated by
// trialBytes), evicting the least recently used. Concurrent requests for
// one trial share a single load.
type trialCache struct {
	load     loadFunc
	maxBytes int64

	mu    sync.Mutex
	byID  map[int64]*list.Element
	order *list.List // front: most recently used; values *cachedTrial
	used  int64
}

func newTrialCache(load loadFunc, maxBytes int64) *trialCache {
	return &trialCache{load: load, maxBytes: maxBytes, byID: map[int64]*list.Element{}, order: list.New()}
}

// trialBytes estimates a loaded trial's memory: per (node, thread) cell
// 8 bytes for each metric's inclusive and exclusive value and for the
// calls and subroutines, plus the statistics columns computed later
// (7 float64 per node and column, small beside the cells).
func trialBytes(t *drg.Trial) int64 {
	cells := int64(len(t.Nodes)) * int64(len(t.Threads))
	return cells * 8 * int64(2*len(t.Metrics)+2)
}

// get returns the trial id, loading it when it is not cached. A failed
// load is not kept, so that the next request tries again.
func (c *trialCache) get(ctx context.Context, id int64) (*cachedTrial, error) {
	c.mu.Lock()
	if el, ok := c.byID[id]; ok {
		c.order.MoveToFront(el)
		ct := el.Value.(*cachedTrial)
		c.mu.Unlock()
		select {
		case <-ct.ready:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if ct.err != nil {
			return nil, ct.err
		}
		return ct, nil
	}
	ct := &cachedTrial{id: id, ready: make(chan struct{}), columns: map[columnKey]*column{}}
	c.byID[id] = c.order.PushFront(ct)
	c.mu.Unlock()
	// The load is not tied to this request: others may be waiting on it.
	t, err := c.load(context.WithoutCancel(ctx), id)
	c.mu.Lock()
	if err != nil {
		ct.err = fmt.Errorf("load trial %d: %w", id, err)
		c.remove(id)
	} else {
		ct.trial, ct.bytes = t, trialBytes(t)
		c.used += ct.bytes
		c.evict(id)
	}
	c.mu.Unlock()
	close(ct.ready)
	return ct, ct.err
}

// remove drops id from the cache (c.mu held).
func (c *trialCache) remove(id int64) {
	if el, ok := c.byID[id]; ok {
		c.used -= el.Value.(*cachedTrial).bytes
		c.order.Remove(el)
		delete(c.byID, id)
	}
}

// evict drops the least recently used loaded trials until the cache fits
// maxBytes, never the trial keep just loaded (c.mu held).
func (c *trialCache) evict(keep int64) {
	for el := c.order.Back(); el != nil && c.used > c.maxBytes; {
		prev := el.Prev()
		ct := el.Value.(*cachedTrial)
		if ct.id != keep && ct.trial != nil {
			c.remove(ct.id)
		}
		el = prev
	}
}
