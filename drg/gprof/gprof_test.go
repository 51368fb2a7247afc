package gprof

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/internal/realdata"
)

func otherFormatPath(rel string) string {
	return filepath.Join(realdata.Root(), "..", "shared", "data", "other-formats", "hatchet-hatchet", rel)
}

func readReal(t *testing.T, rel string) (*drg.Trial, []byte) {
	t.Helper()
	p := otherFormatPath(rel)
	data, err := os.ReadFile(p)
	if err != nil {
		t.Skipf("%s: shared other-formats data absent", rel)
	}
	tr, err := Reader{Path: p}.Read()
	if err != nil {
		t.Fatal(err)
	}
	return tr, data
}

func near(got, want float64) bool { return math.Abs(got-want) <= 1e-9*math.Max(math.Abs(want), 1e-3) }

// labelOracle reads every node label of a gprof2dot file line by line
// with a regular expression and a split on the literal "\n" (independently
// of the reader's DOT parser): Hatchet's GprofDotReader gives "time (inc)"
// = the first percentage and "time" = the parenthesized one, per node.
var labelRE = regexp.MustCompile(`^\s*("[^"]*"|\w+) \[.*label="([^"]*)"`)

type nodeOracle struct{ incl, excl, calls float64 }

func labelOracle(t *testing.T, data []byte) map[string]nodeOracle {
	out := map[string]nodeOracle{}
	for _, line := range strings.Split(string(data), "\n") {
		m := labelRE.FindStringSubmatch(line)
		if m == nil || strings.Contains(line, " -> ") {
			continue
		}
		p := strings.Split(m[2], `\n`)
		k := len(p)
		inc, err1 := strconv.ParseFloat(strings.TrimSuffix(p[k-3], "%"), 64)
		exc, err2 := strconv.ParseFloat(strings.Trim(p[k-2], "(%)"), 64)
		calls, err3 := strconv.ParseFloat(strings.TrimSuffix(p[k-1], "×"), 64)
		if err1 != nil || err2 != nil || err3 != nil {
			t.Fatalf("oracle: label %q", m[2])
		}
		out[p[k-4]] = nodeOracle{inc, exc, calls}
	}
	return out
}

// roots returns the regions that no callpath leads to (Hatchet's roots:
// nodes with no parent).
func roots(tr *drg.Trial) []string {
	called := map[int]bool{}
	for _, n := range tr.Nodes {
		if n.Parent >= 0 {
			called[n.Region] = true
		}
	}
	var out []string
	for r := range tr.Regions {
		if !called[r] {
			out = append(out, tr.Regions[r].Name)
		}
	}
	sort.Strings(out)
	return out
}

func checkDOT(t *testing.T, rel string, regions int, wantRoots []string) *drg.Trial {
	tr, data := readReal(t, rel)
	if len(tr.Regions) != regions || len(tr.Threads) != 1 || tr.Source.DataSource != 5 {
		t.Fatalf("%d regions, %d threads, source %+v", len(tr.Regions), len(tr.Threads), tr.Source)
	}
	sort.Strings(wantRoots)
	if got := roots(tr); strings.Join(got, "|") != strings.Join(wantRoots, "|") {
		t.Errorf("roots %q, Hatchet %q", got, wantRoots)
	}
	o := labelOracle(t, data)
	if len(o) != regions {
		t.Fatalf("oracle read %d labels", len(o))
	}
	m := tr.MetricIndex(PercentMetric)
	for name, w := range o {
		n := tr.Regions[tr.RegionIndex(name)].Flat
		if e, i := tr.Values[m].Exclusive[n], tr.Values[m].Inclusive[n]; !near(e, w.excl) || !near(i, w.incl) || tr.Calls[n] != w.calls {
			t.Errorf("%s: %v/%v %v calls, label %v/%v %v", name, e, i, tr.Calls[n], w.excl, w.incl, w.calls)
		}
	}
	return tr
}

// TestGprofDOT reads gprof2dot-test: Hatchet's tests/gprof.py asserts 44
// names and the roots "20", "37", "38", "48", "49", "51" (DOT node ids;
// the reader names regions by the labels' function names, listed here).
func TestGprofDOT(t *testing.T) {
	tr := checkDOT(t, "gprof2dot-test/gprof-profile.dot", 44, []string{
		"std::allocator<double>::allocator()",
		"std::vector<double, std::allocator<double> >::vector(unsigned long, std::allocator<double> const&)",
		"std::vector<double, std::allocator<double> >::~vector()",
		"_GLOBAL__sub_I__Z4scanRKSt6vectorIdSaIdEERS1_",
		"sum(std::vector<double, std::allocator<double> > const&)",
		"scan(std::vector<double, std::allocator<double> > const&, std::vector<double, std::allocator<double> >&)",
	})
	// Edge 22 -> 31, "100.00%\n2×"; the callee has 100% / (100%): the
	// derived exclusive is 100 × 100/100.
	n := tr.NodeIndex("std::_Vector_base<double, std::allocator<double> >::_M_allocate(unsigned long) => " +
		"std::allocator_traits<std::allocator<double> >::allocate(std::allocator<double>&, unsigned long)")
	m := tr.MetricIndex(PercentMetric)
	if n < 0 || tr.Values[m].Inclusive[n] != 100 || tr.Values[m].Exclusive[n] != 100 || tr.Calls[n] != 2 {
		t.Errorf("edge 22 -> 31: node %d", n)
	}
}

