package snapshot

import (
	"bytes"
	"compress/gzip"
	"errors"
	"strings"
	"testing"
)

// smallDoc returns a one-thread document with the given interval and
// atomic lines. Its lines: 2 <thread>, 4 <definitions>, 9 <profile>,
// 10 <timestamp>, 11 <interval_data>, 12 the first interval line; the
// atomic lines follow "</interval_data>" and "<atomic_data>".
func smallDoc(interval, atomic string) string {
	return `<profile_xml>
<thread id="0.0.0.1" node="0" context="0" thread="0">
</thread>
<definitions thread="0.0.0.1">
<metric id="0"><name>TIME</name></metric>
<event id="0"><name>main</name><group>TAU_DEFAULT</group></event>
<userevent id="0"><name>ev</name></userevent>
</definitions>
<profile thread="0.0.0.1">
<timestamp>1</timestamp>
<interval_data metrics="0 ">
` + interval + `</interval_data>
<atomic_data>
` + atomic + `</atomic_data>
</profile>
</profile_xml>
`
}

const (
	okInterval = "0 1 0 5 5\n"
	okAtomic   = "0 1 2 2 2 4\n"
)

func TestSmallDocReads(t *testing.T) {
	tr, err := Decode(strings.NewReader(smallDoc(okInterval, okAtomic)), "small.xml")
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Threads) != 1 || len(tr.Nodes) != 1 || len(tr.Counters) != 1 || tr.Values[0].Inclusive[0] != 5 {
		t.Errorf("trial %+v", tr)
	}
}

func TestMalformed(t *testing.T) {
	base := smallDoc(okInterval, okAtomic)
	replace := func(old, new string) string {
		if !strings.Contains(base, old) {
			t.Fatalf("%q not in the document", old)
		}
		return strings.Replace(base, old, new, 1)
	}
	cases := []struct {
		name, doc string
		line      int
		want      string
	}{
		{"too few numbers", smallDoc("0 1 0 5\n", okAtomic), 12, "interval line has 4 fields, want 5"},
		{"too many numbers on line 2", smallDoc(okInterval+"0 1 0 5 5 6\n", okAtomic), 13, "has 6 fields"},
		{"garbage number", smallDoc("0 1 0 5x 5\n", okAtomic), 12, `bad number "5x"`},
		{"NaN", smallDoc("0 1 0 NaN 5\n", okAtomic), 12, `bad number "NaN"`},
		{"INF", smallDoc("0 1 0 5 INF\n", okAtomic), 12, `bad number "INF"`},
		{"infinity", smallDoc("0 1 0 5 -Infinity\n", okAtomic), 12, "bad number"},
		{"overflow", smallDoc("0 1 0 1e999 5\n", okAtomic), 12, `number "1e999" out of range`},
		{"hexadecimal", smallDoc("0 1 0 0x1p3 5\n", okAtomic), 12, "bad number"},
		{"two dots", smallDoc("0 1 0 1.2.3 5\n", okAtomic), 12, "bad number"},
		{"unknown event id", smallDoc("7 1 0 5 5\n", okAtomic), 12, "unknown event id 7"},
		{"negative event id", smallDoc("-1 1 0 5 5\n", okAtomic), 12, "bad id"},
		{"huge event id", smallDoc("99999999999 1 0 5 5\n", okAtomic), 12, "bad id"},
		{"atomic too short", smallDoc(okInterval, "0 1 2 2 2\n"), 15, "atomic line has 5 fields, want 6"},
		{"unknown user event id", smallDoc(okInterval, "3 1 2 2 2 4\n"), 15, "unknown user event id 3"},
		{"atomic NaN", smallDoc(okInterval, "0 1 nan 2 2 4\n"), 15, "bad number"},
		{"unknown thread in profile", replace(`<profile thread="0.0.0.1">`, `<profile thread="9.9.9.9">`), 9, `unknown thread id "9.9.9.9"`},
		{"unknown thread in definitions", replace(`<definitions thread="0.0.0.1">`, `<definitions thread="x">`), 4, `unknown thread id "x"`},
		{"unknown metric id", replace(`metrics="0 "`, `metrics="0 3 "`), 11, "unknown metric id 3"},
		{"bad metric id", replace(`metrics="0 "`, `metrics="zero"`), 11, "bad id"},
		{"bad timestamp", replace(`<timestamp>1</timestamp>`, `<timestamp>x</timestamp>`), 10, "bad <timestamp>"},
		{"mismatched tag", replace("</thread>", "</threads>"), 3, "malformed XML"},
		{"unknown entity", replace("<name>main</name>", "<name>a &nbsp; b</name>"), 6, "malformed XML"},
		{"negative rank", replace(`node="0"`, `node="-1"`), 2, "<thread> node: bad id"},
		{"rank missing", replace(` thread="0">`, `>`), 2, "<thread> without thread attribute"},
		{"thread redefined", replace("</thread>\n", "</thread>\n<thread id=\"0.0.0.1\" node=\"1\" context=\"0\" thread=\"0\"></thread>\n"), 4, "given as 1.0.0 here and as 0.0.0 on line 2"},
		{"element in data", smallDoc(okInterval+"<b>1</b>\n", okAtomic), 13, "unexpected element <b> in <interval_data>"},
		{"event without id", replace(`<event id="0">`, `<event>`), 6, "<event> without id"},
		{"event without name", replace(`<name>main</name>`, ``), 6, `<event id="0"> without <name>`},
		{"interval without metrics", replace(`<interval_data metrics="0 ">`, `<interval_data>`), 11, "without metrics attribute"},
		{"attribute without name", replace("<thread id=\"0.0.0.1\" node=\"0\" context=\"0\" thread=\"0\">\n", "<thread id=\"0.0.0.1\" node=\"0\" context=\"0\" thread=\"0\">\n<metadata><attribute><value>v</value></attribute></metadata>"), 3, "without <name>"},
		{"truncated", base[:strings.Index(base, "5 5")], 12, "unexpected end of file inside <interval_data>"},
		{"extra end tag", base + "</profile_xml>\n", 19, "malformed XML: no open element for end tag </profile_xml>"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Decode(strings.NewReader(c.doc), "bad.xml")
			errorLine(t, err, c.line, c.want)
			if err != nil && !strings.HasPrefix(err.Error(), "bad.xml:") {
				t.Errorf("error %q does not name the file", err)
			}
		})
	}
}

