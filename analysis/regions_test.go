package analysis

import (
	"fmt"
	"strings"
	"testing"
)

func TestRegionsMeanByHand(t *testing.T) {
	tr := handTrial(t)
	res, err := Regions(tr, RegionsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]string{"metric": "TIME", "value": "exclusive", "top": "10", "of": "mean", "children": hMain} {
		if res.Params[k] != v {
			t.Errorf("param %s = %q, want %q", k, res.Params[k], v)
		}
	}
	rt := mustTable(t, res, "regions")
	// Exclusive means over 4 threads (absent as 0): main 41.25, MPI_Recv()
	// 25 and work 25 (tie: name order), parallel 30/4, fwrite 5/4.
	want := []struct {
		name       string
		excl, incl float64
		calls      float64
	}{
		{hMain, 41.25, 100, 1},
		{hRecv, 25, 25, 3.75},
		{hWork, 25, 25, 2},
		{hParallel, 7.5, 7.5, 0.5},
		{hWrite, 1.25, 1.25, 0.25},
	}
	if rt.NumRows() != len(want) {
		t.Fatalf("%d rows", rt.NumRows())
	}
	for i, w := range want {
		if rt.Text("region", i) != w.name {
			t.Errorf("row %d %q, want %q", i, rt.Text("region", i), w.name)
			continue
		}
		near(t, w.name+" excl", rt.Num("exclusive", i), w.excl)
		near(t, w.name+" incl", rt.Num("inclusive", i), w.incl)
		// The mean main inclusive is 100, so percentages equal values.
		near(t, w.name+" excl %", rt.Num("exclusive_percent", i), w.excl)
		near(t, w.name+" incl %", rt.Num("inclusive_percent", i), w.incl)
		near(t, w.name+" calls", rt.Num("calls", i), w.calls)
		near(t, w.name+" excl/call", rt.Num("exclusive_per_call", i), w.excl/w.calls)
		near(t, w.name+" incl/call", rt.Num("inclusive_per_call", i), w.incl/w.calls)
	}

	// Children of main (default: the tree is complete): self 41.25 first,
	// then children by inclusive value; the shares sum to 100.
	ch := mustTable(t, res, "children")
	if ch.NumRows() != 5 || ch.Text("kind", 0) != "self" || ch.Text("node", 0) != hMain {
		t.Fatalf("children rows %d, first %q %q", ch.NumRows(), ch.Text("kind", 0), ch.Text("node", 0))
	}
	near(t, "self share", ch.Num("percent", 0), 41.25)
	var sum float64
	for i := 0; i < ch.NumRows(); i++ {
		sum += ch.Num("percent", i)
	}
	near(t, "children shares sum", sum, 100)
	i := row(t, ch, "node", hMain+" => "+hParallel)
	near(t, "parallel share", ch.Num("percent", i), 7.5)
	if ch.Text("region", i) != hParallel || ch.Text("kind", i) != "child" {
		t.Errorf("parallel row %q %q", ch.Text("region", i), ch.Text("kind", i))
	}
}

