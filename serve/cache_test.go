package serve

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// TestCache: concurrent requests for one trial share one load; the least
// recently used trial goes first when the cache is full; a failed load is
// not kept.
func TestCache(t *testing.T) {
	tr := bigTrial(t, 100) // 1 node × 100 threads × 1 metric: 3,200 bytes
	var loads atomic.Int32
	gate := make(chan struct{})
	c := newTrialCache(func(ctx context.Context, id int64) (*drg.Trial, error) {
		loads.Add(1)
		<-gate
		if id == 99 {
			return nil, errors.New("boom")
		}
		return tr, nil
	}, 2*trialBytes(tr))
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := c.get(context.Background(), 1); err != nil {
				t.Error(err)
			}
		}()
	}
	close(gate)
	wg.Wait()
	if n := loads.Load(); n != 1 {
		t.Errorf("8 concurrent gets made %d loads, want 1", n)
	}
	c.get(context.Background(), 2) //nolint:errcheck // cannot fail
	c.get(context.Background(), 1) //nolint:errcheck // 1 is now the most recent
	c.get(context.Background(), 3) //nolint:errcheck // evicts 2
	if _, ok := c.byID[2]; ok || len(c.byID) != 2 {
		t.Errorf("after 1, 2, 1, 3 with room for 2: cached %v", keys(c.byID))
	}
	if c.used != 2*trialBytes(tr) {
		t.Errorf("used %d bytes, want %d", c.used, 2*trialBytes(tr))
	}
	before := loads.Load()
	for i := 0; i < 2; i++ {
		if _, err := c.get(context.Background(), 99); err == nil {
			t.Error("a failing load succeeded")
		}
	}
	if loads.Load()-before != 2 {
		t.Error("a failed load was kept instead of tried again")
	}
}

func keys[V any](m map[int64]V) []int64 {
	var out []int64
	for k := range m {
		out = append(out, k)
	}
	return out
}
