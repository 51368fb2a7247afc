package overhead

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/taudb-analyze/taudb-analyze/analysis"
	"github.com/taudb-analyze/taudb-analyze/drg"
)

// The aggregates over processes (Options.Aggregate).
const (
	// AggregateMax takes the largest value over the processes: SCALEA's
	// choice, because the slowest process determines T_p. The default.
	AggregateMax = "max"
	// AggregateMean takes the mean over the processes (a process that did
	// not execute a region counts as 0).
	AggregateMean = "mean"
	// AggregateMin takes the smallest value over the processes.
	AggregateMin = "min"
)

// The units of parallelism (Options.Unit).
const (
	// UnitProcess makes every TAU node rank N (an MPI process) one unit:
	// its value for a region is the sum over its threads, its execution
	// time the largest main-region inclusive value of its threads. The
	// default.
	UnitProcess = "process"
	// UnitThread makes every thread N.C.T one unit (for OpenMP or pthread
	// programs: give p as the number of threads).
	UnitThread = "thread"
)

// DefaultReplicatedThreshold is the default Options.ReplicatedThreshold.
const DefaultReplicatedThreshold = 0.5

// Options select how Analyze computes the overheads. The zero value selects
// every default.
type Options struct {
	// Baseline is the index in trials of the baseline experiment; nil
	// selects the first trial with p = 1, or, with none, the first trial
	// with the smallest p. The baseline gives T_s (see Analyze) and the
	// per-region reference times of the replicated-code test.
	Baseline *int
	// SequentialTime, when positive, is T_s itself (in the metric's unit,
	// microseconds for time), overriding the baseline's T_s; the baseline
	// still serves the replicated-code test.
	SequentialTime float64
	// Metric is the metric's name; "" selects the first time metric of the
	// first trial (drg.Trial.TimeMetric). Every trial must have it.
	Metric string
	// Aggregate combines the processes' values: AggregateMax (default),
	// AggregateMean or AggregateMin.
	Aggregate string
	// Unit is the unit of parallelism whose count p gives: UnitProcess
	// (default) or UnitThread. With threads, a worker thread's top-level
	// timer (".TAU application") holds the time the worker was idle, for
	// instance while the master ran serial code s; when that matches the
	// baseline's serial time the region is reported as replicated code,
	// with the loss s*(p-1)/p that the master's serial code causes.
	Unit string
	// Rules classify the regions, first match wins; nil selects
	// DefaultRules(). A non-nil empty slice classifies nothing (every
	// region is computation).
	Rules []Rule
	// Restrict limits every figure to one process ("N", a TAU node rank)
	// or one thread ("N.C.T"); "" keeps all. T_s and the loss-of-
	// parallelism tests (which processes executed a region) always use
	// the whole trial.
	Restrict string
	// Region limits the regions table to the regions with this name: the
	// full name, or the name without TAU's decorations and with or without
	// "()" ("MPI_Send", "void compute(double **) C"). "" lists all.
	Region string
	// Category limits the category table to one overhead category ("" for
	// all five).
	Category string
	// Top limits the category table to the n regions with the largest
	// overhead per category and experiment; 0 lists all.
	Top int
	// ReplicatedThreshold is θ of the replicated-code test (see Analyze),
	// in [0, 1]; 0 selects DefaultReplicatedThreshold (0.5). A region is
	// replicated when its time per process shrank by less than the
	// fraction θ of the way from no change to perfect division.
	ReplicatedThreshold float64
}

// ProcessCount returns the number of distinct TAU node ranks N among t's
// threads: the number of processes p a caller should normally pass for t.
func ProcessCount(t *drg.Trial) int {
	seen := map[int]bool{}
	for _, th := range t.Threads {
		seen[th.Node] = true
	}
	return len(seen)
}

