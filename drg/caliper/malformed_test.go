package caliper

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// plainJSON is cali-query's plain json format, written by hand: main has
// 10 of its own and calls foo (5) twice from two ranks, and foo calls bar.
const plainJSON = `[
 {"path": "main", "mpi.rank": 0, "sum#time.duration": 10, "count": 1},
 {"path": "main/foo", "mpi.rank": 0, "sum#time.duration": 5, "count": 2},
 {"path": "main/foo/bar", "mpi.rank": 0, "sum#time.duration": 1.5},
 {"path": "main", "mpi.rank": 1, "sum#time.duration": 20},
 {"path": "main/foo", "mpi.rank": 1, "sum#time.duration": 7},
 {"mpi.rank": 1, "sum#time.duration": 99}
]`

func TestPlainJSON(t *testing.T) {
	tr, err := Decode(strings.NewReader(plainJSON), "plain.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Threads) != 2 || len(tr.Regions) != 3 || tr.Source.DataSource != 999 || tr.Source.Format != "caliper" {
		t.Fatalf("%d threads, %d regions, source %+v", len(tr.Threads), len(tr.Regions), tr.Source)
	}
	m := tr.MetricIndex("sum#time.duration")
	for _, c := range []struct {
		node       string
		rank       int
		excl, incl float64
	}{
		{"main", 0, 10, 16.5}, {"main", 1, 20, 27},
		{"main => foo", 0, 5, 6.5}, {"main => foo", 1, 7, 7},
		{"main => foo => bar", 0, 1.5, 1.5},
		{"foo", 0, 5, 6.5}, {"bar", 0, 1.5, 1.5},
	} {
		e, i := cell(t, tr, m, tr.NodeIndex(c.node), c.rank)
		if e != c.excl || i != c.incl {
			t.Errorf("%s rank %d: %v/%v, want %v/%v", c.node, c.rank, e, i, c.excl, c.incl)
		}
	}
	if tr.Has(tr.NodeIndex("main => foo => bar"), tr.ThreadIndex(1, 0, 0)) {
		t.Error("bar has no record on rank 1")
	}
	if tr.Metadata["Caliper records outside any region (not read)"] != "1" || tr.Metadata["Caliper format"] != "json" {
		t.Errorf("metadata %v", tr.Metadata)
	}
}

// TestRecursionFlat: a region nested in itself counts its inclusive once in
// its flat node (the outermost context) and its exclusive in every context.
func TestRecursionFlat(t *testing.T) {
	doc := `{"records": [
 {"path": ["main"], "time": 1},
 {"path": ["main", "f"], "time": 2},
 {"path": ["main", "f", "f"], "time": 3}],
 "globals": {"cali.caliper.version": "2.9"},
 "attributes": {"time": {"attribute.alias": "Time (s)"}}}`
	tr, err := Decode(strings.NewReader(doc), "rec.json")
	if err != nil {
		t.Fatal(err)
	}
	m := tr.MetricIndex("Time (s)")
	if m < 0 || tr.Metadata["cali.caliper.version"] != "2.9" {
		t.Fatalf("metrics %v metadata %v", tr.Metrics, tr.Metadata)
	}
	e, i := cell(t, tr, m, flat(t, tr, "f"), 0)
	if e != 5 || i != 5 {
		t.Errorf("flat f %v/%v, want exclusive 2+3, inclusive 5 (outer context only)", e, i)
	}
}

// cali is a small native .cali file written by hand after Caliper's format:
// attribute nodes (name under prop under type), a region tree and ctx
// records with immediate values.
const cali = `__rec=node,id=12,attr=10,data=268,parent=3
__rec=node,id=13,attr=8,data=function,parent=12
__rec=node,id=14,attr=10,data=21,parent=5
__rec=node,id=15,attr=8,data=sum#time.duration,parent=14
__rec=node,id=16,attr=10,data=12,parent=1
__rec=node,id=17,attr=8,data=mpi.rank,parent=16
__rec=node,id=18,attr=13,data=main
__rec=node,id=19,attr=13,data=solve\,fast,parent=18
__rec=ctx,ref=18,attr=15=17,data=1.5=0
__rec=ctx,ref=19,attr=15=17,data=2.25=0
__rec=ctx,ref=18,attr=15=17,data=3=1
__rec=globals,attr=15,data=7
`

func TestCaliByHand(t *testing.T) {
	tr, err := Decode(strings.NewReader(cali), "hand.cali")
	if err != nil {
		t.Fatal(err)
	}
	m := tr.MetricIndex("sum#time.duration")
	n := tr.NodeIndex("main => solve,fast")
	if m < 0 || n < 0 || len(tr.Threads) != 2 {
		t.Fatalf("metrics %v nodes %v threads %d", tr.Metrics, tr.Nodes, len(tr.Threads))
	}
	if e, i := cell(t, tr, m, flat(t, tr, "main"), 0); e != 1.5 || i != 3.75 {
		t.Errorf("main rank 0 %v/%v", e, i)
	}
	if e, i := cell(t, tr, m, flat(t, tr, "main"), 1); e != 3 || i != 3 {
		t.Errorf("main rank 1 %v/%v", e, i)
	}
	if tr.Metadata["sum#time.duration"] != "7" {
		t.Errorf("globals %v", tr.Metadata)
	}
}

