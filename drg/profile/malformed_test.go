package profile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// writeTrial writes files (name → content) into a new temporary directory.
func writeTrial(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// A profile as ParaProf writes it: no "#" before the metadata and Java's
// number format (4.1466134E7).
const paraprofWritten = `3 templated_functions_MULTI_TIME
# Name Calls Subrs Excl Incl ProfileCalls<metadata><attribute><name>Metric Name</name><value>TIME</value></attribute><attribute><name>Node Name</name><value>n1 &amp; n2</value></attribute><attribute><name>Path</name><value><![CDATA[/a<b>]]></value></attribute></metadata>
"main" 1.0 2.0 1.0E2 4.1466134E7 0 GROUP="TAU_DEFAULT"
"foo => bar" 3 0 2.5E1 2.5E1 0 GROUP="TAU_CALLPATH|TAU_USER"
"foo" 2 3 1.5E7 4.1466034E7 0 GROUP="TAU_USER"
0 aggregates
`

func TestParaProfWrittenProfile(t *testing.T) {
	dir := writeTrial(t, map[string]string{"profile.0.0.0": paraprofWritten})
	tr := read(t, dir)
	m := tr.MetricIndex("TIME")
	if m != 0 {
		t.Fatalf("metrics %v", tr.Metrics)
	}
	main := tr.NodeIndex("main")
	if c := tr.Cell(main, 0); tr.Values[m].Inclusive[c] != 41466134 || tr.Values[m].Exclusive[c] != 100 || tr.Subroutines[c] != 2 {
		t.Errorf("main: incl %v excl %v subrs %v", tr.Values[m].Inclusive[c], tr.Values[m].Exclusive[c], tr.Subroutines[c])
	}
	if tr.Metadata["Node Name"] != "n1 & n2" || tr.Metadata["Path"] != "/a<b>" {
		t.Errorf("metadata %v", tr.Metadata)
	}
	if _, ok := tr.Metadata[drg.MetricNameKey]; ok {
		t.Error("Metric Name must not be kept as metadata")
	}
	// "foo => bar" is a depth-2 callpath that does not start at main.
	fb := tr.NodeIndex("foo => bar")
	if fb < 0 || tr.Nodes[fb].Parent != tr.NodeIndex("foo") || tr.Regions[tr.Nodes[fb].Region].Name != "bar" {
		t.Fatalf("foo => bar: %+v", tr.Nodes)
	}
	tree := tr.Tree()
	if tree.Kind != drg.PartialCallpaths {
		t.Errorf("tree kind %v, want partial (depth-limited callpaths)", tree.Kind)
	}
	if len(tree.Roots) != 1 || tree.Roots[0] != tr.NodeIndex("foo") {
		t.Errorf("roots %v", tree.Roots)
	}
	// bar has no flat line: its region exists, with no flat values, so the
	// flat view does not count the callpath's 25 µs twice.
	bar := tr.RegionIndex("bar")
	if bar < 0 || tr.Has(tr.Regions[bar].Flat, 0) {
		t.Errorf("region bar: %d", bar)
	}
}

// TestMultiMetricAndThrottle reads a MULTI__ trial with two metrics, a
// throttled timer whose callpath keeps the old name, groups with blanks,
// names with trailing blanks and duplicate user events.
func TestMultiMetricAndThrottle(t *testing.T) {
	time := `4 templated_functions_MULTI_TIME
# Name Calls Subrs Excl Incl ProfileCalls # <metadata><attribute><name>Metric Name</name><value>TIME</value></attribute><attribute><name>Hostname</name><value>h0</value></attribute></metadata>
"main  " 1 1 10 30 0 GROUP="TAU_DEFAULT" 
"work [THROTTLED]" 100000 0 20 20 0 GROUP="TAU_DISABLE" 
"main   => work" 100000 0 20 20 0 GROUP="TAU_CALLPATH|TAU_USER" 
"sz [ <n> = <8> ]" 2 0 1.5 1.5 0 GROUP="TAU_PARAM | TAU_USER" 
0 aggregates
2 userevents
# eventname numevents max min mean sumsqr
"bytes" 2 8 4 6 80
"bytes  " 2 10 2 6 104
`
	cyc := `3 templated_functions_MULTI_PAPI_TOT_CYC
# Name Calls Subrs Excl Incl ProfileCalls # <metadata><attribute><name>Metric Name</name><value>PAPI_TOT_CYC</value></attribute></metadata>
"main  " 1 1 1000 3000 0 GROUP="TAU_DEFAULT" 
"work [THROTTLED]" 100000 0 2000 2000 0 GROUP="TAU_DISABLE" 
"main   => work" 100000 0 2000 2000 0 GROUP="TAU_CALLPATH|TAU_USER" 
0 aggregates
`
	dir := writeTrial(t, map[string]string{
		"MULTI__TIME/profile.0.0.0":         time,
		"MULTI__PAPI_TOT_CYC/profile.0.0.0": cyc,
		"spawn-1/profile.0.0.0":             cyc,
	})
	tr := read(t, dir)
	if len(tr.Metrics) != 2 || tr.Metrics[0].Name != "PAPI_TOT_CYC" || tr.Metrics[1].Name != "TIME" {
		t.Fatalf("metrics %v (want sorted folder order)", tr.Metrics)
	}
	if len(tr.Threads) != 1 {
		t.Fatalf("threads %d: spawn-1 must not be mixed in", len(tr.Threads))
	}
	if len(tr.Warnings) != 1 || !strings.Contains(tr.Warnings[0], "spawn-1") {
		t.Errorf("warnings %q", tr.Warnings)
	}
	cp := tr.NodeIndex("main => work")
	if cp < 0 || tr.Regions[tr.Nodes[cp].Region].Name != "work [THROTTLED]" {
		t.Fatalf("callpath leaf not matched to the throttled timer: %+v", tr.Nodes)
	}
	if tr.RegionIndex("work") >= 0 {
		t.Error("an empty region \"work\" was made next to \"work [THROTTLED]\"")
	}
	if tr.Values[0].Exclusive[tr.Cell(cp, 0)] != 2000 || tr.Values[1].Exclusive[tr.Cell(cp, 0)] != 20 {
		t.Error("values of the two metrics mixed up")
	}
	// Calls come from the first folder only, not added once per metric.
	if tr.Calls[tr.Cell(cp, 0)] != 100000 {
		t.Errorf("calls %v", tr.Calls[tr.Cell(cp, 0)])
	}
	r := tr.Regions[tr.RegionIndex("sz [ <n> = <8> ]")]
	if len(r.Params) != 1 || r.Params[0] != (drg.Param{Name: "n", Value: "8"}) || strings.Join(r.Groups, ",") != "TAU_PARAM,TAU_USER" {
		t.Errorf("param region %+v", r)
	}
	// The two "bytes" lines are one event: counts and Σx² add, the mean is
	// count-weighted, max and min are the extremes.
	if len(tr.Counters) != 0 {
		// user events are read from the first metric folder (PAPI_TOT_CYC), which has none
		t.Errorf("counters %v", tr.Counters)
	}
}

func TestDuplicateUserEventsMerge(t *testing.T) {
	f := `1 templated_functions_MULTI_TIME
# Name Calls Subrs Excl Incl ProfileCalls
"main" 1 0 10 10 0 GROUP="TAU_DEFAULT"
0 aggregates
2 userevents
# eventname numevents max min mean sumsqr
"bytes" 2 8 4 6 80
"bytes  " 2 10 2 6 104
`
	tr := read(t, writeTrial(t, map[string]string{"profile.3.0.1": f}))
	if len(tr.Counters) != 1 {
		t.Fatalf("counters %v", tr.Counters)
	}
	v := tr.CounterValues[0]
	want := drg.CounterValue{NumEvents: 4, Max: 10, Min: 2, Mean: 6, SumSquares: 184}
	if v != want {
		t.Errorf("merged %+v, want %+v", v, want)
	}
	// Samples 4,8 and 2,10: Σx² = 184, mean 6, stddev √(184/4 − 36) = √10.
	if sd := v.StdDev(); sd*sd < 10-1e-12 || sd*sd > 10+1e-12 {
		t.Errorf("stddev %v", sd)
	}
	if th := tr.Threads[0]; th.Node != 3 || th.Thread != 1 || th.Index != 3*2+1 {
		t.Errorf("thread %+v", th)
	}
}

// TestMalformed checks that bad files give an error naming the file and the
// line, never a panic or a half-read trial.
func TestMalformed(t *testing.T) {
	good := "2 templated_functions_MULTI_TIME\n# Name Calls Subrs Excl Incl ProfileCalls\n\"a\" 1 0 1 2 0 GROUP=\"X\"\n\"b\" 1 0 1 1 0 GROUP=\"X\"\n0 aggregates\n"
	cases := []struct {
		name, content, want string
	}{
		{"truncated", good[:strings.Index(good, "\"b\"")], "profile.0.0.0:3: file ends after 1 of 2 timer lines"},
		{"count too high", strings.Replace(good, "2 templated", "3 templated", 1), "profile.0.0.0:5: timer line \"0 aggregates\""},
		{"garbage number", strings.Replace(good, "1 0 1 2 0", "1 0 x1 2 0", 1), "profile.0.0.0:3: timer \"a\": number 3 (excl): \"x1\" is not a number"},
		{"nan", strings.Replace(good, "1 0 1 2 0", "1 0 NAN 2 0", 1), "profile.0.0.0:3: timer \"a\": number 3 (excl) is NAN"},
		{"missing numbers", strings.Replace(good, "1 0 1 2 0", "1 0", 1), "profile.0.0.0:3: timer \"a\": want 4 numbers (calls subrs excl incl), found 2"},
		{"no group", strings.Replace(good, ` GROUP="X"`, "", 1), "profile.0.0.0:3: timer line"},
		{"bad header", "hello\n", "profile.0.0.0:1: header \"hello\""},
		{"empty", "", "profile.0.0.0:0: empty file"},
		{"no aggregates", good[:strings.Index(good, "0 aggregates")], "profile.0.0.0:4: file ends before the \"aggregates\" line"},
		{"events cut", good + "3 userevents\n# eventname numevents max min mean sumsqr\n\"e\" 1 1 1 1 1\n", "profile.0.0.0:8: file ends after 1 of 3 user-event lines"},
		{"binary", "\x00\x01\x02garbage\xff", "profile.0.0.0:1: binary data, not a TAU profile (byte 1 is 0x00)"},
		{"NUL in a name", strings.Replace(good, `"b"`, "\"b\x00c\"", 1), `profile.0.0.0:4: timer "b\x00c": timer name holds a NUL byte at byte 2`},
		{"name not UTF-8", strings.Replace(good, `"b"`, "\"b\xe9\"", 1), `profile.0.0.0:4: timer "b\xe9": timer name is not UTF-8: byte 2 is 0xe9`},
		{"name of 1 MB", strings.Replace(good, `"b"`, `"`+strings.Repeat("b", 1<<20)+`"`, 1), "timer name of 1048576 bytes is longer than the 65536 bytes a name may have"},
		{"event name not UTF-8", good + "1 userevents\n# eventname numevents max min mean sumsqr\n\"e\xff\" 1 1 1 1 1\n", `profile.0.0.0:8: user event "e\xff": user event name is not UTF-8: byte 2 is 0xff`},
		{"bad metadata", strings.Replace(good, "ProfileCalls\n", "ProfileCalls # <metadata><attribute><name>x</nam></metadata>\n", 1), "profile.0.0.0:2: metadata:"},
		{"huge count", "99999999 templated_functions_MULTI_TIME\n", "more than the file can hold"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := writeTrial(t, map[string]string{"profile.0.0.0": c.content})
			tr, err := Reader{Path: dir}.Read()
			if err == nil {
				t.Fatalf("no error; trial %+v", tr)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q\nwant it to contain %q", err, c.want)
			}
			if !strings.Contains(err.Error(), filepath.Join(dir, "profile.0.0.0")) && c.name != "" {
				t.Errorf("error %q does not name the file", err)
			}
		})
	}
}

