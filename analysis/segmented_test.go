package analysis

import (
	"math/rand/v2"
	"testing"
)

// TestFitSegmented: strong-scaling series whose time falls as 1/p up to a
// change point and then pays a new cost (an inter-node term that grows
// with log2(p)), with 2% noise, are fitted as two segments whose change
// point is within one measured point of the true one; series of one law
// (Amdahl with the same noise) are rarely split.
func TestFitSegmented(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 19))
	ps := []float64{2, 4, 8, 16, 32, 64, 128, 256, 512, 1024}
	const instances = 50
	found, within, falseSplits := 0, 0, 0
	for range instances {
		change := 4 + r.IntN(3) // the first index of the second regime: p = 32, 64 or 128
		a, b := 1e4*(1+r.Float64()), 5+r.Float64()*20
		c := (0.5 + 0.5*r.Float64()) * (a/ps[change] + b) // the new cost: half to all of the time at the change
		y := make([]float64, len(ps))
		one := make([]float64, len(ps))
		for i, p := range ps {
			v := a/p + b
			if i >= change {
				v += c * (1 + logOf(p/ps[change]))
			}
			y[i] = v * (1 + 0.02*r.NormFloat64())
			one[i] = (a/p + b) * (1 + 0.02*r.NormFloat64())
		}
		seg, ok, err := FitSegmented(ps, y)
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			found++
			if d := indexOf(ps, seg.FirstRight) - change; d >= -1 && d <= 1 {
				within++
			} else {
				t.Logf("change at p = %v, found %s", ps[change], seg)
			}
		}
		if _, split, _ := FitSegmented(ps, one); split {
			falseSplits++
		}
	}
	t.Logf("segmented: %d of %d found, %d within one point of the change; %d of %d one-law series split", found, instances, within, falseSplits, instances)
	if within < instances*9/10 {
		t.Errorf("change point within one point in %d of %d", within, instances)
	}
	if falseSplits > instances/10 {
		t.Errorf("%d of %d one-law series split", falseSplits, instances)
	}
	if _, ok, _ := FitSegmented(ps[:7], make([]float64, 7)); ok {
		t.Error("seven points split (segments need 4 each)")
	}
}

func logOf(x float64) float64 { return Term{Log: 1}.Eval(x) }

func indexOf(v []float64, x float64) int {
	for i, e := range v {
		if e == x {
			return i
		}
	}
	return -1
}

// TestScalabilitySegmented: a program whose time falls as 1/p up to p = 64
// and then pays an inter-node cost is reported with its change of regime
// between p = 64 and p = 128 (within one point of the truth), in the
// models table and in a finding.
func TestScalabilitySegmented(t *testing.T) {
	ps := []int{2, 4, 8, 16, 32, 64, 128, 256, 512, 1024}
	prog := func(p float64) float64 {
		v := 2e4/p + 10
		if p > 64 {
			v += 300 * (1 + logOf(p/128))
		}
		return v
	}
	res, err := Scalability(lawSeries(t, ps, 1, prog, nil, nil), ScalabilityOptions{})
	if err != nil {
		t.Fatal(err)
	}
	mt := mustTable(t, res, "models")
	if c := mt.Num("change_p", 0); c != 128 && c != 64 && c != 256 {
		t.Errorf("change_p %v, segmented %q", c, mt.Text("segmented_model", 0))
	}
	if f := findingWith(res, "changes regime"); f == "" {
		t.Errorf("no regime finding in %q", res.Findings)
	} else {
		t.Log(f)
	}
}
