package analysis

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// RegionsOptions select what Regions lists.
type RegionsOptions struct {
	// Metric is the metric's name; "" selects the first time metric.
	Metric string
	// Inclusive ranks the regions by inclusive value; the default ranks by
	// exclusive value. Both values are always listed.
	Inclusive bool
	// Top is the number of regions listed: 0 means DefaultTop (10), a
	// negative number (All) every region.
	Top int
	// Of selects whose values are listed:
	//
	//	"" or "mean"  mean over all threads, absent regions as 0 (Σx/N)
	//	"max"         largest value over the threads
	//	"total"       sum over the threads
	//	"N.C.T"       one thread, such as "0.0.1"
	//	"N"           one process (TAU node rank N): sum over its threads
	Of string
	// Children names the call-graph node whose children are listed (a
	// region name for a flat node, or a callpath "A => B"). "" selects the
	// main region's node when the trial's callpaths form a complete tree,
	// and lists no children otherwise.
	Children string
}

// scope is a parsed RegionsOptions.Of: how the values of one node over
// threads reduce to one number.
type scope struct {
	kind    string // "mean", "max", "total", "thread", "process"
	label   string // canonical form for Params: "mean", "max", "total", "N.C.T", "N"
	threads []int  // the threads of a "thread" or "process" scope
}

var processRE = regexp.MustCompile(`^[0-9]+$`)

// parseScope reads RegionsOptions.Of.
func parseScope(t *drg.Trial, of string) (scope, error) {
	s := strings.ToLower(strings.TrimSpace(of))
	switch s {
	case "", "mean":
		return scope{kind: "mean", label: "mean"}, nil
	case "max", "total":
		return scope{kind: s, label: s}, nil
	}
	if processRE.MatchString(s) {
		n, err := strconv.Atoi(s)
		if err != nil {
			return scope{}, fmt.Errorf("process %q: %v", of, err)
		}
		sc := scope{kind: "process", label: strconv.Itoa(n)}
		for th, x := range t.Threads {
			if x.Node == n {
				sc.threads = append(sc.threads, th)
			}
		}
		if len(sc.threads) == 0 {
			return scope{}, fmt.Errorf("trial %q has no process (TAU node) %d", t.Name, n)
		}
		return sc, nil
	}
	if strings.Count(s, ".") == 2 {
		th, err := findThread(t, s)
		if err != nil {
			return scope{}, err
		}
		return scope{kind: "thread", label: threadLabel(t, th), threads: []int{th}}, nil
	}
	return scope{}, fmt.Errorf(`"of" %q: want mean, max, total, a thread N.C.T or a process rank N`, of)
}

// describe names the scope for titles and findings.
func (s scope) describe() string {
	switch s.kind {
	case "mean":
		return "mean over threads, absent as 0"
	case "max":
		return "max over threads"
	case "total":
		return "total over threads"
	case "thread":
		return "thread " + s.label
	}
	return "process " + s.label + " (sum over its threads)"
}

// reduce returns the scope's value of node n in col (a value column indexed
// node*threads+thread) and whether any thread of the scope has a record.
func (s scope) reduce(t *drg.Trial, col drg.Vals, n int) (float64, bool) {
	nt := len(t.Threads)
	switch s.kind {
	case "thread", "process":
		var sum float64
		present := false
		for _, th := range s.threads {
			if v, ok := col.At(n, th); ok {
				present = true
				sum += v
			}
		}
		return sum, present
	}
	var sum, mx float64
	present := false
	if d := col.Dense(); d != nil { // the dense fast path
		for th, v := range d[n*nt : (n+1)*nt] {
			if t.Present.Get(n*nt + th) {
				present = true
				sum += v
				if v > mx {
					mx = v
				}
			}
		}
	} else {
		for _, v := range col.Row(n) {
			present = true
			sum += v
			if v > mx {
				mx = v
			}
		}
	}
	switch s.kind {
	case "max":
		return mx, present
	case "total":
		return sum, present
	}
	return sum / float64(nt), present
}

