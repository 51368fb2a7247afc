package main

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestGrowth(t *testing.T) {
	cases := []struct {
		t1, t2, n1, n2, want float64
	}{
		{1, 2, 1000, 2000, 1},        // linear
		{1, 4, 1000, 2000, 2},        // quadratic
		{2, 2, 10, 80, 0},            // constant
		{1, 8, 1, 4, 1.5},            // n^1.5
		{1, 1, 5, 5, math.NaN()},     // same size
		{0, 1, 1, 2, math.NaN()},     // zero time
		{1, 2, -1, 2, math.NaN()},    // bad size
		{3, 1.5, 1024, 2048, -1},     // faster when larger
		{1, 9, 1024, 3072, 2},        // ×3 size, ×9 time
		{10, 10 * 16, 256, 1024, 2},  // ×4 size, ×16 time
		{1, math.Sqrt(2), 1, 2, 0.5}, // sqrt
	}
	for _, c := range cases {
		got := Growth(c.t1, c.t2, c.n1, c.n2)
		if math.IsNaN(c.want) != math.IsNaN(got) || (!math.IsNaN(got) && math.Abs(got-c.want) > 1e-12) {
			t.Errorf("Growth(%g, %g, %g, %g) = %g, want %g", c.t1, c.t2, c.n1, c.n2, got, c.want)
		}
	}
	if s := GrowthNote(1.2); !strings.Contains(s, "superlinear") {
		t.Errorf("GrowthNote(1.2) = %q, want superlinear", s)
	}
	if s := GrowthNote(1.1); strings.Contains(s, "superlinear") || s != "growth n^1.1" {
		t.Errorf("GrowthNote(1.1) = %q", s)
	}
	if s := GrowthNote(math.NaN()); s != "" {
		t.Errorf("GrowthNote(NaN) = %q, want empty", s)
	}
}

func TestRender(t *testing.T) {
	rows := []Row{
		{Step: 1, Figure: "parse a|b", Value: 250, Unit: "MB/s", Ref: 1000, RefUnit: "MB/s", RefWhat: "`cat`", Notes: "n"},
		{Step: 2, Figure: "save", Value: 123456.7, Unit: "rows/s", Ref: 0, RefUnit: "rows/s", RefWhat: "psql"},
	}
	got := Render(rows)
	want := "| # | figure | measured | reference (same run, same data) | ratio | notes |\n" +
		"|---|---|---|---|---|---|\n" +
		"| 1 | parse a\\|b | 250 MB/s | `cat`: 1,000 MB/s | 0.25 | n |\n" +
		"| 2 | save | 123,457 rows/s | psql: 0 rows/s | NaN |  |\n"
	if got != want {
		t.Errorf("Render:\n%s\nwant:\n%s", got, want)
	}
	for v, s := range map[float64]string{0.0123456: "0.0123", 999.4: "999", 1234567: "1,234,567", -4321: "-4,321", 12.5: "12.5"} {
		if g := Num(v); g != s {
			t.Errorf("Num(%g) = %q, want %q", v, g, s)
		}
	}
}

func TestLoadOrder(t *testing.T) {
	edges := []Edge{
		{"thread", "trial"}, {"metric", "trial"}, {"timer", "trial"},
		{"timer_callpath", "timer"}, {"timer_callpath", "timer_callpath"},
		{"timer_call_data", "timer_callpath"}, {"timer_call_data", "thread"}, {"timer_call_data", "time_range"},
		{"timer_value", "timer_call_data"}, {"timer_value", "metric"},
		{"trial", "data_source"}, // outside the list: ignored
	}
	got, err := LoadOrder([]string{"timer_value", "timer_call_data", "time_range", "timer_callpath", "timer", "metric", "thread", "trial"}, edges)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"time_range", "trial", "timer", "timer_callpath", "metric", "thread", "timer_call_data", "timer_value"}
	if !slices.Equal(got, want) {
		t.Errorf("LoadOrder = %v, want %v", got, want)
	}
	// The real table list: every child after its parents.
	real := []Edge{{"thread", "trial"}, {"metric", "trial"}, {"timer", "trial"}, {"timer_group", "timer"}, {"timer_parameter", "timer"},
		{"timer_callpath", "timer"}, {"timer_callpath_name", "timer_callpath"}, {"timer_call_data", "timer_callpath"},
		{"timer_call_data", "thread"}, {"timer_call_data", "time_range"}, {"timer_value", "timer_call_data"}, {"timer_value", "metric"},
		{"counter", "trial"}, {"counter_value", "counter"}, {"counter_value", "thread"}, {"counter_value", "timer_callpath"},
		{"primary_metadata", "trial"}, {"secondary_metadata", "trial"}, {"secondary_metadata", "thread"},
		{"secondary_metadata", "timer_callpath"}, {"secondary_metadata", "secondary_metadata"}, {"secondary_metadata", "time_range"}}
	order, err := LoadOrder(trialTables, real)
	if err != nil {
		t.Fatal(err)
	}
	pos := map[string]int{}
	for i, tb := range order {
		pos[tb] = i
	}
	if len(order) != len(trialTables) {
		t.Fatalf("LoadOrder kept %d of %d tables", len(order), len(trialTables))
	}
	for _, e := range real {
		if e.Child != e.Parent && pos[e.Child] < pos[e.Parent] {
			t.Errorf("%s comes before its parent %s in %v", e.Child, e.Parent, order)
		}
	}
	if _, err := LoadOrder([]string{"a", "b"}, []Edge{{"a", "b"}, {"b", "a"}}); err == nil {
		t.Error("LoadOrder accepted a cycle")
	}
}

// TestFastest: the shortest of the runs is returned, the work is repeated
// while it is short, and an error stops it.
func TestFastest(t *testing.T) {
	sleeps := []time.Duration{30 * time.Millisecond, 5 * time.Millisecond, 20 * time.Millisecond}
	calls := 0
	got, err := fastest(func() error {
		time.Sleep(sleeps[calls%len(sleeps)])
		calls++
		return nil
	})
	if err != nil || calls < 3 {
		t.Fatalf("fastest: %v after %d calls, want ≥ 3 calls in %v", err, calls, repeatFor)
	}
	if got < 0.005 || got >= 0.020 {
		t.Errorf("fastest = %.4f s, want the 5 ms run's time", got)
	}
	calls = 0
	if _, err := fastest(func() error { calls++; return errors.New("boom") }); err == nil || calls != 1 {
		t.Errorf("an error: %v after %d calls, want it after 1", err, calls)
	}
}
