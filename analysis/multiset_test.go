package analysis

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/synth"
)

// netSeries builds the experiments of SCALEA's Fig. 12 in small: two
// problem sizes (atoms 36 and 72) × two networks (P4, GM) × p = 1, 2, 4.
// The program's time is scale*progLaw(p) with scale = atoms/36 × (0.9 for
// GM). The experiments are given interleaved.
func netSeries(t *testing.T) Series {
	t.Helper()
	var s Series
	for _, p := range []int{4, 1, 2} {
		for _, atoms := range []int{72, 36} {
			for _, net := range []string{"P4", "GM"} {
				scale := float64(atoms) / 36
				if net == "GM" {
					scale *= 0.9
				}
				prog := func(x float64) float64 { return scale * progLaw(x) }
				name := fmt.Sprintf("%dN,%s,%d", p, net, atoms)
				meta := map[string]string{"network": net, "atoms": fmt.Sprint(atoms)}
				s = append(s, Experiment{Trial: lawTrial(t, name, p, 1, prog, testLaws[:1], meta), Name: name, P: float64(p), Key: net})
			}
		}
	}
	return s
}

func TestMultiSetByNetwork(t *testing.T) {
	s := netSeries(t)
	only36 := Series{}
	for _, e := range s {
		if strings.HasSuffix(e.Name, ",36") {
			only36 = append(only36, e)
		}
	}
	res, err := MultiSet(only36, "network", MultiSetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := res.Validate(); err != nil {
		t.Fatal(err)
	}
	if res.Analysis != "multiset" || res.Params["key"] != "network" || res.Params["x"] != "p" || res.Params["scaling"] != "strong" {
		t.Errorf("header %v %v", res.Analysis, res.Params)
	}
	st := mustTable(t, res, "series")
	if st.NumRows() != 6 {
		t.Fatalf("%d rows", st.NumRows())
	}
	// Sets by label: GM before P4; each in p order, against its own
	// baseline (p = 1).
	for i, want := range []struct {
		set  string
		p    float64
		time float64
	}{
		{"GM", 1, 0.9 * progLaw(1)}, {"GM", 2, 0.9 * progLaw(2)}, {"GM", 4, 0.9 * progLaw(4)},
		{"P4", 1, progLaw(1)}, {"P4", 2, progLaw(2)}, {"P4", 4, progLaw(4)},
	} {
		if st.Text("set", i) != want.set || st.Num("p", i) != want.p || st.Num("x", i) != want.p {
			t.Errorf("row %d: %s p=%v", i, st.Text("set", i), st.Num("p", i))
		}
		near(t, "time", st.Num("time", i), want.time)
		near(t, "speedup", st.Num("speedup", i), progLaw(1)/progLaw(want.p))
		near(t, "efficiency", st.Num("efficiency", i), progLaw(1)/(progLaw(want.p)*want.p))
		near(t, "ideal", st.Num("ideal_speedup", i), want.p)
	}
	if st.Num("speedup", 0) != 1 || st.Num("speedup", 3) != 1 || st.Num("efficiency", 3) != 1 {
		t.Error("set baselines not exactly 1")
	}
	sets := mustTable(t, res, "sets")
	if sets.NumRows() != 2 || sets.Text("baseline", 0) != "1N,GM,36" || sets.Num("x_max", 1) != 4 || sets.Num("experiments", 1) != 3 {
		t.Errorf("sets table: %d rows, baseline %s", sets.NumRows(), sets.Text("baseline", 0))
	}
	near(t, "set speedup at max", sets.Num("speedup_max_x", 1), progLaw(1)/progLaw(4))
	near(t, "set time at max", sets.Num("time_max_x", 0), 0.9*progLaw(4))
	findings := strings.Join(res.Findings, "\n")
	for _, want := range []string{"6 experiments grouped into 2 sets by network", `At p = 4, set "GM" is fastest`, "ratio 1.111"} {
		if !strings.Contains(findings, want) {
			t.Errorf("no finding %q in\n%s", want, findings)
		}
	}

	// Without a key the experiments' own Key fields group them alike.
	byField, err := MultiSet(only36, "", MultiSetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := mustTable(t, byField, "series"); fmt.Sprint(got.Columns[0].Text) != fmt.Sprint(st.Columns[0].Text) {
		t.Errorf("Key grouping %v", got.Columns[0].Text)
	}
}

func TestMultiSetTwoKeys(t *testing.T) {
	res, err := MultiSet(netSeries(t), "atoms, network", MultiSetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sets := mustTable(t, res, "sets")
	want := []string{"36, GM", "36, P4", "72, GM", "72, P4"}
	if fmt.Sprint(sets.Columns[0].Text) != fmt.Sprint(want) {
		t.Errorf("sets %q, want %q", sets.Columns[0].Text, want)
	}
	near(t, "72 GM baseline", sets.Num("time_baseline", 2), 2*0.9*progLaw(1))
	if res.Params["key"] != "atoms,network" {
		t.Errorf("key %q", res.Params["key"])
	}
	// Numeric labels sort numerically.
	res, err = MultiSet(netSeries(t), "atoms", MultiSetOptions{Weak: true})
	if err != nil {
		t.Fatal(err)
	}
	sets = mustTable(t, res, "sets")
	if fmt.Sprint(sets.Columns[0].Text) != "[36 72]" || res.Params["scaling"] != "weak" {
		t.Errorf("sets %q", sets.Columns[0].Text)
	}
	st := mustTable(t, res, "series")
	// Weak scaling within the 36-atom set (P4 and GM runs at each p: the
	// baseline is the first at p = 1, a P4 run given before the GM one).
	near(t, "weak efficiency", st.Num("efficiency", 0), 1)
	_, err = MultiSet(netSeries(t), "missing", MultiSetOptions{})
	wantErr(t, "missing key", err, "missing")
}

// TestMultiSetParameterStudy: every experiment has the same p, so the
// series runs across the numeric property.
func TestMultiSetParameterStudy(t *testing.T) {
	var s Series
	for _, cap := range []int{200, 100, 150} {
		scale := 100.0 / float64(cap) // lower power cap, slower
		prog := func(x float64) float64 { return scale * progLaw(x) }
		name := fmt.Sprintf("cap%d", cap)
		s = append(s, Experiment{Trial: lawTrial(t, name, 4, 1, prog, nil, map[string]string{"power cap": fmt.Sprintf("%d W", cap), "site": "x" + name}), P: 4})
	}
	res, err := MultiSet(s, "power cap", MultiSetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Params["x"] != "property:power cap" {
		t.Errorf("x %q", res.Params["x"])
	}
	st := mustTable(t, res, "series")
	for i, cap := range []float64{100, 150, 200} {
		if st.Num("x", i) != cap || st.Num("p", i) != 4 || st.Text("set", i) != "power cap" {
			t.Errorf("row %d: x %v p %v set %s", i, st.Num("x", i), st.Num("p", i), st.Text("set", i))
		}
		near(t, "relative speed", st.Num("speedup", i), cap/100)
		if !math.IsNaN(st.Num("efficiency", i)) || !math.IsNaN(st.Num("ideal_speedup", i)) {
			t.Errorf("row %d: efficiency defined in a parameter study", i)
		}
	}
	if st.Num("speedup", 0) != 1 {
		t.Error("parameter-study baseline not exactly 1")
	}
	_, err = MultiSet(s, "site", MultiSetOptions{})
	wantErr(t, "categorical parameter", err, "not a number")
	_, err = MultiSet(s, "", MultiSetOptions{})
	wantErr(t, "no key", err, "one numeric metadata key")
}

// TestMultiSetPowerCapSplit: a power-cap sweep at a constant 27 ranks (a
// parameter study) keyed by metadata: one set over the cap, and per
// experiment the computation / MPI split of the generator, by hand.
func TestMultiSetPowerCapSplit(t *testing.T) {
	var s Series
	for _, c := range []struct {
		watts      string
		work, comm float64
	}{{"200", 2.7e6, 1e4}, {"100", 5.4e6, 1e4}, {"150", 3.6e6, 1e4}} {
		spec := synth.OverheadSpec{Serial: 1e5, Work: c.work, Replicated: 5e4, Comm: c.comm, Control: 2e4, Imbalance: 0.2}
		tr, err := spec.Generate(27, "cap-"+c.watts)
		if err != nil {
			t.Fatal(err)
		}
		tr.Metadata["Power Cap"] = c.watts
		s = append(s, Experiment{Trial: tr, Name: tr.Name, P: 27})
	}
	res, err := MultiSet(s, "meta:Power Cap", MultiSetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	st := mustTable(t, res, "split")
	if st.NumRows() != 3 {
		t.Fatalf("%d rows", st.NumRows())
	}
	for i, want := range []struct {
		x, work float64
	}{{100, 5.4e6}, {150, 3.6e6}, {200, 2.7e6}} {
		const p = 27.0
		// Mean over the 27 ranks: computation = serial/p + replicated +
		// work/p; MPI = control + the barrier waits (serial on 26 ranks,
		// the imbalance w_max − w_k on each) + comm·log2(p).
		wmax := want.work / p * 1.1
		comp := 1e5/p + 5e4 + want.work/p
		mpi := 2e4 + 1e5*(p-1)/p + (wmax - want.work/p) + 1e4*math.Log2(p)
		if st.Num("x", i) != want.x || math.Abs(st.Num("computation", i)-comp) > 1e-6*comp || math.Abs(st.Num("mpi", i)-mpi) > 1e-6*mpi {
			t.Errorf("row %d: x %v computation %v mpi %v; want %v %v %v", i, st.Num("x", i), st.Num("computation", i), st.Num("mpi", i), want.x, comp, mpi)
		}
		if pc := st.Num("computation_percent", i) + st.Num("mpi_percent", i); math.Abs(pc-100) > 1e-9 {
			t.Errorf("row %d: shares add to %v", i, pc)
		}
	}
}