// TestCallgrindDOT reads gprof2dot-cpi: Hatchet's tests/callgrind.py
// asserts 105 names and these roots among them.
func TestCallgrindDOT(t *testing.T) {
	tr := checkDOT(t, "gprof2dot-cpi/callgrind.dot.64042.0.1", 105, []string{
		"psm_no_lock", "(below main)", "0x0000000000000ff0", "_dl_catch_error'2",
		"hwloc_topology_load", "ibv_get_device_list", "psm_allocate_vbufs",
	})
	// "(below main)" -> main, "97.94%\n1×"; main is 97.94% / (53.77%), so
	// the arc's exclusive is 53.77 × 97.94 / 97.94.
	n := tr.NodeIndex("(below main) => main")
	m := tr.MetricIndex(PercentMetric)
	if n < 0 || tr.Values[m].Inclusive[n] != 97.94 || !near(tr.Values[m].Exclusive[n], 53.77) || tr.Calls[n] != 1 {
		t.Errorf("(below main) => main: node %d", n)
	}
	callpaths := 0
	for _, nd := range tr.Nodes {
		if nd.Parent >= 0 {
			callpaths++
		}
	}
	if k := tr.Tree().Kind; k != drg.PartialCallpaths {
		t.Errorf("tree view %v, want partial callpaths (arcs of depth 1)", k)
	}
	if callpaths != 107 {
		t.Errorf("%d callpaths, the file has 107 distinct edges", callpaths)
	}
}

// handText is gprof's text output for a made-up program, in gprof's own
// layout (-b brief form for the call graph, with a cycle member line):
// main (0.01 s self) calls work twice (0.04 s self, 0.02 s in its child
// helper) and helper once more directly (0.01 s of its 0.03 s).
const handText = `Flat profile:

Each sample counts as 0.01 seconds.
  %   cumulative   self              self     total           
 time   seconds   seconds    calls  ms/call  ms/call  name    
 50.00      0.04     0.04        2    20.00    30.00  work
 37.50      0.07     0.03        3    10.00    10.00  helper
 12.50      0.08     0.01        1    10.00    80.00  main

			Call graph


granularity: each sample hit covers 2 byte(s) for 12.50% of 0.08 seconds

index % time    self  children    called     name
                                                 <spontaneous>
[1]    100.0    0.01    0.07                 main [1]
                0.04    0.02       2/2           work [2]
                0.01    0.00       1/3           helper [3]
-----------------------------------------------
                0.04    0.02       2/2           main [1]
[2]     75.0    0.04    0.02       2         work [2]
                0.02    0.00       2/3           helper [3]
-----------------------------------------------
                0.01    0.00       1/3           main [1]
                0.02    0.00       2/3           work [2]
[3]     37.5    0.03    0.00       3         helper [3]
                             1             helper [3]
-----------------------------------------------

Index by function name

   [3] helper                  [1] main                    [2] work
`

// verbose is handText with the explanations gprof prints without -b.
var verbose = strings.NewReplacer(
	" 12.50      0.08     0.01        1    10.00    80.00  main\n",
	" 12.50      0.08     0.01        1    10.00    80.00  main\n\n %         the percentage of the total running time of the\ntime       program used by this function.\n\f\n",
	"\t\t\tCall graph\n", "\t\t     Call graph (explanation follows)\n",
	"\nIndex by function name", "\n This table describes the call tree of the program, and was sorted by\n the total amount of time spent in each function and its children.\n\n     self    This is the total amount of time spent in this function.\n\f\nIndex by function name",
).Replace(handText)

func TestGprofText(t *testing.T) {
	for _, text := range []string{handText, verbose} {
		checkText(t, text)
	}
	if verbose == handText {
		t.Fatal("the verbose form is the brief one")
	}
}

