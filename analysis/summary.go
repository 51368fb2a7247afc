package analysis

import (
	"fmt"
	"github.com/taudb-analyze/taudb-analyze/classify"
	"sort"
	"strconv"
	"strings"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// SummaryOptions select how Summary breaks a trial down.
type SummaryOptions struct {
	// Metric is the metric's name; "" selects the first time metric.
	Metric string
	// By is the level whose members are summarized:
	//
	//	"node" (default)  a computational node (machine): the host named by
	//	                  the threads' metadata (see NodeNames); threads with
	//	                  no host metadata are grouped by TAU node rank N
	//	"process"         a process: TAU node rank N (TAU's "node")
	//	"thread"          a thread "N.C.T"
	By string
	// Node restricts the summary to the threads of one computational node,
	// named as Summary's "node" level names it (SCALEA's drill-down from a
	// node into its processes). "" keeps every thread.
	Node string
	// Rules classify the regions (classify.Default() when nil).
	Rules []classify.Rule
}

// NodeNames returns, for every thread of t, the name of the computational
// node it ran on: the first of the metadata attributes "Node Name",
// "Hostname" and "MPI Processor Name" found in the thread's own metadata,
// else in the metadata of the first thread of the same process that has
// one, else in the trial's metadata (where TAU's metadata merge puts the
// attributes common to all ranks); with none of them, the TAU node rank N
// as a decimal string.
func NodeNames(t *drg.Trial) []string {
	out := hostOf(t)
	for i, h := range out {
		if h == "" {
			out[i] = strconv.Itoa(t.Threads[i].Node)
		}
	}
	return out
}

// Summary is SCALEA's execution summary analysis: the metric broken down per
// member of a level (node, process or thread) into classes of regions.
//
// Each flat region is put in a class by the rules of package classify
// (opt.Rules, the defaults when nil; first match wins): sampled (skipped:
// samples lie inside their timers' exclusive time), mpi, openmp, io (POSIX
// and C I/O, ADIOS and MPI-IO), other (TAU's own measurement timers),
// computation (everything else, ".TAU application" included).
//
// Table "members", one row per member in trial order: threads (how many),
// processes (distinct TAU node ranks), main_inclusive (the main region's
// inclusive value summed over the member's threads), one column per class
// (the class's exclusive values of the flat regions summed over the member's
// threads), total (the sum of the classes), and per class
// <class>_percent = 100*class/total (0 when total is 0): the slices of
// SCALEA's pie.
//
// Table "stats", one row per class and one for total: the min, mean and max
// of the members' values (min_member, max_member: the first member holding
// the extreme), and mean_percent = 100*mean(class)/mean(total).
func Summary(t *drg.Trial, opt SummaryOptions) (*Result, error) {
	m, err := resolveMetric(t, opt.Metric)
	if err != nil {
		return nil, err
	}
	rules, err := prepareRules(opt.Rules)
	if err != nil {
		return nil, err
	}
	by, members, memberThreads, err := summaryMembers(t, opt)
	if err != nil {
		return nil, err
	}
	res := newResult("summary", t, m)
	res.Params["by"] = by
	res.Params["node"] = opt.Node
	if opt.Node == "" {
		res.Params["node"] = "all"
	}
	res.Params["value"] = "exclusive"

	d := &summaryData{by: by, members: members, unit: unitOf(t, m), metric: t.Metrics[m].Name}
	d.sums = classSums(t, m, rules, memberThreads)
	d.counts(t, m, memberThreads)
	scopeText := "all threads"
	if opt.Node != "" {
		scopeText = "the threads of node " + opt.Node
	}
	tb := d.membersTable(scopeText)
	res.AddTable(tb)
	st, means, pcts, meanTotal := d.statsTable()
	res.AddTable(st)

	var parts []string
	for i, c := range splitClasses {
		if means[i] > 0 {
			parts = append(parts, fmt.Sprintf("%s %.1f%%", c, pcts[i]))
		}
	}
	res.Findf("Per %s on average (%s): %s of the summed exclusive %s (%s).",
		by, plural(len(members), "member"), strings.Join(parts, ", "), t.Metrics[m].Name, formatValue(t, m, meanTotal))
	if len(members) > 1 {
		for _, c := range []string{classify.ClassMPI, classify.ClassOpenMP, classify.ClassIO} {
			p := tb.Col(c + "_percent").Num
			lo, hi := extremes(p)
			if p[hi] > 0 {
				res.Findf("The %s share ranges from %.1f%% (%s %s) to %.1f%% (%s %s).", c, p[lo], by, members[lo], p[hi], by, members[hi])
			}
		}
	}
	return res, nil
}

// summaryMembers checks By and Node and returns the level, its members in
// order of first appearance among the selected threads, and each member's
// threads.
func summaryMembers(t *drg.Trial, opt SummaryOptions) (string, []string, [][]int, error) {
	by := strings.ToLower(strings.TrimSpace(opt.By))
	if by == "" {
		by = "node"
	}
	nodeOf := NodeNames(t)
	var memberOf func(th int) string
	switch by {
	case "node":
		memberOf = func(th int) string { return nodeOf[th] }
	case "process":
		memberOf = func(th int) string { return strconv.Itoa(t.Threads[th].Node) }
	case "thread":
		memberOf = func(th int) string { return threadLabel(t, th) }
	default:
		return "", nil, nil, fmt.Errorf(`summary by %q: want "node", "process" or "thread"`, opt.By)
	}
	threads := make([]int, 0, len(t.Threads))
	for th := range t.Threads {
		if opt.Node == "" || nodeOf[th] == opt.Node {
			threads = append(threads, th)
		}
	}
	if len(threads) == 0 {
		names := distinct(nodeOf)
		if len(names) > 10 {
			names = append(names[:10], "...")
		}
		return "", nil, nil, fmt.Errorf("trial %q has no computational node %q (nodes: %s)", t.Name, opt.Node, strings.Join(names, ", "))
	}
	var members []string
	index := map[string]int{}
	memberThreads := [][]int{}
	for _, th := range threads {
		key := memberOf(th)
		i, ok := index[key]
		if !ok {
			i = len(members)
			index[key] = i
			members = append(members, key)
			memberThreads = append(memberThreads, nil)
		}
		memberThreads[i] = append(memberThreads[i], th)
	}
	return by, members, memberThreads, nil
}

// classSums returns, per class of splitClasses and member, the exclusive
// values of the flat regions of that class summed over the member's
// threads (sampled regions left out).
func classSums(t *drg.Trial, m int, rules []classify.Rule, memberThreads [][]int) map[string][]float64 {
	sums := map[string][]float64{}
	for _, c := range splitClasses {
		sums[c] = make([]float64, len(memberThreads))
	}
	// The members partition the threads they hold, each in thread order.
	member := make([]int, len(t.Threads))
	for th := range member {
		member[th] = -1
	}
	for i, ths := range memberThreads {
		for _, th := range ths {
			member[th] = i
		}
	}
	ex := t.Col(drg.ColExclusive, m)
	cls := regionClasses(t, rules)
	for _, f := range t.Flat() {
		c := cls[t.Nodes[f].Region]
		if c == classify.ClassSampled {
			continue
		}
		for th, v := range ex.Row(f) {
			if i := member[th]; i >= 0 {
				sums[c][i] += v
			}
		}
	}
	return sums
}

// summaryData holds Summary's numbers per member.
type summaryData struct {
	by, unit, metric                string
	members                         []string
	sums                            map[string][]float64 // per class
	nThreads, nProc, mainSum, total []float64
}

// counts fills the members' threads, processes, summed main inclusive
// value and the total over the classes.
func (d *summaryData) counts(t *drg.Trial, m int, memberThreads [][]int) {
	n := len(d.members)
	mainPer := t.MainInclusive(m)
	d.nThreads, d.nProc = make([]float64, n), make([]float64, n)
	d.mainSum, d.total = make([]float64, n), make([]float64, n)
	for i, ths := range memberThreads {
		procs := map[int]bool{}
		for _, th := range ths {
			procs[t.Threads[th].Node] = true
			d.mainSum[i] += mainPer[th]
		}
		d.nThreads[i] = float64(len(ths))
		d.nProc[i] = float64(len(procs))
		for _, c := range splitClasses {
			d.total[i] += d.sums[c][i]
		}
	}
}

// membersTable builds the "members" table: one row per member.
func (d *summaryData) membersTable(scopeText string) Table {
	tb := Table{Name: "members", Title: fmt.Sprintf("Execution summary per %s (%s): exclusive %s of the flat regions summed per class", d.by, scopeText, d.metric)}
	tb.AddText(d.by, d.members)
	tb.AddNum("threads", "threads", d.nThreads)
	tb.AddNum("processes", "processes", d.nProc)
	tb.AddNum("main_inclusive", d.unit, d.mainSum)
	for _, c := range splitClasses {
		tb.AddNum(c, d.unit, d.sums[c])
	}
	tb.AddNum("total", d.unit, d.total)
	for _, c := range splitClasses {
		p := make([]float64, len(d.members))
		for i := range p {
			p[i] = drg.Percent(d.sums[c][i], d.total[i])
		}
		tb.AddNum(c+"_percent", "%", p)
	}
	return tb
}

// statsTable builds the "stats" table: per class and the total, min, mean
// and max across the members; it also returns the means, their
// percentages of the mean total, and the mean total.
func (d *summaryData) statsTable() (Table, []float64, []float64, float64) {
	rows := append(append([]string(nil), splitClasses...), "total")
	var mins, means, maxs, pcts []float64
	var minM, maxM []string
	meanTotal := meanOf(d.total)
	for _, c := range rows {
		x := d.total
		if c != "total" {
			x = d.sums[c]
		}
		lo, hi := extremes(x)
		mins = append(mins, x[lo])
		maxs = append(maxs, x[hi])
		minM = append(minM, d.members[lo])
		maxM = append(maxM, d.members[hi])
		means = append(means, meanOf(x))
		pcts = append(pcts, drg.Percent(meanOf(x), meanTotal))
	}
	st := Table{Name: "stats", Title: fmt.Sprintf("Per class: min, mean and max across the %d members (%s)", len(d.members), d.by)}
	st.AddText("class", rows)
	st.AddNum("min", d.unit, mins)
	st.AddText("min_member", minM)
	st.AddNum("mean", d.unit, means)
	st.AddNum("max", d.unit, maxs)
	st.AddText("max_member", maxM)
	st.AddNum("mean_percent", "%", pcts)
	return st, means, pcts, meanTotal
}

// distinct returns the distinct values of x, sorted.
func distinct(x []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, v := range x {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	sort.Strings(out)
	return out
}
