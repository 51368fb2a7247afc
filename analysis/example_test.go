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
	for _, f := range sc.Findings {
		fmt.Println(f)
	}
	// The times are the largest ".TAU application" inclusive TIME over the
	// ranks of each folder's profile.N.0.0 files: 4453569, 4434760, 5225114
	// and 9529715 microseconds. The findings say what the numbers cannot:
	// the 8 ranks ran on a 4-core host, every rank did the whole product,
	// and the time rises after p = 2.

	// Output:
	// p=1 time=4.454 s speedup=1.000 efficiency=1.000
	// p=2 time=4.435 s speedup=1.004 efficiency=0.502
	// p=4 time=5.225 s speedup=0.852 efficiency=0.213
	// p=8 time=9.530 s speedup=0.467 efficiency=0.058
	// mm-7 is oversubscribed: 8 ranks share the 4 cores of host east02 (metadata "CPU Cores"), so its times measure contention, not scaling.
	// The mean time per process does not shrink with p: 4.45 s at p = 1, 9.53 s at p = 8 (perfect division: 0.125×). Each process may be doing the whole work: is this weak scaling, or replicated work?
	// Program: efficiency 5.8% at p = 8 (speedup 0.467 against mm-0 at p = 1), Karp-Flatt serial fraction undefined: slower than the baseline (speedup below 1).
	// The program's time turns around: it falls to 4.43 s at p = 2, then rises to 9.53 s at p = 8 (+114.9%); beyond p = 2 more processes make it slower.
	// The program does not fit Amdahl's law: the time grows with p (Amdahl's law T_1*(f + (1−f)/p) needs f in [0, 1]).
	// The program's model is bounded by its points: 4 distinct p: at most one term (two terms need 5).
	// Program model: T(p) = 4.41152e+06 + 25140.9 * p^(3/2) * log2(p)^2 (SMAPE 0.553%), predicting 30.2 s at p = 16 (95% prediction interval 27.6 s to 32.7 s).
	// Stops scaling at p = 4: void compute(double **, double **, double **, int, int, int) C [{matmult.c} {90,1}-{109,1}] (efficiency 19.2%, 57.0% of the time there, 57.4% at p = 8).
	// Stops scaling at p = 2: void compute_interchange(double **, double **, double **, int, int, int) C [{matmult.c} {111,1}-{130,1}] (efficiency 49.7%, 47.8% of the time there, 41.7% at p = 8).
	// Stops scaling at p = 2: MPI_Finalize() (efficiency 0.3%, 1.1% of the time there, 2.1% at p = 8).
	// Share growing fastest: void compute(double **, double **, double **, int, int, int) C [{matmult.c} {90,1}-{109,1}], 51.49% at p = 1 → 57.43% at p = 8 (+0.924 points per process).
	// Share growing fastest: MPI_Finalize(), 0.01% at p = 1 → 2.12% at p = 8 (+0.254 points per process).
}
