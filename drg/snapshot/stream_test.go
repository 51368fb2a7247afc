package snapshot

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

func TestIDMap(t *testing.T) {
	var m idMap
	want := map[int]int{}
	set := func(id, v int) {
		m.set(id, v)
		want[id] = v
	}
	set(0, 10)
	set(5000, 11)  // scattered: kept in the map
	set(1<<30, 12) // huge: kept in the map, no allocation of its size
	for id := 1; id < 6000; id++ {
		if id != 5000 {
			set(id, 100+id) // the dense part grows past 5000 and takes it over
		}
	}
	set(7, 13) // redefinition
	if len(m.dense) > 2*m.n+1025 {
		t.Errorf("dense part of %d for %d definitions", len(m.dense), m.n)
	}
	for id, v := range want {
		if got, ok := m.get(id); !ok || got != v {
			t.Errorf("get(%d) = %d %v, want %d", id, got, ok, v)
		}
	}
	for _, id := range []int{6000, 1 << 20, 1<<30 + 1} {
		if _, ok := m.get(id); ok {
			t.Errorf("get(%d) defined", id)
		}
	}
}

// TestUnterminatedLine: the last data line may end at the end tag.
func TestUnterminatedLine(t *testing.T) {
	tr, err := Decode(strings.NewReader(smallDoc("0 1 0 5 7", "0 1 2 2 2 4")), "u.xml")
	if err != nil {
		t.Fatal(err)
	}
	if tr.Values[0].Inclusive[0] != 7 || tr.CounterValues[0].SumSquares != 4 {
		t.Errorf("values %v %+v", tr.Values[0].Inclusive, tr.CounterValues[0])
	}
	_, err = Decode(strings.NewReader(smallDoc(okInterval+"0 1 0 5 x", okAtomic)), "u.xml")
	errorLine(t, err, 13, `bad number "x"`)
}

// TestDerivedWarnings: unknown derived entities and derived lines for
// events no thread measured are reported, not fatal.
func TestDerivedWarnings(t *testing.T) {
	doc := `<profile_xml>
<definitions thread="*">
<metric id="0"><name>TIME</name></metric>
<event id="0"><name>main</name><group>TAU_DEFAULT</group></event>
<event id="1"><name>never</name><group>TAU_USER</group></event>
<userevent id="0"><name>ev</name></userevent>
</definitions>
</profile_xml>
<profile_xml>
<thread id="0.0.0.1" node="0" context="0" thread="0"></thread>
<profile thread="0.0.0.1"><timestamp>1</timestamp>
<interval_data metrics="0 ">
0 1 0 5 5
</interval_data>
<atomic_data>
0 2 3 1 2 10
</atomic_data>
</profile>
</profile_xml>
<profile_xml>
<derivedentity id="median"></derivedentity>
<derivedprofile derivedentity="median">
<derivedinterval_data metrics="0 ">
0 1 0 5 5
</derivedinterval_data>
</derivedprofile>
</profile_xml>
<profile_xml>
<max_no_null_derivedprofile>
<derivedinterval_data metrics="0 ">
0 1 0 5 5
1 1 0 9 9
</derivedinterval_data>
<derivedatomic_data>
0 2 3 1 2 10
</derivedatomic_data>
</max_no_null_derivedprofile>
</profile_xml>`
	tr, d, err := DecodeDerived(bytes.NewReader([]byte(doc)), "w.xml")
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Warnings) != 2 ||
		!strings.Contains(tr.Warnings[0], `w.xml:22: derived entity "median" unknown`) ||
		!strings.Contains(tr.Warnings[1], `1 derived lines name events no thread measured, ignored (first: "never")`) {
		t.Errorf("warnings %q", tr.Warnings)
	}
	if len(d.Threads) != 1 || d.Threads[0] != drg.Max || d.Stats.Inclusive[0].Max[0] != 5 {
		t.Errorf("derived %+v", d)
	}
	if got := d.Counters[drg.Max][0]; got != (drg.CounterValue{NumEvents: 2, Max: 3, Min: 1, Mean: 2, SumSquares: 10}) {
		t.Errorf("derived counter %+v", got)
	}
	if d.Has(drg.Total) {
		t.Error("Has(Total)")
	}
}