// Analyze is SCALEA's overhead analysis over a set of experiments: trial i
// ran with p[i] processes (or threads, with Options.Unit = UnitThread).
//
// Definitions (values are the metric's, microseconds for time; "A" is the
// chosen aggregate over the processes k of the view):
//
//	T_k        = max over k's threads of the main region's inclusive value
//	             (drg.Trial.MainInclusive: per thread the largest inclusive
//	             value)
//	T_p        = A_k T_k, the execution time of the experiment
//	T_s        = Options.SequentialTime if given; else T_1 of the baseline
//	             when it ran with p_b = 1 process; else p_b * T_b (the
//	             baseline's T_p, scaled: the smallest-p baseline assumes
//	             perfect scaling up to p_b). T_b is taken over all of the
//	             baseline's processes, whatever Options.Restrict says.
//	T_o        = T_p - T_s/p (negative with superlinear speedup: reported,
//	             not clipped)
//	t_k(r)     = Σ over k's threads of region r's exclusive value (flat view,
//	             drg.Trial.Flat: no value counted twice; absent = 0)
//	C(c)       = A_k Σ_{r in c} t_k(r) for c = data movement,
//	             synchronization, control of parallelism, additional
//	             computation: the same aggregate of the per-process category
//	             sums; a sub-category likewise, so that sub-categories add
//	             up to their category only for the mean
//	Q(r), q    = the processes that executed r (have a record for it), in
//	             the whole trial; S(r) = Σ_{k in Q} t_k(r)
//	loss(r)    = for a computation region r (no rule, or a rule that says
//	             computation) when p > 1:
//	             unparallelized (q = 1) and partially parallelized
//	             (1 < q < p): A_{k in Q} t_k(r) - S(r)/p, the time r adds
//	             beyond its ideal share S(r)/p (for max: max_k t_k - Σ_k
//	             t_k/p; for the mean: S(r)/q - S(r)/p; A runs over the
//	             processes of the view that executed r, and loss(r) = 0
//	             when the view holds none of them);
//	             replicated (q >= p and the per-process time did not shrink
//	             as the work was divided, see below): A_{k in Q} t_k(r) *
//	             (p-1)/p, since each process did all of the work that
//	             p processes could have shared
//	C(loss)    = Σ_r loss(r) (per region, then summed)
//	identified = C(data movement) + C(synchronization) + C(control of
//	             parallelism) + C(additional computation) + C(loss), in that
//	             order
//	unidentified = T_o - identified, exactly
//
// A region counted in a category by a rule is never counted again as loss
// of parallelism: only computation regions are tested for it.
//
// The replicated-code test compares the mean time per executing process,
// m(r) = S(r)/q, with the baseline's m_b(r) (same region name): with
// perfect division m/m_b = p_b/p, with replication (every process doing the
// whole work) m/m_b = 1. r is replicated when p > p_b, m_b > 0 and
// m/m_b >= p_b/p + θ(1 - p_b/p), θ = Options.ReplicatedThreshold. Regions
// the baseline lacks, and every region when p <= p_b (the baseline itself
// with p_b > 1 included), cannot be tested and are never replicated.
//
// Exactness: all the figures of one experiment are rounded to a common
// binary grid q = 2^(e-52), where 2^e exceeds twice the sum of their
// magnitudes (a change of at most q/2, a few units in the last place of
// the largest figure). On that grid every sum and difference above is
// exact, so T_o == T_p - T_s/p, identified == the sum of the category rows
// and identified + unidentified == T_o hold to the last bit in float64.
//
// With Options.Restrict every figure is the restricted process's or
// thread's (A over one process is that process's value); an experiment
// that lacks the process or thread gets undefined (NaN) figures.
//
// The result holds four tables:
//
//   - "experiments" (SCALEA's Figure 13): one row per category (with its
//     sub-category rows after it), then "total identified", "unidentified",
//     "total overhead" (T_o), "total execution time" (T_p) and "ideal time"
//     (T_s/p); text columns category and sub, then one number column per
//     experiment, named p<p> ("p8"; p<p>_<index> when two trials share a p).
//   - "totals": one row per experiment: experiment, trial, p, units (the
//     trial's processes or threads), baseline, t_p, ideal, t_o, identified,
//     unidentified, one column per category, speedup = T_s/T_p, efficiency
//     = T_s/(p*T_p), overhead_percent = 100*T_o/T_p.
//   - "regions" (region-to-overhead): one row per region and experiment in
//     which the region was executed: region, experiment, trial, p,
//     category, sub, rule (the id or match of the rule that classified it),
//     units (q), time (A_k t_k(r), absent as 0), overhead (the value r
//     contributes: its time for a rule category, loss(r) for computation,
//     0 otherwise), loss_kind, percent_of_overhead = 100*overhead/T_o.
//     Sorted by the region's overhead summed over the experiments, largest
//     first.
//   - "category" (overhead-to-region): for each category and experiment,
//     the regions that cause it, largest overhead first: category, sub,
//     experiment, p, rank, region, overhead, percent_of_category =
//     100*overhead/C(category), percent_of_overhead = 100*overhead/T_o.
//     With max or min the regions' overheads need not add up to the
//     category (a max of sums is not a sum of maxes).
//
// A percentage whose denominator is 0 is undefined (NaN).
func Analyze(trials []*drg.Trial, p []float64, opt Options) (*analysis.Result, error) {
	c, err := newConfig(trials, p, opt)
	if err != nil {
		return nil, err
	}
	base := c.measure(c.baseline, false)
	c.baseMean = base.meanPerUnit
	switch {
	case opt.SequentialTime > 0:
		c.ts = opt.SequentialTime
		c.tsRule = "given sequential time"
	case c.p[c.baseline] == 1:
		c.ts = base.tp
		c.tsRule = "T_1 of the 1-process baseline"
	default:
		c.ts = c.p[c.baseline] * base.tp
		c.tsRule = "p_b*T_b of the baseline (perfect scaling up to p_b assumed)"
	}
	exps := make([]*expStats, len(trials))
	for i := range trials {
		exps[i] = c.measure(i, true)
		c.finish(exps[i])
	}
	return c.result(exps)
}

// config holds the checked inputs of one analysis.
type config struct {
	trials    []*drg.Trial
	p         []float64
	opt       Options
	metric    string
	metrics   []int // metric index per trial
	agg       string
	unit      string
	rules     []Rule
	theta     float64
	baseline  int
	restrict  restriction
	catFilter Category
	regionQ   string
	ts        float64
	tsRule    string
	baseMean  map[string]float64
	classes   map[string]class
	subOrder  map[Category][]string
	labels    []string
	columns   []string
}

// class is a region's classification.
type class struct {
	cat  Category
	sub  string
	rule string
}

type restriction struct {
	kind    int // 0 none, 1 process, 2 thread
	node    int
	context int
	thread  int
	text    string
}