func checkText(t *testing.T, text string) {
	tr, err := Decode(strings.NewReader(text), "gprof.txt")
	if err != nil {
		t.Fatal(err)
	}
	m := tr.MetricIndex(TimeMetric)
	if m < 0 || len(tr.Regions) != 3 || tr.Metadata["File Type Name"] != "gprof" {
		t.Fatalf("metrics %v regions %v", tr.Metrics, tr.Regions)
	}
	for _, c := range []struct {
		node              string
		excl, incl, calls float64
	}{
		{"main", 10000, 80000, 0}, {"work", 40000, 60000, 2}, {"helper", 30000, 30000, 3},
		{"main => work", 40000, 60000, 2}, {"main => helper", 10000, 10000, 1}, {"work => helper", 20000, 20000, 2},
	} {
		n := tr.NodeIndex(c.node)
		if n < 0 || !near(tr.Values[m].Exclusive[n], c.excl) || !near(tr.Values[m].Inclusive[n], c.incl) || tr.Calls[n] != c.calls {
			t.Errorf("%s: node %d", c.node, n)
		}
	}
	if n := tr.NodeIndex("main"); tr.Subroutines[n] != 3 {
		t.Errorf("main subroutines %v, want 2 + 1", tr.Subroutines[n])
	}
}

func checkRefused(t *testing.T, what string, err error, path string) {
	t.Helper()
	var e *Error
	if err == nil {
		t.Errorf("%s: accepted", what)
		return
	}
	if !errors.As(err, &e) || e.Path != path || (e.Line <= 0 && e.Offset < 0) || !strings.HasPrefix(err.Error(), path+":") {
		t.Errorf("%s: error %q does not name the file and a position", what, err)
	}
}

func TestMalformed(t *testing.T) {
	dot := "digraph {\n a [label=\"m\\nf\\n10.00%\\n(5.00%)\\n3×\"];\n a -> b [label=\"4.00%\\n1×\"];\n}\n"
	if _, err := Decode(strings.NewReader(dot), "ok.dot"); err != nil {
		t.Fatalf("the good DOT file: %v", err)
	}
	for what, in := range map[string]string{
		"truncated":       dot[:len(dot)-4],
		"bad percentage":  strings.Replace(dot, "10.00%", "1x.00%", 1),
		"no exclusive":    strings.Replace(dot, `\n(5.00%)`, "", 1),
		"bad calls":       strings.Replace(dot, "3×", "3y×", 1),
		"bad edge":        strings.Replace(dot, `4.00%`, `4..00%`, 1),
		"open string":     strings.Replace(dot, `"4.00%`, `4.00%`, 1),
		"subgraph":        strings.Replace(dot, " a -> b", " subgraph x { c }", 1),
		"after the graph": dot + "digraph {}",
		"gprof row":       strings.Replace(handText, " 37.50      0.07", " 37.50      x.07", 1),
		"gprof entry":     strings.Replace(handText, "[2]     75.0", "[2]     7x.0", 1),
		"neither":         "hello",
	} {
		_, err := Decode(strings.NewReader(in), "bad.dot")
		checkRefused(t, what, err, "bad.dot")
	}
	for _, rel := range []string{"gprof2dot-test/gprof-profile.dot", "gprof2dot-cpi/callgrind.dot.64042.0.1"} {
		data, err := os.ReadFile(otherFormatPath(rel))
		if err != nil {
			continue
		}
		for _, frac := range []int{10, 3, 2, 1} {
			_, err := Decode(bytes.NewReader(data[:len(data)*frac/11]), rel)
			checkRefused(t, rel+" truncated", err, rel)
		}
		_, err = Decode(bytes.NewReader(bytes.Replace(data, []byte(`%\n(`), []byte(`%\n[`), 1)), rel)
		checkRefused(t, rel+" corrupted", err, rel)
	}
}

// FuzzDecode decodes arbitrary bytes: a well-formed trial or an *Error
// naming the file, never a panic.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(handText))
	f.Add([]byte("digraph {\n a [label=\"m\\nf\\n10.00%\\n(5.00%)\\n3×\"];\n a -> b [label=\"4.00%\\n1×\"];\n}\n"))
	if data, err := os.ReadFile(otherFormatPath("gprof2dot-test/gprof-profile.dot")); err == nil {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		Detect(data)
		tr, err := Decode(bytes.NewReader(data), "fuzz.dot")
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Path != "fuzz.dot" || !strings.HasPrefix(err.Error(), "fuzz.dot:") {
				t.Fatalf("error %q is not an *Error naming the file", err)
			}
			return
		}
		nt, nn := len(tr.Threads), len(tr.Nodes)
		if nt != 1 || len(tr.Metrics) != 1 || tr.Present.Len() != nn || len(tr.Values[0].Inclusive) != nn {
			t.Fatalf("%d threads, %d metrics, %d nodes", nt, len(tr.Metrics), nn)
		}
		for i, n := range tr.Nodes {
			if n.Parent < -1 || n.Parent >= nn || n.Parent == i || n.Region < 0 || n.Region >= len(tr.Regions) {
				t.Fatalf("node %d %+v", i, n)
			}
		}
	})
}
