package registry

import (
	"context"
	"fmt"
	"time"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/store"
)

// ReadWorkers is how many trials ReadTrials reads at once: reading a trial
// mostly waits on the database, which is safe for concurrent use.
const ReadWorkers = 4

// ReadTrials reads the trials ids from db, ReadWorkers at a time, calling
// step (when not nil) as each is read; on the first error it stops the
// others and returns that error. It returns the trials in the order of ids
// and how long each took. Trials that share a name are told apart by their
// ids ("name (trial 7)") when apart is true, as every analysis of several
// trials needs unique names.
func ReadTrials(ctx context.Context, db *store.DB, ids []int64, apart bool, step func()) ([]*drg.Trial, []time.Duration, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	trials := make([]*drg.Trial, len(ids))
	took := make([]time.Duration, len(ids))
	next, finished := make(chan int), make(chan error, len(ids)) // buffered: a worker never waits to report
	for range min(ReadWorkers, len(ids)) {
		go func() {
			for i := range next {
				start := time.Now()
				var err error
				if trials[i], err = db.LoadTrial(ctx, ids[i]); err != nil && len(ids) > 1 {
					err = fmt.Errorf("reading trial %d: %w", ids[i], err)
				}
				took[i] = time.Since(start)
				finished <- err
			}
		}()
	}
	go func() {
		defer close(next)
		for i := range ids {
			select {
			case next <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	for range ids {
		if err := <-finished; err != nil {
			return nil, nil, err // the deferred cancel stops the other workers
		}
		if step != nil {
			step()
		}
	}
	if apart {
		nameApart(trials, ids)
	}
	return trials, took, nil
}

// nameApart renames the trials that share a name "name (trial ID)".
func nameApart(trials []*drg.Trial, ids []int64) {
	names := map[string]int{}
	for _, t := range trials {
		names[t.Name]++
	}
	for i, t := range trials {
		if names[t.Name] > 1 {
			t.Name = fmt.Sprintf("%s (trial %d)", t.Name, ids[i])
		}
	}
}
