package hpctoolkit

import (
	"encoding/csv"
	"os"
	"path"
	"strconv"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg/internal/cct"
)

// hatchetNode is how Hatchet's HPCToolkit reader labels one context: the
// name, type, file, line and module columns of its dataframe.
type hatchetNode struct {
	name, kind, file, module string
	line                     int
}

// hatchetNodes relabels the contexts of tree (in the order they were read,
// which is experiment.xml's document order) as Hatchet's reader does. Our
// names differ from Hatchet's on purpose in two ways, undone here:
//
//   - Hatchet prefixes a procedure frame's name with the line of the
//     element enclosing it (the call site "C", or an enclosing loop or
//     frame) when that line is not 0: "198:MPIR_Init_thread". Our region
//     names are the procedure's name alone, so that every call of a
//     procedure is one TAU region; Node.CallLine keeps that line.
//   - Hatchet names a statement and gives it the file of the procedure
//     frame or loop met last in document order (a variable its recursive
//     walk never restores), even when that element was a callee nested
//     before the statement. Our statements take the file of the frame or
//     loop that encloses them. The rule is applied here from node order.
//
// Hatchet's module is that of a procedure frame and none (pandas NaN, not
// counted by groupby) for loops and statements; ours inherit their
// procedure's module, so modules are taken from procedure nodes only.
func hatchetNodes(tree *cct.Tree) []hatchetNode {
	out := make([]hatchetNode, len(tree.Nodes))
	last := "" // file of the last procedure frame or loop, in document order
	for i, n := range tree.Nodes {
		h := hatchetNode{name: n.Name, file: n.File, line: n.Line}
		switch n.Group {
		case "PROCEDURE":
			h.kind, h.module = "PF", n.Module
			if n.Parent >= 0 && n.CallLine != 0 {
				h.name = strconv.Itoa(n.CallLine) + ":" + n.Name
			}
			last = n.File
		case "LOOP":
			h.kind = "L"
			last = n.File
		case "STATEMENT":
			h.kind, h.file = "S", last
			h.name = path.Base(last) + ":" + strconv.Itoa(n.Line)
		}
		out[i] = h
	}
	return out
}

// distinct counts the distinct non-empty values of field over nodes, as
// pandas' groupby counts groups (rows whose key is missing make none).
func distinct(nodes []hatchetNode, field func(hatchetNode) string) int {
	seen := map[string]bool{}
	for _, h := range nodes {
		if v := field(h); v != "" {
			seen[v] = true
		}
	}
	return len(seen)
}

// TestHatchetNameModuleFileCounts checks the distinct names, modules,
// files and node types of both experiment.xml databases against the
// numbers Hatchet's tests assert (hatchet/tests/hpctoolkit.py:
// test_allgather 383 names, 9 modules, 41 files, 3 types; test_graphframe
// on cpi 20 names, 5 modules, 11 files), after Hatchet's labelling rules
// (hatchetNodes).
func TestHatchetNameModuleFileCounts(t *testing.T) {
	for _, c := range []struct {
		dir                          string
		names, modules, files, types int
	}{
		{"hpctoolkit-allgather-database", 383, 9, 41, 3},
		{"hpctoolkit-cpi-database", 20, 5, 11, 2},
	} {
		tree, _, _, err := Reader{Path: otherFormats(t, c.dir)}.readTree()
		if err != nil {
			t.Fatal(err)
		}
		hn := hatchetNodes(tree)
		got := [4]int{
			distinct(hn, func(h hatchetNode) string { return h.name }),
			distinct(hn, func(h hatchetNode) string { return h.module }),
			distinct(hn, func(h hatchetNode) string { return h.file }),
			distinct(hn, func(h hatchetNode) string { return h.kind }),
		}
		if want := [4]int{c.names, c.modules, c.files, c.types}; got != want {
			t.Errorf("%s: names, modules, files, types %v, Hatchet's test asserts %v", c.dir, got, want)
		}
	}
}

// TestCPINodeLabelsMatchHatchet compares the name, type, file, line and
// module of every context of the cpi database with Hatchet's own
// dataframe of it (hpctoolkit-cpi-graphframe.csv), by context id.
func TestCPINodeLabelsMatchHatchet(t *testing.T) {
	want := map[int]hatchetNode{}
	for _, r := range readGraphframeLabels(t) {
		want[r.nid] = r.hatchetNode
	}
	tree, _, _, err := Reader{Path: otherFormats(t, "hpctoolkit-cpi-database")}.readTree()
	if err != nil {
		t.Fatal(err)
	}
	hn := hatchetNodes(tree)
	if len(hn) != len(want) || len(want) != 34 {
		t.Fatalf("%d contexts, Hatchet's dataframe has %d (34)", len(hn), len(want))
	}
	for i, n := range tree.Nodes {
		w, ok := want[int(n.ID)]
		if !ok {
			t.Errorf("context %d (%s) is not in Hatchet's dataframe", n.ID, n.Name)
			continue
		}
		if hn[i] != w {
			t.Errorf("context %d: %+v, Hatchet has %+v", n.ID, hn[i], w)
		}
	}
}

// labelRow is one row of Hatchet's cpi dataframe: the context id and its
// labels.
type labelRow struct {
	nid int
	hatchetNode
}

// readGraphframeLabels reads the nid, name, type, file, line and module
// columns of hpctoolkit-cpi-graphframe.csv, one row per context.
func readGraphframeLabels(t *testing.T) []labelRow {
	f, err := os.Open(otherFormats(t, "hpctoolkit-cpi-graphframe.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if h := strings.Join(recs[0], ","); h != "node,rank,time (inc),time,nid,name,type,file,line,module" {
		t.Fatalf("columns %s", h)
	}
	var rows []labelRow
	for _, r := range recs[1:] {
		nid, err1 := strconv.Atoi(r[4])
		line, err2 := strconv.Atoi(r[8])
		if err1 != nil || err2 != nil {
			t.Fatalf("row %v: nid or line is not an integer", r)
		}
		rows = append(rows, labelRow{nid, hatchetNode{name: r[5], kind: r[6], file: r[7], line: line, module: r[9]}})
	}
	return rows
}
