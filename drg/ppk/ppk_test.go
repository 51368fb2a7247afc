package ppk

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"io"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/internal/realdata"
)

// dataRel is the folder of the real packed profiles under the shared
// real-data folder (internal/realdata).
const dataRel = "UO-OACISS-tau2/perfexplorer"

// dataDir returns the folder of the real packed profiles, skipping t when
// the shared data folder does not hold it.
func dataDir(t testing.TB) string {
	t.Helper()
	return realdata.Real(t, dataRel)
}

// realFiles lists the real packed profiles in dataRel with the facts
// SOURCES.md (rows 6-8) and ppk.md §5 give about them.
var realFiles = []struct {
	path      string
	threads   int
	metrics   []string
	nodes     int // the "timers" column: distinct names, flat and callpath
	callpaths int // the count in parentheses
	counters  int // user events
	meta      int // trial metadata keys after Finish
	h         int // the header block size H
}{
	{"StackedBarChart/2.ppk", 2, []string{"Time"}, 10, 0, 3, 23, 1028},
	{"StackedBarChart/4.ppk", 4, []string{"Time"}, 10, 0, 3, 23, 1218},
	{"StackedBarChart/6.ppk", 6, []string{"Time"}, 10, 0, 3, 23, 1408},
	{"StackedBarChart/8.ppk", 8, []string{"Time"}, 10, 0, 3, 23, 1598},
	{"HeatMapSamples/matmult.ppk", 24, []string{"TIME"}, 51, 19, 0, 133, 4711},
	{"HardwareCounterBasicAnalysis/xgc-nosamples.ppk", 16,
		[]string{"PAPI_FP_INS", "PAPI_TOT_CYC", "PAPI_L1_DCM", "PAPI_BR_MSP", "PAPI_TOT_INS"}, 42, 0, 4, 50, 4642},
}