func parseRestriction(s string) (restriction, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return restriction{text: "all"}, nil
	}
	parts := strings.Split(s, ".")
	var v [3]int
	for i, x := range parts {
		n, err := strconv.Atoi(strings.TrimSpace(x))
		if err != nil || n < 0 || len(parts) > 3 || len(parts) == 2 {
			return restriction{}, fmt.Errorf("restriction %q: want a process N (a TAU node rank such as 3) or a thread N.C.T (such as 3.0.1)", s)
		}
		v[i] = n
	}
	if len(parts) == 1 {
		return restriction{kind: 1, node: v[0], text: strconv.Itoa(v[0])}, nil
	}
	return restriction{kind: 2, node: v[0], context: v[1], thread: v[2], text: fmt.Sprintf("%d.%d.%d", v[0], v[1], v[2])}, nil
}

func (r restriction) admits(th drg.Thread) bool {
	switch r.kind {
	case 1:
		return th.Node == r.node
	case 2:
		return th.Node == r.node && th.Context == r.context && th.Thread == r.thread
	}
	return true
}

func newConfig(trials []*drg.Trial, p []float64, opt Options) (*config, error) {
	if len(trials) == 0 {
		return nil, fmt.Errorf("overhead analysis needs at least one trial")
	}
	if len(p) != len(trials) {
		return nil, fmt.Errorf("overhead analysis: %d trials but %d process counts", len(trials), len(p))
	}
	c := &config{trials: trials, p: p, opt: opt, classes: map[string]class{}, subOrder: map[Category][]string{}}
	for i, t := range trials {
		if t == nil {
			return nil, fmt.Errorf("trial %d is nil", i)
		}
		if len(t.Threads) == 0 || len(t.Metrics) == 0 {
			return nil, fmt.Errorf("trial %d (%q) has no thread or no metric", i, t.Name)
		}
		if !(p[i] >= 1) || p[i] != math.Trunc(p[i]) || math.IsInf(p[i], 0) {
			return nil, fmt.Errorf("trial %d (%q): p = %v, want a whole number of processes >= 1", i, t.Name, p[i])
		}
	}
	c.metric = opt.Metric
	if c.metric == "" {
		c.metric = trials[0].Metrics[trials[0].TimeMetric()].Name
	}
	for i, t := range trials {
		m := t.MetricIndex(c.metric)
		if m < 0 {
			names := make([]string, len(t.Metrics))
			for j, x := range t.Metrics {
				names[j] = strconv.Quote(x.Name)
			}
			return nil, fmt.Errorf("trial %d (%q) has no metric %q (it has %s); name a metric every trial has", i, t.Name, c.metric, strings.Join(names, ", "))
		}
		c.metrics = append(c.metrics, m)
	}
	c.agg = strings.ToLower(strings.TrimSpace(opt.Aggregate))
	if c.agg == "" {
		c.agg = AggregateMax
	}
	if c.agg != AggregateMax && c.agg != AggregateMean && c.agg != AggregateMin {
		return nil, fmt.Errorf("aggregate %q: want %q (default), %q or %q", opt.Aggregate, AggregateMax, AggregateMean, AggregateMin)
	}
	c.unit = strings.ToLower(strings.TrimSpace(opt.Unit))
	if c.unit == "" {
		c.unit = UnitProcess
	}
	if c.unit != UnitProcess && c.unit != UnitThread {
		return nil, fmt.Errorf("unit %q: want %q (default) or %q", opt.Unit, UnitProcess, UnitThread)
	}
	rules := opt.Rules
	if rules == nil {
		rules = DefaultRules()
	}
	var err error
	if c.rules, err = prepare(rules); err != nil {
		return nil, err
	}
	c.theta = opt.ReplicatedThreshold
	if c.theta == 0 {
		c.theta = DefaultReplicatedThreshold
	}
	if !(c.theta >= 0 && c.theta <= 1) {
		return nil, fmt.Errorf("replicated threshold %v: want a value in [0, 1]", opt.ReplicatedThreshold)
	}
	if opt.SequentialTime < 0 || math.IsNaN(opt.SequentialTime) || math.IsInf(opt.SequentialTime, 0) {
		return nil, fmt.Errorf("sequential time %v: want a positive, finite value (or 0 for the baseline's)", opt.SequentialTime)
	}
	if opt.Top < 0 {
		return nil, fmt.Errorf("top %d: want 0 (all) or a positive count", opt.Top)
	}
	if opt.Baseline != nil {
		b := *opt.Baseline
		if b < 0 || b >= len(trials) {
			return nil, fmt.Errorf("baseline %d: want the index of one of the %d trials (0 to %d)", b, len(trials), len(trials)-1)
		}
		c.baseline = b
	} else {
		c.baseline = -1
		for i := range trials {
			if p[i] == 1 {
				c.baseline = i
				break
			}
		}
		if c.baseline < 0 {
			c.baseline = 0
			for i := range trials {
				if p[i] < p[c.baseline] {
					c.baseline = i
				}
			}
		}
	}
	if c.restrict, err = parseRestriction(opt.Restrict); err != nil {
		return nil, err
	}
	if c.restrict.kind != 0 {
		found := false
		for _, t := range trials {
			for _, th := range t.Threads {
				if c.restrict.admits(th) {
					found = true
				}
			}
		}
		if !found {
			return nil, fmt.Errorf("restriction %s: no trial has this %s", c.restrict.text, map[int]string{1: "process", 2: "thread"}[c.restrict.kind])
		}
	}
	if opt.Category != "" {
		cat, err := ParseCategory(opt.Category)
		if err != nil {
			return nil, err
		}
		if cat == Unidentified || cat == Computation {
			return nil, fmt.Errorf("category %q has no regions to rank; want one of %s", cat, categoryList(OverheadCategories()))
		}
		c.catFilter = cat
	}
	c.regionQ = strings.TrimSpace(opt.Region)
	if c.regionQ != "" {
		found := false
		for _, t := range trials {
			for i := range t.Regions {
				if regionIs(&t.Regions[i], c.regionQ) {
					found = true
					break
				}
			}
		}
		if !found {
			return nil, fmt.Errorf("no trial has a region %q (give the full name, or the name without its source location, such as \"MPI_Send\" or \"void compute(double **) C\")", c.regionQ)
		}
	}
	c.labels, c.columns = experimentNames(p)
	return c, nil
}

