package hpctoolkit

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// smallXML is a hand-written experiment.xml: main (id 1) with a statement
// (id 2), a loop (id 3) holding a statement (id 4), and a call site to f
// (id 5) with a statement (id 6). Metric-db columns: 0 inclusive, 1
// exclusive, in seconds.
const smallXML = `<?xml version="1.0"?>
<HPCToolkitExperiment version="2.2">
<Header n="small"><Info><NV n="kind" v="hand"/></Info></Header>
<SecCallPathProfile i="0" n="small">
<SecHeader>
<MetricDBTable>
<MetricDB i="0" n="CPUTIME (sec) (I)" t="inclusive" partner="1" db-glob="*.metric-db" db-id="0" db-num-metrics="2" db-header-sz="24"/>
<MetricDB i="1" n="CPUTIME (sec) (E)" t="exclusive" partner="0" db-glob="*.metric-db" db-id="1" db-num-metrics="2" db-header-sz="24"/>
</MetricDBTable>
<LoadModuleTable><LoadModule i="1" n="a.out"/></LoadModuleTable>
<FileTable><File i="1" n="./src/a.c"/></FileTable>
<ProcedureTable><Procedure i="1" n="main"/><Procedure i="2" n="f"/></ProcedureTable>
</SecHeader>
<SecCallPathProfileData>
<PF i="1" s="1" l="3" lm="1" f="1" n="1">
<S i="2" s="2" l="4"/>
<L i="3" s="3" l="5" f="1"><S i="4" s="4" l="6"/></L>
<C i="7" s="7" l="8"><PF i="5" s="5" l="20" lm="1" f="1" n="2"><S i="6" s="6" l="21"/></PF></C>
</PF>
</SecCallPathProfileData>
</SecCallPathProfile>
</HPCToolkitExperiment>
`

// smallValues gives per context id 1..7 the inclusive and exclusive
// seconds as hpcprof writes them: a procedure's or loop's exclusive value
// covers all statements of its body; id 7 (the call site) has a row too.
var smallValues = [][2]float64{
	{10, 6}, // 1 main: 1 (stmt 2) + 5 (loop 3) = 6
	{1, 1},  // 2 a.c:4
	{5, 5},  // 3 loop: its statement 4
	{5, 5},  // 4 a.c:6
	{4, 4},  // 5 f: its statement 6
	{4, 4},  // 6 a.c:21
	{4, 0},  // 7 call site
}

func smallDB() []byte {
	var b bytes.Buffer
	b.WriteString(metricDBMagic + "00.10b")
	binary.Write(&b, binary.BigEndian, uint32(len(smallValues)))
	binary.Write(&b, binary.BigEndian, uint32(2))
	for _, v := range smallValues {
		binary.Write(&b, binary.BigEndian, v[0])
		binary.Write(&b, binary.BigEndian, v[1])
	}
	return b.Bytes()
}

// TestSmall checks a hand-made database: node kinds and names, seconds
// turned into microseconds, and exclusive values with statements and loops
// taken out of their parents (main keeps nothing of its own: 6 − 1 − 5).
func TestSmall(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "experiment.xml"), []byte(smallXML), 0o644)
	os.WriteFile(filepath.Join(dir, "small-000000-000-a-1-0.metric-db"), smallDB(), 0o644)
	os.WriteFile(filepath.Join(dir, "small-000001-000-a-2-0.metric-db"), smallDB(), 0o644)
	tr, err := Reader{Path: dir}.Read()
	if err != nil {
		t.Fatal(err)
	}
	if tr.Metrics[0].Name != "CPUTIME (usec)" || tr.Metadata["HPCToolkit kind"] != "hand" || len(tr.Threads) != 2 {
		t.Fatalf("metrics %v metadata %v threads %v", tr.Metrics, tr.Metadata, tr.Threads)
	}
	want := map[string][2]float64{
		"main":                        {10, 0},
		"main => a.c:4":               {1, 1},
		"main => Loop@a.c:5":          {5, 0},
		"main => Loop@a.c:5 => a.c:6": {5, 5},
		"main => f":                   {4, 0},
		"main => f => a.c:21":         {4, 4},
		"f":                           {4, 0},
		"a.c:6":                       {5, 5},
	}
	for name, w := range want {
		i := tr.NodeIndex(name)
		if i < 0 {
			t.Errorf("no node %q", name)
			continue
		}
		c := tr.Cell(i, 1)
		in, ex := tr.Values[0].Inclusive[c], tr.Values[0].Exclusive[c]
		if math.Abs(in-w[0]*1e6) > 1e-6 || math.Abs(ex-w[1]*1e6) > 1e-6 {
			t.Errorf("%s: %v/%v µs, want %v/%v s", name, in, ex, w[0], w[1])
		}
	}
	// 6 contexts (main is its own flat node) and the flat nodes of the
	// other 5 regions.
	if len(tr.Nodes) != 11 || len(tr.Regions) != 6 {
		t.Errorf("%d nodes, %d regions; want 11 and 6", len(tr.Nodes), len(tr.Regions))
	}
	if r := tr.RegionIndex("Loop@a.c:5"); r < 0 || len(tr.Regions[r].Groups) != 1 || tr.Regions[r].Groups[0] != "LOOP" {
		t.Errorf("loop region: %+v", tr.Regions)
	}
}