// main returns the scope's main-region inclusive value: the same reduction
// applied to the per-thread main values (drg.Trial.MainInclusive).
func (s scope) main(perThread []float64) float64 {
	switch s.kind {
	case "thread", "process":
		var sum float64
		for _, th := range s.threads {
			sum += perThread[th]
		}
		return sum
	case "max":
		var mx float64
		for _, v := range perThread {
			mx = max(mx, v)
		}
		return mx
	case "total":
		return drg.DerivedMain(perThread, drg.Total)
	}
	return drg.DerivedMain(perThread, drg.Mean)
}

// Regions is SCALEA's inclusive/exclusive analysis: the most expensive
// regions of a trial and, in the tree view, the break-down of one node into
// its children (SCALEA's Fig. 6, "sub-regions of MAIN").
//
// Table "regions": the Top regions of the flat view ranked by the chosen
// value (exclusive by default), descending, then by name; a region no thread
// of the scope has a record for is left out. For the scope chosen by Of:
//
//	exclusive, inclusive  the reduced values (unit "us" for time)
//	*_percent             100*value/main, main = the main region's inclusive
//	                      value reduced the same way (0 when main is 0)
//	calls                 the number of calls, reduced the same way
//	*_per_call            value/calls; 0 when calls is 0 (as ParaProf shows
//	                      it). For "max" the value and the calls are each
//	                      the largest over threads, possibly on different
//	                      threads.
//
// Table "children" (when a node is selected, see RegionsOptions.Children):
// one row "self" for the node's own exclusive value, then one row "child"
// per call-graph child with its inclusive value, descending; percent =
// 100*value/(the node's inclusive value). For a consistent profile the
// percentages sum to 100 for every scope but "max" (whose values come from
// different threads).
//
// Table "callgraph" (only when the trial has callpaths): the call graph of
// the tree view (drg.Trial.Tree), one row per node reached depth first from
// the roots, children by descending value: node, parent ("" for a root),
// region, inclusive (the node's inclusive value reduced by the scope) and
// depth (0 for a root). Nodes the scope has no record of are left out with
// their subtrees. At most CallgraphNodes rows; the title states the limit
// and, when it cuts the graph, Params "callgraph_nodes" the count kept.
func Regions(t *drg.Trial, opt RegionsOptions) (*Result, error) {
	m, err := resolveMetric(t, opt.Metric)
	if err != nil {
		return nil, err
	}
	sc, err := parseScope(t, opt.Of)
	if err != nil {
		return nil, err
	}
	parent := -1
	tree := t.Tree()
	if opt.Children != "" {
		if parent, err = nodeByName(t, opt.Children); err != nil {
			return nil, err
		}
	} else if tree.Kind == drg.CompleteTree {
		parent = tree.Roots[0]
	}

	res := newResult("regions", t, m)
	res.Params["value"] = valueKind(opt.Inclusive)
	res.Params["top"] = topParam(opt.Top, DefaultTop)
	res.Params["of"] = sc.label
	res.Params["children"] = "none"
	if parent >= 0 {
		res.Params["children"] = t.Nodes[parent].Name
	}
	rt := res.AddTable(topRegionsTable(t, m, sc, opt))
	if rt.NumRows() > 0 {
		col := valueKind(opt.Inclusive)
		res.Findf("The most expensive region by %s %s (%s) is %s: %s, %.1f%% of the main region.",
			col, t.Metrics[m].Name, sc.describe(), rt.Text("region", 0), formatValue(t, m, rt.Num(col, 0)), rt.Num(col+"_percent", 0))
	} else {
		res.Findf("No region has a record for %s.", sc.describe())
	}

	if tree.Kind != drg.NoCallpaths {
		res.AddTable(callgraphTable(t, m, sc, tree, res))
	}
	if parent < 0 {
		res.Findf("No children table: the callpaths do not form a complete tree (%s); name a node with the children option.", tree.Kind)
		return res, nil
	}
	res.AddTable(childrenTable(t, m, sc, tree, parent, res))
	return res, nil
}

