package hpctoolkit

import (
	"encoding/csv"
	"encoding/xml"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/internal/realdata"
)

// otherFormats returns ../shared/data/other-formats/hatchet-hatchet/rel
// (Hatchet's test data, see its SOURCES.md), skipping the test when absent.
func otherFormats(t testing.TB, rel string) string {
	t.Helper()
	p := filepath.Join(realdata.Root(), "..", "shared", "data", "other-formats", "hatchet-hatchet", rel)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("%s: shared data absent", p)
	}
	return p
}

// near reports whether a and b agree within 1e-9 relative (absolute for
// values below 1).
func near(a, b float64) bool {
	return math.Abs(a-b) <= 1e-9*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

type hatchetRow struct {
	nid, rank  int
	incl, excl float64
	name       string
}

// readGraphframe reads Hatchet's dataframe of the cpi database
// (hpctoolkit-cpi-graphframe.csv: node, rank, time (inc), time, nid, name, ...).
func readGraphframe(t *testing.T) []hatchetRow {
	f, err := os.Open(otherFormats(t, "hpctoolkit-cpi-graphframe.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var rows []hatchetRow
	for _, r := range recs[1:] {
		var h hatchetRow
		h.rank, _ = strconv.Atoi(r[1])
		h.incl, _ = strconv.ParseFloat(r[2], 64)
		h.excl, _ = strconv.ParseFloat(r[3], 64)
		h.nid, _ = strconv.Atoi(r[4])
		h.name = r[5]
		rows = append(rows, h)
	}
	return rows
}

// TestCPIMatchesHatchet compares every (context, rank) value of the cpi
// database with Hatchet's own dataframe of it: 34 contexts × 4 ranks, the
// node and rank counts of that dataframe, inclusive and exclusive within
// 1e-9 relative.
func TestCPIMatchesHatchet(t *testing.T) {
	rows := readGraphframe(t)
	tree, _, _, err := Reader{Path: otherFormats(t, "hpctoolkit-cpi-database")}.readTree()
	if err != nil {
		t.Fatal(err)
	}
	nids, ranks := map[int]bool{}, map[int]bool{}
	for _, r := range rows {
		nids[r.nid], ranks[r.rank] = true, true
	}
	if len(tree.Nodes) != len(nids) || len(nids) != 34 {
		t.Fatalf("%d contexts, Hatchet's dataframe has %d nodes (34)", len(tree.Nodes), len(nids))
	}
	if len(tree.Threads) != len(ranks) || len(ranks) != 4 {
		t.Fatalf("%d threads, Hatchet's dataframe has %d ranks (4)", len(tree.Threads), len(ranks))
	}
	if len(tree.Metrics) != 1 || tree.Metrics[0] != "CPUTIME (usec)" {
		t.Fatalf("metrics %q, want [CPUTIME (usec)]", tree.Metrics)
	}
	byID := map[int64]int{}
	for i, n := range tree.Nodes {
		byID[n.ID] = i
	}
	nt := len(tree.Threads)
	for _, r := range rows {
		i, ok := byID[int64(r.nid)]
		if !ok {
			t.Fatalf("Hatchet's node %d (%s) is not a context", r.nid, r.name)
		}
		th := -1
		for k, id := range tree.Threads {
			if id == (drg.ThreadID{Node: r.rank}) {
				th = k
			}
		}
		in, ex := tree.Incl[0][i*nt+th], tree.Excl[0][i*nt+th]
		if !near(in, r.incl) || !near(ex, r.excl) {
			t.Errorf("node %d %s rank %d: inclusive %v exclusive %v, Hatchet %v %v", r.nid, r.name, r.rank, in, ex, r.incl, r.excl)
		}
	}
}

// TestCPITrial checks the trial built from the cpi database against
// Hatchet's dataframe: region names are Hatchet's names without the call
// site line ("27:MPI_Init" is region MPI_Init), the root's inclusive value
// per rank is Hatchet's, and per rank the exclusive values of the callpath
// nodes and of the flat view each add up to the sum of Hatchet's
// exclusive column (nothing lost, nothing counted twice).
func TestCPITrial(t *testing.T) {
	rows := readGraphframe(t)
	tr, err := Reader{Path: otherFormats(t, "hpctoolkit-cpi-database")}.Read()
	if err != nil {
		t.Fatal(err)
	}
	if tr.Source.DataSource != 9 || tr.Metadata["HPCToolkit program"] != "cpi" || tr.Metadata["HPCToolkit database version"] != "2.0" {
		t.Errorf("source %+v, metadata %v", tr.Source, tr.Metadata)
	}
	callsite := regexp.MustCompile(`^\d+:`)
	want := map[string]bool{}
	total := map[int]float64{}
	root := map[int]float64{}
	for _, r := range rows {
		want[callsite.ReplaceAllString(r.name, "")] = true
		total[r.rank] += r.excl
		if r.nid == 2 {
			root[r.rank] = r.incl
		}
	}
	if len(tr.Regions) != len(want) {
		t.Errorf("%d regions, Hatchet's names without call-site lines give %d", len(tr.Regions), len(want))
	}
	for _, reg := range tr.Regions {
		if !want[reg.Name] {
			t.Errorf("region %q is not among Hatchet's names", reg.Name)
		}
	}
	r := tr.RegionIndex("<program root>")
	if r < 0 {
		t.Fatal("no <program root> region")
	}
	for th, id := range tr.Threads {
		flat := tr.Regions[r].Flat
		if got := tr.Values[0].Inclusive[tr.Cell(flat, th)]; !near(got, root[id.Node]) {
			t.Errorf("rank %d: root inclusive %v, Hatchet %v", id.Node, got, root[id.Node])
		}
		var cp, fl float64
		for i, n := range tr.Nodes {
			if n.Parent >= 0 || n.Region == r {
				cp += tr.Values[0].Exclusive[tr.Cell(i, th)]
			}
		}
		for _, i := range tr.Flat() {
			fl += tr.Values[0].Exclusive[tr.Cell(i, th)]
		}
		if !near(cp, total[id.Node]) || !near(fl, total[id.Node]) {
			t.Errorf("rank %d: exclusive sums %v (callpaths) %v (flat), Hatchet %v", id.Node, cp, fl, total[id.Node])
		}
	}
}

// summaryValues reads the <M n=".." v=".."/> values experiment.xml gives
// under each context: hpcprof's sums over all threads, printed with six
// significant digits.
func summaryValues(t *testing.T, path string) map[int64]map[string]float64 {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d := xml.NewDecoder(f)
	out := map[int64]map[string]float64{}
	var stack []int64
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			var id int64 = -1
			for _, a := range e.Attr {
				if a.Name.Local == "i" && e.Name.Local != "M" {
					id, _ = strconv.ParseInt(a.Value, 10, 64)
				}
			}
			if e.Name.Local == "M" && len(stack) > 0 {
				var n string
				var v float64
				for _, a := range e.Attr {
					if a.Name.Local == "n" {
						n = a.Value
					} else if a.Name.Local == "v" {
						v, _ = strconv.ParseFloat(a.Value, 64)
					}
				}
				if out[stack[len(stack)-1]] == nil {
					out[stack[len(stack)-1]] = map[string]float64{}
				}
				out[stack[len(stack)-1]][n] = v
			}
			stack = append(stack, id)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		}
	}
}

// TestAllgather reads the OSU allgather database (10 ranks × 2 threads, as
// its 20 metric-db files name them). Hatchet's test asserts 3 node types
// (PF, L, S here); its graph has a node per PF, L and S element (1474).
// Its name, module and file counts (383, 9, 41) are checked in
// TestHatchetNameModuleFileCounts, after its call-site prefixes and file
// bookkeeping (hatchetNodes). Its values are not in the shared data, so the
// independent checks are the database's own totals: for every context,
// the sum over threads of its inclusive value equals the summed value
// hpcprof wrote into experiment.xml (metric 2, "CPUTIME (usec):Sum (I)",
// six significant digits), and per thread the exclusive values of all
// contexts add up to the root's inclusive value.
func TestAllgather(t *testing.T) {
	dir := otherFormats(t, "hpctoolkit-allgather-database")
	tree, _, _, err := Reader{Path: dir}.readTree()
	if err != nil {
		t.Fatal(err)
	}
	if len(tree.Threads) != 20 {
		t.Fatalf("%d threads, want 20", len(tree.Threads))
	}
	// Hatchet makes one node per PF, L and S element (C and nameless Pr
	// make none; this file has no Pr): counted here in the file's text.
	x, err := os.ReadFile(filepath.Join(dir, "experiment.xml"))
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Count(string(x), "<PF ") + strings.Count(string(x), "<L ") + strings.Count(string(x), "<S ")
	if strings.Contains(string(x), "<Pr ") || len(tree.Nodes) != want || want != 1474 {
		t.Errorf("%d contexts, the file has %d PF, L and S elements (1474)", len(tree.Nodes), want)
	}
	groups := map[string]bool{}
	for _, n := range tree.Nodes {
		groups[n.Group] = true
	}
	if len(groups) != 3 {
		t.Errorf("node kinds %v, Hatchet's test asserts 3 types", groups)
	}
	sums := summaryValues(t, filepath.Join(dir, "experiment.xml"))
	nt := len(tree.Threads)
	checked := 0
	for i, n := range tree.Nodes {
		var s float64
		for th := 0; th < nt; th++ {
			s += tree.Incl[0][i*nt+th]
		}
		want := sums[n.ID]["2"]
		if math.Abs(s-want) > 5e-6*math.Max(math.Abs(want), 1) {
			t.Errorf("context %d %s: Σ inclusive %v, experiment.xml says %v", n.ID, n.Name, s, want)
		}
		checked++
	}
	for th := 0; th < nt; th++ {
		var ex, root float64
		for i, n := range tree.Nodes {
			ex += tree.Excl[0][i*nt+th]
			if n.Parent < 0 {
				root += tree.Incl[0][i*nt+th]
			}
		}
		if !near(ex, root) {
			t.Errorf("thread %v: Σ exclusive %v, root inclusive %v", tree.Threads[th], ex, root)
		}
	}
	t.Logf("%d contexts checked against experiment.xml's sums", checked)
}
