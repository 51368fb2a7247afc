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

// TestOutOfProportion: a small file that asks for a huge dense trial is
// refused instead of exhausting memory.
func TestOutOfProportion(t *testing.T) {
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
		fmt.Fprintf(&w, "%d 1 0 1 1\n", e)
	}
	w.WriteString("</interval_data></profile></profile_xml>\n")
	_, err := Decode(strings.NewReader(w.String()), "big.xml")
	if err == nil || !strings.Contains(err.Error(), "big.xml: the trial would need 5.92 GB for 3000 threads × 3000 events × 40 metrics") || !strings.Contains(err.Error(), "refused as malformed") {
		t.Errorf("error %v", err)
	}
}