func TestEmptyAndOddDirectories(t *testing.T) {
	dir := writeTrial(t, map[string]string{"profile.0.0.0.json": "{}", "notes.txt": "x"})
	_, err := Reader{Path: dir}.Read()
	if err == nil || !strings.Contains(err.Error(), "no TAU profile files") || !strings.Contains(err.Error(), dir) {
		t.Errorf("error %v", err)
	}
	if _, err := (Reader{Path: filepath.Join(dir, "missing")}).Read(); err == nil {
		t.Error("no error for a missing path")
	}
	if _, err := (Reader{Path: filepath.Join(dir, "notes.txt")}).Read(); err == nil || !strings.Contains(err.Error(), "not a TAU profile") {
		t.Errorf("error %v", err)
	}
	// A symlink loop is not followed.
	loop := filepath.Join(dir, "loop")
	if err := os.Symlink(loop, loop); err == nil {
		if _, err := (Reader{Path: loop}).Read(); err == nil {
			t.Error("no error for a symlink loop")
		}
	}
}

func TestSingleFile(t *testing.T) {
	dir := writeTrial(t, map[string]string{"run1/profile.2.0.0": paraprofWritten})
	tr := read(t, filepath.Join(dir, "run1", "profile.2.0.0"))
	if len(tr.Threads) != 1 || tr.Threads[0].Node != 2 || tr.Name != "run1" {
		t.Errorf("threads %+v name %q", tr.Threads, tr.Name)
	}
}