// readFile returns a test file's bytes.
func readFile(t testing.TB, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dataDir(t), rel))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// gunzip returns the decompressed payload of a gzip file.
func gunzip(t testing.TB, b []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// decodeBytes decodes b under the given file name.
func decodeBytes(b []byte, name string) (*drg.Trial, error) {
	return Decode(bytes.NewReader(b), name)
}

// cell returns the index of (node name, thread) in t's value columns.
func cell(t *testing.T, tr *drg.Trial, node string, th int) int {
	t.Helper()
	n := tr.NodeIndex(node)
	if n < 0 {
		t.Fatalf("no node %q", node)
	}
	return tr.Cell(n, th)
}

// counterValue returns the value of user event name on thread th.
func counterValue(t *testing.T, tr *drg.Trial, name string, th int) (drg.CounterValue, bool) {
	t.Helper()
	for i, c := range tr.Counters {
		if c.Name == name {
			k := i*len(tr.Threads) + th
			return tr.CounterValues[k], tr.CounterPresent.Get(k)
		}
	}
	t.Fatalf("no counter %q", name)
	return drg.CounterValue{}, false
}

// TestTestVector checks 2.ppk against the decoded sample of ppk.md §5.
func TestTestVector(t *testing.T) {
	raw := readFile(t, "StackedBarChart/2.ppk")
	sum := sha256.Sum256(raw)
	if got := hex.EncodeToString(sum[:]); got != "94e5593b98533f11f1a58837e525a09955a46ab704ec181f8ef0fc9469d50807" {
		t.Fatalf("2.ppk sha256 %s: not the file of ppk.md §5", got)
	}
	if len(raw) != 1076 || !bytes.Equal(raw[:10], []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0}) {
		t.Fatalf("size %d, gzip header % x", len(raw), raw[:10])
	}
	payload := gunzip(t, raw)
	first32, _ := hex.DecodeString(strings.ReplaceAll(
		"00 50 00 50 00 4b 00 00 00 02 00 00 00 01 00 00 04 04 00 00 00 00 00 00 00 15 00 09 43 50 55 20", " ", ""))
	if len(payload) != 2503 || !bytes.Equal(payload[:32], first32) {
		t.Fatalf("payload size %d, first bytes % x", len(payload), payload[:32])
	}

	tr, err := Reader{Path: filepath.Join(dataDir(t), "StackedBarChart/2.ppk")}.Read()
	if err != nil {
		t.Fatal(err)
	}
	if tr.Name != "2" || tr.Source != (drg.Source{Format: "ppk", Path: filepath.Join(dataDir(t), "StackedBarChart/2.ppk"), DataSource: 0}) {
		t.Errorf("name %q source %+v", tr.Name, tr.Source)
	}
	if len(tr.Warnings) != 0 {
		t.Errorf("warnings %q", tr.Warnings)
	}

	// Trial metadata: the 21 pairs of the header, plus File Type Index/Name
	// that drg.Builder.Finish sets for Format "ppk".
	if len(tr.Metadata) != 21+2 {
		t.Errorf("%d trial metadata keys, want 23", len(tr.Metadata))
	}
	for k, v := range map[string]string{
		"CPU Cores":       "2",
		"TAU Version":     "2.18.1-cvs",
		"UTC Time":        "2009-04-07T20:48:56Z",
		"username":        "khuck",
		"File Type Index": "0",
		"File Type Name":  "ParaProf Packed Profile",
	} {
		if tr.Metadata[k] != v {
			t.Errorf("metadata %q = %q, want %q", k, tr.Metadata[k], v)
		}
	}

	// Threads and their metadata.
	if len(tr.Threads) != 2 || tr.ThreadIndex(0, 0, 0) != 0 || tr.ThreadIndex(1, 0, 0) != 1 {
		t.Fatalf("threads %+v", tr.Threads)
	}
	want0 := map[string]string{"Starting Timestamp": "1239137334573636", "Timestamp": "1239137336741464", "pid": "23323"}
	if !maps.Equal(tr.Threads[0].Metadata, want0) {
		t.Errorf("thread 0 metadata %v, want %v", tr.Threads[0].Metadata, want0)
	}
	if k := slices.Sorted(maps.Keys(tr.Threads[1].Metadata)); !slices.Equal(k, []string{"Starting Timestamp", "Timestamp", "pid"}) {
		t.Errorf("thread 1 metadata keys %v", k)
	}

	// Metric, groups, functions.
	if len(tr.Metrics) != 1 || tr.Metrics[0].Name != "Time" {
		t.Errorf("metrics %+v", tr.Metrics)
	}
	wantNodes := []string{"MPI_Barrier()", "MPI_Bcast()", "MPI_Comm_rank()", "MPI_Comm_size()",
		"MPI_Finalize()", "MPI_Init()", "MPI_Recv()", "MPI_Send()",
		"int main(int, char **) C [{ring.c} {46,1}-{56,1}]", "void func(int, int) C [{ring.c} {7,1}-{44,1}]"}
	var names []string
	for _, n := range tr.Nodes {
		names = append(names, n.Name)
	}
	if !slices.Equal(names, wantNodes) {
		t.Errorf("nodes %q", names)
	}
	groups := map[string]bool{}
	for i, r := range tr.Regions {
		want := "MPI"
		switch {
		case strings.HasPrefix(r.Name, "int main"):
			want = "TAU_DEFAULT"
		case strings.HasPrefix(r.Name, "void func"):
			want = "COMPUTATIONOMPUTATION" // sic, as in the file
		}
		if !slices.Equal(r.Groups, []string{want}) {
			t.Errorf("region %d %q groups %q, want [%s]", i, r.Name, r.Groups, want)
		}
		for _, g := range r.Groups {
			groups[g] = true
		}
	}
	if g := slices.Sorted(maps.Keys(groups)); !slices.Equal(g, []string{"COMPUTATIONOMPUTATION", "MPI", "TAU_DEFAULT"}) {
		t.Errorf("groups %q", g)
	}
	if r := tr.Regions[tr.RegionIndex(wantNodes[8])]; r.ShortName != "int main(int, char **) C" || r.SourceFile != "ring.c" || r.LineStart != 46 || r.LineEnd != 56 {
		t.Errorf("main region %+v", r)
	}

	// Thread (0,0,0): MPI_Barrier() and main.
	for _, c := range []struct {
		node                     string
		calls, subrs, excl, incl float64
	}{
		{"MPI_Barrier()", 1, 0, 35, 35},
		{wantNodes[8], 1, 5, 125, 2150087},
		{wantNodes[9], 1, 11, 1000134, 1000273},
	} {
		k := cell(t, tr, c.node, 0)
		got := [4]float64{tr.Calls[k], tr.Subroutines[k], tr.Values[0].Exclusive[k], tr.Values[0].Inclusive[k]}
		if want := [4]float64{c.calls, c.subrs, c.excl, c.incl}; got != want || !tr.Present.Get(k) {
			t.Errorf("thread 0 %s: %v, want %v", c.node, got, want)
		}
	}
	// Every function has a profile on both threads.
	if n := tr.Present.Count(0, tr.Present.Len()); n != 20 {
		t.Errorf("%d present cells, want 20", n)
	}

	// User events, and thread (0,0,0)'s values (MIN comes before MAX).
	var ue []string
	for _, c := range tr.Counters {
		ue = append(ue, c.Name)
	}
	if !slices.Equal(ue, []string{"Message size for broadcast", "Message size received from all nodes", "Message size sent to all nodes"}) {
		t.Errorf("user events %q", ue)
	}
	for i, want := range []drg.CounterValue{
		{NumEvents: 1, Min: 40, Max: 40, Mean: 40, SumSquares: 1600},
		{NumEvents: 3, Min: 40, Max: 40, Mean: 40, SumSquares: 4800},
		{NumEvents: 6, Min: 40, Max: 80, Mean: 60, SumSquares: 24000},
	} {
		got, ok := counterValue(t, tr, ue[i], 0)
		if !ok || got != want {
			t.Errorf("thread 0 %q = %+v (present %v), want %+v", ue[i], got, ok, want)
		}
	}
}