// regionIs reports whether region reg is the one a user named q.
func regionIs(reg *drg.Region, q string) bool {
	if reg.Name == q || reg.Name == drg.CanonicalName(q) {
		return true
	}
	a, b := MatchName(reg.Name), MatchName(q)
	return a == b || strings.TrimSuffix(a, "()") == strings.TrimSuffix(b, "()")
}

// experimentNames returns the experiments' labels ("p=8") and column names
// ("p8"; "p8_3" for the trial at index 3 when two trials share p = 8).
func experimentNames(p []float64) (labels, cols []string) {
	count := map[float64]int{}
	for _, x := range p {
		count[x]++
	}
	for i, x := range p {
		n := strconv.FormatFloat(x, 'f', -1, 64)
		if count[x] > 1 {
			labels = append(labels, fmt.Sprintf("p=%s #%d", n, i))
			cols = append(cols, fmt.Sprintf("p%s_%d", n, i))
		} else {
			labels = append(labels, "p="+n)
			cols = append(cols, "p"+n)
		}
	}
	return labels, cols
}

// classify returns the class of a region, cached by name and groups.
func (c *config) classify(reg *drg.Region) class {
	key := reg.Name + "\x00" + strings.Join(reg.Groups, "|")
	if k, ok := c.classes[key]; ok {
		return k
	}
	k := class{cat: Computation}
	if r, ok := Classify(c.rules, reg); ok {
		k = class{cat: r.Category, sub: r.Sub, rule: r.ID}
		if k.rule == "" {
			k.rule = r.Match
			if k.rule == "" {
				k.rule = "group " + r.Group
			}
		}
	}
	c.classes[key] = k
	return k
}

// regionStat is one region of one experiment.
type regionStat struct {
	name     string
	cls      class
	q        int     // processes that executed it (whole trial)
	time     float64 // A over the view's processes, absent as 0
	kind     string  // loss kind, "" for none
	loss     float64 // loss(r)
	overhead float64 // what the region contributes to the overheads
}

// catSub names a sub-category.
type catSub struct {
	cat Category
	sub string
}

// expStats holds one experiment's figures.
type expStats struct {
	index       int
	p           float64
	units       int // processes (or threads) of the trial
	viewUnits   int // of them in the view
	defined     bool
	tp          float64
	ideal       float64
	cat         map[Category]float64
	sub         map[catSub]float64
	regions     []regionStat
	meanPerUnit map[string]float64 // S(r)/q(r) by region name, whole trial
	to          float64
	identified  float64
	unident     float64
}

// aggregator accumulates values with the configured aggregate.
type aggregator struct {
	kind string
	n    int
	v    float64
}

func (a *aggregator) add(x float64) {
	switch {
	case a.n == 0:
		a.v = x
	case a.kind == AggregateMax:
		a.v = math.Max(a.v, x)
	case a.kind == AggregateMin:
		a.v = math.Min(a.v, x)
	default:
		a.v += x
	}
	a.n++
}

// value returns the aggregate, or 0 when nothing was added.
func (a *aggregator) value() float64 {
	if a.n == 0 {
		return 0
	}
	if a.kind == AggregateMean {
		return a.v / float64(a.n)
	}
	return a.v
}

