package metrics_test

import (
	"fmt"
	"log"
	"path/filepath"
	"slices"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/drg/reader"
	"github.com/taudb-analyze/taudb-analyze/metrics"
)

// Derive a metric from an expression: the exclusive time per call of
// every region on every thread, added to the trial as a derived metric.
func ExampleAddDerived() {
	t, err := reader.Read(filepath.Join("..", "testdata", "real", "LLNL-hatchet", "tau-cpi-mpi"), "")
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
	n := slices.IndexFunc(t.Nodes, func(nd drg.Node) bool { return nd.IsFlat() && nd.Name == "MPI_Comm_rank()" })
	nt := len(t.Threads)
	fmt.Println(t.Metrics[m].Name, t.Metrics[m].Derived)
	fmt.Println(t.Values[m].Exclusive[n*nt : (n+1)*nt])

	_, err = metrics.Compile("PAPI_FP_OPS / TIME", metrics.Names(t))
	fmt.Println(err)
	// Output:
	// TIME per call true
	// [25 24 21 22]
	// unknown metric "PAPI_FP_OPS"; the metrics are "TIME", "TIME per call", and the pseudo-metrics CALLS, SUBROUTINES (1:1)
	//  | PAPI_FP_OPS / TIME
	//  | ^
}
