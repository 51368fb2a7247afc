package overhead_test

import (
	"fmt"
	"log"

	"github.com/taudb-analyze/taudb-analyze/analysis"
	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/overhead"
	"github.com/taudb-analyze/taudb-analyze/synth"
)

// SCALEA's overhead analysis of an MPI program at 1 and 2 processes: the
// total overhead T_o(2) = T(2) − T_s/2, split into the identified
// categories and the unidentified rest. The program is the demo's
// (synth.DemoMPI), whose every overhead is known.
func ExampleAnalyze() {
	var trials []*drg.Trial
	for _, p := range []int{1, 2} {
		t, err := synth.DemoMPI.Generate(p, fmt.Sprintf("mpi-np%d", p))
		if err != nil {
			log.Fatal(err)
		}
		trials = append(trials, t)
	}
	s, err := analysis.NewSeries(trials, "", "") // p = the distinct TAU node ranks: 1, 2
	if err != nil {
		log.Fatal(err)
	}
	res, err := overhead.Analyze(s, overhead.Options{})
	if err != nil {
		log.Fatal(err)
	}
	tot := res.Table("totals")
	for i := 0; i < tot.NumRows(); i++ {
		fmt.Printf("p=%g T_p=%g us T_o=%g us identified=%g us unidentified=%g us\n", tot.Num("p", i), tot.Num("t_p", i),
			tot.Num("t_o", i), tot.Num("identified", i), tot.Num("unidentified", i))
	}
	// In µs: T(1) = 5e4 (MPI_Init and MPI_Finalize) + 4e5 (serial setup) +
	// 1e5 (replicated) + 16e6 (work) = 16.55e6 and T_s = 16.5e6, so T_o(1)
	// is the 5e4 of MPI control. T(2) = 5e4 + 4e5 + 1e5 + 8.8e6 (the
	// slower rank's share, 8e6·1.1) + 2e4 (one exchange) = 9.37e6, so
	// T_o(2) = 9.37e6 − 16.5e6/2 = 1.12e6, all of it in categories
	// (see synth.OverheadSpec.Overheads): nothing is unidentified.

	// Output:
	// p=1 T_p=1.655e+07 us T_o=50000 us identified=50000 us unidentified=0 us
	// p=2 T_p=9.37e+06 us T_o=1.12e+06 us identified=1.12e+06 us unidentified=0 us
}
