package overhead_test

import (
	"fmt"
	"log"
	"path/filepath"

	"github.com/taudb-analyze/taudb-analyze/analysis"
	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/drg/reader"
	"github.com/taudb-analyze/taudb-analyze/overhead"
)

// SCALEA's overhead analysis of an MPI program at 1 and 2 processes: the
// total overhead T_o(2) = T(2) − T_s/2, split into the identified
// categories and the unidentified rest.
func ExampleAnalyze() {
	dir := filepath.Join("..", "testdata", "real", "ParaToolsInc-taucmdr", "jupyter", "east02-mm-profile")
	var trials []*drg.Trial
	for _, f := range []string{"0", "1"} {
		t, err := reader.Read(filepath.Join(dir, f), "")
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
	// T(1) = 4453569 us, of which 3198 us in MPI: T_s = 4450371 us, the
	// useful work of the 1-process run, whose own T_o is its MPI time.
	// T(2) = 4434717.5 us (the mean of the ranks' ".TAU application"
	// inclusive times), so T_o(2) = 4434717.5 − 4450371/2 = 2209532 us;
	// identified + unidentified = T_o exactly.

	// Output:
	// p=1 T_p=4.453569e+06 us T_o=3198 us identified=3198 us unidentified=0 us
	// p=2 T_p=4.4347175e+06 us T_o=2.209532e+06 us identified=2.207993e+06 us unidentified=1539 us
}
