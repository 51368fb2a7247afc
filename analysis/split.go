package analysis

import (
	"fmt"

	"github.com/taudb-analyze/taudb-analyze/classify"
	"github.com/taudb-analyze/taudb-analyze/drg"
)

// splitClasses are the class columns of every split of time by class
// (Summary's tables, Imbalance's "split", Multiset's "split"), in order:
// computation, mpi, openmp, io, other. Sampled regions are skipped.
var splitClasses = classify.SummedClasses()

// prepareRules returns the checked rules an analysis classifies regions by:
// rules, or classify.Default() when rules is nil.
func prepareRules(rules []classify.Rule) ([]classify.Rule, error) {
	if rules == nil {
		return classify.Default(), nil
	}
	rs, err := classify.Prepare(rules)
	if err != nil {
		return nil, fmt.Errorf("classification rules: %w", err)
	}
	return rs, nil
}

// regionClasses returns the class of every region of t under rules,
// indexed like t.Regions (each region classified once).
func regionClasses(t *drg.Trial, rules []classify.Rule) []classify.Class {
	out := make([]classify.Class, len(t.Regions))
	for i := range t.Regions {
		out[i] = classify.ClassOf(rules, &t.Regions[i])
	}
	return out
}

// classMeans returns, per class of rules, the mean over t's threads of the
// exclusive values of metric m summed over the class's flat regions (a
// thread without a region counts 0 for it).
func classMeans(t *drg.Trial, m int, rules []classify.Rule) map[string]float64 {
	nt := len(t.Threads)
	out := map[string]float64{}
	if nt == 0 {
		return out
	}
	ex := t.Values[m].Exclusive
	cls := regionClasses(t, rules)
	for _, f := range t.Flat() {
		c := cls[t.Nodes[f].Region]
		if c == classify.ClassSampled {
			continue
		}
		var s float64
		for th := 0; th < nt; th++ {
			if t.Present.Get(f*nt + th) {
				s += ex[f*nt+th]
			}
		}
		out[c] += s / float64(nt)
	}
	return out
}

// splitTable is the time of each experiment split by d.rules into
// computation, MPI, OpenMP, I/O and other (mean over the experiment's
// threads), with each class's percentage of their sum: how a parameter
// (a power cap, a problem size, a process count) moves time between them,
// as PerfExplorer's power-cap study shows. rows lists the experiments (by
// index into d) in table order, with their set and x.
func splitTable(d *seriesData, rows []int, set []string, x []float64, xName string) Table {
	t := Table{Name: "split", Title: fmt.Sprintf("Per experiment, across %s: the %s of the flat regions by class (MPI-IO counts as I/O), mean over the threads, and each class's share of their sum", xName, d.metric)}
	vals := make([][]float64, len(splitClasses))
	pcts := make([][]float64, len(splitClasses))
	names := make([]string, len(rows))
	for i, k := range rows {
		names[i] = d.names[k]
		cm := classMeans(d.exps[k].Trial, d.metrics[k], d.rules)
		var sum float64
		for _, c := range splitClasses {
			sum += cm[c]
		}
		for j, c := range splitClasses {
			vals[j] = append(vals[j], cm[c])
			pcts[j] = append(pcts[j], ratio(100*cm[c], sum, 0))
		}
	}
	t.AddText("set", append([]string(nil), set...))
	t.AddText("experiment", names)
	t.AddNum("x", "", append([]float64(nil), x...))
	for j, c := range splitClasses {
		t.AddNum(c, d.unit, vals[j])
	}
	for j, c := range splitClasses {
		t.AddNum(c+"_percent", "%", pcts[j])
	}
	return t
}
