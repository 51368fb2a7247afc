package metrics

import (
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg/reader"
	"github.com/taudb-analyze/taudb-analyze/internal/realdata"
)

func names(bs []Builtin) string {
	var s []string
	for _, b := range bs {
		s = append(s, b.Name+"="+b.Expr)
	}
	return strings.Join(s, "; ")
}

func TestAvailable(t *testing.T) {
	for _, c := range []struct {
		metrics []string
		want    string
	}{
		{nil, ""},
		{[]string{"TIME"}, ""},
		{[]string{"TIME", "PAPI_FP_OPS", "PAPI_FP_INS"}, "MFLOPS=PAPI_FP_OPS / TIME"},
		{[]string{"P_WALL_CLOCK_TIME", "PAPI_FP_INS"}, "MFLOPS=PAPI_FP_INS / P_WALL_CLOCK_TIME"},
		{[]string{"Time (s)", "PAPI_FP_OPS"}, `MFLOPS=PAPI_FP_OPS / metric("Time (s)")`},
		{[]string{"P_VIRTUAL_TIME", "TIME", "PAPI_TOT_INS"}, "MIPS=PAPI_TOT_INS / TIME"},
		{[]string{"PAPI_TOT_INS", "PAPI_TOT_CYC", "PAPI_L1_DCM", "PAPI_L1_DCA"},
			"IPC=PAPI_TOT_INS / PAPI_TOT_CYC; L1_DCM_RATIO=PAPI_L1_DCM / PAPI_L1_DCA"},
		{[]string{"PAPI_L2_TCM", "PAPI_L2_TCA", "PAPI_L2_DCM", "PAPI_L2_DCA", "PAPI_L3_TCM", "PAPI_L3_TCA"},
			"L2_MISS_RATIO=PAPI_L2_TCM / PAPI_L2_TCA; L3_MISS_RATIO=PAPI_L3_TCM / PAPI_L3_TCA"},
		{[]string{"PAPI_L2_TCM", "PAPI_L2_DCM", "PAPI_L2_DCA"}, "L2_DCM_RATIO=PAPI_L2_DCM / PAPI_L2_DCA"},
		{[]string{"PAPI_BR_MSP", "PAPI_BR_INS", "PAPI_BR_CN"}, "BR_MSP_RATIO=PAPI_BR_MSP / PAPI_BR_INS"},
		{[]string{"PAPI_BR_MSP", "PAPI_BR_CN"}, "BR_MSP_RATIO=PAPI_BR_MSP / PAPI_BR_CN"},
		// A builtin already computed is not offered again.
		{[]string{"PAPI_TOT_INS", "PAPI_TOT_CYC", "IPC"}, ""},
	} {
		got := Available(c.metrics)
		if names(got) != c.want {
			t.Errorf("Available(%q) = %q, want %q", c.metrics, names(got), c.want)
		}
		for _, b := range got {
			if b.Title == "" || b.Unit == "" {
				t.Errorf("%s: no title or unit", b.Name)
			}
			if _, err := Compile(b.Expr, c.metrics); err != nil {
				t.Errorf("%s: %v", b.Name, err)
			}
		}
	}
}

// TestRealIPC reads xgc-nosamples.ppk (five PAPI counters, no time metric),
// checks the offered builtins and compares IPC with PAPI_TOT_INS /
// PAPI_TOT_CYC computed cell by cell.
func TestRealIPC(t *testing.T) {
	tr, err := reader.Read(realdata.Real(t, "UO-OACISS-tau2/perfexplorer/HardwareCounterBasicAnalysis/xgc-nosamples.ppk"), "")
	if err != nil {
		t.Fatal(err)
	}
	av := Available(Names(tr))
	if got := names(av); got != "IPC=PAPI_TOT_INS / PAPI_TOT_CYC; L1_DCM_PER_INS=PAPI_L1_DCM / PAPI_TOT_INS; FP_INS_FRACTION=PAPI_FP_INS / PAPI_TOT_INS" {
		t.Errorf("Available = %q", got)
	}
	e, err := Compile(av[0].Expr, Names(tr))
	if err != nil {
		t.Fatal(err)
	}
	m, err := AddDerived(tr, av[0].Name, e)
	if err != nil {
		t.Fatal(err)
	}
	ins := tr.Values[tr.MetricIndex("PAPI_TOT_INS")]
	cyc := tr.Values[tr.MetricIndex("PAPI_TOT_CYC")]
	ipc := tr.Values[m]
	present := 0
	for c := range ipc.Inclusive {
		if !tr.Present.Get(c) {
			if ipc.Inclusive[c] != 0 || ipc.Exclusive[c] != 0 {
				t.Fatalf("absent cell %d: %v %v", c, ipc.Inclusive[c], ipc.Exclusive[c])
			}
			continue
		}
		present++
		wi, we := ins.Inclusive[c]/cyc.Inclusive[c], ins.Exclusive[c]/cyc.Exclusive[c]
		if cyc.Exclusive[c] == 0 {
			we = undef
		}
		if ipc.Inclusive[c] != wi || !same(ipc.Exclusive[c], we) {
			t.Fatalf("cell %d: IPC %v %v, want %v %v", c, ipc.Inclusive[c], ipc.Exclusive[c], wi, we)
		}
	}
	if present != 657 {
		t.Errorf("%d present cells, want 657", present)
	}
	// The mean IPC of the node with the most cycles (XGC2, the main
	// program) is plausible for a real code.
	st := tr.Statistics()
	n, c := 0, tr.MetricIndex("PAPI_TOT_CYC")
	for i := range tr.Nodes {
		if st.Inclusive[c].Mean[i] > st.Inclusive[c].Mean[n] {
			n = i
		}
	}
	if mean := st.Inclusive[m].Mean[n]; !strings.HasPrefix(tr.Nodes[n].Name, "XGC2") || !(mean > 0.5 && mean < 4) {
		t.Errorf("mean inclusive IPC of %q = %v", tr.Nodes[n].Name, mean)
	}
}