// topRegionsTable builds the "regions" table: the flat regions with a
// record in the scope, largest exclusive (or inclusive) value first (then
// by name), cut to the top ones.
func topRegionsTable(t *drg.Trial, m int, sc scope, opt RegionsOptions) Table {
	unit := unitOf(t, m)
	main := sc.main(t.MainInclusive(m))
	ex, in, callCol := t.Col(drg.ColExclusive, m), t.Col(drg.ColInclusive, m), t.Col(drg.ColCalls, 0)
	var (
		names                                 []string
		exV, exP, inV, inP, calls, exPC, inPC []float64
	)
	for _, f := range t.Flat() {
		e, present := sc.reduce(t, ex, f)
		if !present {
			continue
		}
		i, _ := sc.reduce(t, in, f)
		c, _ := sc.reduce(t, callCol, f)
		names = append(names, t.Nodes[f].Name)
		exV = append(exV, e)
		inV = append(inV, i)
		exP = append(exP, drg.Percent(e, main))
		inP = append(inP, drg.Percent(i, main))
		calls = append(calls, c)
		exPC = append(exPC, ratio(e, c, 0))
		inPC = append(inPC, ratio(i, c, 0))
	}
	key := exV
	if opt.Inclusive {
		key = inV
	}
	idx := order(len(names), func(i, j int) bool {
		if key[i] != key[j] {
			return key[i] > key[j]
		}
		return names[i] < names[j]
	})
	idx = idx[:topN(opt.Top, DefaultTop, len(idx))]
	tb := Table{Name: "regions", Title: fmt.Sprintf("Top regions by %s %s (%s), with percentages of the main region's inclusive value",
		valueKind(opt.Inclusive), t.Metrics[m].Name, sc.describe())}
	tb.AddText("region", names)
	tb.AddNum("exclusive", unit, exV)
	tb.AddNum("exclusive_percent", "%", exP)
	tb.AddNum("inclusive", unit, inV)
	tb.AddNum("inclusive_percent", "%", inP)
	tb.AddNum("calls", "calls", calls)
	tb.AddNum("exclusive_per_call", unit, exPC)
	tb.AddNum("inclusive_per_call", unit, inPC)
	permuteTable(&tb, idx)
	return tb
}

// CallgraphNodes bounds Regions' "callgraph" table.
const CallgraphNodes = 2000

// callgraphTable builds Regions' "callgraph" table: the tree view walked
// depth first from its roots, children by descending value.
func callgraphTable(t *drg.Trial, m int, sc scope, tree drg.Tree, res *Result) Table {
	in := t.Col(drg.ColInclusive, m)
	var nodes, parents, regions []string
	var vals, depths []float64
	seen := make([]bool, len(t.Nodes))
	total, truncated := 0, false
	var walk func(n, parent, depth int)
	walk = func(n, parent, depth int) {
		if seen[n] {
			return
		}
		seen[n] = true
		v, present := sc.reduce(t, in, n)
		if !present {
			return
		}
		total++
		if len(nodes) >= CallgraphNodes {
			truncated = true
		} else {
			pn := ""
			if parent >= 0 {
				pn = t.Nodes[parent].Name
			}
			nodes = append(nodes, t.Nodes[n].Name)
			parents = append(parents, pn)
			regions = append(regions, t.Regions[t.Nodes[n].Region].Name)
			vals = append(vals, v)
			depths = append(depths, float64(depth))
		}
		kids := append([]int(nil), tree.Children[n]...)
		kv := make(map[int]float64, len(kids))
		for _, c := range kids {
			kv[c], _ = sc.reduce(t, in, c)
		}
		sort.SliceStable(kids, func(i, j int) bool { return kv[kids[i]] > kv[kids[j]] })
		for _, c := range kids {
			walk(c, n, depth+1)
		}
	}
	for _, r := range tree.Roots {
		walk(r, -1, 0)
	}
	title := fmt.Sprintf("Call graph (tree view, %s callpaths): inclusive %s of every node (%s), depth first from the roots (depth 0), children by descending value; nodes the scope has no record of are left out with their subtrees",
		tree.Kind, t.Metrics[m].Name, sc.describe())
	if truncated {
		title += fmt.Sprintf("; the first %d of %d nodes (limit %d)", len(nodes), total, CallgraphNodes)
		res.Params["callgraph_nodes"] = strconv.Itoa(len(nodes))
	} else {
		title += fmt.Sprintf("; all %d nodes (limit %d)", len(nodes), CallgraphNodes)
	}
	tb := Table{Name: "callgraph", Title: title}
	tb.AddText("node", nodes)
	tb.AddText("parent", parents)
	tb.AddText("region", regions)
	tb.AddNum("inclusive", unitOf(t, m), vals)
	tb.AddNum("depth", "", depths)
	return tb
}