// TestTestVectorOffsets checks the section offsets of ppk.md §5 (metrics
// @1046, groups @1056, functions @1101, user events @1397, threads @1499)
// by breaking the count at each one and reading the offset in the error.
func TestTestVectorOffsets(t *testing.T) {
	payload := gunzip(t, readFile(t, "StackedBarChart/2.ppk"))
	for _, c := range []struct {
		off  int
		what string
	}{{1046, "metric"}, {1056, "group"}, {1101, "function"}, {1397, "user event"}, {1499, "thread"}} {
		b := slices.Clone(payload)
		binary.BigEndian.PutUint32(b[c.off:], 0xFFFFFFFF)
		_, err := decodeBytes(b, "2.ppk")
		want := "2.ppk: offset " + strconv.Itoa(c.off) + ": negative " + c.what + " count -1"
		if err == nil || err.Error() != want {
			t.Errorf("got %v, want %q", err, want)
		}
	}
	p, err := parse(payload, "2.ppk")
	if err != nil {
		t.Fatal(err)
	}
	if p.threadsAt != 1499 || p.end != 2503 {
		t.Errorf("threads at %d, end %d", p.threadsAt, p.end)
	}
}

// TestRealFiles checks every real file against SOURCES.md and ppk.md.
func TestRealFiles(t *testing.T) {
	for _, f := range realFiles {
		t.Run(f.path, func(t *testing.T) {
			raw := readFile(t, f.path)
			payload := gunzip(t, raw)
			if h := int(binary.BigEndian.Uint32(payload[14:])); h != f.h {
				t.Errorf("H = %d, want %d", h, f.h)
			}
			tr, err := Reader{Path: filepath.Join(dataDir(t), f.path)}.Read()
			if err != nil {
				t.Fatal(err)
			}
			base := filepath.Base(f.path)
			if tr.Name != strings.TrimSuffix(base, ".ppk") {
				t.Errorf("name %q", tr.Name)
			}
			if len(tr.Threads) != f.threads {
				t.Errorf("%d threads, want %d", len(tr.Threads), f.threads)
			}
			var ms []string
			for _, m := range tr.Metrics {
				ms = append(ms, m.Name)
			}
			if !slices.Equal(ms, f.metrics) {
				t.Errorf("metrics %q, want %q", ms, f.metrics)
			}
			cp := 0
			for _, n := range tr.Nodes {
				if !n.IsFlat() {
					cp++
				}
			}
			if len(tr.Nodes) != f.nodes || cp != f.callpaths {
				t.Errorf("%d nodes (%d callpaths), want %d (%d)", len(tr.Nodes), cp, f.nodes, f.callpaths)
			}
			if len(tr.Counters) != f.counters {
				t.Errorf("%d counters, want %d", len(tr.Counters), f.counters)
			}
			if len(tr.Metadata) != f.meta || tr.Metadata["File Type Index"] != "0" {
				t.Errorf("%d metadata keys (File Type Index %q), want %d", len(tr.Metadata), tr.Metadata["File Type Index"], f.meta)
			}
			if len(tr.Warnings) != 0 {
				t.Errorf("warnings %q", tr.Warnings)
			}
			// The raw payload decodes to the same trial as the gzip file.
			tr2, err := decodeBytes(payload, filepath.Join(dataDir(t), f.path))
			if err != nil {
				t.Fatal(err)
			}
			if !sameValues(tr, tr2) {
				t.Error("raw payload decodes differently from the gzip file")
			}
		})
	}
}