// checkRefused asserts that err is an *Error naming path and a position.
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

func TestMalformedByHand(t *testing.T) {
	for what, in := range map[string]string{
		"undefined parent":   strings.Replace(cali, "parent=18", "parent=99", 1),
		"undefined ref":      strings.Replace(cali, "ref=19", "ref=77", 1),
		"attr/data mismatch": strings.Replace(cali, "data=1.5=0", "data=1.5", 1),
		"not a number":       strings.Replace(cali, "data=2.25=0", "data=x=0", 1),
		"unknown record":     strings.Replace(cali, "__rec=ctx", "__rec=cxt", 1),
		"no final newline":   strings.TrimSuffix(cali, "\n"),
		"node twice":         cali + "__rec=node,id=18,attr=13,data=x\n",
		"bad rank":           strings.Replace(cali, "data=3=1", "data=3=-1", 1),
		"json syntax":        strings.Replace(plainJSON, `"count": 2}`, `"count": 2`, 1),
		"json type":          strings.Replace(plainJSON, `"path": "main"`, `"path": "main", "mpi.rank": "x", "y"`, 1),
		"json truncated":     plainJSON[:len(plainJSON)/2],
		"neither":            "hello",
	} {
		_, err := Decode(strings.NewReader(in), "bad.cali")
		checkRefused(t, what, err, "bad.cali")
	}
}

// TestCorruptedRealFiles cuts every real Caliper file inside a record and
// corrupts it in a few ways; each copy must be refused with the file and a
// position.
func TestCorruptedRealFiles(t *testing.T) {
	for _, rel := range []string{"caliper-lulesh-cali/lulesh-annotation-profile.cali", "caliper-example-cali/example-profile.cali",
		"caliper-lulesh-json/lulesh-annotation-profile.json", "caliper-cpi-json/cpi-callpath-profile.json"} {
		data, err := os.ReadFile(otherFormat(t, rel))
		if err != nil {
			t.Fatal(err)
		}
		for _, frac := range []int{10, 3, 2, 1} {
			cut := len(data) * frac / 11
			for cut > 0 && data[cut-1] == '\n' {
				cut--
			}
			_, err := Decode(bytes.NewReader(data[:cut]), rel)
			checkRefused(t, rel+" truncated", err, rel)
		}
		var bad [][]byte
		if strings.HasSuffix(rel, ".cali") {
			bad = [][]byte{
				bytes.Replace(data, []byte(",parent="), []byte(",parent=9"), 3),
				bytes.Replace(data, []byte("__rec=ctx,ref="), []byte("__rec=ctx,ref=x"), 1),
				bytes.Replace(data, []byte(",data="), []byte(",dota="), 1),
			}
		} else {
			bad = [][]byte{
				bytes.Replace(data, []byte("],"), []byte("];"), 1),
				bytes.Replace(data, []byte(`"parent": `), []byte(`"parent": 9`), 2),
				bytes.Replace(data, []byte(`"columns"`), []byte(`"kolumns"`), 1),
			}
		}
		for i, b := range bad {
			_, err := Decode(bytes.NewReader(b), rel)
			checkRefused(t, rel+" corruption "+string(rune('a'+i)), err, rel)
		}
	}
}

// TestThreads: omp.thread.id is the thread rank; a pthread id (too big to
// be one) is numbered from 65536 in order of appearance.
func TestThreads(t *testing.T) {
	doc := `[{"path": "main", "mpi.rank": 1, "omp.thread.id": 3, "t": 1},
 {"path": "main", "mpi.rank": 0, "pthread.id": 140234567, "t": 2},
 {"path": "main", "mpi.rank": 0, "pthread.id": 140230000, "t": 4}]`
	tr, err := Decode(strings.NewReader(doc), "threads.json")
	if err != nil {
		t.Fatal(err)
	}
	want := []drg.ThreadID{{Node: 0, Thread: 65536}, {Node: 0, Thread: 65537}, {Node: 1, Thread: 3}}
	if len(tr.Threads) != len(want) {
		t.Fatalf("threads %+v", tr.Threads)
	}
	for i, w := range want {
		if th := tr.Threads[i]; th.Node != w.Node || th.Thread != w.Thread {
			t.Errorf("thread %d: %+v, want %v", i, th, w)
		}
	}
	if e, _ := cell2(tr, 0, flat(t, tr, "main"), tr.ThreadIndex(0, 0, 65537)); e != 4 {
		t.Errorf("second pthread's value %v", e)
	}
}

func cell2(tr *drg.Trial, m, n, th int) (float64, float64) {
	c := tr.Cell(n, th)
	return tr.Values[m].Exclusive[c], tr.Values[m].Inclusive[c]
}
