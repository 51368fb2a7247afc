package analysis_test

import (
	"fmt"
	"log"
	"path/filepath"

	"github.com/taudb-analyze/taudb-analyze/analysis"
	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/drg/reader"
)

// A scalability study as a short Go program: read a series of TAU profile
// folders (an MPI matmult at 1, 2, 4 and 8 processes), make the series
// (p is the number of MPI ranks of each trial), and compute the program's
// speedup and efficiency and the fitted scaling model.
func Example_scalabilityStudy() {
	dir := filepath.Join("..", "testdata", "real", "ParaToolsInc-taucmdr", "jupyter", "east02-mm-profile")
	var trials []*drg.Trial
	for _, np := range []string{"0", "1", "3", "7"} { // folders of 1, 2, 4, 8 ranks
		t, err := reader.Read(filepath.Join(dir, np), "") // format detected
		if err != nil {
			log.Fatal(err)
		}
		t.Name = "mm-" + np
		trials = append(trials, t)
	}
	series, err := analysis.NewSeries(trials, "", "") // p = MPI ranks
	if err != nil {
		log.Fatal(err)
	}
	sp, err := analysis.Speedup(series, analysis.SpeedupOptions{})
	if err != nil {
		log.Fatal(err)
	}
	prog := sp.Table("program")
	for i := 0; i < prog.NumRows(); i++ {
		fmt.Printf("p=%g time=%.3f s speedup=%.3f efficiency=%.3f\n", prog.Num("p", i),
			prog.Num("time", i)/1e6, prog.Num("speedup", i), prog.Num("efficiency", i))
	}
	sc, err := analysis.Scalability(series, analysis.ScalabilityOptions{Predict: 16})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(sc.Findings[0])
	// The times are the largest ".TAU application" inclusive TIME over the
	// ranks of each folder's profile.N.0.0 files: 4453569, 4434760, 5225114
	// and 9529715 microseconds.

	// Output:
	// p=1 time=4.454 s speedup=1.000 efficiency=1.000
	// p=2 time=4.435 s speedup=1.004 efficiency=0.502
	// p=4 time=5.225 s speedup=0.852 efficiency=0.213
	// p=8 time=9.530 s speedup=0.467 efficiency=0.058
	// Program: efficiency 5.8% at p = 8 (speedup 0.467 against mm-0 at p = 1), Karp-Flatt serial fraction undefined: slower than the baseline (speedup below 1).
}