// TestTruncatedRealFile cuts the real file at many places: each cut must
// give an error at the last line of what is left (or, cut between two
// documents, a shorter trial), never a panic.
func TestTruncatedRealFile(t *testing.T) {
	data := readFile(t, realFile(t))
	for cut := 1; cut < len(data); cut += 997 {
		prefix := data[:cut]
		_, err := Decode(bytes.NewReader(prefix), "cut.xml")
		if err == nil {
			continue
		}
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("cut at %d: error %T %v", cut, err, err)
		}
		if e.Line == 0 {
			// A prefix that ends between documents and before any thread.
			if !strings.Contains(err.Error(), "no thread") {
				t.Errorf("cut at %d: %v", cut, err)
			}
			continue
		}
		if last := bytes.Count(prefix, []byte("\n")) + 1; e.Line != last {
			t.Errorf("cut at %d: error at line %d, want %d: %v", cut, e.Line, last, err)
		}
	}
	// A cut inside the interval data of rank 3 (line 900).
	off := 0
	for range 899 {
		off += bytes.IndexByte(data[off:], '\n') + 1
	}
	_, err := Decode(bytes.NewReader(data[:off+3]), "cut.xml")
	errorLine(t, err, 900, "unexpected end of file inside <interval_data>")
}

func TestBadGzip(t *testing.T) {
	_, err := Decode(bytes.NewReader([]byte{0x1f, 0x8b, 1, 2, 3}), "bad.xml.gz")
	if err == nil || !strings.Contains(err.Error(), "bad.xml.gz: gzip") {
		t.Errorf("broken gzip header: %v", err)
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(largeStream(4, 200, 20))
	zw.Close()
	z := buf.Bytes()
	_, err = Decode(bytes.NewReader(z[:len(z)/2]), "half.xml.gz")
	var e *Error
	if !errors.As(err, &e) || e.Line == 0 || !strings.Contains(err.Error(), "unexpected EOF") {
		t.Errorf("truncated gzip: %v", err)
	}
	z[len(z)-5] ^= 0xff // the length in the trailer
	_, err = Decode(bytes.NewReader(z), "sum.xml.gz")
	if err == nil || !strings.Contains(err.Error(), "gzip") {
		t.Errorf("bad gzip trailer: %v", err)
	}
}

func TestNoThread(t *testing.T) {
	for _, doc := range []string{"", "<profile_xml></profile_xml>", "just text"} {
		_, err := Decode(strings.NewReader(doc), "empty.xml")
		if err == nil || !strings.Contains(err.Error(), "empty.xml: trial has no thread") {
			t.Errorf("%q: %v", doc, err)
		}
	}
}

func TestReaderErrors(t *testing.T) {
	if _, err := (Reader{Path: "/nonexistent/x.xml"}).Read(); err == nil {
		t.Error("no error for a missing file")
	}
	if _, err := (Reader{Path: t.TempDir()}).Read(); err == nil || !strings.Contains(err.Error(), "no snapshot.N.C.T file") {
		t.Errorf("empty directory: %v", err)
	}
}
