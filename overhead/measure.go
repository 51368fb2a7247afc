package overhead

import (
	"math"
	"strings"

	"github.com/taudb-analyze/taudb-analyze/analysis"
	"github.com/taudb-analyze/taudb-analyze/drg"
)

// regionStat is one region of one experiment.
type regionStat struct {
	name     string
	cls      class
	q        int     // processes that executed it (whole trial)
	ran      bool    // the view's chosen processes executed it (all of them, for one process)
	time     float64 // A_K t_k(r): its time in the view, absent as 0
	sum      float64 // S(r): Σ over every process of the trial
	kind     string  // loss kind, "" for none
	claim    float64 // the loss it claims before the budget (λ or ρ)
	fromWait bool    // the claim is paid from synchronization, not from work
	loss     float64 // loss(r) after the budget
	overhead float64 // what the region contributes to the overheads
}

// catSub names a sub-category.
type catSub struct {
	cat Category
	sub string
}

// expStats holds one experiment's figures.
type expStats struct {
	index      int
	p          float64
	units      int // processes (or threads) of the trial
	viewUnits  int // of them in the view
	chosen     []int
	defined    bool
	tp         float64 // A_K T_k
	tmax       float64 // the largest T_k of the view
	ideal      float64
	work       float64 // W = T_p − Σ rule categories
	cat        map[Category]float64
	sub        map[catSub]float64
	regions    []regionStat
	sumByName  map[string]float64 // S(r) by region name, whole trial
	qByName    map[string]int
	usefulSum  float64 // Σ_k W_k over every process of the trial (T_s of a baseline)
	to         float64
	excess     float64 // X = W − T_s/p
	waitClaim  float64 // Λ_w: loss paid from synchronization
	workClaim  float64 // Λ_x: loss paid from the work excess
	identified float64
	unident    float64
}

// units maps each thread of trial i to its unit of parallelism and says
// which units are in the view.
type units struct {
	of     []int  // thread → unit
	inView []bool // per thread
	unitIn []bool // per unit
	n, nv  int
}

func (c *config) units(i int, view bool) units {
	t := c.trials[i]
	u := units{of: make([]int, len(t.Threads)), inView: make([]bool, len(t.Threads))}
	idx := map[int]int{}
	for th, x := range t.Threads {
		key := th
		if c.unit == UnitProcess {
			key = x.Node
		}
		k, ok := idx[key]
		if !ok {
			k = len(idx)
			idx[key] = k
		}
		u.of[th] = k
	}
	u.n = len(idx)
	u.unitIn = make([]bool, u.n)
	for th, x := range t.Threads {
		if !view || c.restrict.admits(x) {
			u.inView[th] = true
			if !u.unitIn[u.of[th]] {
				u.unitIn[u.of[th]] = true
				u.nv++
			}
		}
	}
	return u
}

// choose returns the view's chosen processes K: every unit of the view for
// the mean, else the one whose T_k is the largest (max) or smallest (min),
// the lowest index on a tie.
func (c *config) choose(u units, tk []float64) []int {
	var all []int
	best := -1
	for k := 0; k < u.n; k++ {
		if !u.unitIn[k] {
			continue
		}
		all = append(all, k)
		switch {
		case best < 0:
			best = k
		case c.agg == analysis.AggregateMax && tk[k] > tk[best]:
			best = k
		case c.agg == analysis.AggregateMin && tk[k] < tk[best]:
			best = k
		}
	}
	if c.agg == analysis.AggregateMean || best < 0 {
		return all
	}
	return []int{best}
}

// measure computes the raw figures of trial i; view applies the
// restriction (the baseline's T_s and reference sums never do).
func (c *config) measure(i int, view bool) *expStats {
	t := c.trials[i]
	m := c.metrics[i]
	u := c.units(i, view)
	e := &expStats{index: i, p: c.p[i], units: u.n, viewUnits: u.nv, defined: u.nv > 0,
		cat: map[Category]float64{}, sub: map[catSub]float64{},
		sumByName: map[string]float64{}, qByName: map[string]int{}}
	if !e.defined {
		return e
	}
	main := t.MainInclusive(m)
	tk := make([]float64, u.n)
	allTk := make([]float64, u.n)
	for th := range t.Threads {
		allTk[u.of[th]] = math.Max(allTk[u.of[th]], main[th])
		if u.inView[th] {
			tk[u.of[th]] = math.Max(tk[u.of[th]], main[th])
		}
	}
	e.chosen = c.choose(u, tk)
	weight := 1 / float64(len(e.chosen))
	inK := make([]bool, u.n)
	for _, k := range e.chosen {
		inK[k] = true
		e.tp += weight * tk[k]
	}
	for k := 0; k < u.n; k++ {
		if u.unitIn[k] {
			e.tmax = math.Max(e.tmax, tk[k])
		}
	}
	overheadK := c.regionPass(e, t, m, u, inK, weight)
	for k := 0; k < u.n; k++ {
		e.usefulSum += math.Max(0, allTk[k]-overheadK[k])
	}
	return e
}