// childrenTable builds Regions' "children" table for node parent.
func childrenTable(t *drg.Trial, m int, sc scope, tree drg.Tree, parent int, res *Result) Table {
	ex, in, callCol := t.Col(drg.ColExclusive, m), t.Col(drg.ColInclusive, m), t.Col(drg.ColCalls, 0)
	total, _ := sc.reduce(t, in, parent)
	self, _ := sc.reduce(t, ex, parent)
	selfCalls, _ := sc.reduce(t, callCol, parent)
	kinds := []string{"self"}
	nodes := []string{t.Nodes[parent].Name}
	regions := []string{t.Regions[t.Nodes[parent].Region].Name}
	vals := []float64{self}
	calls := []float64{selfCalls}
	for _, c := range tree.Children[parent] {
		v, present := sc.reduce(t, in, c)
		if !present {
			continue
		}
		k, _ := sc.reduce(t, callCol, c)
		kinds = append(kinds, "child")
		nodes = append(nodes, t.Nodes[c].Name)
		regions = append(regions, t.Regions[t.Nodes[c].Region].Name)
		vals = append(vals, v)
		calls = append(calls, k)
	}
	idx := order(len(vals), func(i, j int) bool {
		if (i == 0) != (j == 0) {
			return i == 0
		}
		if vals[i] != vals[j] {
			return vals[i] > vals[j]
		}
		return nodes[i] < nodes[j]
	})
	pct := make([]float64, len(vals))
	for i, v := range vals {
		pct[i] = drg.Percent(v, total)
	}
	name := t.Nodes[parent].Name
	tb := Table{Name: "children", Title: fmt.Sprintf("Sub-regions of %s: its own exclusive %s and its children's inclusive %s (%s), as percentages of its inclusive value",
		name, t.Metrics[m].Name, t.Metrics[m].Name, sc.describe())}
	tb.AddText("kind", kinds)
	tb.AddText("node", nodes)
	tb.AddText("region", regions)
	tb.AddNum("value", unitOf(t, m), vals)
	tb.AddNum("percent", "%", pct)
	tb.AddNum("calls", "calls", calls)
	permuteTable(&tb, idx)
	if len(vals) > 1 {
		best := idx[1]
		res.Findf("The largest sub-region of %s is %s with %.1f%% of its inclusive %s; its own exclusive share is %.1f%%.",
			name, regions[best], pct[best], t.Metrics[m].Name, pct[0])
	} else {
		res.Findf("%s has no children in the call graph%s.", name, childHint(t, tree, parent))
	}
	return tb
}

// childHint suggests the callpath nodes of a flat node's region that have
// children, for a user who named a region instead of a callpath.
func childHint(t *drg.Trial, tree drg.Tree, node int) string {
	if !t.Nodes[node].IsFlat() {
		return ""
	}
	var with []string
	for i, n := range t.Nodes {
		if i != node && n.Region == t.Nodes[node].Region && len(tree.Children[i]) > 0 {
			with = append(with, strconv.Quote(n.Name))
		}
	}
	if len(with) == 0 {
		return ""
	}
	if len(with) > 3 {
		with = append(with[:3], "...")
	}
	return "; callpath nodes of this region with children: " + strings.Join(with, ", ")
}
