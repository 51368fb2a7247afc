package analysis

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/synth"
)

// historySeries generates a history and makes its series ordered by the
// generator's order key.
func historySeries(t *testing.T, spec synth.HistorySpec) (*synth.History, Series) {
	t.Helper()
	h, err := synth.GenerateHistory(spec)
	if err != nil {
		t.Fatal(err)
	}
	vals := make([]string, len(h.Trials))
	for i, tr := range h.Trials {
		if vals[i], err = OrderValue(tr, "meta:"+synth.OrderKeyDefault); err != nil {
			t.Fatal(err)
		}
	}
	s, err := NewHistory(h.Trials, vals)
	if err != nil {
		t.Fatal(err)
	}
	return h, s
}

// randomSpec draws a history as the issue describes: 30-60 points, 1-5
// repetitions, 2% noise, 3 regions, and nShifts shifts of 3-10% (either
// sign) in one or two chosen regions, at least 8 points apart and 6 from
// the ends.
func randomSpec(rng *rand.Rand, seed uint64, nShifts int) synth.HistorySpec {
	s := synth.HistorySpec{Points: 30 + rng.IntN(31), MinReps: 1, MaxReps: 5, Regions: 3, Noise: 0.02, Seed: seed}
	at := 6 + rng.IntN(s.Points-12)
	for k := 0; k < nShifts; k++ {
		if k == 1 {
			// The second shift goes 8+ points from the first, on the side with room.
			if at+8 <= s.Points-6 {
				at += 8 + rng.IntN(s.Points-6-at-8+1)
			} else {
				at -= 8 + rng.IntN(at-8-6+1)
			}
		}
		size := 0.03 + 0.07*rng.Float64()
		if rng.IntN(3) == 0 {
			size = -size
		}
		regs := []int{rng.IntN(3)}
		if rng.IntN(2) == 0 {
			regs = append(regs, (regs[0]+1)%3)
		}
		s.Shifts = append(s.Shifts, synth.Shift{At: at, Regions: regs, Size: size})
	}
	return s
}

// TestRegressDetection measures detection on 200 histories with shifts
// (F1 over the regions' series for shifts ≥ 5%, a detection counting when
// it is in an injected region within one point of the shift) and the
// alarm rate on 200 histories without any (an alarm: any change found in
// the program or any region).
func TestRegressDetection(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 2026))
	tp, fp, fn := 0, 0, 0
	for i := 0; i < 200; i++ {
		h, s := historySeries(t, randomSpec(rng, uint64(i), 1+i%2))
		res, err := Regress(s, RegressOptions{})
		if err != nil {
			t.Fatal(err)
		}
		a, b, c := scoreDetections(h, res.Table("changes"))
		tp, fp, fn = tp+a, fp+b, fn+c
	}
	prec, rec := float64(tp)/float64(tp+fp), float64(tp)/float64(tp+fn)
	f1 := 2 * prec * rec / (prec + rec)
	t.Logf("shifts ≥ 5%%: TP %d, FP %d, FN %d: precision %.3f, recall %.3f, F1 %.3f", tp, fp, fn, prec, rec, f1)
	if !(f1 >= 0.9) {
		t.Errorf("F1 %.3f < 0.9", f1)
	}
	alarms := 0
	for i := 0; i < 200; i++ {
		_, s := historySeries(t, randomSpec(rng, uint64(1000+i), 0))
		res, err := Regress(s, RegressOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Table("changes").NumRows() > 0 {
			alarms++
		}
	}
	t.Logf("histories without a shift raising an alarm: %d of 200 (%.1f%%)", alarms, float64(alarms)/2)
	if alarms > 10 {
		t.Errorf("%d of 200 no-shift histories raised an alarm, want ≤ 5%%", alarms)
	}
}

