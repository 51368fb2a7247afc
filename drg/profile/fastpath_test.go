package profile

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestParseDecimalAgreesWithParseFloat: every value the fast path gives is
// bit for bit ParseFloat's, over the forms TAU writes (and their
// neighbours), and what it refuses includes every token that is not a
// plain decimal.
func TestParseDecimalAgreesWithParseFloat(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	tokens := []string{"0", "-0", "7", "000123", "999999999999999", "9007199254740992", "9007199254740993",
		"12345678901234567890", "1.5", "-3", "1E+06", "1.368259E+06", "2.5e-3", "1e22", "1e23", "1e-22", "1e-23",
		"+4", "", "-", ".", ".5", "5.", "12a", "0x10", "1E", "1E+", "1_000", "inf", "NaN", "1.0E+0004"}
	for range 20000 {
		x := math.Float64frombits(rng.Uint64())
		if math.IsNaN(x) || math.IsInf(x, 0) {
			continue
		}
		y := float64(rng.Uint64N(1<<uint(rng.IntN(50)+1))) / float64(uint64(1)<<uint(rng.IntN(20)))
		for _, f := range []string{"%g", "%.16G", "%E", "%f", "%.3f", "%.0f"} {
			tokens = append(tokens, fmt.Sprintf(f, x), fmt.Sprintf(f, y))
		}
	}
	accepted := 0
	for _, tok := range tokens {
		got, ok := parseDecimal(tok)
		want, err := strconv.ParseFloat(tok, 64)
		if !ok {
			continue
		}
		accepted++
		if err != nil || math.Float64bits(got) != math.Float64bits(want) {
			t.Errorf("parseDecimal(%q) = %v, ParseFloat gives %v (%v)", tok, got, want, err)
		}
	}
	for _, tok := range []string{"", "-", ".", "+4", "12a", "0x10", "1E", "1E+", "1_000", "inf", "NaN", "1e23", "9007199254740993"} {
		if _, ok := parseDecimal(tok); ok {
			t.Errorf("parseDecimal(%q) accepted it", tok)
		}
	}
	if accepted < len(tokens)/3 {
		t.Errorf("the fast path took only %d of %d tokens", accepted, len(tokens))
	}
}

// TestFilesListingTimersInDifferentOrders: the node cache of the merge must
// not attach a value to the timer that sat at the same position in the
// previous file. Thread 1 lists the timers in another order and lacks one.
func TestFilesListingTimersInDifferentOrders(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"profile.0.0.0": "3 templated_functions_MULTI_TIME\n# Name Calls Subrs Excl Incl ProfileCalls #\n" +
			"\"main\" 1 2 10 100 0 GROUP=\"TAU_DEFAULT\"\n\"a\" 1 0 20 20 0 GROUP=\"TAU_USER\"\n\"b\" 1 0 70 70 0 GROUP=\"TAU_USER\"\n0 aggregates\n",
		"profile.1.0.0": "2 templated_functions_MULTI_TIME\n# Name Calls Subrs Excl Incl ProfileCalls #\n" +
			"\"b\" 2 0 5 5 0 GROUP=\"TAU_USER\"\n\"main\" 1 2 3 8 0 GROUP=\"TAU_DEFAULT\"\n0 aggregates\n",
		"profile.2.0.0": "3 templated_functions_MULTI_TIME\n# Name Calls Subrs Excl Incl ProfileCalls #\n" +
			"\"main\" 1 2 11 101 0 GROUP=\"TAU_DEFAULT\"\n\"a\" 1 0 21 21 0 GROUP=\"TAU_USER\"\n\"b\" 1 0 69 69 0 GROUP=\"TAU_USER\"\n0 aggregates\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tr, err := Reader{Path: dir, Workers: 2}.Read()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][3]float64{"main": {10, 3, 11}, "a": {20, 0, 21}, "b": {70, 5, 69}}
	for n, node := range tr.Nodes {
		for th := range tr.Threads {
			got := tr.Values[0].Exclusive[n*len(tr.Threads)+th]
			if got != want[node.Name][th] {
				t.Errorf("%s on thread %d: exclusive %v, want %v", node.Name, th, got, want[node.Name][th])
			}
		}
	}
	if c := tr.Calls[tr.NodeIndex("b")*3+1]; c != 2 {
		t.Errorf("calls of b on thread 1: %v, want 2", c)
	}
	if tr.Present.Get(tr.NodeIndex("a")*3 + 1) {
		t.Error("a is marked present on thread 1, which does not list it")
	}
}

// TestLastGroupIsLastIndex compares lastGroup with strings.LastIndex on
// lines built from pieces that make near misses likely.
func TestLastGroupIsLastIndex(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	pieces := []string{` GROUP="`, `GROUP="`, ` GROUP=`, `=`, `"`, ` `, `a`, `G`, ` GROUP`, `x="y"`}
	for range 20000 {
		var sb strings.Builder
		for range rng.IntN(8) {
			sb.WriteString(pieces[rng.IntN(len(pieces))])
		}
		l := sb.String()
		if got, want := lastGroup(l), strings.LastIndex(l, ` GROUP="`); got != want {
			t.Fatalf("lastGroup(%q) = %d, want %d", l, got, want)
		}
	}
}

// TestBadNameInALaterFile: a name that differs from the previous file's at
// the same position is checked, so a NUL byte in the second file is found
// with its file and line.
func TestBadNameInALaterFile(t *testing.T) {
	dir := t.TempDir()
	line := func(name string) string {
		return "2 templated_functions_MULTI_TIME\n# Name Calls Subrs Excl Incl ProfileCalls #\n" +
			"\"main\" 1 1 10 100 0 GROUP=\"TAU_DEFAULT\"\n\"" + name + "\" 1 0 90 90 0 GROUP=\"TAU_USER\"\n0 aggregates\n"
	}
	for name, text := range map[string]string{"profile.0.0.0": line("a"), "profile.1.0.0": line("a\x00b")} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, err := Reader{Path: dir, Workers: 1}.Read()
	if err == nil || !strings.Contains(err.Error(), "profile.1.0.0:4:") || !strings.Contains(err.Error(), "NUL byte") {
		t.Errorf("error %v, want one naming profile.1.0.0:4 and the NUL byte", err)
	}
}
