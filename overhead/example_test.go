package overhead_test

import (
	"fmt"
	"log"
	"path/filepath"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/drg/reader"
	"github.com/taudb-analyze/taudb-analyze/overhead"
)

// SCALEA's overhead analysis of an MPI program at 1 and 2 processes: the
// total overhead T_o(2) = T(2) − T(1)/2, split into the identified
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
	res, err := overhead.Analyze(trials, []float64{1, 2}, overhead.Options{})
	if err != nil {
		log.Fatal(err)
	}
	tot := res.Table("totals")
	for i := 0; i < tot.NumRows(); i++ {
		fmt.Printf("p=%g T_p=%g us T_o=%g us identified=%g us unidentified=%g us\n", tot.Num("p", i), tot.Num("t_p", i),
			tot.Num("t_o", i), tot.Num("identified", i), tot.Num("unidentified", i))
	}
	// T(1) = 4453569 us and T(2) = 4434760 us (the largest ".TAU
	// application" inclusive time over the ranks), so T_o(2) = 4434760 −
	// 4453569/2 = 2207975.5 us; identified + unidentified = T_o exactly.

	// Output:
	// p=1 T_p=4.453569e+06 us T_o=0 us identified=3198 us unidentified=-3198 us
	// p=2 T_p=4.43476e+06 us T_o=2.2079755e+06 us identified=2.253619e+06 us unidentified=-45643.5 us
}
