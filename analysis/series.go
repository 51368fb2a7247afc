package analysis

import (
	"fmt"
	"github.com/taudb-analyze/taudb-analyze/classify"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// Experiment is one trial of a multi-experiment study (SCALEA's
// "experiment"): the trial, the name the study's tables use for it, its
// parameter p (the process count for a scalability study, or the value of
// the varied property in a parameter study) and a categorical value that
// groups it with other experiments (MultiSet).
type Experiment struct {
	// Trial is the experiment's data.
	Trial *drg.Trial
	// Name labels the experiment in tables; "" means Trial.Name (or
	// "trial K", K its 1-based position, when the trial has no name).
	// Names must be unique within a study.
	Name string
	// P is the experiment's parameter: the number of processes (see
	// ProcessCount) or a numeric property (see ByKey). It must be finite
	// and > 0.
	P float64
	// Key is a categorical value (for example a problem size, a network or
	// a power cap, see ByKey) that MultiSet groups experiments by when it
	// is given no metadata key.
	Key string
}

// Series is an ordered list of experiments; every multi-experiment analysis
// takes one (as []Experiment).
type Series []Experiment

// NewSeries makes one experiment per trial: P from ProcessCount(t, from),
// and, when by is not "", Key from the trial's metadata property by (ByKey,
// its text value). Names are the trials' names. The series keeps the order
// of trials; the analyses sort by P themselves.
func NewSeries(trials []*drg.Trial, from, by string) (Series, error) {
	out := make(Series, 0, len(trials))
	for i, t := range trials {
		if t == nil {
			return nil, fmt.Errorf("trial %d: no trial", i+1)
		}
		p, err := ProcessCount(t, from)
		if err != nil {
			return nil, err
		}
		e := Experiment{Trial: t, Name: t.Name, P: p}
		if by != "" {
			prop, err := ByKey(t, by)
			if err != nil {
				return nil, err
			}
			e.Key = prop.Text
		}
		out = append(out, e)
	}
	return out, nil
}

// Sorted returns a copy of the series sorted by P ascending; experiments
// with equal P keep their order.
func (s Series) Sorted() Series {
	out := append(Series(nil), s...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].P < out[j].P })
	return out
}

// Ps returns the experiments' parameters, in series order.
func (s Series) Ps() []float64 {
	out := make([]float64, len(s))
	for i, e := range s {
		out[i] = e.P
	}
	return out
}

// Names returns the experiments' names (Experiment.Name, or the default
// described there), in series order.
func (s Series) Names() []string {
	out := make([]string, len(s))
	for i, e := range s {
		out[i] = e.label(i)
	}
	return out
}

// label returns the experiment's name, defaulting as Experiment.Name says.
func (e Experiment) label(i int) string {
	switch {
	case e.Name != "":
		return e.Name
	case e.Trial != nil && e.Trial.Name != "":
		return e.Trial.Name
	}
	return "trial " + strconv.Itoa(i+1)
}