// TestMatmultDetails checks the parts of matmult.ppk that exercise the
// callpath and derived-function handling.
func TestMatmultDetails(t *testing.T) {
	tr, err := Reader{Path: filepath.Join(dataDir(t), "HeatMapSamples/matmult.ppk")}.Read()
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Regions) != 51-19 {
		t.Errorf("%d regions, want 32", len(tr.Regions))
	}
	derived := 0
	for _, r := range tr.Regions {
		if r.Derived() {
			derived++
			if !strings.HasPrefix(r.Name, "[SUMMARY] ") {
				t.Errorf("derived region %q", r.Name)
			}
		}
	}
	if derived != 1 {
		t.Errorf("%d derived regions, want 1 [SUMMARY]", derived)
	}
	if tr.Metadata["File Type Name"] != "ParaProf Packed Profile" {
		t.Errorf("File Type Name %q", tr.Metadata["File Type Name"])
	}
	for i, th := range tr.Threads {
		if th.Node != 0 || th.Context != 0 || th.Thread != i {
			t.Fatalf("thread %d is %d.%d.%d", i, th.Node, th.Context, th.Thread)
		}
	}
}

// TestHandMade decodes a profile written by the test encoder, raw and gzip.
func TestHandMade(t *testing.T) {
	raw := handMade().encode()
	for _, c := range []struct {
		name string
		data []byte
	}{{"hand.ppk", raw}, {"hand-gz.ppk", gzipBytes(raw)}} {
		t.Run(c.name, func(t *testing.T) {
			tr, err := decodeBytes(c.data, c.name)
			if err != nil {
				t.Fatal(err)
			}
			checkHandMade(t, tr)
			if tr.Name != strings.TrimSuffix(c.name, ".ppk") {
				t.Errorf("name %q", tr.Name)
			}
		})
	}
}

func checkHandMade(t *testing.T, tr *drg.Trial) {
	t.Helper()
	if len(tr.Warnings) != 0 {
		t.Errorf("warnings %q", tr.Warnings)
	}
	if tr.Metadata["Application"] != "hand" || tr.Metadata["Note"] != "\u00e9\U0001F600\x00" ||
		tr.Metadata["File Type Index"] != "0" || len(tr.Metadata) != 4 {
		t.Errorf("trial metadata %q", tr.Metadata)
	}
	// Three threads, sorted; 2.0.0 has metadata only.
	if len(tr.Threads) != 3 {
		t.Fatalf("threads %+v", tr.Threads)
	}
	for i, want := range []map[string]string{
		{"pid": "100", "Hostname": "a"}, {"pid": "101"}, {"pid": "102"},
	} {
		if th := tr.Threads[i]; th.Node != i || !maps.Equal(th.Metadata, want) {
			t.Errorf("thread %d: %d.%d.%d %v, want %v", i, th.Node, th.Context, th.Thread, th.Metadata, want)
		}
	}
	if ms := []string{tr.Metrics[0].Name, tr.Metrics[1].Name}; len(tr.Metrics) != 2 || ms[0] != "TIME" || ms[1] != "PAPI_FP_INS" {
		t.Errorf("metrics %+v", tr.Metrics)
	}
	// Nodes: the callpath, with its non-BMP character and NUL intact, is a
	// child of main and belongs to the leaf's region.
	if len(tr.Nodes) != 4 {
		t.Fatalf("nodes %+v", tr.Nodes)
	}
	cp := tr.NodeIndex(handCallpath)
	if cp < 0 {
		t.Fatalf("no node %q", handCallpath)
	}
	n := tr.Nodes[cp]
	if n.Parent != tr.NodeIndex(handMain) || tr.Regions[n.Region].Name != handLeaf || n.Depth != 1 {
		t.Errorf("callpath node %+v", n)
	}
	for name, want := range map[string][]string{handMain: {"TAU_DEFAULT"}, handLeaf: {"TAU_USER"}, handSend: {"MPI"}} {
		r := tr.RegionIndex(name)
		if r < 0 || !slices.Equal(tr.Regions[r].Groups, want) {
			t.Errorf("region %q (%d) groups, want %q", name, r, want)
		}
	}
	// Values: thread 0 has main, leaf and callpath; thread 1 main and send.
	type v struct{ calls, subrs, e0, i0, e1, i1 float64 }
	get := func(node string, th int) (v, bool) {
		k := cell(t, tr, node, th)
		return v{tr.Calls[k], tr.Subroutines[k], tr.Values[0].Exclusive[k], tr.Values[0].Inclusive[k],
			tr.Values[1].Exclusive[k], tr.Values[1].Inclusive[k]}, tr.Present.Get(k)
	}
	for _, c := range []struct {
		node    string
		th      int
		present bool
		want    v
	}{
		{handMain, 0, true, v{1, 1, 5, 50, 500, 5000}},
		{handLeaf, 0, true, v{3, 0, 45, 45, 4500, 4500}},
		{handCallpath, 0, true, v{3, 0, 45, 45, 4500, 4500}},
		{handSend, 0, false, v{}},
		{handMain, 1, true, v{1, 2, 10, 100, 1000, 2000}},
		{handSend, 1, true, v{2, 0, 90, 90, 0, 0}},
		{handLeaf, 1, false, v{}},
		{handMain, 2, false, v{}},
	} {
		got, ok := get(c.node, c.th)
		if got != c.want || ok != c.present {
			t.Errorf("%q thread %d: %+v present %v, want %+v %v", c.node, c.th, got, ok, c.want, c.present)
		}
	}
	// User events: the context event is tied to main's node.
	if len(tr.Counters) != 2 {
		t.Fatalf("counters %+v", tr.Counters)
	}
	ctx := tr.Counters[0]
	if ctx.Name != handContext || ctx.Event != "Bytes" || ctx.Context != handMain || ctx.Node != tr.NodeIndex(handMain) {
		t.Errorf("context counter %+v", ctx)
	}
	for _, c := range []struct {
		name    string
		th      int
		present bool
		want    drg.CounterValue
	}{
		{handContext, 0, true, drg.CounterValue{NumEvents: 1, Min: 4, Max: 4, Mean: 4, SumSquares: 16}},
		{handEvent, 0, true, drg.CounterValue{NumEvents: 3, Min: 1, Max: 3, Mean: 2, SumSquares: 14}},
		{handEvent, 1, true, drg.CounterValue{NumEvents: 2, Min: 8, Max: 16, Mean: 12, SumSquares: 320}},
		{handContext, 1, false, drg.CounterValue{}},
	} {
		got, ok := counterValue(t, tr, c.name, c.th)
		if got != c.want || ok != c.present {
			t.Errorf("%q thread %d: %+v present %v, want %+v %v", c.name, c.th, got, ok, c.want, c.present)
		}
	}
}

