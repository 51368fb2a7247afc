package profile

import (
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/internal/realdata"
)

func read(t *testing.T, path string) *drg.Trial {
	t.Helper()
	tr, err := Reader{Path: path}.Read()
	if err != nil {
		t.Fatalf("read %s: %v", path, err)
	}
	return tr
}

// measured counts the nodes some thread has a record for, and the callpath
// ones among them: SOURCES.md's "timers (callpath)" columns.
func measured(tr *drg.Trial) (timers, callpaths int) {
	nt := len(tr.Threads)
	for i, n := range tr.Nodes {
		if tr.Present.Count(i*nt, (i+1)*nt) > 0 {
			timers++
			if n.Parent >= 0 {
				callpaths++
			}
		}
	}
	return
}

// TestCountsOfRealTrials checks every profile trial of the shared data
// against the counts of SOURCES.md.
func TestCountsOfRealTrials(t *testing.T) {
	for _, c := range realdata.ProfileTrials {
		t.Run(c.Rel, func(t *testing.T) {
			tr := read(t, realdata.Real(t, c.Rel))
			timers, callpaths := measured(tr)
			if len(tr.Threads) != c.Threads || timers != c.Timers || callpaths != c.Callpaths || len(tr.Counters) != c.Events {
				t.Errorf("threads/timers/callpaths/events = %d/%d/%d/%d, SOURCES.md says %d/%d/%d/%d",
					len(tr.Threads), timers, callpaths, len(tr.Counters), c.Threads, c.Timers, c.Callpaths, c.Events)
			}
		})
	}
}

// TestHatchetOracles asserts Hatchet's own test expectations (SOURCES.md O1)
// on tau-cpi-mpi.
func TestHatchetOracles(t *testing.T) {
	tr := read(t, realdata.Real(t, "LLNL-hatchet/tau-cpi-mpi"))
	m := tr.MetricIndex("TIME")
	if m < 0 {
		t.Fatalf("no TIME metric in %v", tr.Metrics)
	}
	excl := func(node string, rank int) float64 {
		n := tr.NodeIndex(node)
		th := tr.ThreadIndex(rank, 0, 0)
		if n < 0 || th < 0 {
			t.Fatalf("no node %q or rank %d", node, rank)
		}
		return tr.Values[m].Exclusive[tr.Cell(n, th)]
	}
	// Hatchet's tree nodes are the callpath nodes; their exclusive values
	// equal the flat ones here.
	for _, c := range []struct {
		node string
		rank int
		want float64
	}{
		{".TAU application", 0, 449},
		{".TAU application => MPI_Finalize()", 0, 4458},
		{".TAU application => MPI_Bcast()", 0, 218},
		{".TAU application", 1, 419},
		{".TAU application => MPI_Finalize()", 1, 4894},
		{".TAU application => MPI_Bcast()", 1, 333},
	} {
		if got := excl(c.node, c.rank); got != c.want {
			t.Errorf("exclusive %q rank %d = %v, Hatchet says %v", c.node, c.rank, got, c.want)
		}
	}
	tree := tr.Tree()
	if tree.Kind != drg.CompleteTree {
		t.Fatalf("tree kind %v, want complete", tree.Kind)
	}
	if len(tree.Roots) != 1 || tr.Nodes[tree.Roots[0]].Name != ".TAU application" {
		t.Fatalf("roots %v, want the single root .TAU application", tree.Roots)
	}
	root := tree.Roots[0]
	want := map[string]bool{"MPI_Init()": true, "MPI_Comm_size()": true, "MPI_Comm_rank()": true,
		"MPI_Get_processor_name()": true, "MPI_Bcast()": true, "MPI_Reduce()": true, "MPI_Finalize()": true}
	if len(tree.Children[root]) != 7 {
		t.Errorf("root has %d children, Hatchet says 7", len(tree.Children[root]))
	}
	for _, c := range tree.Children[root] {
		if !want[tr.Regions[tr.Nodes[c].Region].Name] {
			t.Errorf("unexpected child %q", tr.Nodes[c].Name)
		}
	}
	if tree.Size() != 12 {
		t.Errorf("tree has %d nodes, Hatchet says 12", tree.Size())
	}
	// query.py: min over ranks of MPI_Init() inclusive is 17983.
	st := tr.Statistics()
	if got := st.Inclusive[m].Min[tr.NodeIndex(".TAU application => MPI_Init()")]; got != 17983 {
		t.Errorf("min inclusive of MPI_Init() = %v, Hatchet says 17983", got)
	}
	// Nodes with exclusive < 24 on some rank: exactly MPI_Comm_rank() and
	// MPI_Finalize() => MPI_Comm_get_attr().
	var low []string
	for _, n := range append(tree.Roots, treeNodes(tree, root)...) {
		if st.Exclusive[m].Min[n] < 24 {
			low = append(low, tr.Nodes[n].Name)
		}
	}
	if strings.Join(low, "|") != ".TAU application => MPI_Comm_rank()|.TAU application => MPI_Finalize() => MPI_Comm_get_attr()" {
		t.Errorf("nodes with min exclusive < 24: %q", low)
	}
	// SOURCES.md O1: the per-rank exclusive values behind that query.
	for node, want := range map[string][]float64{
		".TAU application => MPI_Comm_rank()":                       {25, 24, 21, 22},
		".TAU application => MPI_Finalize() => MPI_Comm_get_attr()": {27, 24, 24, 22},
	} {
		for rank, w := range want {
			if got := excl(node, rank); got != w {
				t.Errorf("exclusive %q rank %d = %v, SOURCES.md says %v", node, rank, got, w)
			}
		}
	}
	// Raw facts the collector checked: rank 0 main has 1 call, 7 subrs,
	// inclusive 51781; rank 1 inclusive 55329; the user events.
	n0, th0 := tr.NodeIndex(".TAU application"), tr.ThreadIndex(0, 0, 0)
	if c := tr.Cell(n0, th0); tr.Calls[c] != 1 || tr.Subroutines[c] != 7 || tr.Values[m].Inclusive[c] != 51781 {
		t.Errorf("rank 0 main: calls %v subrs %v incl %v", tr.Calls[c], tr.Subroutines[c], tr.Values[m].Inclusive[c])
	}
	ev := tr.Counters[0]
	v := tr.CounterValues[0*len(tr.Threads)+th0]
	if ev.Name != "Message size for broadcast" || v.NumEvents != 1 || v.Max != 4 || v.Mean != 4 || v.SumSquares != 16 {
		t.Errorf("first user event %q = %+v", ev.Name, v)
	}
	// Names are trimmed as TAUdb stores them; runs of blanks collapse.
	if tr.NodeIndex("MPI_Init()") < 0 || tr.NodeIndex(".TAU application => MPI_Finalize() => MPI_Info_create()") < 0 {
		t.Error("canonical names missing")
	}
}