// measure computes the raw figures of trial i; view applies the
// restriction (the baseline's T_b and reference times never do).
func (c *config) measure(i int, view bool) *expStats {
	t := c.trials[i]
	m := c.metrics[i]
	nt := len(t.Threads)
	// Units of parallelism.
	unitOf := make([]int, nt)
	idx := map[int]int{}
	for th, x := range t.Threads {
		key := th
		if c.unit == UnitProcess {
			key = x.Node
		}
		u, ok := idx[key]
		if !ok {
			u = len(idx)
			idx[key] = u
		}
		unitOf[th] = u
	}
	nu := len(idx)
	inView := make([]bool, nt)
	unitInView := make([]bool, nu)
	nv := 0
	for th, x := range t.Threads {
		if !view || c.restrict.admits(x) {
			inView[th] = true
			if !unitInView[unitOf[th]] {
				unitInView[unitOf[th]] = true
				nv++
			}
		}
	}
	e := &expStats{index: i, p: c.p[i], units: nu, viewUnits: nv, defined: nv > 0,
		cat: map[Category]float64{}, sub: map[catSub]float64{}, meanPerUnit: map[string]float64{}}
	if !e.defined {
		return e
	}
	// T_p.
	main := t.MainInclusive(m)
	tk := make([]float64, nu)
	for th := range t.Threads {
		if inView[th] {
			tk[unitOf[th]] = math.Max(tk[unitOf[th]], main[th])
		}
	}
	aggOver := func(vals []float64) float64 {
		a := aggregator{kind: c.agg}
		for u, v := range vals {
			if unitInView[u] {
				a.add(v)
			}
		}
		return a.value()
	}
	e.tp = aggOver(tk)
	// Regions.
	ex := t.Values[m].Exclusive
	all := make([]float64, nu)
	part := make([]float64, nu)
	ran := make([]bool, nu)
	stamp := make([]int, nu)
	catUnit := map[Category][]float64{}
	subUnit := map[catSub][]float64{}
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
			u := unitOf[th]
			if stamp[u] != gen+1 {
				stamp[u] = gen + 1
				all[u], part[u], ran[u] = 0, 0, false
				touched = append(touched, u)
			}
			all[u] += ex[cell]
			if inView[th] {
				part[u] += ex[cell]
				ran[u] = true
			}
		}
		if len(touched) == 0 {
			continue
		}
		cls := c.classify(reg)
		rs := regionStat{name: reg.Name, cls: cls, q: len(touched)}
		var sum float64
		timeAgg := aggregator{kind: c.agg}
		ranAgg := aggregator{kind: c.agg}
		seen := 0
		for _, u := range touched {
			sum += all[u]
			if ran[u] {
				timeAgg.add(part[u])
				ranAgg.add(part[u])
				seen++
			}
		}
		e.meanPerUnit[reg.Name] = sum / float64(len(touched))
		// Processes of the view that did not execute the region count as 0.
		if c.agg == AggregateMean {
			rs.time = timeAgg.v / float64(nv)
			if seen == 0 {
				rs.time = 0
			}
		} else {
			if seen < nv {
				timeAgg.add(0) // once is enough for max and min
			}
			rs.time = timeAgg.value()
		}
		if cls.cat != Computation {
			rs.overhead = rs.time
			cu, su := catUnit[cls.cat], subUnit[catSub{cls.cat, cls.sub}]
			if cu == nil {
				cu = make([]float64, nu)
				catUnit[cls.cat] = cu
			}
			if su == nil {
				su = make([]float64, nu)
				subUnit[catSub{cls.cat, cls.sub}] = su
			}
			for _, u := range touched {
				if ran[u] {
					cu[u] += part[u]
					su[u] += part[u]
				}
			}
		} else if p := c.p[i]; view && p > 1 {
			q := float64(len(touched))
			switch {
			case q < p:
				rs.kind = SubPartial
				if q == 1 {
					rs.kind = SubUnparallelized
				}
				if seen > 0 {
					rs.loss = ranAgg.value() - sum/p
				}
			case c.replicated(reg.Name, sum/q, p):
				rs.kind = SubReplicated
				if seen > 0 {
					rs.loss = ranAgg.value() * (p - 1) / p
				}
			}
			rs.overhead = rs.loss
		}
		e.regions = append(e.regions, rs)
	}
	for k, v := range catUnit {
		e.cat[k] = aggOver(v)
	}
	for k, v := range subUnit {
		e.sub[k] = aggOver(v)
	}
	return e
}

// replicated is the replicated-code test of a region executed by every
// process with mean time m per process.
func (c *config) replicated(name string, m, p float64) bool {
	pb := c.p[c.baseline]
	mb := c.baseMean[name]
	if !(p > pb) || !(mb > 0) {
		return false
	}
	ideal := pb / p
	return m/mb >= ideal+c.theta*(1-ideal)
}

// finish puts an experiment's figures on its exact grid and derives T_o,
// the loss category, identified and unidentified.
func (c *config) finish(e *expStats) {
	nan := math.NaN()
	if !e.defined {
		e.tp, e.ideal, e.to, e.identified, e.unident = nan, nan, nan, nan, nan
		for _, k := range OverheadCategories() {
			e.cat[k] = nan
		}
		return
	}
	e.ideal = c.ts / e.p
	// The grid: 2^e > 2 * Σ|figures|.
	bound := math.Abs(e.tp) + math.Abs(e.ideal)
	for _, v := range e.cat {
		bound += math.Abs(v)
	}
	for _, v := range e.sub {
		bound += math.Abs(v)
	}
	for _, r := range e.regions {
		bound += math.Abs(r.time) + math.Abs(r.loss)
	}
	round := func(x float64) float64 { return x }
	if bound *= 2; bound > 0 && !math.IsInf(bound, 0) && !math.IsNaN(bound) {
		_, exp := math.Frexp(bound)
		q := math.Ldexp(1, exp-52)
		round = func(x float64) float64 { return math.Round(x/q) * q }
	}
	e.tp, e.ideal = round(e.tp), round(e.ideal)
	for k, v := range e.cat {
		e.cat[k] = round(v)
	}
	for k, v := range e.sub {
		e.sub[k] = round(v)
	}
	var loss float64
	lossSub := map[string]float64{}
	for i := range e.regions {
		r := &e.regions[i]
		r.time, r.loss = round(r.time), round(r.loss)
		if r.cls.cat == Computation {
			r.overhead = r.loss
			if r.kind != "" {
				loss += r.loss
				lossSub[r.kind] += r.loss
			}
		} else {
			r.overhead = r.time
		}
	}
	e.cat[LossOfParallelism] = loss
	for k, v := range lossSub {
		e.sub[catSub{LossOfParallelism, k}] = v
	}
	e.to = e.tp - e.ideal
	e.identified = 0
	for _, k := range OverheadCategories() {
		e.identified += e.cat[k]
	}
	e.unident = e.to - e.identified
}

// unitOfMetric returns the unit of the values: "us" for a time metric.
func (c *config) unitOfMetric() string {
	t := c.trials[0]
	if t.Metrics[c.metrics[0]].IsTime() {
		return "us"
	}
	return c.metric
}

