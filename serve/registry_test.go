package serve

import (
	"testing"

	"github.com/taudb-analyze/taudb-analyze/registry"
)

// TestRegisteredAnalyses: the form offers every registered analysis with
// its trials and typed options.
func TestRegisteredAnalyses(t *testing.T) {
	specs := RegisteredAnalyses()
	if len(specs) != len(registry.Names()) {
		t.Fatalf("%d analyses, the registry has %d", len(specs), len(registry.Names()))
	}
	by := map[string]AnalysisSpec{}
	for _, s := range specs {
		by[s.Name] = s
	}
	opt := func(a, o string) OptionSpec {
		for _, x := range by[a].Options {
			if x.Name == o {
				return x
			}
		}
		t.Fatalf("%s has no option %s", a, o)
		return OptionSpec{}
	}
	if o := opt("regions", "top"); o.Type != "int" || o.Default != "10" {
		t.Errorf("regions top: %+v", o)
	}
	if o := opt("regions", "inclusive"); o.Type != "bool" || o.Default != "false" {
		t.Errorf("regions inclusive: %+v", o)
	}
	if c := by["compare"]; c.MinTrials != 2 || c.MaxTrials != 2 {
		t.Errorf("compare takes %d–%d trials", c.MinTrials, c.MaxTrials)
	}
	if i := by["imbalance"]; i.MinTrials != 1 || i.MaxTrials != 1 {
		t.Errorf("imbalance takes %d–%d trials", i.MinTrials, i.MaxTrials)
	}
	if s := by["speedup"]; s.MinTrials != 2 || s.MaxTrials != 0 {
		t.Errorf("speedup takes %d–%d trials", s.MinTrials, s.MaxTrials)
	}
	if _, _, err := SetOptions("regions", map[string]string{"top": "x"}); err == nil {
		t.Error("top=x accepted")
	}
	if _, _, err := SetOptions("nosuch", nil); err == nil {
		t.Error("an unknown analysis accepted")
	}
}