func TestRegionsThreadZeroCalls(t *testing.T) {
	tr := handTrial(t)
	res, err := Regions(tr, RegionsOptions{Of: "1.0.1", Inclusive: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Params["of"] != "1.0.1" || res.Params["value"] != "inclusive" {
		t.Errorf("params %v", res.Params)
	}
	rt := mustTable(t, res, "regions")
	// parallel is absent on 1.0.1: 4 regions, by inclusive: main 100,
	// MPI_Recv 40, work 10, fwrite 5.
	if rt.NumRows() != 4 || rt.Find("region", hParallel) >= 0 {
		t.Fatalf("rows %d", rt.NumRows())
	}
	for i, n := range []string{hMain, hRecv, hWork, hWrite} {
		if rt.Text("region", i) != n {
			t.Errorf("row %d %q, want %q", i, rt.Text("region", i), n)
		}
	}
	r := row(t, rt, "region", hRecv)
	near(t, "recv excl", rt.Num("exclusive", r), 40)
	near(t, "recv calls", rt.Num("calls", r), 0)
	// 0 calls: the per-call value is 0 by definition (as ParaProf).
	near(t, "recv per call with 0 calls", rt.Num("exclusive_per_call", r), 0)
	near(t, "recv incl per call with 0 calls", rt.Num("inclusive_per_call", r), 0)
	near(t, "recv %", rt.Num("exclusive_percent", r), 40) // main 100 on this thread
	m := row(t, rt, "region", hMain)
	near(t, "main excl", rt.Num("exclusive", m), 45)

	ch := mustTable(t, res, "children")
	if ch.NumRows() != 4 { // self + work, MPI_Recv, fwrite
		t.Errorf("children rows %d", ch.NumRows())
	}
	var sum float64
	for i := 0; i < ch.NumRows(); i++ {
		sum += ch.Num("percent", i)
	}
	near(t, "thread children sum", sum, 100)
}

func TestRegionsScopes(t *testing.T) {
	tr := handTrial(t)
	cases := []struct {
		of        string
		label     string
		recv      float64 // MPI_Recv() exclusive
		recvPct   float64 // of the scope's main
		recvCalls float64
	}{
		{"1", "1", 60, 30, 5},           // process 1: threads 1.0.0 and 1.0.1, main 200
		{"total", "total", 100, 25, 15}, // main 400
		{"max", "max", 40, 40, 5},       // main 100
		{"MEAN", "mean", 25, 25, 3.75},
		{"0.0.1", "0.0.1", 30, 30, 5},
	}
	for _, c := range cases {
		res, err := Regions(tr, RegionsOptions{Of: c.of, Top: All})
		if err != nil {
			t.Fatalf("%s: %v", c.of, err)
		}
		if res.Params["of"] != c.label || res.Params["top"] != "all" {
			t.Errorf("%s: params %v", c.of, res.Params)
		}
		rt := mustTable(t, res, "regions")
		r := row(t, rt, "region", hRecv)
		near(t, c.of+" recv", rt.Num("exclusive", r), c.recv)
		near(t, c.of+" recv %", rt.Num("exclusive_percent", r), c.recvPct)
		near(t, c.of+" recv calls", rt.Num("calls", r), c.recvCalls)
		near(t, c.of+" recv per call", rt.Num("exclusive_per_call", r), c.recv/c.recvCalls)
	}
	// Top 2.
	res, err := Regions(tr, RegionsOptions{Top: 2})
	if err != nil {
		t.Fatal(err)
	}
	if rt := mustTable(t, res, "regions"); rt.NumRows() != 2 || res.Params["top"] != "2" {
		t.Errorf("top 2: %d rows, param %q", rt.NumRows(), res.Params["top"])
	}
	// A leaf as parent: only its self row, 100%.
	res, err = Regions(tr, RegionsOptions{Children: hMain + "  =>  " + hWork})
	if err != nil {
		t.Fatal(err)
	}
	ch := mustTable(t, res, "children")
	if ch.NumRows() != 1 || res.Params["children"] != hMain+" => "+hWork {
		t.Fatalf("leaf children %d rows, param %q", ch.NumRows(), res.Params["children"])
	}
	near(t, "leaf self", ch.Num("percent", 0), 100)
}

// TestRegionsCPI: the children of .TAU application on tau-cpi-mpi are
// Hatchet's 7, and with the root's own exclusive share they sum to 100%.
func TestRegionsCPI(t *testing.T) {
	tr := readReal(t, cpiMPI)
	for _, of := range []string{"mean", "total", "0.0.0", "2"} {
		res, err := Regions(tr, RegionsOptions{Of: of})
		if err != nil {
			t.Fatal(err)
		}
		ch := mustTable(t, res, "children")
		if ch.NumRows() != 8 {
			t.Fatalf("%s: %d children rows, want self + 7", of, ch.NumRows())
		}
		var sum float64
		for i := 0; i < ch.NumRows(); i++ {
			sum += ch.Num("percent", i)
		}
		near(t, of+" children sum", sum, 100)
	}
	// Rank 0: .TAU application inclusive 51781 (Hatchet), 100% of itself.
	res, err := Regions(tr, RegionsOptions{Of: "0.0.0", Inclusive: true})
	if err != nil {
		t.Fatal(err)
	}
	rt := mustTable(t, res, "regions")
	if rt.Text("region", 0) != ".TAU application" {
		t.Errorf("top inclusive %q", rt.Text("region", 0))
	}
	near(t, "root incl", rt.Num("inclusive", 0), 51781)
	near(t, "root incl %", rt.Num("inclusive_percent", 0), 100)
	near(t, "root excl", rt.Num("exclusive", 0), 449)
}

// TestRegionsPartialTree: without a complete tree and without a node, no
// children table; naming a node lists its children.
func TestRegionsPartialTree(t *testing.T) {
	tr := readReal(t, ompPPK)
	res, err := Regions(tr, RegionsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Table("children") != nil || res.Params["children"] != "none" {
		t.Errorf("children table on a partial tree: %v", res.Params)
	}
	res, err = Regions(tr, RegionsOptions{Children: ".TAU application"})
	if err != nil {
		t.Fatal(err)
	}
	if ch := mustTable(t, res, "children"); ch.NumRows() < 2 {
		t.Errorf("children of .TAU application: %d rows", ch.NumRows())
	}
}

func TestRegionsBadOptions(t *testing.T) {
	tr := handTrial(t)
	_, err := Regions(tr, RegionsOptions{Of: "9.0.0"})
	wantErr(t, "unknown thread", err, "9.0.0", "0.0.0", "1.0.1")
	_, err = Regions(tr, RegionsOptions{Of: "7"})
	wantErr(t, "unknown process", err, "process")
	_, err = Regions(tr, RegionsOptions{Of: "median"})
	wantErr(t, "unknown scope", err, "median")
	_, err = Regions(tr, RegionsOptions{Children: "nosuch"})
	wantErr(t, "unknown node", err, "nosuch")
	_, err = Regions(tr, RegionsOptions{Metric: "Time"})
	wantErr(t, "unknown metric", err, `"Time"`, `"TIME"`)
	real := readReal(t, cpiMPI)
	_, err = Regions(real, RegionsOptions{Of: "9.0.0"})
	wantErr(t, "unknown thread on cpi", err, "9.0.0")
}

func TestRegionsCallgraphByHand(t *testing.T) {
	tr := handTrial(t)
	res, err := Regions(tr, RegionsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cg := mustTable(t, res, "callgraph")
	type want struct {
		node, parent, region string
		incl, depth          float64
	}
	// Mean over threads, absent as 0; children by descending value, ties in
	// trial order.
	wants := []want{
		{hMain, "", hMain, 100, 0},
		{hMain + " => " + hWork, hMain, hWork, 25, 1},
		{hMain + " => " + hRecv, hMain, hRecv, 25, 1},
		{hMain + " => " + hParallel, hMain, hParallel, 7.5, 1},
		{hMain + " => " + hWrite, hMain, hWrite, 1.25, 1},
	}
	if cg.NumRows() != len(wants) {
		t.Fatalf("callgraph: %d rows, want %d", cg.NumRows(), len(wants))
	}
	for i, w := range wants {
		if cg.Text("node", i) != w.node || cg.Text("parent", i) != w.parent || cg.Text("region", i) != w.region {
			t.Errorf("row %d: %s / %s / %s, want %+v", i, cg.Text("node", i), cg.Text("parent", i), cg.Text("region", i), w)
		}
		near(t, w.node+" inclusive", cg.Num("inclusive", i), w.incl)
		near(t, w.node+" depth", cg.Num("depth", i), w.depth)
	}
	if cg.Col("inclusive").Unit != "us" {
		t.Errorf("unit %q", cg.Col("inclusive").Unit)
	}
	if _, ok := res.Params["callgraph_nodes"]; ok || !strings.Contains(cg.Title, "all 5 nodes") {
		t.Errorf("params %v, title %q", res.Params, cg.Title)
	}

	// One thread: parallel is absent on 1.0.1 and left out.
	res, err = Regions(tr, RegionsOptions{Of: "1.0.1"})
	if err != nil {
		t.Fatal(err)
	}
	cg = mustTable(t, res, "callgraph")
	if cg.NumRows() != 4 || cg.Find("node", hMain+" => "+hParallel) >= 0 {
		t.Errorf("1.0.1 callgraph: %d rows", cg.NumRows())
	}
	near(t, "1.0.1 recv", cg.Num("inclusive", row(t, cg, "node", hMain+" => "+hRecv)), 40)
	if cg.Text("node", 1) != hMain+" => "+hRecv {
		t.Errorf("1.0.1: first child %q, want MPI_Recv (40)", cg.Text("node", 1))
	}
}

func TestRegionsCallgraphFlatAndCap(t *testing.T) {
	flat := spec{name: "flat", threads: threads("0.0.0")}
	flat.recs = []rec{{node: "main", excl: 1, incl: 2, calls: 1}, {node: "work", excl: 1, incl: 1, calls: 1}}
	res, err := Regions(build(t, flat), RegionsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Table("callgraph") != nil {
		t.Error("callgraph table for a trial without callpaths")
	}

	wide := spec{name: "wide", threads: threads("0.0.0")}
	n := CallgraphNodes + 50
	wide.recs = []rec{{node: "main", excl: 1, incl: float64(n + 1), calls: 1}}
	for i := 0; i < n; i++ {
		wide.recs = append(wide.recs, rec{node: fmt.Sprintf("main => f%04d", i), excl: 1, incl: 1, calls: 1, alsoFlatOfLeaf: true})
	}
	res, err = Regions(build(t, wide), RegionsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cg := mustTable(t, res, "callgraph")
	if cg.NumRows() != CallgraphNodes || res.Params["callgraph_nodes"] != "2000" {
		t.Errorf("capped callgraph: %d rows, params %v", cg.NumRows(), res.Params)
	}
	if !strings.Contains(cg.Title, "first 2000 of 2051 nodes") {
		t.Errorf("title %q", cg.Title)
	}
}