// result builds the tables and findings.
func (c *config) result(exps []*expStats) (*analysis.Result, error) {
	res := &analysis.Result{Analysis: "overhead", Metric: c.metric, Params: map[string]string{}, Findings: []string{}}
	for _, t := range c.trials {
		res.Trials = append(res.Trials, t.Name)
	}
	c.params(res)
	unit := c.unitOfMetric()
	c.collectSubs(exps)
	res.AddTable(c.experimentsTable(exps, unit))
	res.AddTable(c.totalsTable(exps, unit))
	res.AddTable(c.regionsTable(exps, unit))
	res.AddTable(c.categoryTable(exps, unit))
	c.findings(res, exps)
	if err := res.Validate(); err != nil {
		return nil, err
	}
	return res, nil
}

func (c *config) params(res *analysis.Result) {
	ps := make([]string, len(c.p))
	for i, x := range c.p {
		ps[i] = strconv.FormatFloat(x, 'f', -1, 64)
	}
	res.Params["metric"] = c.metric
	res.Params["aggregate"] = c.agg
	res.Params["unit"] = c.unit
	res.Params["p"] = strings.Join(ps, ",")
	res.Params["baseline"] = strconv.Itoa(c.baseline)
	res.Params["baseline_trial"] = c.trials[c.baseline].Name
	res.Params["baseline_p"] = ps[c.baseline]
	res.Params["t_s"] = strconv.FormatFloat(c.ts, 'g', -1, 64)
	res.Params["t_s_rule"] = c.tsRule
	res.Params["sequential_time"] = "baseline"
	if c.opt.SequentialTime > 0 {
		res.Params["sequential_time"] = strconv.FormatFloat(c.opt.SequentialTime, 'g', -1, 64)
	}
	res.Params["restrict"] = c.restrict.text
	res.Params["region"] = orAll(c.regionQ)
	res.Params["category"] = orAll(string(c.catFilter))
	res.Params["top"] = "all"
	if c.opt.Top > 0 {
		res.Params["top"] = strconv.Itoa(c.opt.Top)
	}
	res.Params["replicated_threshold"] = strconv.FormatFloat(c.theta, 'g', -1, 64)
	res.Params["value"] = "exclusive (flat view); T_p from the main region's inclusive value"
	res.Params["rules"] = rulesFingerprint(c.rules)
}

func orAll(s string) string {
	if s == "" {
		return "all"
	}
	return s
}

// rulesFingerprint is "default" for the default rules, otherwise "custom "
// and a SHA-256 prefix of the rules file WriteRules makes of them.
func rulesFingerprint(rules []Rule) string {
	var a, b strings.Builder
	_ = WriteRules(&a, rules)
	_ = WriteRules(&b, defaultRules)
	if a.String() == b.String() {
		return "default"
	}
	sum := sha256.Sum256([]byte(a.String()))
	return "custom sha256:" + hex.EncodeToString(sum[:8])
}

// collectSubs fixes the order of the sub-category rows: rule order for the
// rule categories (subs with a region in some experiment only), then the
// loss kinds.
func (c *config) collectSubs(exps []*expStats) {
	present := map[catSub]bool{}
	for _, e := range exps {
		for _, r := range e.regions {
			if r.cls.cat != Computation {
				present[catSub{r.cls.cat, r.cls.sub}] = true
			} else if r.kind != "" {
				present[catSub{LossOfParallelism, r.kind}] = true
			}
		}
	}
	seen := map[catSub]bool{}
	for _, r := range c.rules {
		k := catSub{r.Category, r.Sub}
		if present[k] && !seen[k] {
			seen[k] = true
			c.subOrder[r.Category] = append(c.subOrder[r.Category], r.Sub)
		}
	}
	for _, kind := range []string{SubUnparallelized, SubPartial, SubReplicated} {
		if present[catSub{LossOfParallelism, kind}] {
			c.subOrder[LossOfParallelism] = append(c.subOrder[LossOfParallelism], kind)
		}
	}
}

func (c *config) experimentsTable(exps []*expStats, unit string) analysis.Table {
	var cats, subs []string
	vals := make([][]float64, len(exps))
	row := func(cat, sub string, get func(e *expStats) float64) {
		cats = append(cats, cat)
		subs = append(subs, sub)
		for i, e := range exps {
			vals[i] = append(vals[i], get(e))
		}
	}
	for _, k := range OverheadCategories() {
		row(string(k), "", func(e *expStats) float64 { return e.cat[k] })
		for _, s := range c.subOrder[k] {
			row(string(k), s, func(e *expStats) float64 {
				if !e.defined {
					return math.NaN()
				}
				return e.sub[catSub{k, s}]
			})
		}
	}
	row("total identified", "", func(e *expStats) float64 { return e.identified })
	row("unidentified", "", func(e *expStats) float64 { return e.unident })
	row("total overhead", "", func(e *expStats) float64 { return e.to })
	row("total execution time", "", func(e *expStats) float64 { return e.tp })
	row("ideal time", "", func(e *expStats) float64 { return e.ideal })
	t := analysis.Table{Name: "experiments", Title: fmt.Sprintf(
		"SCALEA overhead table (Figure 13), %s over %s: categories (sub-categories below each), total identified, unidentified = T_o - identified, total overhead T_o = T_p - T_s/p, total execution time T_p, ideal time T_s/p (T_s = %s)",
		c.agg, plural(c.unit), c.tsRule)}
	t.AddText("category", cats)
	t.AddText("sub", subs)
	for i := range exps {
		t.AddNum(c.columns[i], unit, vals[i])
	}
	return t
}