// scoreDetections matches the region changes of a result against the
// injected shifts of at least 5%: each (region, shift) is found when the
// region's series has a change within one point of it. Changes matching a
// smaller injected shift are neither true nor false positives.
func scoreDetections(h *synth.History, tb *Table) (tp, fp, fn int) {
	type key struct {
		region string
		at     int
	}
	big := map[key]bool{}
	small := map[key]bool{}
	for _, tr := range h.Truth {
		for _, r := range tr.Regions {
			if math.Abs(tr.Size) >= 0.05 {
				big[key{r, tr.At}] = false
			} else {
				small[key{r, tr.At}] = true
			}
		}
	}
	for i := 0; i < tb.NumRows(); i++ {
		series := tb.Text("series", i)
		if series == ProgramSeries {
			continue
		}
		at := int(tb.Num("point", i)) - 1 // 1-based point → 0-based index of the first point after
		matched := false
		for d := -1; d <= 1 && !matched; d++ {
			k := key{series, at + d}
			if found, ok := big[k]; ok && !found {
				big[k], matched = true, true
				tp++
			} else if small[k] || ok {
				matched = true
			}
		}
		if !matched {
			fp++
		}
	}
	for _, found := range big {
		if !found {
			fn++
		}
	}
	return tp, fp, fn
}

