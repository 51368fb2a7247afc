package registry_test

import (
	"context"
	"fmt"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/registry"
	"github.com/taudb-analyze/taudb-analyze/synth"
)

// A Go program runs an analysis as the command line and studies do: look
// it up, take its defaults, set options by name (or through the typed
// struct), and run it on trials read from files or from the store.
func Example() {
	var trials []*drg.Trial
	for _, p := range []int{1, 2, 4, 8} {
		t, err := synth.DemoMPI.Generate(p, fmt.Sprintf("mpi-np%d", p))
		if err != nil {
			panic(err)
		}
		trials = append(trials, t)
	}
	a, err := registry.Lookup("speedup")
	if err != nil {
		panic(err)
	}
	o := a.Defaults()
	if err := a.Set(o, "aggregate", "mean"); err != nil {
		panic(err)
	}
	o.(*registry.Speedup).Weak = false
	out, err := a.Run(context.Background(), o, registry.Input{Trials: trials})
	if err != nil {
		panic(err)
	}
	prog := out.Result.Table("program")
	for i := 0; i < prog.NumRows(); i++ {
		fmt.Printf("p=%g speedup %.2f\n", prog.Num("p", i), prog.Num("speedup", i))
	}
	fmt.Println(a.Trials, len(registry.Names()), "analyses")
	// Output:
	// p=1 speedup 1.00
	// p=2 speedup 1.77
	// p=4 speedup 3.32
	// p=8 speedup 5.89
	// a series 13 analyses
}
