package drg

import "sort"

// Description summarizes a trial for a person: what `taudb-analyze inspect`
// prints.
type Description struct {
	Name       string            `json:"name"`
	Format     string            `json:"format"`
	Path       string            `json:"path"`
	Threads    int               `json:"threads"`
	Nodes      int               `json:"node_count"`
	Contexts   int               `json:"contexts_per_node"`
	PerContext int               `json:"threads_per_context"`
	Metrics    []string          `json:"metrics"`
	Regions    int               `json:"regions"`
	CallNodes  int               `json:"nodes"`
	Timers     int               `json:"timers"`
	Callpaths  int               `json:"callpaths"`
	Counters   int               `json:"counters"`
	Tree       string            `json:"tree"`
	TreeRoots  []string          `json:"tree_roots"`
	Main       string            `json:"main_region"`
	TopMetric  string            `json:"top_metric"`
	Top        []RegionShare     `json:"top_regions"`
	Metadata   map[string]string `json:"metadata"`
	Snapshots  int               `json:"snapshots"`
	Warnings   []string          `json:"warnings"`
}

// RegionShare is one row of a top-regions list: a region's exclusive and
// inclusive value (mean over all threads, absent ones as 0), its share of
// the mean main-region inclusive value in percent, and its mean calls.
type RegionShare struct {
	Region           string  `json:"region"`
	Exclusive        float64 `json:"exclusive"`
	Inclusive        float64 `json:"inclusive"`
	ExclusivePercent float64 `json:"exclusive_percent"`
	Calls            float64 `json:"calls"`
}

// Describe summarizes t. Timers counts the distinct measured names (flat and
// callpath nodes that some thread has a record for), Callpaths the callpath
// ones among them, CallNodes every node including the empty intermediate
// ones made for depth-limited paths. The top regions are the n flat regions
// with the largest mean exclusive value of the first time metric.
func Describe(t *Trial, n int) Description {
	d := Description{
		Name: t.Name, Format: t.Source.Format, Path: t.Source.Path,
		Threads: len(t.Threads), Regions: len(t.Regions), CallNodes: len(t.Nodes),
		Counters: len(t.Counters), Metadata: t.Metadata, Warnings: t.Warnings,
		Snapshots: len(t.Series),
	}
	d.Nodes, d.Contexts, d.PerContext, _ = t.Layout()
	for _, m := range t.Metrics {
		d.Metrics = append(d.Metrics, m.Name)
	}
	for i, node := range t.Nodes {
		if t.RowLen(i) > 0 {
			d.Timers++
			if node.Parent >= 0 {
				d.Callpaths++
			}
		}
	}
	tree := t.Tree()
	d.Tree = tree.Kind.String()
	for _, r := range tree.Roots {
		d.TreeRoots = append(d.TreeRoots, t.Nodes[r].Name)
	}
	m := t.TimeMetric()
	if m < 0 {
		return d
	}
	d.TopMetric = t.Metrics[m].Name
	if tree.Main >= 0 {
		d.Main = t.Regions[tree.Main].Name
	}
	st := t.Statistics()
	mainMean := DerivedMain(t.MainInclusive(m), MeanAll)
	for _, f := range t.Flat() {
		d.Top = append(d.Top, RegionShare{
			Region:           t.Regions[t.Nodes[f].Region].Name,
			Exclusive:        st.Exclusive[m].MeanAll[f],
			Inclusive:        st.Inclusive[m].MeanAll[f],
			ExclusivePercent: Percent(st.Exclusive[m].MeanAll[f], mainMean),
			Calls:            st.Calls.MeanAll[f],
		})
	}
	sort.SliceStable(d.Top, func(i, j int) bool { return d.Top[i].Exclusive > d.Top[j].Exclusive })
	if len(d.Top) > n {
		d.Top = d.Top[:n]
	}
	return d
}
