package drg

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestShortName checks the shortened form: at most MaxNameBytes bytes,
// valid UTF-8 when cut inside a 3-byte rune, the same for the same name,
// different for two names that differ only past the cut, and names that
// fit left alone.
func TestShortName(t *testing.T) {
	fit := strings.Repeat("a", MaxNameBytes)
	if ShortName(fit) != fit {
		t.Error("a name of exactly MaxNameBytes was changed")
	}
	long := strings.Repeat("€", 800) // 2,400 bytes; the cut falls inside a rune
	a, b := ShortName(long+"x"), ShortName(long+"y")
	if len(a) > MaxNameBytes || !utf8.ValidString(a) || !strings.HasPrefix(long, strings.TrimSuffix(a[:strings.LastIndex(a, " [#")], " ")) {
		t.Errorf("short name of %d bytes, valid %v: ...%q", len(a), utf8.ValidString(a), a[len(a)-30:])
	}
	if a == b || a != ShortName(long+"x") {
		t.Errorf("short names not distinct or not stable: %q, %q", a[len(a)-20:], b[len(b)-20:])
	}
}

// TestBuilderShortensLongNames gives the builder a region of 3,000 bytes
// inside a callpath and a user event of 2,208 bytes (as in a real TAU 2.34
// snapshot): the trial holds their short names, LongNames maps them back,
// a warning says so, and CheckNames (what store.SaveTrial requires) passes.
func TestBuilderShortensLongNames(t *testing.T) {
	region, event := strings.Repeat("r", 3000), strings.Repeat("e", 2208)
	b, err := NewBuilder([]ThreadID{{}})
	if err != nil {
		t.Fatal(err)
	}
	m := b.Metric("TIME")
	b.AddValues(b.Node("main"), 0, m, 1, 2)
	b.AddValues(b.Node("main => "+region), 0, m, 1, 1)
	b.AddCounter(b.Counter(event), 0, CounterValue{NumEvents: 1, Max: 1, Min: 1, Mean: 1, SumSquares: 1})
	tr, err := b.Finish("long", Source{})
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.CheckNames(); err != nil {
		t.Error(err)
	}
	if tr.LongNames[ShortName(region)] != region || tr.LongNames[ShortName(event)] != event || len(tr.LongNames) != 2 {
		t.Errorf("LongNames has %d entries", len(tr.LongNames))
	}
	if tr.NodeIndex("main => "+ShortName(region)) < 0 || tr.Counters[0].Name != ShortName(event) {
		t.Error("the trial does not hold the short names")
	}
	if w := strings.Join(tr.Warnings, "\n"); !strings.Contains(w, "2 names longer than TAUdb's 2048 bytes shortened") || !strings.Contains(w, "of 3000 bytes") {
		t.Errorf("warnings: %s", w)
	}
}