// ProcessCount returns the process count p of a trial for a scalability
// study, taken as from says:
//
//	"" or "processes"  the number of distinct TAU node ranks N of the
//	                   trial's threads (the default). TAU names its profile
//	                   files profile.N.C.T and, for an MPI program, N is the
//	                   MPI rank, so this is the number of MPI processes.
//	                   Threads within a process (OpenMP, pthreads: T > 0)
//	                   are not processes: a pure OpenMP run counts 1, and a
//	                   hybrid run of 4 ranks × 8 threads counts 4. Use
//	                   "threads" to study thread scaling.
//	"nodes"            the same number under TAUdb's name: trial.node_count,
//	                   the distinct node ids (drg.Trial.Layout).
//	"threads"          TAUdb's total_threads: every real thread of every
//	                   process (drg.Trial.NumThreads).
//	"hosts"            the number of distinct machines, named by the
//	                   "Node Name", "Hostname" or "MPI Processor Name"
//	                   metadata of each thread (SCALEA's "SMP nodes"); an
//	                   error when no thread names its machine.
//	"meta:KEY"         the numeric trial metadata property KEY (such as
//	                   "MPI Processes" or "np", see ByKey).
//
// The result is always finite and > 0.
func ProcessCount(t *drg.Trial, from string) (float64, error) {
	if t == nil {
		return 0, fmt.Errorf("no trial")
	}
	f := strings.TrimSpace(from)
	switch strings.ToLower(f) {
	case "", "processes", "nodes":
		n, _, _, _ := t.Layout()
		if n == 0 {
			return 0, fmt.Errorf("trial %q has no thread: no process count", t.Name)
		}
		return float64(n), nil
	case "threads":
		if len(t.Threads) == 0 {
			return 0, fmt.Errorf("trial %q has no thread: no thread count", t.Name)
		}
		return float64(len(t.Threads)), nil
	case "hosts":
		seen := map[string]bool{}
		for _, h := range hostOf(t) {
			if h != "" {
				seen[h] = true
			}
		}
		if len(seen) == 0 {
			return 0, fmt.Errorf("trial %q: no thread names its machine (metadata %s): cannot count hosts",
				t.Name, strings.Join(hostKeys, ", "))
		}
		return float64(len(seen)), nil
	}
	if len(f) > 5 && strings.EqualFold(f[:5], "meta:") {
		prop, err := ByKey(t, f[5:])
		if err != nil {
			return 0, err
		}
		if !prop.Numeric() {
			return 0, fmt.Errorf("trial %q: metadata %q = %q is not a number: cannot be a process count", t.Name, prop.Key, prop.Text)
		}
		if !(prop.Num > 0) || math.IsInf(prop.Num, 0) {
			return 0, fmt.Errorf("trial %q: metadata %q = %q: a process count must be > 0", t.Name, prop.Key, prop.Text)
		}
		return prop.Num, nil
	}
	return 0, fmt.Errorf(`process count from %q: want "" (TAU node ranks), "processes", "nodes", "threads", "hosts" or "meta:KEY"`, from)
}

// Property is the value of one metadata property of a trial.
type Property struct {
	// Key is the metadata key as the trial spells it.
	Key string
	// Text is the value with surrounding blanks removed.
	Text string
	// Num is the numeric value when Text is a number, optionally followed
	// by a unit ("36", "1.5e3", "150 W", "8192 KB"); NaN otherwise.
	Num float64
	// Unit is what follows the number ("W", "KB"), "" when none.
	Unit string
}

// Numeric reports whether the property has a numeric value.
func (p Property) Numeric() bool { return !math.IsNaN(p.Num) }

// numberRE matches a number optionally followed by a unit made of letters,
// "%" and "/".
var numberRE = regexp.MustCompile(`^([-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?)\s*([A-Za-z%/]*)$`)

// ByKey returns the metadata property key of trial t, for parameter studies
// (numeric properties such as a problem size) and for grouping experiments
// into sets (categorical ones such as a network name). key may carry a
// "meta:" prefix. The trial-level metadata (drg.Trial.Metadata) is looked
// up first, by exact key and then ignoring case when only one key matches;
// when the trial level lacks it, the threads' own metadata is used if every
// thread that has the key gives the same value. A property whose value
// differs between threads is an error: it does not describe the trial.
// TAUdb's trial fields are reachable too: "application" and "experiment"
// (stored as the Application and Experiment metadata), and "trial" or
// "name" for the trial's name when no metadata has that key.
func ByKey(t *drg.Trial, key string) (Property, error) {
	if t == nil {
		return Property{}, fmt.Errorf("no trial")
	}
	k := strings.TrimSpace(key)
	if len(k) > 5 && strings.EqualFold(k[:5], "meta:") {
		k = strings.TrimSpace(k[5:])
	}
	if k == "" {
		return Property{}, fmt.Errorf("empty metadata key")
	}
	if name, ok := lookupKey(t.Metadata, k); ok {
		return parseProperty(name, t.Metadata[name]), nil
	}
	var found, value string
	var thread int
	for i, th := range t.Threads {
		name, ok := lookupKey(th.Metadata, k)
		if !ok {
			continue
		}
		v := strings.TrimSpace(th.Metadata[name])
		if found == "" {
			found, value, thread = name, v, i
			continue
		}
		if v != value {
			return Property{}, fmt.Errorf("trial %q: metadata %q differs between threads (%q on %s, %q on %s): it is not a property of the trial",
				t.Name, name, value, threadLabel(t, thread), v, threadLabel(t, i))
		}
	}
	if found == "" {
		if strings.EqualFold(k, "trial") || strings.EqualFold(k, "name") {
			return parseProperty("trial", t.Name), nil // the trial's own name
		}
		return Property{}, fmt.Errorf("trial %q has no metadata %q", t.Name, k)
	}
	return parseProperty(found, value), nil
}

