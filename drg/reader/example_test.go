package reader_test

import (
	"fmt"
	"log"
	"path/filepath"
	"slices"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/drg/reader"
)

// Read a folder of TAU profiles (the format is detected) and look at the
// model: threads, metrics, regions, and the flat view's exclusive time of
// one region on every thread.
func ExampleRead() {
	t, err := reader.Read(filepath.Join("..", "..", "testdata", "real", "LLNL-hatchet", "tau-cpi-mpi"), "")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(t.Source.Format, len(t.Threads), "threads,", len(t.Metrics), "metric", t.Metrics[0].Name)
	n := slices.IndexFunc(t.Nodes, func(nd drg.Node) bool { return nd.IsFlat() && nd.Name == "MPI_Init()" })
	nt := len(t.Threads)
	fmt.Println("MPI_Init() exclusive us:", t.Values[0].Exclusive[n*nt:(n+1)*nt])
	// Output:
	// profile 4 threads, 1 metric TIME
	// MPI_Init() exclusive us: [17983 21441 20059 18991]
}
