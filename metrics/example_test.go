package metrics_test

import (
	"fmt"
	"log"
	"slices"
	"strings"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/metrics"
	"github.com/taudb-analyze/taudb-analyze/synth"
)

// Derive a metric from an expression: the exclusive time per call of
// every region on every thread, added to the trial as a derived metric.
func ExampleAddDerived() {
	// 4 ranks, 7 regions; region_6 gets 7/28 of 98% of the 1 s per rank
	// and is called 7 times; rank k's times are scaled by 1 + 0.3·(k/3 − ½).
	t, err := synth.Generate(synth.Spec{Processes: 4, ThreadsPerProcess: 1, Regions: 7, Depth: 1, Metrics: 1,
		Parallel: 4e6, Imbalance: 0.3, Name: "per-call"})
	if err != nil {
		log.Fatal(err)
	}
	e, err := metrics.Compile("TIME / CALLS", metrics.Names(t))
	if err != nil {
		log.Fatal(err)
	}
	m, err := metrics.AddDerived(t, "TIME per call", e)
	if err != nil {
		log.Fatal(err)
	}
	n := slices.IndexFunc(t.Nodes, func(nd drg.Node) bool { return nd.IsFlat() && strings.HasPrefix(nd.Name, "void region_6(") })
	nt := len(t.Threads)
	fmt.Println(t.Metrics[m].Name, t.Metrics[m].Derived)
	fmt.Println(t.Values[m].Exclusive[n*nt : (n+1)*nt])

	_, err = metrics.Compile("PAPI_FP_OPS / TIME", metrics.Names(t))
	fmt.Println(err)
	// 0.98·1e6·7/28 = 245000 µs in region_6, over 7 calls: 35000 µs per
	// call, times 0.85, 0.95, 1.05 and 1.15 on ranks 0 to 3.

	// Output:
	// TIME per call true
	// [29750 33250 36750 40250]
	// unknown metric "PAPI_FP_OPS"; the metrics are "TIME", "TIME per call", and the pseudo-metrics CALLS, SUBROUTINES (1:1)
	//  | PAPI_FP_OPS / TIME
	//  | ^
}