func treeNodes(tr drg.Tree, n int) []int {
	var out []int
	for _, c := range tr.Children[n] {
		out = append(out, c)
		out = append(out, treeNodes(tr, c)...)
	}
	return out
}

// TestStatisticsHandChecked checks the derived statistics on the TAUdb C
// API's test trial, whose two threads have different timer sets, against
// values worked out by hand from the files:
//
//	.TAU application: only thread 1, excl 1460610
//	compute OpenMP region: excl 1080268 (thread 0), 1120473 (thread 1)
func TestStatisticsHandChecked(t *testing.T) {
	tr := read(t, realdata.Real(t, "UO-OACISS-tau2/taudb_c_api/parse_tau_profile_test"))
	st := tr.Statistics()
	app := tr.NodeIndex(".TAU application")
	cmp := tr.NodeIndex("compute OpenMP region")
	ex := st.Exclusive[0]
	check := func(what string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-9*math.Abs(want) {
			t.Errorf("%s = %v, want %v", what, got, want)
		}
	}
	// One present thread out of two.
	if st.Count[app] != 1 || st.Count[cmp] != 2 {
		t.Fatalf("counts %d %d", st.Count[app], st.Count[cmp])
	}
	check("app mean", ex.Mean[app], 1460610)
	check("app total", ex.Total[app], 1460610)
	check("app stddev", ex.StdDev[app], 0)
	check("app min", ex.Min[app], 1460610)
	check("app max", ex.Max[app], 1460610)
	check("app mean all", ex.MeanAll[app], 1460610.0/2)
	// Values 1460610 and 0 around 730305: both deviations are 730305.
	check("app stddev all", ex.StdDevAll[app], 730305)
	check("compute mean", ex.Mean[cmp], (1080268.0+1120473)/2)
	check("compute total", ex.Total[cmp], 2200741)
	check("compute stddev", ex.StdDev[cmp], (1120473.0-1080268)/2)
	check("compute min", ex.Min[cmp], 1080268)
	check("compute max", ex.Max[cmp], 1120473)
	check("compute mean all", ex.MeanAll[cmp], 1100370.5)
	check("compute stddev all", ex.StdDevAll[cmp], 20102.5)
	check("app calls mean all", st.Calls.MeanAll[app], 0.5)
	check("app calls stddev all", st.Calls.StdDevAll[app], 0.5)
}

