package drg

// MainInclusive returns, for each thread, the largest inclusive value of
// metric m over all of the thread's nodes: the inclusive value of the
// thread's main region, which percentages are relative to.
func (t *Trial) MainInclusive(m int) []float64 {
	nt := len(t.Threads)
	out := make([]float64, nt)
	if sp := t.Sparse; sp != nil {
		for i, v := range sp.Inclusive[m] {
			if th := sp.Thread[i]; v > out[th] {
				out[th] = v
			}
		}
		return out
	}
	incl := t.Values[m].Inclusive
	for n := range t.Nodes {
		row := incl[n*nt : (n+1)*nt]
		for th, v := range row {
			if v > out[th] {
				out[th] = v
			}
		}
	}
	return out
}

// Percent returns value as a percentage of main: 100*value/main, or 0 when
// main is 0 (as TAU's loader writes it).
func Percent(value, main float64) float64 {
	if main == 0 {
		return 0
	}
	return 100 * value / main
}

// DerivedMain returns the main-region inclusive value a derived thread's
// percentages are relative to: Σ_t main_t for Total, and the mean Σ_t main_t/N
// for every other derived thread (so that MIN, MAX, both MEANs and both
// STDDEVs are percentages of the mean thread's main region). TAU's loader
// differs for MEAN (nulls ignored) inclusive and for the STDDEV rows; see the
// store package's documentation.
func DerivedMain(mainPerThread []float64, d DerivedThread) float64 {
	var sum float64
	for _, v := range mainPerThread {
		sum += v
	}
	if d == Total || len(mainPerThread) == 0 {
		return sum
	}
	return sum / float64(len(mainPerThread))
}

// MainRegion returns the index of the trial's main region: the region whose
// flat node has the largest total inclusive value of metric m over threads
// (".TAU application" or "main" in TAU's output), or -1 for an empty trial.
func (t *Trial) MainRegion(m int) int {
	if m < 0 || m >= len(t.Values) {
		return -1
	}
	nt := len(t.Threads)
	best, bestV := -1, -1.0
	for r := range t.Regions {
		f := t.Regions[r].Flat
		var sum float64
		if t.Sparse != nil {
			for _, v := range t.Col(ColInclusive, m).Row(f) {
				sum += v
			}
		} else {
			for _, v := range t.Values[m].Inclusive[f*nt : (f+1)*nt] {
				sum += v
			}
		}
		if sum > bestV {
			best, bestV = r, sum
		}
	}
	return best
}
