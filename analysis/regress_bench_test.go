package analysis

import (
	"testing"

	"github.com/taudb-analyze/taudb-analyze/synth"
)

// BenchmarkRegress times the analysis alone over a history of 100 trials
// of 1,000 regions with one shift (BenchmarkRegressPostgres in the CLI
// adds reading the trials from PostgreSQL).
func BenchmarkRegress(b *testing.B) {
	h, err := synth.GenerateHistory(synth.HistorySpec{Points: 100, MinReps: 1, MaxReps: 1, Regions: 1000, Noise: 0.02, Seed: 1,
		Shifts: []synth.Shift{{At: 60, Regions: []int{999}, Size: 0.1}}})
	if err != nil {
		b.Fatal(err)
	}
	vals := make([]string, len(h.Trials))
	for i, t := range h.Trials {
		vals[i] = t.Metadata[synth.OrderKeyDefault]
	}
	s, err := NewHistory(h.Trials, vals)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		res, err := Regress(s, RegressOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if res.Table("changes").NumRows() == 0 {
			b.Fatal("the injected shift was not found")
		}
	}
}