// TestVersion1 checks that a version-1 file's header block is skipped.
func TestVersion1(t *testing.T) {
	f := handMade()
	f.version, f.compatible = 1, 1
	f.v1Header = []byte("anything a version 1 reader skips")
	tr, err := decodeBytes(f.encode(), "v1.ppk")
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Threads) != 2 || len(tr.Threads[0].Metadata) != 0 || len(tr.Metadata) != 2 {
		t.Errorf("threads %+v metadata %q", tr.Threads, tr.Metadata)
	}
	if len(tr.Nodes) != 4 || len(tr.Counters) != 2 {
		t.Errorf("%d nodes, %d counters", len(tr.Nodes), len(tr.Counters))
	}
	// A future version that version-2 readers may read is read like 2.
	f = handMade()
	f.version, f.compatible = 3, 2
	tr, err = decodeBytes(f.encode(), "v3.ppk")
	if err != nil {
		t.Fatal(err)
	}
	checkHandMade(t, tr)
}

// TestTrailingBytes checks that bytes after the last thread are reported.
func TestTrailingBytes(t *testing.T) {
	raw := append(handMade().encode(), 0, 0, 0)
	tr, err := decodeBytes(raw, "tail.ppk")
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Warnings) != 1 || !strings.Contains(tr.Warnings[0], "3 bytes after the last thread record") {
		t.Errorf("warnings %q", tr.Warnings)
	}
}

// checkErr checks that err is an *Error naming file and an offset, and that
// its message contains each of parts.
func checkErr(t *testing.T, err error, file string, parts ...string) {
	t.Helper()
	if err == nil {
		t.Errorf("no error, want one containing %q", parts)
		return
	}
	var e *Error
	if !errors.As(err, &e) || e.Path != file {
		t.Errorf("error %v is not an *Error for %s", err, file)
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, file+": offset ") {
		t.Errorf("error %q does not start with %q", msg, file+": offset ")
	}
	for _, p := range parts {
		if !strings.Contains(msg, p) {
			t.Errorf("error %q does not contain %q", msg, p)
		}
	}
}