// regionPass adds every flat region of trial t to e, sums the rule
// categories of the chosen processes and returns, per process of the whole
// trial, the time of its regions in rule categories.
func (c *config) regionPass(e *expStats, t *drg.Trial, m int, u units, inK []bool, weight float64) []float64 {
	ex := t.Values[m].Exclusive
	nt := len(t.Threads)
	all := make([]float64, u.n)
	stamp := make([]int, u.n)
	overheadK := make([]float64, u.n)
	var touched []int
	for gen, f := range t.Flat() {
		reg := &t.Regions[t.Nodes[f].Region]
		if strings.HasPrefix(reg.Name, "[INTERMEDIATE] ") {
			continue // time the enclosing timers already hold, as in package analysis
		}
		touched = touched[:0]
		for th := 0; th < nt; th++ {
			cell := f*nt + th
			if !t.Present.Get(cell) {
				continue
			}
			k := u.of[th]
			if stamp[k] != gen+1 {
				stamp[k] = gen + 1
				all[k] = 0
				touched = append(touched, k)
			}
			all[k] += ex[cell]
		}
		if len(touched) == 0 {
			continue
		}
		cls := c.classify(reg)
		rs := regionStat{name: reg.Name, cls: cls, q: len(touched)}
		ranK := 0
		for _, k := range touched {
			rs.sum += all[k]
			if inK[k] {
				rs.time += weight * all[k]
				ranK++
			}
			if cls.cat != Computation {
				overheadK[k] += all[k]
			}
		}
		rs.ran = ranK > 0
		e.sumByName[reg.Name] += rs.sum
		e.qByName[reg.Name] = max(e.qByName[reg.Name], rs.q)
		if cls.cat != Computation {
			e.cat[cls.cat] += rs.time
			e.sub[catSub{cls.cat, cls.sub}] += rs.time
		}
		e.regions = append(e.regions, rs)
	}
	return overheadK
}

// claims decides each computation region's loss kind and the loss it
// claims (see Analyze): λ(r) = S(r)/q − S(r)/p for a region run by q < p
// processes, paid from synchronization when the chosen processes did not
// run it or are all the processes (the mean), else from their work excess
// as A_K t_k(r) − S(r)/p; ρ(r) = A_K t_k(r) − S_b(r)/p for replicated code,
// paid from the work excess. Negative claims are 0.
func (c *config) claims(e *expStats, view bool) {
	p := e.p
	if !view || p <= 1 {
		return
	}
	allK := len(e.chosen) == e.units && e.units > 1
	for j := range e.regions {
		r := &e.regions[j]
		if r.cls.cat != Computation || r.sum <= 0 {
			continue
		}
		q := float64(r.q)
		switch {
		case q < p:
			r.kind = SubPartial
			if q == 1 {
				r.kind = SubUnparallelized
			}
			if allK || !r.ran {
				r.claim, r.fromWait = r.sum/q-r.sum/p, true
			} else {
				r.claim = math.Max(0, r.time-r.sum/p)
			}
		case c.replicated(r.name, r.sum/q, p):
			r.kind = SubReplicated
			r.claim = math.Max(0, r.time-c.baseSum[r.name]/p)
		}
		if r.fromWait {
			e.waitClaim += r.claim
		} else {
			e.workClaim += r.claim
		}
	}
}

// replicated is the replicated-code test of a region executed by every
// process with mean time m per process.
func (c *config) replicated(name string, m, p float64) bool {
	pb := c.p[c.baseline]
	mb := c.baseMean(name)
	if !(p > pb) || !(mb > 0) {
		return false
	}
	ideal := pb / p
	return m/mb >= ideal+c.theta*(1-ideal)
}

// baseMean is S_b(r)/q_b(r), the baseline's mean time per executing
// process of the region named name (0 when it lacks the region).
func (c *config) baseMean(name string) float64 {
	q := c.baseQ[name]
	if q == 0 {
		return 0
	}
	return c.baseSum[name] / float64(q)
}