// TestRegressNoiseFree: without noise the change is exact: the program
// shift is the generator's (region 2 of 3 holds 0.98·3/6 of the time; +10%
// gives +4.9%), its interval collapses onto it, and the newest point is in
// the regression.
func TestRegressNoiseFree(t *testing.T) {
	h, s := historySeries(t, synth.HistorySpec{Points: 40, MinReps: 1, MaxReps: 3, Regions: 3, Seed: 1,
		Shifts: []synth.Shift{{At: 30, Regions: []int{2}, Size: 0.10, Meta: map[string]string{"Compiler Flags": "-O3"}}}})
	res, err := Regress(s, RegressOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := h.Truth[0].ProgramShift
	if math.Abs(want-0.049) > 1e-12 {
		t.Fatalf("generator's program shift %v, want 0.049", want)
	}
	ch := res.Table("changes")
	if ch.NumRows() != 2 {
		t.Fatalf("%d changes, want the program's and region 2's", ch.NumRows())
	}
	if ch.Text("series", 0) != ProgramSeries || ch.Num("point", 0) != 31 || ch.Text("verdict", 0) != VerdictRegression {
		t.Errorf("first change %s at %v (%s), want the program at point 31, a regression", ch.Text("series", 0), ch.Num("point", 0), ch.Text("verdict", 0))
	}
	for _, col := range []string{"shift_percent", "ci_low_percent", "ci_high_percent"} {
		if got := ch.Num(col, 0); math.Abs(got-100*want) > 1e-9 {
			t.Errorf("%s = %v, want %v", col, got, 100*want)
		}
	}
	if got := ch.Num("shift_percent", 1); ch.Text("series", 1) != h.RegionNames[2] || math.Abs(got-10) > 1e-9 {
		t.Errorf("region change %s %v%%, want %s +10%%", ch.Text("series", 1), got, h.RegionNames[2])
	}
	if ch.Num("p_value", 0) != 1.0/400 {
		t.Errorf("p-value %v, want 1/400 (no permutation reaches a perfect step)", ch.Num("p_value", 0))
	}
	md := res.Table("metadata")
	if md.NumRows() != 1 || md.Text("key", 0) != "Compiler Flags" || md.Text("before", 0) != "-O2" || md.Text("after", 0) != "-O3" {
		t.Errorf("metadata changes: %d rows, first %q %q → %q; want only Compiler Flags -O2 → -O3", md.NumRows(), md.Text("key", 0), md.Text("before", 0), md.Text("after", 0))
	}
	mv := res.Table("moved")
	if mv.NumRows() != 40 {
		t.Errorf("moved: %d rows, want region 2's 40 points", mv.NumRows())
	}
	for i := 0; i < mv.NumRows(); i++ {
		want := 0.98e6 * 3 / 6 // region 2's base time, µs
		if mv.Num("point", i) > 30 {
			want *= 1.1
		}
		if math.Abs(mv.Num("value", i)-want) > 1e-6 || mv.Text("region", i) != h.RegionNames[2] {
			t.Errorf("moved row %d: %s %v, want %s %v", i, mv.Text("region", i), mv.Num("value", i), h.RegionNames[2], want)
		}
	}
	nr, err := NewestRegressions(res, 0.03)
	if err != nil || len(nr) != 2 || nr[0].Series != ProgramSeries || nr[0].Point != 31 {
		t.Errorf("newest regressions ≥ 3%%: %+v, %v; want the program's and the region's at point 31", nr, err)
	}
	if nr, _ := NewestRegressions(res, 0.2); len(nr) != 0 {
		t.Errorf("newest regressions ≥ 20%%: %+v, want none", nr)
	}
}

// TestRegressExplain: on noisy histories with a program shift of 3.9% to
// 7.8% from one or two regions, the program's change is found within one
// point, the regions named include the injected ones and cover ≥ 80% of
// the program's shift, and the changed compiler flags are named.
func TestRegressExplain(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	sets := [][]int{{2}, {1, 2}, {0, 2}}
	for i := 0; i < 30; i++ {
		spec := synth.HistorySpec{Points: 30 + rng.IntN(31), MinReps: 1, MaxReps: 5, Regions: 3, Noise: 0.02, Seed: uint64(500 + i)}
		at := 8 + rng.IntN(spec.Points-16)
		spec.Shifts = []synth.Shift{{At: at, Regions: sets[i%3], Size: 0.08 + 0.02*rng.Float64(), Meta: map[string]string{"Compiler Flags": "-O3"}}}
		h, s := historySeries(t, spec)
		res, err := Regress(s, RegressOptions{})
		if err != nil {
			t.Fatal(err)
		}
		ch := res.Table("changes")
		k := ch.Find("series", ProgramSeries)
		if k < 0 || math.Abs(ch.Num("point", k)-1-float64(at)) > 1 {
			t.Errorf("history %d: program change %d (point %v), want near index %d (truth %+v)", i, k, ch.Num("point", max(k, 0)), at, h.Truth[0])
			continue
		}
		ex := res.Table("explain")
		named := map[string]bool{}
		cum := 0.0
		for r := 0; r < ex.NumRows(); r++ {
			if ex.Num("point", r) == ch.Num("point", k) {
				named[ex.Text("region", r)] = true
				cum = ex.Num("cumulative_percent", r)
			}
		}
		for _, r := range h.Truth[0].Regions {
			if !named[r] {
				t.Errorf("history %d: injected region %s not among the explaining regions %v", i, r, named)
			}
		}
		if cum < 80 {
			t.Errorf("history %d: explaining regions cover %.1f%% of the program's shift, want ≥ 80%%", i, cum)
		}
		if md := res.Table("metadata"); md.Find("key", "Compiler Flags") < 0 {
			t.Errorf("history %d: changed compiler flags not named", i)
		}
	}
}

func TestRegressBadInput(t *testing.T) {
	_, s := historySeries(t, synth.HistorySpec{Points: 2, MinReps: 1, MaxReps: 1, Regions: 1})
	if _, err := Regress(s[:1], RegressOptions{}); err == nil {
		t.Error("a history of one point accepted")
	}
	if _, err := Regress(s, RegressOptions{Explain: 2}); err == nil {
		t.Error("explained share 2 accepted")
	}
	if _, err := OrderValue(s[0].Trial, "color"); err == nil {
		t.Error("order by color accepted")
	}
	if _, err := OrderValue(s[0].Trial, "date"); err == nil {
		t.Error("order by date accepted without a timestamp")
	}
}

// TestNewHistoryOrder: numeric values order numerically (2 before 10),
// text lexically; equal values share a point.
func TestNewHistoryOrder(t *testing.T) {
	_, s := historySeries(t, synth.HistorySpec{Points: 3, MinReps: 1, MaxReps: 1, Regions: 1})
	tr := []*drg.Trial{s[0].Trial, s[1].Trial, s[2].Trial}
	h, err := NewHistory(tr, []string{"10", "2", "10"})
	if err != nil {
		t.Fatal(err)
	}
	if h[0].P != 2 || h[1].P != 1 || h[2].P != 2 {
		t.Errorf("numeric ranks %v, want 2 1 2", h.Ps())
	}
	h, _ = NewHistory(tr, []string{"b", "a10", "a2"})
	if h[0].P != 3 || h[1].P != 1 || h[2].P != 2 {
		t.Errorf("text ranks %v, want 3 1 2", h.Ps())
	}
}

// TestRelShiftUndefined: a region that took no time before has no
// relative change, but its direction is still a regression.
func TestRelShiftUndefined(t *testing.T) {
	if s := relShift(0, 5); !math.IsNaN(s) {
		t.Errorf("relShift(0, 5) = %v, want NaN", s)
	}
	if s := relShift(200, 210); math.Abs(s-0.05) > 1e-15 {
		t.Errorf("relShift(200, 210) = %v, want 0.05", s)
	}
	if v := (regressChange{before: 0, after: 5}).verdict(); v != VerdictRegression {
		t.Errorf("verdict from 0 to 5: %s", v)
	}
}