func (c *config) totalsTable(exps []*expStats, unit string) analysis.Table {
	n := len(exps)
	t := analysis.Table{Name: "totals", Title: "Per experiment: T_p, ideal time T_s/p, T_o = T_p - T_s/p, identified, unidentified = T_o - identified, the categories, speedup T_s/T_p, efficiency T_s/(p*T_p), overhead_percent 100*T_o/T_p"}
	label, trial, base := make([]string, n), make([]string, n), make([]string, n)
	num := func() []float64 { return make([]float64, n) }
	p, units, tp, ideal, to, id, un, sp, ef, op := num(), num(), num(), num(), num(), num(), num(), num(), num(), num()
	cats := make([][]float64, len(OverheadCategories()))
	for i := range cats {
		cats[i] = num()
	}
	for i, e := range exps {
		label[i], trial[i] = c.labels[i], c.trials[i].Name
		base[i] = "no"
		if i == c.baseline {
			base[i] = "yes"
		}
		p[i], units[i], tp[i], ideal[i], to[i], id[i], un[i] = e.p, float64(e.units), e.tp, e.ideal, e.to, e.identified, e.unident
		for j, k := range OverheadCategories() {
			cats[j][i] = e.cat[k]
		}
		sp[i] = ratio(c.ts, e.tp)
		ef[i] = ratio(c.ts, e.p*e.tp)
		op[i] = 100 * ratio(e.to, e.tp)
	}
	t.AddText("experiment", label)
	t.AddText("trial", trial)
	t.AddNum("p", "", p)
	t.AddNum("units", "", units)
	t.AddText("baseline", base)
	t.AddNum("t_p", unit, tp)
	t.AddNum("ideal", unit, ideal)
	t.AddNum("t_o", unit, to)
	t.AddNum("identified", unit, id)
	t.AddNum("unidentified", unit, un)
	for j, k := range OverheadCategories() {
		t.AddNum(strings.ReplaceAll(string(k), " ", "_"), unit, cats[j])
	}
	t.AddNum("speedup", "", sp)
	t.AddNum("efficiency", "", ef)
	t.AddNum("overhead_percent", "%", op)
	return t
}

// ratio returns a/b, NaN when b is 0 or either is undefined.
func ratio(a, b float64) float64 {
	if b == 0 || math.IsNaN(a) || math.IsNaN(b) {
		return math.NaN()
	}
	return a / b
}

