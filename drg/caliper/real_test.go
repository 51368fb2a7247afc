package caliper

import (
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// splitOracle computes, straight from a json-split file with encoding/json
// and independently of the reader, what Hatchet's CaliperReader gives per
// hierarchy node and rank: the rows of the node summed (exclusive; rows
// with a null hierarchy value dropped, as Hatchet does) and the rows of its
// whole subtree summed (inclusive, what Hatchet's update_inclusive_columns
// computes, and what its test_inclusive_time_calculation checks against the
// recorded inclusive column of the LULESH file).
type splitOracle struct {
	paths []string          // callpath name per hierarchy node ("" for others)
	roots map[string]bool   // callpaths of hierarchy roots
	excl  []map[int]float64 // per node, rank -> own rows
	incl  []map[int]float64 // per node, rank -> subtree rows
	recIn []map[int]float64 // per node, rank -> recorded inclusive column
	lines []map[string]bool // per node, distinct source lines
	total map[int]float64   // rank -> all rows with a hierarchy value
	names map[string]bool   // distinct labels of hierarchy nodes
}

func newSplitOracle(t *testing.T, path, hier, metric, inclMetric string) *splitOracle {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Data    [][]any `json:"data"`
		Columns []string
		Nodes   []struct {
			Label  string
			Column string
			Parent *int
		}
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, c := range doc.Columns {
		col[c] = i
	}
	n := len(doc.Nodes)
	o := &splitOracle{paths: make([]string, n), roots: map[string]bool{}, total: map[int]float64{}, names: map[string]bool{}}
	for i, nd := range doc.Nodes {
		o.excl = append(o.excl, map[int]float64{})
		o.incl = append(o.incl, map[int]float64{})
		o.recIn = append(o.recIn, map[int]float64{})
		o.lines = append(o.lines, map[string]bool{})
		if nd.Column != hier {
			continue
		}
		o.names[nd.Label] = true
		if nd.Parent == nil {
			o.paths[i] = nd.Label
			o.roots[nd.Label] = true
		} else {
			o.paths[i] = o.paths[*nd.Parent] + drg.CallpathSeparator + nd.Label
		}
	}
	for _, row := range doc.Data {
		h, ok := row[col[hier]].(float64)
		if !ok {
			continue
		}
		node, rank := int(h), int(row[col["mpi.rank"]].(float64))
		v := row[col[metric]].(float64)
		o.excl[node][rank] += v
		o.total[rank] += v
		if inclMetric != "" {
			o.recIn[node][rank] += row[col[inclMetric]].(float64)
		}
		if sl, ok := col["sourceloc#cali.sampler.pc"]; ok {
			label := doc.Nodes[int(row[sl].(float64))].Label
			o.lines[node][label[strings.LastIndex(label, ":")+1:]] = true
		}
		for p := &node; ; {
			o.incl[*p][rank] += v
			if doc.Nodes[*p].Parent == nil {
				break
			}
			p = doc.Nodes[*p].Parent
		}
	}
	return o
}

// TestLuleshJSONHatchet reads caliper-lulesh-json (cali-query json-split
// with recorded exclusive and inclusive time).
func TestLuleshJSONHatchet(t *testing.T) {
	const rel = "caliper-lulesh-json/lulesh-annotation-profile.json"
	tr := read(t, rel)
	// Hatchet's tests/caliper.py: test_graphframe asserts 24 distinct
	// names; test_read_lulesh_json 192 data rows (after dropping the rows
	// with a null path) and 24 nodes.
	if len(tr.Regions) != 24 || len(tr.Threads) != 8 {
		t.Fatalf("%d regions, %d threads; Hatchet: 24 names, ranks 0-7", len(tr.Regions), len(tr.Threads))
	}
	m := tr.MetricIndex("sum#time.duration")
	if m < 0 || tr.Metadata["sum#time.duration (inclusive)"] != "recorded" || tr.Metadata["sum#time.duration (exclusive)"] != "recorded" {
		t.Fatalf("metrics %v, metadata %v", tr.Metrics, tr.Metadata)
	}
	// Hatchet's test_tree renders rank 0 and asserts these numbers.
	for _, c := range []struct {
		region string
		incl   bool
		want   float64
	}{
		{"main", false, 121489}, {"LagrangeElements", false, 663}, {"CalcTimeConstraintsForElems", false, 21493},
		{"EvalEOSForElems", true, 662712}, {"LagrangeNodal", true, 2895319},
	} {
		e, i := cell(t, tr, m, flat(t, tr, c.region), 0)
		if got := map[bool]float64{false: e, true: i}[c.incl]; got != c.want {
			t.Errorf("%s rank 0 (inclusive %v): %v, Hatchet's test_tree %v", c.region, c.incl, got, c.want)
		}
	}
	o := newSplitOracle(t, otherFormat(t, rel), "path", "sum#time.duration", "inclusive#sum#time.duration")
	cells := 0
	for i, p := range o.paths {
		if p == "" {
			continue
		}
		n := tr.NodeIndex(p)
		if o.roots[p] {
			n = flat(t, tr, p)
		}
		if n < 0 {
			t.Fatalf("no node %q", p)
		}
		for rank, want := range o.excl[i] {
			cells++
			e, in := cell(t, tr, m, n, rank)
			// The file's inclusive column is the subtree sum: the
			// identity Hatchet's test_inclusive_time_calculation asserts.
			if !near(e, want) || !near(in, o.recIn[i][rank]) || !near(in, o.incl[i][rank]) {
				t.Errorf("%s rank %d: %v/%v, file %v/%v, subtree %v", p, rank, e, in, want, o.recIn[i][rank], o.incl[i][rank])
			}
		}
	}
	if cells != 192 {
		t.Errorf("%d (node, rank) rows compared, Hatchet's test_read_lulesh_json 192", cells)
	}
}

// TestCpiJSONHatchet reads caliper-cpi-json: sampled callpaths with source
// lines, exclusive samples and time only (inclusive derived).
func TestCpiJSONHatchet(t *testing.T) {
	const rel = "caliper-cpi-json/cpi-callpath-profile.json"
	tr := read(t, rel)
	// Hatchet's test_calc_pi_json: 100 distinct names (60 function names
	// and 40 "file:line" statement nodes of the 12 callpath nodes that have
	// samples on more than one line).
	if len(tr.Regions) != 100 || len(tr.Threads) != 4 {
		t.Fatalf("%d regions, %d threads; Hatchet 100 names, ranks 0-3", len(tr.Regions), len(tr.Threads))
	}
	m := tr.MetricIndex("sum#time.duration")
	if m < 0 || tr.Metadata["sum#time.duration (inclusive)"] != "derived" || tr.Metadata["sum#time.duration (exclusive)"] != "recorded" {
		t.Fatalf("metrics %v, metadata %v", tr.Metrics, tr.Metadata)
	}
	o := newSplitOracle(t, otherFormat(t, rel), "source.function#callpath.address", "sum#time.duration", "")
	ch := children(tr)
	compared := 0
	for i, p := range o.paths {
		if p == "" || (o.roots[p] && tr.NodeIndex(p) < 0 && countLabel(o, p) > 1) {
			continue
		}
		n := tr.NodeIndex(p)
		if o.roots[p] {
			n = flat(t, tr, p)
		}
		for rank, want := range o.incl[i] {
			compared++
			e, in := cell(t, tr, m, n, rank)
			if !near(in, want) {
				t.Errorf("%s rank %d: inclusive %v, sum of its subtree's rows %v", p, rank, in, want)
			}
			if len(o.lines[i]) > 1 {
				// Split into statement children: they hold the rows.
				sum := 0.0
				for _, c := range ch[n] {
					if strings.Contains(tr.Nodes[c].Name[len(p):], ":") {
						ce, _ := cell(t, tr, m, c, rank)
						sum += ce
					}
				}
				if e != 0 || !near(sum, o.excl[i][rank]) {
					t.Errorf("%s rank %d: exclusive %v and statements %v, rows %v", p, rank, e, sum, o.excl[i][rank])
				}
			} else if !near(e, o.excl[i][rank]) {
				t.Errorf("%s rank %d: exclusive %v, rows %v", p, rank, e, o.excl[i][rank])
			}
		}
	}
	if compared < 150 {
		t.Errorf("only %d (node, rank) cells compared", compared)
	}
	// The format's own totals: the flat view sums every row once.
	for rank, want := range o.total {
		sum := 0.0
		for r := range tr.Regions {
			e, _ := cell(t, tr, m, tr.Regions[r].Flat, rank)
			sum += e
		}
		if !near(sum, want) {
			t.Errorf("rank %d: flat exclusive total %v, rows %v", rank, sum, want)
		}
	}
}

func countLabel(o *splitOracle, label string) int {
	n := 0
	for _, p := range o.paths {
		if p == label || strings.HasSuffix(p, drg.CallpathSeparator+label) {
			n++
		}
	}
	return n
}

// TestLuleshCali reads caliper-lulesh-cali, a native .cali region profile
// recording exclusive min, max, sum, avg of time.duration and count.
func TestLuleshCali(t *testing.T) {
	tr := read(t, "caliper-lulesh-cali/lulesh-annotation-profile.cali")
	// Hatchet's test_graphframe_native_lulesh_from_file: 19 names, and
	// cali.caliper.version and cali.channel in the metadata.
	if len(tr.Regions) != 19 || len(tr.Threads) != 1 {
		t.Fatalf("%d regions, %d threads; Hatchet 19 names", len(tr.Regions), len(tr.Threads))
	}
	if tr.Metadata["cali.caliper.version"] != "2.2.0-dev" || tr.Metadata["cali.channel"] != "default" {
		t.Errorf("globals %q %q", tr.Metadata["cali.caliper.version"], tr.Metadata["cali.channel"])
	}
	if tr.Metadata["Caliper records outside any region (not read)"] != "1" {
		t.Errorf("the file's first snapshot (ref=28) is outside any region: %v", tr.Metadata)
	}
	sum, count := tr.MetricIndex("sum#time.duration"), tr.MetricIndex("count")
	// The summed time comes first, so that analyses default to it.
	if sum != 0 || count < 0 || len(tr.Metrics) != 5 || tr.Metadata["sum#time.duration (inclusive)"] != "derived" {
		t.Fatalf("metrics %v", tr.Metrics)
	}
	// Hand-read from the file: main's own record has sum 0.025121, count 2;
	// every other record lies under main, so main's derived inclusive is
	// the sum of the 19 records' sums, and LagrangeNodal's the sum of its
	// own record and its 5 descendants'.
	all := []float64{0.025121, 0.000206, 0.000102, 0.000226, 0.012400, 0.001854, 0.001841, 0.056681, 0.059643,
		0.080608, 0.001367, 0.002862, 0.055700, 0.031685, 0.014334, 0.002410, 0.044917, 0.095906, 0.004628}
	total := 0.0
	for _, v := range all {
		total += v
	}
	nodal := 0.012400 + 0.001854 + 0.001841 + 0.056681 + 0.059643 + 0.080608
	mainNode := flat(t, tr, "main")
	for _, c := range []struct {
		node       int
		m          int
		excl, incl float64
	}{
		{mainNode, sum, 0.025121, total},
		{mainNode, count, 2, 2 + 41 + 10 + 40 + 20 + 20 + 30 + 10 + 20 + 10 + 40 + 20 + 10 + 20 + 10 + 120 + 460 + 350 + 10},
		{tr.NodeIndex("main => lulesh.cycle => LagrangeLeapFrog => LagrangeNodal"), sum, 0.012400, nodal},
	} {
		e, i := cell(t, tr, c.m, c.node, 0)
		if !near(e, c.excl) || !near(i, c.incl) {
			t.Errorf("%s %s: %v/%v, hand computation %v/%v", tr.Nodes[c.node].Name, tr.Metrics[c.m].Name, e, i, c.excl, c.incl)
		}
	}
}

// TestExampleCali reads caliper-example-cali, a Spot profile recording
// inclusive metrics only, with aliases and units, and 22 globals.
func TestExampleCali(t *testing.T) {
	tr := read(t, "caliper-example-cali/example-profile.cali")
	// caliper-reader's own test of this file (Caliper's python reader,
	// test_reader_class): 25 records, 22 globals, spot.format.version 2,
	// threads 2. One record has no region, so 24 regions have a record.
	withRecord := 0
	nt := len(tr.Threads)
	for r := range tr.Regions {
		if tr.Present.Count(tr.Regions[r].Flat*nt, (tr.Regions[r].Flat+1)*nt) > 0 {
			withRecord++
		}
	}
	if withRecord+1 != 25 || tr.Metadata["Caliper records outside any region (not read)"] != "1" {
		t.Errorf("%d regions with a record + 1 outside, caliper-reader 25 records", withRecord)
	}
	globals := []string{"spot.options", "spot.format.version", "spot.timeseries.metrics", "spot.metrics", "mpi.world.size",
		"cali.caliper.version", "figure_of_merit", "elapsed_time", "region_balance", "region_cost", "num_regions",
		"problem_size", "iterations", "threads", "jobsize", "cluster", "cmdline", "libraries", "executablepath",
		"launchdate", "user", "cali.channel"}
	for _, g := range globals {
		if _, ok := tr.Metadata[g]; !ok {
			t.Errorf("global %q missing", g)
		}
	}
	if len(globals) != 22 || tr.Metadata["spot.format.version"] != "2" || tr.Metadata["threads"] != "2" {
		t.Errorf("spot.format.version %q threads %q", tr.Metadata["spot.format.version"], tr.Metadata["threads"])
	}
	// The alias names the metric, as Hatchet's default (non-native) names.
	m := tr.MetricIndex("Total time")
	if m != 0 || tr.Metadata["Total time (inclusive)"] != "recorded" || tr.Metadata["Total time (exclusive)"] != "derived" ||
		tr.Metadata["Caliper unit of sum#inclusive#sum#time.duration"] != "sec" {
		t.Fatalf("metrics %v", tr.Metrics)
	}
	// Hand computation from the file: main 0.301407 inclusive; its children
	// MPI_Barrier 0.000045, lulesh.cycle 0.292946, MPI_Reduce 0.000016.
	e, i := cell(t, tr, m, flat(t, tr, "main"), 0)
	if !near(i, 0.301407) || !near(e, 0.301407-0.000045-0.292946-0.000016) {
		t.Errorf("main %v/%v", e, i)
	}
	e, i = cell(t, tr, m, tr.NodeIndex("main => lulesh.cycle => TimeIncrement => MPI_Allreduce"), 0)
	if !near(i, 0.000083) || !near(e, 0.000083) {
		t.Errorf("MPI_Allreduce %v/%v", e, i)
	}
}

// caliOracle reads a .cali file's snapshot records with a few lines of
// string splitting (independently of the reader): per region path, the
// value of every immediate attribute, summed over records. These are the
// values Hatchet's native reader puts in its dataframe, one row per record.
func caliOracle(t *testing.T, path string) (map[string]map[string]float64, map[string]bool) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	type node struct{ attr, data, parent string }
	nodes := map[string]node{}
	out := map[string]map[string]float64{}
	roots := map[string]bool{}
	nested := func(attrID string) bool { // a prop node with bit 256 above the attribute node
		for id := nodes[attrID].parent; id != ""; id = nodes[id].parent {
			if n := nodes[id]; n.attr == "10" {
				v, _ := strconv.Atoi(n.data)
				return v&256 != 0
			}
		}
		return false
	}
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		if strings.Contains(line, `\`) {
			continue // escaped metadata values, not regions or metrics
		}
		kv := map[string][]string{}
		for _, item := range strings.Split(line, ",") {
			p := strings.Split(item, "=")
			kv[p[0]] = p[1:]
		}
		switch kv["__rec"][0] {
		case "node":
			n := node{attr: kv["attr"][0], data: kv["data"][0]}
			if p, ok := kv["parent"]; ok {
				n.parent = p[0]
			}
			nodes[kv["id"][0]] = n
		case "ctx":
			var path []string
			for _, ref := range kv["ref"] {
				var chain []string
				for id := ref; id != ""; id = nodes[id].parent {
					if nested(nodes[id].attr) {
						chain = append([]string{nodes[id].data}, chain...)
					}
				}
				path = append(path, chain...)
			}
			if len(path) == 0 {
				continue
			}
			p := strings.Join(path, drg.CallpathSeparator)
			if len(path) == 1 {
				roots[p] = true
			}
			if out[p] == nil {
				out[p] = map[string]float64{}
			}
			for i, a := range kv["attr"] {
				v, _ := strconv.ParseFloat(kv["data"][i], 64)
				out[p][nodes[a].data] += v
			}
		}
	}
	return out, roots
}

// TestCaliEveryNode compares every region path and recorded metric of the
// two native .cali files with the oracle.
func TestCaliEveryNode(t *testing.T) {
	for _, c := range []struct {
		rel   string
		paths int
	}{{"caliper-lulesh-cali/lulesh-annotation-profile.cali", 19}, {"caliper-example-cali/example-profile.cali", 24}} {
		tr := read(t, c.rel)
		want, roots := caliOracle(t, otherFormat(t, c.rel))
		if len(want) != c.paths {
			t.Fatalf("%s: oracle found %d paths", c.rel, len(want))
		}
		// The trial metadata maps each attribute to its metric and side.
		side := map[string]struct {
			m    int
			incl bool
		}{}
		for k, attr := range tr.Metadata {
			if rest, ok := strings.CutPrefix(k, "Caliper attribute of "); ok {
				name, incl := strings.TrimSuffix(rest, " (inclusive)"), strings.HasSuffix(rest, " (inclusive)")
				name = strings.TrimSuffix(name, " (exclusive)")
				side[attr] = struct {
					m    int
					incl bool
				}{tr.MetricIndex(name), incl}
			}
		}
		compared := 0
		for p, vals := range want {
			n := tr.NodeIndex(p)
			if roots[p] {
				n = flat(t, tr, p)
			}
			for attr, v := range vals {
				s, ok := side[attr]
				if !ok || s.m < 0 {
					t.Fatalf("%s: attribute %s has no metric", c.rel, attr)
				}
				e, i := cell(t, tr, s.m, n, 0)
				got := map[bool]float64{false: e, true: i}[s.incl]
				if !near(got, v) {
					t.Errorf("%s %s %s: %v, record %v", c.rel, p, attr, got, v)
				}
				compared++
			}
		}
		if compared < 5*c.paths {
			t.Errorf("%s: only %d values compared", c.rel, compared)
		}
	}
}
