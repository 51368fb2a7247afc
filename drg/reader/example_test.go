package reader_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"
	"slices"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/drg/reader"
	"github.com/taudb-analyze/taudb-analyze/synth"
)

// Read a folder of TAU profiles (the format is detected) and look at the
// model: threads, metrics, regions, and the flat view's exclusive time of
// one region on every thread. The folder is the demo's 4-rank MPI run, as
// `taudb-analyze synth --demo DIR` writes it.
func ExampleRead() {
	dir, err := os.MkdirTemp("", "reader-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := synth.WriteDemo(filepath.Join(dir, "demo")); err != nil {
		log.Fatal(err)
	}
	t, err := reader.Read(filepath.Join(dir, "demo", "mpi", "p4"), "")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(t.Source.Format, len(t.Threads), "threads,", len(t.Metrics), "metric", t.Metrics[0].Name)
	n := slices.IndexFunc(t.Nodes, func(nd drg.Node) bool { return nd.IsFlat() && nd.Name == "MPI_Barrier()" })
	nt := len(t.Threads)
	fmt.Printf("MPI_Barrier() exclusive us: %.0f\n", t.Values[0].Exclusive[n*nt:(n+1)*nt])
	// synth.DemoMPI at p = 4: rank k computes w_k = 4e6·(1 + 0.2·(k/3 − ½))
	// µs and waits in MPI_Barrier() for the slowest rank (w_3 = 4.4e6) and,
	// on ranks k > 0, for rank 0's 0.4 s of serial setup:
	// 4.4e6 − 3.6e6 = 8e5 on rank 0, 4e5 + 4.4e6 − w_k on the others
	// (933333.3, 666666.7 and 4e5).

	// Output:
	// profile 4 threads, 1 metric TIME
	// MPI_Barrier() exclusive us: [800000 933333 666667 400000]
}