// lookupKey finds key in m: exactly, else ignoring case when exactly one
// key matches.
func lookupKey(m map[string]string, key string) (string, bool) {
	if _, ok := m[key]; ok {
		return key, true
	}
	match := ""
	for k := range m {
		if strings.EqualFold(k, key) {
			if match != "" {
				return "", false
			}
			match = k
		}
	}
	return match, match != ""
}

func parseProperty(key, value string) Property {
	v := strings.TrimSpace(value)
	p := Property{Key: key, Text: v, Num: math.NaN()}
	if m := numberRE.FindStringSubmatch(v); m != nil {
		if x, err := strconv.ParseFloat(m[1], 64); err == nil && !math.IsInf(x, 0) {
			p.Num, p.Unit = x, m[2]
		}
	}
	return p
}

// SeriesOptions are the options every multi-experiment analysis shares.
type SeriesOptions struct {
	// Metric is the metric's name, which every experiment must have (an
	// exact match, else the only one equal ignoring case, so that TAU 2.18's
	// "Time" meets "TIME"); "" selects the first time metric
	// (drg.Trial.TimeMetric) of the experiment with the smallest P.
	Metric string
	// Aggregate reduces a value over an experiment's threads: AggregateMax
	// ("max", the default) or AggregateMean ("mean").
	Aggregate Aggregate
	// ShortNames aligns regions across experiments by their name without
	// the source location (drg.Region.ShortName), summing per thread the
	// regions of one trial that share a short name; the default aligns by
	// full name.
	ShortNames bool
	// Rules classify the regions for the splits of time by class
	// (Multiset's "split" table); classify.Default() when nil.
	Rules []classify.Rule
}

// seriesData holds the numbers every multi-experiment analysis starts from:
// per experiment (sorted by P) the program time and, per region of the
// flat view aligned across experiments, the aggregated exclusive and
// inclusive values (NaN where the experiment has no record of the region).
type seriesData struct {
	exps     Series   // sorted by P
	names    []string // experiment names, parallel to exps
	trials   []string // the experiments' trial names, parallel to exps
	metric   string   // the metric's name (as in the first experiment)
	metrics  []int    // the metric's index in each experiment
	unit     string
	isTime   bool
	agg      Aggregate
	align    string
	main     []float64 // program time per experiment
	mainName string    // the main region of the first experiment
	regions  []string  // region keys, in order of first appearance
	excl     [][]float64
	incl     [][]float64
	procs    [][]int         // TAU node ranks holding a record, per region and experiment
	rules    []classify.Rule // the checked classification rules
}