// TestSparseEventsStoredSparsely: a small file of 3000 threads and 3000
// events in which one thread times every event (it asked for a 5.92 GB
// dense trial, and was refused as out of proportion) is stored sparsely:
// 3000 cells, each with the value of its line.
func TestSparseEventsStoredSparsely(t *testing.T) {
	var w strings.Builder
	w.WriteString("<profile_xml>\n<definitions thread=\"*\">\n")
	for m := range 40 {
		fmt.Fprintf(&w, "<metric id=\"%d\"><name>M%d</name></metric>\n", m, m)
	}
	for e := range 3000 {
		fmt.Fprintf(&w, "<event id=\"%d\"><name>e%d</name></event>\n", e, e)
	}
	w.WriteString("</definitions>\n")
	for th := range 3000 {
		fmt.Fprintf(&w, "<thread id=\"%d\" node=\"%d\" context=\"0\" thread=\"0\"/>\n", th, th)
	}
	w.WriteString("<profile thread=\"0\"><timestamp>1</timestamp><interval_data metrics=\"0 \">\n")
	for e := range 3000 {
		fmt.Fprintf(&w, "%d 1 0 %d %d\n", e, e, 2*e)
	}
	w.WriteString("</interval_data></profile></profile_xml>\n")
	tr, err := Decode(strings.NewReader(w.String()), "big.xml")
	if err != nil {
		t.Fatal(err)
	}
	if !tr.IsSparse() || tr.PresentCells() != 3000 || len(tr.Threads) != 3000 || len(tr.Nodes) != 3000 {
		t.Fatalf("sparse %v, %d cells, %d threads, %d nodes; want a sparse trial of 3000 cells", tr.IsSparse(), tr.PresentCells(), len(tr.Threads), len(tr.Nodes))
	}
	m := tr.MetricIndex("M0")
	for _, e := range []int{0, 1, 1234, 2999} {
		n := nodeIndex(t, tr, fmt.Sprintf("e%d", e))
		ex, ok := tr.Col(drg.ColExclusive, m).At(n, 0)
		in, _ := tr.Col(drg.ColInclusive, m).At(n, 0)
		if !ok || ex != float64(e) || in != float64(2*e) || tr.Has(n, 1) {
			t.Errorf("e%d: thread 0 (%v, %g, %g), thread 1 %v; want (true, %d, %d), false", e, ok, ex, in, tr.Has(n, 1), e, 2*e)
		}
	}
}

// TestOutOfProportion: a small file that asks for huge dense user-event
// columns (which stay dense) is refused instead of exhausting memory.
func TestOutOfProportion(t *testing.T) {
	var w strings.Builder
	w.WriteString("<profile_xml>\n<definitions thread=\"*\">\n<metric id=\"0\"><name>TIME</name></metric>\n<event id=\"0\"><name>main</name></event>\n")
	for u := range 6000 {
		fmt.Fprintf(&w, "<userevent id=\"%d\"><name>u%d</name></userevent>\n", u, u)
	}
	w.WriteString("</definitions>\n")
	for th := range 6000 {
		fmt.Fprintf(&w, "<thread id=\"%d\" node=\"%d\" context=\"0\" thread=\"0\"/>\n", th, th)
	}
	w.WriteString("<profile thread=\"0\"><timestamp>1</timestamp><interval_data metrics=\"0 \">\n0 1 0 1 1\n</interval_data><atomic_data>\n")
	for u := range 6000 {
		fmt.Fprintf(&w, "%d 1 1 1 1 1\n", u)
	}
	w.WriteString("</atomic_data></profile></profile_xml>\n")
	_, err := Decode(strings.NewReader(w.String()), "big.xml")
	if err == nil || !strings.Contains(err.Error(), "big.xml: the trial would need 1.73 GB for 6000 threads") || !strings.Contains(err.Error(), "refused as malformed") {
		t.Errorf("error %v", err)
	}
}