// TestTruncated decodes every prefix of small valid files: each must fail
// with an error naming the file and the offset, and never panic.
func TestTruncated(t *testing.T) {
	hand := handMade().encode()
	cases := []struct {
		name string
		data []byte
	}{
		{"hand.ppk", hand},
		{"hand-gz.ppk", gzipBytes(hand)},
	}
	// The test vector of ppk.md, when the shared data folder holds it.
	if p, ok := realdata.Find(dataRel + "/StackedBarChart/2.ppk"); ok {
		vector, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, struct {
			name string
			data []byte
		}{"2.ppk", vector}, struct {
			name string
			data []byte
		}{"2-raw.ppk", gunzip(t, vector)})
	}
	for _, c := range cases {
		for n := 0; n < len(c.data); n++ {
			_, err := decodeBytes(c.data[:n], c.name)
			if err == nil {
				t.Fatalf("%s cut at %d: no error", c.name, n)
			}
			checkErr(t, err, c.name)
			if n > 6 && !errors.Is(err, ErrTruncated) {
				t.Errorf("%s cut at %d: %v is not ErrTruncated", c.name, n, err)
			}
			if t.Failed() {
				t.Fatalf("%s cut at %d", c.name, n)
			}
		}
	}
	// The exact offset of a cut in the raw payload: inside the last double.
	_, err := decodeBytes(hand[:len(hand)-3], "hand.ppk")
	checkErr(t, err, "hand.ppk", "offset "+strconv.Itoa(len(hand)-84)+": unexpected end of data: user event profile count 2 needs at least 80 bytes, 77 left")
}

// TestMalformed checks the errors for corrupt fields.
func TestMalformed(t *testing.T) {
	vector := gunzip(t, readFile(t, "StackedBarChart/2.ppk"))
	put := func(off int, v uint32) []byte {
		b := slices.Clone(vector)
		binary.BigEndian.PutUint32(b[off:], v)
		return b
	}
	const (
		thread0 = 1499 + 4     // thread (0,0,0)
		fp0     = thread0 + 16 // its first function profile
		uep0    = fp0 + 4 + 10*36
	)
	for _, c := range []struct {
		name  string
		data  []byte
		parts []string
	}{
		{"bad magic", append([]byte("PK\x03\x04"), vector[4:]...), []string{"offset 0", "not a ParaProf packed profile"}},
		{"gzip of another format", gzipBytes([]byte("<?xml version='1.0'?>")), []string{"offset 0", "not a ParaProf packed profile"}},
		{"empty", nil, []string{"offset 0", "unexpected end of data reading magic"}},
		{"version 0", put(6, 0), []string{"offset 6: unsupported version 0"}},
		{"compatible 3", put(10, 3), []string{"offset 10:", "version 3 or later"}},
		{"header block too long", put(14, 0x7FFFFFFF), []string{"offset 14: unexpected end of data: header block size 2147483647, 2485 bytes left"}},
		{"negative header block", put(14, 0xFFFFFFFE), []string{"offset 14: negative header block size -2"}},
		{"header block too short", put(14, 100), []string{"runs past the end of the header block at offset 118"}},
		{"reserved size", put(18, 5000), []string{"offset 18: reserved size 5000 out of range"}},
		{"trial metadata count", put(22, 1000), []string{"offset 22: trial metadata count 1000 needs at least 4000 bytes, 1020 left in the header block"}},
		{"string length", func() []byte {
			b := slices.Clone(vector)
			binary.BigEndian.PutUint16(b[1050:], 0xFFFF) // the metric name
			return b
		}(), []string{"offset 1050:", "reading metric name (need 65537 bytes"}},
		{"negative thread count", put(1499, 0xFFFFFFFF), []string{"offset 1499: negative thread count -1"}},
		{"huge function count", put(1101, 0x7FFFFFFF), []string{"offset 1101: unexpected end of data: function count 2147483647 needs at least"}},
		{"no metric", put(1046, 0), []string{"offset 1046: no metric"}},
		{"function id", put(fp0, 77), []string{"offset " + strconv.Itoa(fp0) + ": function id 77 out of range (10 functions)"}},
		{"negative function id", put(fp0, 0xFFFFFFFF), []string{"function id -1 out of range"}},
		{"group id", put(1101+4+2+13+4, 3), []string{"offset 1124: group id 3 out of range (3 groups)"}},
		{"user event id", put(uep0, 3), []string{"offset " + strconv.Itoa(uep0) + ": user event id 3 out of range (3 user events)"}},
		{"negative samples", put(uep0+4, 0xFFFFFFFF), []string{"offset " + strconv.Itoa(uep0+4) + ": negative sample count -1"}},
		{"negative rank", put(thread0+4, 0xFFFFFFFF), []string{"offset " + strconv.Itoa(thread0+4) + ": thread rank: negative rank -1"}},
		{"duplicate thread", put(thread0+12+4+10*36+4+3*40, 0), []string{"offset 2003: thread 0.0.0 listed twice (first at offset 1503)"}},
		{"function profile count", put(fp0-4, 1000), []string{"offset " + strconv.Itoa(fp0-4) + ": unexpected end of data: function profile count 1000 needs at least 36000 bytes"}},
		{"invalid modified UTF-8", func() []byte {
			b := slices.Clone(vector)
			b[1052] = 0x80 // "Time" -> 0x80 "ime"
			return b
		}(), []string{"offset 1052: invalid modified UTF-8 in metric name", "continuation byte 0x80"}},
		{"4-byte UTF-8", func() []byte {
			b := slices.Clone(vector)
			copy(b[1052:], "\xf0\x9f\x98\x80") // standard UTF-8 for U+1F600
			return b
		}(), []string{"offset 1052: invalid modified UTF-8", "byte 0xf0 cannot occur"}},
		{"truncated modified UTF-8", func() []byte {
			b := slices.Clone(vector)
			b[1055] = 0xE2 // last byte of "Time"
			return b
		}(), []string{"offset 1055: invalid modified UTF-8", "cut short"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := decodeBytes(c.data, "bad.ppk")
			checkErr(t, err, "bad.ppk", c.parts...)
		})
	}
	// Duplicate metric names.
	f := handMade()
	f.metrics[1] = "TIME"
	_, err := decodeBytes(f.encode(), "dup.ppk")
	checkErr(t, err, "dup.ppk", `metric "TIME" listed twice`)
	// A payload larger than the limit.
	defer func(l int64) { payloadLimit = l }(payloadLimit)
	payloadLimit = 1000
	_, err = decodeBytes(readFile(t, "StackedBarChart/2.ppk"), "big.ppk")
	checkErr(t, err, "big.ppk", "offset 1000: decompressed payload larger than 1000 bytes")
}