// collect validates exps and reduces them as opt says.
func collect(exps []Experiment, opt SeriesOptions) (*seriesData, error) {
	agg, err := checkExperiments(exps, opt)
	if err != nil {
		return nil, err
	}
	// Sort by P, keeping the given order (and names) among equal P.
	idx := order(len(exps), func(i, j int) bool { return exps[i].P < exps[j].P })
	rules, err := prepareRules(opt.Rules)
	if err != nil {
		return nil, err
	}
	d := &seriesData{agg: agg, align: "name", rules: rules}
	if opt.ShortNames {
		d.align = "short_name"
	}
	for _, i := range idx {
		d.exps = append(d.exps, exps[i])
		d.names = append(d.names, exps[i].label(i))
		tn := exps[i].Trial.Name
		if tn == "" {
			tn = exps[i].label(i)
		}
		d.trials = append(d.trials, tn)
	}
	first := d.exps[0].Trial
	m0, err := resolveMetric(first, opt.Metric)
	if err != nil {
		return nil, fmt.Errorf("experiment %q: %w", d.names[0], err)
	}
	d.metric = first.Metrics[m0].Name
	d.unit = unitOf(first, m0)
	d.isTime = first.Metrics[m0].IsTime()
	if r := first.MainRegion(m0); r >= 0 {
		d.mainName = first.Regions[r].Name
		if opt.ShortNames {
			d.mainName = first.Regions[r].ShortName
		}
	}
	regionIdx := map[string]int{}
	for k := range d.exps {
		if err := d.addExperiment(k, regionIdx, opt.ShortNames); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// checkExperiments checks the experiments (a trial each, a finite P > 0,
// unique names) and the aggregate, and returns the aggregate.
func checkExperiments(exps []Experiment, opt SeriesOptions) (Aggregate, error) {
	if len(exps) == 0 {
		return "", fmt.Errorf("no experiment given")
	}
	agg, err := ParseAggregate(opt.Aggregate, AggregateMax, AggregateMean)
	if err != nil {
		return "", err
	}
	seen := map[string]int{}
	for i, e := range exps {
		name := e.label(i)
		if e.Trial == nil {
			return "", fmt.Errorf("experiment %q has no trial", name)
		}
		if !(e.P > 0) || math.IsInf(e.P, 0) {
			return "", fmt.Errorf("experiment %q: parameter p = %v, want a finite number > 0", name, e.P)
		}
		if j, dup := seen[name]; dup {
			return "", fmt.Errorf("experiments %d and %d are both named %q: give each a unique Name", j+1, i+1, name)
		}
		seen[name] = i
	}
	return agg, nil
}

// addExperiment reduces experiment k of d: its metric, program time and
// the aggregated values of its flat regions (a new region gets a row, NaN
// in the other experiments).
func (d *seriesData) addExperiment(k int, regionIdx map[string]int, shortNames bool) error {
	e := d.exps[k]
	n := len(d.exps)
	m, err := seriesMetric(e.Trial, d.metric)
	if err != nil {
		return fmt.Errorf("experiment %q: %w", d.names[k], err)
	}
	d.metrics = append(d.metrics, m)
	d.main = append(d.main, aggregateMain(e.Trial.MainInclusive(m), d.agg))
	keys, groups := flatGroups(e.Trial, shortNames)
	for g, key := range keys {
		r, ok := regionIdx[key]
		if !ok {
			r = len(d.regions)
			regionIdx[key] = r
			d.regions = append(d.regions, key)
			nanRow := func() []float64 {
				row := make([]float64, n)
				for i := range row {
					row[i] = math.NaN()
				}
				return row
			}
			d.excl = append(d.excl, nanRow())
			d.incl = append(d.incl, nanRow())
			d.procs = append(d.procs, make([]int, n))
		}
		ex, in, procs, present := reduceGroup(e.Trial, m, groups[g], d.agg)
		if present {
			d.excl[r][k], d.incl[r][k], d.procs[r][k] = ex, in, procs
		}
	}
	return nil
}

// seriesMetric finds metric name in t: exactly, else the only metric equal
// ignoring case.
func seriesMetric(t *drg.Trial, name string) (int, error) {
	if m := t.MetricIndex(name); m >= 0 {
		return m, nil
	}
	found := -1
	for i, m := range t.Metrics {
		if strings.EqualFold(m.Name, name) {
			if found >= 0 {
				found = -2
				break
			}
			found = i
		}
	}
	if found >= 0 {
		return found, nil
	}
	return -1, fmt.Errorf("%w %q: trial %q has %s", ErrUnknownMetric, name, t.Name, metricNames(t))
}

// flatGroups returns the region keys of t's flat view (full or short names)
// in trial order, and for each the flat nodes that share it.
func flatGroups(t *drg.Trial, short bool) ([]string, [][]int) {
	var keys []string
	var groups [][]int
	at := map[string]int{}
	for _, f := range t.Flat() {
		r := &t.Regions[t.Nodes[f].Region]
		k := r.Name
		if short {
			k = r.ShortName
		}
		if g, ok := at[k]; ok {
			groups[g] = append(groups[g], f)
			continue
		}
		at[k] = len(keys)
		keys = append(keys, k)
		groups = append(groups, []int{f})
	}
	return keys, groups
}

// reduceGroup aggregates the exclusive and inclusive values of metric m of
// the flat nodes in group (summed per thread) over the threads that have a
// record of any of them; it also counts the distinct TAU node ranks among
// those threads. present is false when no thread has a record.
func reduceGroup(t *drg.Trial, m int, group []int, agg Aggregate) (excl, incl float64, procs int, present bool) {
	nt := len(t.Threads)
	ex, in := t.Values[m].Exclusive, t.Values[m].Inclusive
	k := 0
	lastNode := -1
	var sumE, sumI, maxE, maxI float64
	for th := 0; th < nt; th++ {
		var e, i float64
		has := false
		for _, f := range group {
			c := f*nt + th
			if t.Present.Get(c) {
				has = true
				e += ex[c]
				i += in[c]
			}
		}
		if !has {
			continue
		}
		if k == 0 || e > maxE {
			maxE = e
		}
		if k == 0 || i > maxI {
			maxI = i
		}
		k++
		sumE += e
		sumI += i
		if n := t.Threads[th].Node; n != lastNode {
			procs++
			lastNode = n
		}
	}
	if k == 0 {
		return 0, 0, 0, false
	}
	if agg == AggregateMean {
		return sumE / float64(k), sumI / float64(k), procs, true
	}
	return maxE, maxI, procs, true
}

// aggregateMain reduces the per-thread main-region inclusive values: the
// largest, or the mean over all threads.
func aggregateMain(perThread []float64, agg Aggregate) float64 {
	if agg == AggregateMean {
		return drg.DerivedMain(perThread, drg.Mean)
	}
	var mx float64
	for _, v := range perThread {
		mx = max(mx, v)
	}
	return mx
}

// baseline returns the position (in d.exps) of the baseline experiment: the
// one named name (an experiment name or its trial's name), or the first
// with the smallest P when name is "".
func (d *seriesData) baseline(name string) (int, error) {
	return pickBaseline(d.ps(), d.names, d.trials, name)
}

// ps returns the experiments' P, sorted ascending.
func (d *seriesData) ps() []float64 { return d.exps.Ps() }

// params starts the Params of a series analysis: metric, aggregate, align,
// experiments (the names the tables use) and p (the experiments' P), both
// in the order of Result.Trials.
func (d *seriesData) params() map[string]string {
	return map[string]string{
		"metric":      d.metric,
		"aggregate":   string(d.agg),
		"align":       d.align,
		"experiments": joinNames(d.names),
		"p":           formatList(d.ps()),
	}
}

// newResult starts a result over the experiments of d; Result.Trials holds
// the trials' names in P order (the experiments' names are in Params).
func (d *seriesData) newResult(analysis string) *Result {
	return &Result{
		Analysis: analysis,
		Trials:   append([]string(nil), d.trials...),
		Metric:   d.metric,
		Params:   d.params(),
		Findings: []string{},
	}
}

// aggregateLabel describes the aggregation for titles.
func (d *seriesData) aggregateLabel() string {
	if d.agg == AggregateMean {
		return "mean over threads"
	}
	return "max over threads"
}

// formatNum renders a number for Params and findings in the shortest form
// that reads back exactly.
func formatNum(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// formatList renders numbers as "1,2,4".
func formatList(x []float64) string {
	s := make([]string, len(x))
	for i, v := range x {
		s[i] = formatNum(v)
	}
	return strings.Join(s, ",")
}

// nanSlice returns n NaNs.
func nanSlice(n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = math.NaN()
	}
	return out
}

// defined reports whether x is a finite number.
func defined(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
