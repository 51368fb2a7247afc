package store

import (
	"context"
	"fmt"
	"math"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// realRowsQuery reads the real threads' rows of one metric ($2) of trial $1
// within its timer_call_data id range ($3, $4), for the standard
// deviations TAU's loader left out.
const realRowsQuery = `
SELECT tcd.timer_callpath, COALESCE(tcd.calls, 0), COALESCE(tcd.subroutines, 0),
       COALESCE(tv.inclusive_value, 0), COALESCE(tv.exclusive_value, 0)
FROM timer_call_data tcd
JOIN thread th ON th.id = tcd.thread
JOIN timer_value tv ON tv.timer_call_data = tcd.id
WHERE th.trial = $1 AND th.thread_index >= 0 AND tcd.time_range IS NULL AND tv.metric = $2
  AND tcd.id BETWEEN $3 AND $4`

// nodeSamples holds one node's real-thread values of one metric: inclusive,
// exclusive, calls and subroutines, one entry per thread with a record.
type nodeSamples struct{ incl, excl, calls, subrs []float64 }

// fillStdDevs computes the STDDEV (−3) and STDDEV with nulls as 0 (−7) rows
// that the database lacks, for every node of nodes that has other derived
// rows, from the real threads' rows of the metric, and marks them Computed.
// TAU's loader writes a derived row only where that row's calls statistic
// is > 0, so it leaves both out wherever all threads made the same number
// of calls. threads is the trial's number of real threads (N of −7). The
// percentages of a computed row are NaN: TAU's own are not percentages of
// anything (see the package documentation), and none is made up here.
func fillStdDevs(ctx context.Context, r runner, id, metric int64, calls callRange, threads int, nodes []NodeStats, at map[int64]int) error {
	missing := false
	for i := range nodes {
		if nodes[i].StdDev == nil || nodes[i].StdDevAll == nil {
			missing = true
			break
		}
	}
	if !missing {
		return nil
	}
	samples := make([]nodeSamples, len(nodes))
	err := r.query(ctx, realRowsQuery, func(scan func(...any) error) error {
		var cp int64
		var c, s, in, ex float64
		if err := scan(&cp, &c, &s, &in, &ex); err != nil {
			return err
		}
		if i, ok := at[cp]; ok {
			p := &samples[i]
			p.calls, p.subrs, p.incl, p.excl = append(p.calls, c), append(p.subrs, s), append(p.incl, in), append(p.excl, ex)
		}
		return nil
	}, id, metric, calls.First, calls.Last)
	if err != nil {
		return fmt.Errorf("read the real threads' timer_value for the missing STDDEV rows: %w", err)
	}
	for i := range nodes {
		p := &samples[i]
		if len(p.incl) == 0 {
			continue
		}
		for _, d := range []drg.DerivedThread{drg.StdDev, drg.StdDevAll} {
			if nodes[i].Get(d) != nil {
				continue
			}
			n := len(p.incl)
			if d == drg.StdDevAll {
				n = max(threads, n)
			}
			nan := math.NaN()
			nodes[i].set(d, &StatValue{
				Inclusive: popStdDev(p.incl, n), Exclusive: popStdDev(p.excl, n),
				Calls: popStdDev(p.calls, n), Subroutines: popStdDev(p.subrs, n),
				InclusivePercent: nan, ExclusivePercent: nan, Computed: true,
			})
		}
	}
	return nil
}

// popStdDev is the population standard deviation of xs padded with zeros
// to n values: √(Σ(x−m)²/n) with m = Σx/n, computed in two passes (exact
// for equal values, unlike TAU's √|Σx²/n − m²|). n ≤ len(xs) means xs
// alone.
func popStdDev(xs []float64, n int) float64 {
	n = max(n, len(xs))
	if n == 0 {
		return 0
	}
	var sum float64
	for _, x := range xs {
		sum += x
	}
	m := sum / float64(n)
	var ss float64
	for _, x := range xs {
		ss += (x - m) * (x - m)
	}
	ss += float64(n-len(xs)) * m * m
	return math.Sqrt(ss / float64(n))
}