// TestCorruptGzip checks errors from the gzip layer.
func TestCorruptGzip(t *testing.T) {
	gz := readFile(t, "StackedBarChart/2.ppk")
	b := slices.Clone(gz)
	b[len(b)-6] ^= 0xFF // the CRC-32
	_, err := decodeBytes(b, "crc.ppk")
	checkErr(t, err, "crc.ppk", "offset 2503", "gzip: invalid checksum")
	b = slices.Clone(gz)
	b[2] = 7 // compression method other than deflate
	_, err = decodeBytes(b, "hdr.ppk")
	checkErr(t, err, "hdr.ppk", "offset 0: gzip header")
	b = slices.Clone(gz)
	b[200] ^= 0x55
	_, err = decodeBytes(b, "deflate.ppk")
	checkErr(t, err, "deflate.ppk")
}

// TestHugeCountsAllocateLittle checks that a count field far larger than
// the file does not make the decoder allocate for it.
func TestHugeCountsAllocateLittle(t *testing.T) {
	vector := gunzip(t, readFile(t, "StackedBarChart/2.ppk"))
	for _, off := range []int{22, 1046, 1056, 1101, 1397, 1499} {
		b := slices.Clone(vector)
		binary.BigEndian.PutUint32(b[off:], 0x7FFFFFFF)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := decodeBytes(b, "huge.ppk")
		runtime.ReadMemStats(&after)
		checkErr(t, err, "huge.ppk", "needs at least")
		if d := after.TotalAlloc - before.TotalAlloc; d > 1<<20 {
			t.Errorf("count at %d: allocated %d bytes", off, d)
		}
	}
}

// TestReadErrors checks Reader.Read on a missing file and a directory.
func TestReadErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := (Reader{Path: filepath.Join(dir, "missing.ppk")}).Read(); err == nil || !strings.Contains(err.Error(), "missing.ppk") {
		t.Errorf("missing file: %v", err)
	}
	if _, err := (Reader{Path: dir}).Read(); err == nil || !strings.Contains(err.Error(), dir) {
		t.Errorf("directory: %v", err)
	}
}