// TestStatisticsMatchTAU compares every derived statistic with the values
// TAU's own Java reader computed (tau-oracles/*/tau-stats.csv), to 1e-9
// relative, with two differences where TAU is the one that is off:
//
//   - Standard deviations: TAU computes √|E[x²]−mean²| in one pass, which
//     loses digits when the spread is tiny next to the mean (parallel-omp12's
//     P_WALL_CLOCK_TIME holds values near 4.29e9 that differ by ~100: TAU says
//     110.85, the true population stddev is 76.72). Ours uses two passes, so
//     the variances are compared within the rounding error of TAU's
//     formula, N·ε·E[x²], as well as 1e-9 relative.
//   - ParaProf's "[SUMMARY] f [{file}]" entries (taudb-mapping.md §3.5) are
//     sums that ParaProf synthesizes from "[SAMPLE]" lines; they are not in
//     the files and taudb-analyze does not invent them. Their callpath
//     members, which ParaProf renames "P => [SUMMARY] f => [SAMPLE] f {L}",
//     are compared under their names in the files, "P => [SAMPLE] f {L}".
func TestStatisticsMatchTAU(t *testing.T) {
	for _, c := range realdata.ProfileTrials {
		t.Run(c.Rel, func(t *testing.T) {
			path := realdata.Real(t, c.Rel)
			oracle := filepath.Join(realdata.Oracle(t, c.Rel), "tau-stats.csv")
			rows := readCSV(t, oracle)
			tr := read(t, path)
			st := tr.Statistics()
			checked := 0
			for _, r := range rows {
				name := r["timer"]
				if strings.HasPrefix(summaryLeaf(name), "[SUMMARY] ") {
					continue // synthesized by ParaProf, see above
				}
				name = withoutSummary(name)
				n := tr.NodeIndex(name)
				if n < 0 {
					t.Errorf("timer %q of the oracle not in the trial", r["timer"])
					continue
				}
				m := tr.MetricIndex(r["metric"])
				if m < 0 {
					t.Fatalf("metric %q missing", r["metric"])
				}
				if got, want := st.Count[n], int(num(t, r["threads_present"])); got != want {
					t.Errorf("%q threads present = %d, TAU %d", r["timer"], got, want)
				}
				for _, col := range []struct {
					prefix string
					c      *drg.Column
				}{{"excl", &st.Exclusive[m]}, {"incl", &st.Inclusive[m]}} {
					scale := math.Max(math.Abs(col.c.Mean[n]), math.Abs(col.c.MeanAll[n]))
					for _, s := range []struct {
						name string
						v    []float64
						sd   bool
					}{{"total", col.c.Total, false}, {"mean_all", col.c.MeanAll, false}, {"mean_nonull", col.c.Mean, false},
						{"min", col.c.Min, false}, {"max", col.c.Max, false},
						{"stddev_all", col.c.StdDevAll, true}, {"stddev_nonull", col.c.StdDev, true}} {
						want := num(t, r[col.prefix+"_"+s.name])
						got := s.v[n]
						ok := math.Abs(got-want) <= 1e-9*math.Abs(want)
						if s.sd && !ok {
							ex2 := scale*scale + got*got
							ok = math.Abs(got*got-want*want) <= float64(len(tr.Threads))*epsilon*ex2
						}
						if !ok {
							t.Errorf("%q %s_%s = %.17g, TAU %.17g", r["timer"], col.prefix, s.name, got, want)
						}
						checked++
					}
				}
				for _, s := range []struct {
					name string
					got  float64
				}{{"calls_total", st.Calls.Total[n]}, {"calls_mean_all", st.Calls.MeanAll[n]},
					{"calls_min", st.Calls.Min[n]}, {"calls_max", st.Calls.Max[n]}, {"subrs_total", st.Subroutines.Total[n]}} {
					if want := num(t, r[s.name]); math.Abs(s.got-want) > 1e-9*math.Abs(want) {
						t.Errorf("%q %s = %v, TAU %v", r["timer"], s.name, s.got, want)
					}
					checked++
				}
			}
			if checked == 0 {
				t.Fatal("no value compared")
			}
		})
	}
}

// epsilon is the float64 machine epsilon, 2⁻⁵².
const epsilon = 2.220446049250313e-16

// summaryLeaf returns the last element of a callpath name.
func summaryLeaf(name string) string {
	_, leaf := drg.SplitCallpath(name)
	return leaf
}

// withoutSummary removes ParaProf's inserted "[SUMMARY] ..." element from a
// callpath name.
func withoutSummary(name string) string {
	parts := strings.Split(name, drg.CallpathSeparator)
	out := parts[:0]
	for i, p := range parts {
		if strings.HasPrefix(p, "[SUMMARY] ") && i < len(parts)-1 {
			continue
		}
		out = append(out, p)
	}
	return strings.Join(out, drg.CallpathSeparator)
}

func readCSV(t *testing.T, path string) []map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]string
	for _, r := range recs[1:] {
		m := map[string]string{}
		for i, h := range recs[0] {
			m[h] = r[i]
		}
		out = append(out, m)
	}
	return out
}

func num(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("oracle value %q: %v", s, err)
	}
	return v
}
