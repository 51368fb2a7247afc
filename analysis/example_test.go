package analysis_test

import (
	"fmt"
	"log"

	"github.com/taudb-analyze/taudb-analyze/analysis"
	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/synth"
)

// A scalability study as a short Go program: make a series of trials (the
// demo's MPI program at 1, 2, 4 and 8 processes, as synth generates it;
// reader.Read reads TAU profile folders the same way), with p the number
// of MPI ranks of each trial, and compute the program's speedup and
// efficiency and the fitted scaling model.
func Example_scalabilityStudy() {
	var trials []*drg.Trial
	for _, p := range []int{1, 2, 4, 8} {
		t, err := synth.DemoMPI.Generate(p, fmt.Sprintf("mpi-np%d", p))
		if err != nil {
			log.Fatal(err)
		}
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
	// The times follow from synth.DemoMPI, in µs: 5e4 + 4e5 + 1e5 +
	// 1.1·16e6/p + 2e4·log2(p) for p > 1 (the slowest rank's share of the
	// work), 16.55e6 at p = 1: 9.37e6, 4.99e6 and 2.81e6, so the speedups
	// are 16.55/9.37 = 1.766, 3.317 and 5.890, and the Karp-Flatt serial
	// fraction at p = 8 is (1/5.890 − 1/8)/(1 − 1/8) = 0.0512.

	// Output:
	// p=1 time=16.550 s speedup=1.000 efficiency=1.000
	// p=2 time=9.370 s speedup=1.766 efficiency=0.883
	// p=4 time=4.990 s speedup=3.317 efficiency=0.829
	// p=8 time=2.810 s speedup=5.890 efficiency=0.736
	// Program: efficiency 73.6% at p = 8 (speedup 5.890 against mpi-np1 at p = 1), Karp-Flatt serial fraction 0.05119.
	// Amdahl fit of the program: serial fraction 0.06553, T_1 ≈ 16.7 s.
	// Program model: T(p) = 1.09696e+06 + 1.56438e+07 * p^-1 (SMAPE 3.68%), predicting 2.07 s at p = 16 (95% prediction interval 0 µs to 4.19 s).
	// Stops scaling at p = 4: serial_init (efficiency 25.0%, 8.0% of the time there, 14.2% at p = 8).
	// Stops scaling at p = 4: setup_replicated (efficiency 25.0%, 2.0% of the time there, 3.6% at p = 8).
	// Share growing fastest: MPI_Barrier(), 0.00% at p = 1 → 26.44% at p = 8 (+3.03 points per process).
	// Share growing fastest: serial_init, 2.42% at p = 1 → 14.23% at p = 8 (+1.68 points per process).
	// Share growing fastest: setup_replicated, 0.60% at p = 1 → 3.56% at p = 8 (+0.421 points per process).
}