func (c *config) regionsTable(exps []*expStats, unit string) analysis.Table {
	type row struct {
		e int
		r *regionStat
	}
	byName := map[string][]row{}
	var names []string
	total := map[string]float64{}
	for i, e := range exps {
		for j := range e.regions {
			r := &e.regions[j]
			if c.regionQ != "" && !regionIs(&drg.Region{Name: r.name}, c.regionQ) {
				continue
			}
			if _, ok := byName[r.name]; !ok {
				names = append(names, r.name)
			}
			byName[r.name] = append(byName[r.name], row{i, r})
			if !math.IsNaN(r.overhead) {
				total[r.name] += r.overhead
			}
		}
	}
	sort.SliceStable(names, func(a, b int) bool { return total[names[a]] > total[names[b]] })
	t := analysis.Table{Name: "regions", Title: fmt.Sprintf("Region-to-overhead: per region and experiment, its category (by the rules), time = %s over %s of its exclusive value (absent as 0), overhead = its time for a rule category or its loss of parallelism for computation, percent_of_overhead = 100*overhead/T_o", c.agg, plural(c.unit))}
	var region, exp, trial, cat, sub, rule, kind []string
	var p, q, tm, ov, pct []float64
	for _, n := range names {
		for _, x := range byName[n] {
			e := exps[x.e]
			region = append(region, n)
			exp = append(exp, c.labels[x.e])
			trial = append(trial, c.trials[x.e].Name)
			cat = append(cat, string(x.r.cls.cat))
			sub = append(sub, x.r.cls.sub)
			rule = append(rule, x.r.cls.rule)
			kind = append(kind, x.r.kind)
			p = append(p, e.p)
			q = append(q, float64(x.r.q))
			tm = append(tm, x.r.time)
			ov = append(ov, x.r.overhead)
			pct = append(pct, 100*ratio(x.r.overhead, e.to))
		}
	}
	t.AddText("region", nonNil(region))
	t.AddText("experiment", nonNil(exp))
	t.AddText("trial", nonNil(trial))
	t.AddNum("p", "", nonNilF(p))
	t.AddText("category", nonNil(cat))
	t.AddText("sub", nonNil(sub))
	t.AddText("rule", nonNil(rule))
	t.AddNum("units", "", nonNilF(q))
	t.AddNum("time", unit, nonNilF(tm))
	t.AddNum("overhead", unit, nonNilF(ov))
	t.AddText("loss_kind", nonNil(kind))
	t.AddNum("percent_of_overhead", "%", nonNilF(pct))
	return t
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func nonNilF(s []float64) []float64 {
	if s == nil {
		return []float64{}
	}
	return s
}

// causes returns the regions of experiment e that cause overhead in
// category k, largest first (ties by name).
func causes(e *expStats, k Category) []*regionStat {
	var out []*regionStat
	for j := range e.regions {
		r := &e.regions[j]
		switch {
		case k == LossOfParallelism && r.cls.cat == Computation && r.kind != "":
		case k != LossOfParallelism && r.cls.cat == k:
		default:
			continue
		}
		out = append(out, r)
	}
	sort.SliceStable(out, func(a, b int) bool {
		if out[a].overhead != out[b].overhead {
			return out[a].overhead > out[b].overhead
		}
		return out[a].name < out[b].name
	})
	return out
}

func (c *config) categoryTable(exps []*expStats, unit string) analysis.Table {
	t := analysis.Table{Name: "category", Title: fmt.Sprintf("Overhead-to-region: per category and experiment, the regions causing it, largest overhead first; percent_of_category = 100*overhead/category, percent_of_overhead = 100*overhead/T_o (%s over %s)", c.agg, plural(c.unit))}
	var cat, sub, exp, region []string
	var p, rank, ov, pc, po []float64
	for _, k := range OverheadCategories() {
		if c.catFilter != "" && k != c.catFilter {
			continue
		}
		for i, e := range exps {
			if !e.defined {
				continue
			}
			list := causes(e, k)
			if c.opt.Top > 0 && len(list) > c.opt.Top {
				list = list[:c.opt.Top]
			}
			for n, r := range list {
				s := r.cls.sub
				if k == LossOfParallelism {
					s = r.kind
				}
				cat = append(cat, string(k))
				sub = append(sub, s)
				exp = append(exp, c.labels[i])
				region = append(region, r.name)
				p = append(p, e.p)
				rank = append(rank, float64(n+1))
				ov = append(ov, r.overhead)
				pc = append(pc, 100*ratio(r.overhead, e.cat[k]))
				po = append(po, 100*ratio(r.overhead, e.to))
			}
		}
	}
	t.AddText("category", nonNil(cat))
	t.AddText("sub", nonNil(sub))
	t.AddText("experiment", nonNil(exp))
	t.AddNum("p", "", nonNilF(p))
	t.AddNum("rank", "", nonNilF(rank))
	t.AddText("region", nonNil(region))
	t.AddNum("overhead", unit, nonNilF(ov))
	t.AddNum("percent_of_category", "%", nonNilF(pc))
	t.AddNum("percent_of_overhead", "%", nonNilF(po))
	return t
}

// format renders a value of the analysis's metric for a finding.
func (c *config) format(v float64) string {
	if c.unitOfMetric() != "us" {
		return strconv.FormatFloat(v, 'g', 3, 64) + " " + c.metric
	}
	a := math.Abs(v)
	switch {
	case a >= 1e6:
		return strconv.FormatFloat(v/1e6, 'g', 3, 64) + " s"
	case a >= 1e3:
		return strconv.FormatFloat(v/1e3, 'g', 3, 64) + " ms"
	}
	return strconv.FormatFloat(v, 'g', 3, 64) + " µs"
}

func pct(a, b float64) string {
	if b == 0 || math.IsNaN(a) || math.IsNaN(b) {
		return "n/a"
	}
	return strconv.FormatFloat(100*a/b, 'f', 0, 64) + "%"
}

func (c *config) findings(res *analysis.Result, exps []*expStats) {
	b := c.baseline
	res.Findf("T_s = %s: %s (baseline %q, %s)", c.format(c.ts), c.tsRule, c.trials[b].Name, c.labels[b])
	// The experiment with the largest p (the last such).
	last := -1
	for i, e := range exps {
		if e.defined && (last < 0 || e.p >= exps[last].p) {
			last = i
		}
	}
	if last >= 0 {
		e := exps[last]
		top, topV := Category(""), math.Inf(-1)
		for _, k := range OverheadCategories() {
			if e.cat[k] > topV {
				top, topV = k, e.cat[k]
			}
		}
		res.Findf("At %s: T_p = %s, T_o = %s (%s of T_p); identified %s (%s of T_o), largest category %s with %s; unidentified %s",
			c.labels[last], c.format(e.tp), c.format(e.to), pct(e.to, e.tp), c.format(e.identified), pct(e.identified, e.to),
			top, c.format(topV), c.format(e.unident))
		var best *regionStat
		for j := range e.regions {
			r := &e.regions[j]
			if r.overhead > 0 && (best == nil || r.overhead > best.overhead) {
				best = r
			}
		}
		if best != nil {
			what := string(best.cls.cat) + ": " + best.cls.sub
			if best.cls.cat == Computation {
				what = string(LossOfParallelism) + ": " + best.kind
			}
			res.Findf("%s holds %s of the overhead at %s (%s)", MatchName(best.name), pct(best.overhead, e.to), c.labels[last], what)
		}
	}
	for i, e := range exps {
		if e.defined && e.to < 0 {
			res.Findf("Superlinear speedup at %s: T_o = %s < 0 (speedup T_s/T_p = %.3g > p = %s)", c.labels[i], c.format(e.to), c.ts/e.tp, strconv.FormatFloat(e.p, 'f', -1, 64))
		}
	}
	for i, e := range exps {
		if !e.defined {
			res.Findf("%s (%s) has no %s %s: its figures are undefined", c.labels[i], c.trials[i].Name, map[int]string{1: "process", 2: "thread"}[c.restrict.kind], c.restrict.text)
		}
	}
	for i, e := range exps {
		if float64(e.units) != e.p {
			res.Findf("%s: trial %q has %d %ss in its profiles but p = %s was given; regions executed by fewer than p %ss count as loss of parallelism",
				c.labels[i], c.trials[i].Name, e.units, c.unit, strconv.FormatFloat(e.p, 'f', -1, 64), c.unit)
		}
	}
}

// plural gives the plural of a unit name ("process" → "processes").
func plural(unit string) string {
	if strings.HasSuffix(unit, "s") {
		return unit + "es"
	}
	return unit + "s"
}