// TestDetect checks Detect on raw, gzip and foreign heads.
func TestDetect(t *testing.T) {
	hand := handMade().encode()
	gz := writtenPPK(t) // a gzip packed profile as the writer makes it
	for _, c := range []struct {
		name string
		head []byte
		want bool
	}{
		{"raw", hand[:64], true},
		{"raw magic only", hand[:6], true},
		{"gzip ppk", gz[:512], true},
		{"whole gzip ppk", gz, true},
		{"gzip magic only", gz[:2], true},
		{"gzip header only", gz[:10], true},
		{"gzip xml", gzipBytes([]byte("<?xml version=\"1.0\"?><profile_xml>")), false},
		{"text profile", []byte("10 templated_functions_MULTI_TIME\n"), false},
		{"empty", nil, false},
		{"bad gzip method", []byte{0x1f, 0x8b, 7, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3}, false},
	} {
		if got := Detect(c.head); got != c.want {
			t.Errorf("%s: Detect = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestMUTF8 checks the modified UTF-8 decoder.
func TestMUTF8(t *testing.T) {
	for _, c := range []struct {
		in   string
		want string
	}{
		{"", ""},
		{"abc", "abc"},
		{"\xc0\x80", "\x00"},
		{"a\x00b", "a\x00b"}, // a raw 00, which Java's readUTF accepts too
		{"\xc3\xa9", "\u00e9"},
		{"\xe2\x82\xac", "\u20ac"},
		{"\xef\xbf\xbf", "\uffff"},
		{"\xed\xa0\xbd\xed\xb8\x80", "\U0001F600"},
		{"x\xed\xa0\xbd\xed\xb8\x80y", "x\U0001F600y"},
		{"\xed\xa0\xbda", "\ufffda"}, // high surrogate alone
		{"\xed\xb8\x80", "\ufffd"},   // low surrogate alone
		{"\xed\xa0\xbd", "\ufffd"},   // high surrogate at the end
		{"\xed\xa0\xbd\xed\xa0\xbd\xed\xb8\x80", "\ufffd\U0001F600"}, // two highs, one low
		{"\xc1\x81", "A"}, // overlong, accepted by Java
	} {
		got, _, err := decodeMUTF8([]byte(c.in))
		if err != nil || got != c.want {
			t.Errorf("decode % x = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	for _, c := range []struct {
		in string
		at int
	}{
		{"\x80", 0},
		{"ab\xbf", 2},
		{"\xf0\x9f\x98\x80", 0},
		{"\xff", 0},
		{"\xf8", 0},
		{"a\xc3", 1},
		{"\xe2\x82", 0},
		{"\xc3A", 1},
		{"\xe2A\xac", 1},
		{"\xe2\x82A", 2},
	} {
		if _, at, err := decodeMUTF8([]byte(c.in)); err == nil || at != c.at {
			t.Errorf("decode % x: error %v at %d, want an error at %d", c.in, err, at, c.at)
		}
	}
	// Round trip through the test encoder.
	for _, s := range []string{"plain", handLeaf, handCallpath, "\x00\x00", "\u07ff\u0800\uffff\U00010000\U0010FFFF", strings.Repeat("\u00e9\U0001F600", 1000)} {
		got, _, err := decodeMUTF8(encodeMUTF8(s))
		if err != nil || got != s {
			t.Errorf("round trip %q: %q, %v", s, got, err)
		}
	}
}

// sameValues reports whether two trials hold the same names and values.
func sameValues(a, b *drg.Trial) bool {
	if len(a.Nodes) != len(b.Nodes) || len(a.Threads) != len(b.Threads) || len(a.Counters) != len(b.Counters) ||
		!maps.Equal(a.Metadata, b.Metadata) || !slices.Equal(a.Calls, b.Calls) || !slices.Equal(a.Subroutines, b.Subroutines) ||
		!slices.Equal(a.CounterValues, b.CounterValues) {
		return false
	}
	for i := range a.Nodes {
		if a.Nodes[i] != b.Nodes[i] {
			return false
		}
	}
	for m := range a.Values {
		if !slices.Equal(a.Values[m].Inclusive, b.Values[m].Inclusive) || !slices.Equal(a.Values[m].Exclusive, b.Values[m].Exclusive) {
			return false
		}
	}
	for i := range a.Threads {
		if !maps.Equal(a.Threads[i].Metadata, b.Threads[i].Metadata) {
			return false
		}
	}
	return true
}
