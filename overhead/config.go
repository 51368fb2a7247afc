package overhead

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/taudb-analyze/taudb-analyze/analysis"
	"github.com/taudb-analyze/taudb-analyze/classify"
	"github.com/taudb-analyze/taudb-analyze/drg"
)

// config holds the checked inputs of one analysis.
type config struct {
	trials    []*drg.Trial
	p         []float64
	opt       Options
	metric    string
	metrics   []int // metric index per trial
	agg       analysis.Aggregate
	unit      string
	rules     []classify.Rule
	theta     float64
	baseline  int
	restrict  restriction
	catFilter Category
	regionQ   string
	ts        float64
	tsRule    string
	baseSum   map[string]float64 // S_b(r) by region name
	baseQ     map[string]int     // q_b(r) by region name
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

// newConfig checks the inputs of Analyze and settles every choice.
func newConfig(trials []*drg.Trial, p []float64, baseline int, opt Options) (*config, error) {
	if len(trials) == 0 {
		return nil, fmt.Errorf("overhead analysis needs at least one trial")
	}
	if len(p) != len(trials) {
		return nil, fmt.Errorf("overhead analysis: %d trials but %d process counts", len(trials), len(p))
	}
	c := &config{trials: trials, p: p, baseline: baseline, opt: opt, classes: map[string]class{}, subOrder: map[Category][]string{}}
	for _, step := range []func() error{c.checkTrials, c.resolveMetric, c.resolveChoices, c.resolveViews} {
		if err := step(); err != nil {
			return nil, err
		}
	}
	c.labels, c.columns = experimentNames(p)
	return c, nil
}

// checkTrials refuses nil or empty trials and p that is not a whole count.
func (c *config) checkTrials() error {
	trials, p := c.trials, c.p
	for i, t := range trials {
		if t == nil {
			return fmt.Errorf("trial %d is nil", i)
		}
		if len(t.Threads) == 0 || len(t.Metrics) == 0 {
			return fmt.Errorf("trial %d (%q) has no thread or no metric", i, t.Name)
		}
		if !(p[i] >= 1) || p[i] != math.Trunc(p[i]) || math.IsInf(p[i], 0) {
			return fmt.Errorf("trial %d (%q): p = %v, want a whole number of processes >= 1", i, t.Name, p[i])
		}
	}
	return nil
}

// resolveMetric picks the metric (the first trial's time metric by
// default) and finds it in every trial.
func (c *config) resolveMetric() error {
	trials, opt := c.trials, c.opt
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
			return fmt.Errorf("trial %d (%q) has no metric %q (it has %s); name a metric every trial has", i, t.Name, c.metric, strings.Join(names, ", "))
		}
		c.metrics = append(c.metrics, m)
	}
	return nil
}

// resolveChoices checks the aggregate, unit, rules, replicated threshold,
// sequential time and top, filling in the defaults.
func (c *config) resolveChoices() error {
	opt := c.opt
	var err error
	if c.agg, err = analysis.ParseAggregate(opt.Aggregate, analysis.AggregateMean, analysis.AggregateMax, analysis.AggregateMin); err != nil {
		return err
	}
	c.unit = strings.ToLower(strings.TrimSpace(opt.Unit))
	if c.unit == "" {
		c.unit = UnitProcess
	}
	if c.unit != UnitProcess && c.unit != UnitThread {
		return fmt.Errorf("unit %q: want %q (default) or %q", opt.Unit, UnitProcess, UnitThread)
	}
	rules := opt.Rules
	if rules == nil {
		rules = classify.Default()
	}
	if c.rules, err = classify.Prepare(rules); err != nil {
		return err
	}
	c.theta = opt.ReplicatedThreshold
	if c.theta == 0 {
		c.theta = DefaultReplicatedThreshold
	}
	if !(c.theta >= 0 && c.theta <= 1) {
		return fmt.Errorf("replicated threshold %v: want a value in [0, 1]", opt.ReplicatedThreshold)
	}
	if opt.SequentialTime < 0 || math.IsNaN(opt.SequentialTime) || math.IsInf(opt.SequentialTime, 0) {
		return fmt.Errorf("sequential time %v: want a positive, finite value (or 0 for the baseline's)", opt.SequentialTime)
	}
	if opt.Top < 0 {
		return fmt.Errorf("top %d: want 0 (all) or a positive count", opt.Top)
	}
	return nil
}

// resolveViews checks the restriction, category and region views against
// the trials.
func (c *config) resolveViews() error {
	trials, opt := c.trials, c.opt
	var err error
	if c.restrict, err = parseRestriction(opt.Restrict); err != nil {
		return err
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
			return fmt.Errorf("restriction %s: no trial has this %s", c.restrict.text, map[int]string{1: "process", 2: "thread"}[c.restrict.kind])
		}
	}
	if opt.Category != "" {
		cat, err := classify.ParseCategory(opt.Category)
		if err != nil {
			return err
		}
		if cat == Unidentified || cat == Computation {
			return fmt.Errorf("category %q has no regions to rank; want one of %q", cat, OverheadCategories())
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
			return fmt.Errorf("no trial has a region %q (give the full name, or the name without its source location, such as \"MPI_Send\" or \"void compute(double **) C\")", c.regionQ)
		}
	}
	return nil
}

// regionIs reports whether region reg is the one a user named q.
func regionIs(reg *drg.Region, q string) bool {
	if reg.Name == q || reg.Name == drg.CanonicalName(q) {
		return true
	}
	a, b := classify.MatchName(reg.Name), classify.MatchName(q)
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
	if r, ok := classify.Classify(c.rules, reg); ok {
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
