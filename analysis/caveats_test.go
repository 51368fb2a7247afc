package analysis

import (
	"fmt"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/synth"
)

// TestOversubscribed: 8 ranks, 4 per host by the generator; with "CPU
// Cores" 4 no host is oversubscribed, with 2 both are (4 ranks on 2 cores),
// and the first host is named.
func TestOversubscribed(t *testing.T) {
	tr, err := synth.OverheadSpec{Work: 1e6, CoresPerHost: 4}.Generate(8, "x")
	if err != nil {
		t.Fatal(err)
	}
	if o, ok := Oversubscribed(tr); ok {
		t.Errorf("4 ranks per 4-core host reported oversubscribed: %v", o)
	}
	for th := range tr.Threads {
		tr.Threads[th].Metadata["CPU Cores"] = "2"
	}
	o, ok := Oversubscribed(tr)
	if !ok || o != (Oversubscription{Host: "node000", Ranks: 4, Cores: 2}) || o.String() != "4 ranks on the 2 cores of node000" {
		t.Errorf("Oversubscribed = %v, %v", o, ok)
	}
	noMeta, _ := synth.OverheadSpec{Work: 1e6}.Generate(8, "y")
	if _, ok := Oversubscribed(noMeta); ok {
		t.Error("no host metadata: nothing can be said")
	}
}

// TestWorkDoesNotShrink: a series whose every process does the whole work
// (replicated code only: 1 s on every rank at every p) is flagged in
// speedup and scalability; a divided one (1 s of work split p ways) is not.
func TestWorkDoesNotShrink(t *testing.T) {
	const flag = "The mean time per process does not shrink with p"
	series := func(spec synth.OverheadSpec) Series {
		var trials []*drg.Trial
		for _, p := range []int{1, 2, 4, 8} {
			tr, err := spec.Generate(p, fmt.Sprintf("p%d", p))
			if err != nil {
				t.Fatal(err)
			}
			trials = append(trials, tr)
		}
		s, err := NewSeries(trials, "", "")
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	whole, divided := series(synth.OverheadSpec{Replicated: 1e6}), series(synth.OverheadSpec{Work: 1e6})
	for name, s := range map[string]Series{"whole": whole, "divided": divided} {
		sp, err := Speedup(s, SpeedupOptions{})
		if err != nil {
			t.Fatal(err)
		}
		sc, err := Scalability(s, ScalabilityOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, res := range []*Result{sp, sc} {
			f := findingWith(res, flag)
			if (name == "whole") != (f != "") {
				t.Errorf("%s %s: finding %q", name, res.Analysis, f)
			}
			if name == "whole" && !strings.Contains(f, "(perfect division: 0.125×)") {
				t.Errorf("finding %q", f)
			}
		}
	}
}
