package snapshot

import (
	"bytes"
	"compress/gzip"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func TestCleanReader(t *testing.T) {
	in := "a\x00b\x01c\td\r\ne\x7f ü 日本 \xff \xe6\x97 \xef\xbf\xbf \xed\xa0\x80 end\xe6"
	want := "<" + rootName + ">" + "ab c\td\r\ne\x7f ü 日本 \uFFFD \uFFFD\uFFFD \uFFFD \uFFFD\uFFFD\uFFFD end\uFFFD" + "</" + rootName + ">"
	for name, r := range map[string]io.Reader{
		"whole":    strings.NewReader(in),
		"one byte": iotest.OneByteReader(strings.NewReader(in)),
		"half":     iotest.HalfReader(strings.NewReader(in)),
	} {
		got, err := io.ReadAll(newCleanReader(r))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if string(got) != want {
			t.Errorf("%s:\n got %q\nwant %q", name, got, want)
		}
		// Small reads of the output (a rune split between two calls).
		var out []byte
		cr := newCleanReader(strings.NewReader(in))
		buf := make([]byte, 1)
		for {
			n, err := cr.Read(buf)
			out = append(out, buf[:n]...)
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		if string(out) != want {
			t.Errorf("%s, one-byte output:\n got %q\nwant %q", name, out, want)
		}
	}
	// An error of the underlying reader is passed on.
	_, err := io.ReadAll(newCleanReader(iotest.ErrReader(io.ErrClosedPipe)))
	if err != io.ErrClosedPipe {
		t.Errorf("error %v", err)
	}
}

// TestNamesUTF8: names are UTF-8, whether escaped, in CDATA or raw, and
// whatever the read sizes; bytes that are not UTF-8 become U+FFFD; NUL
// bytes and CRLF line ends change neither values nor line numbers.
func TestNamesUTF8(t *testing.T) {
	doc := smallDoc(okInterval, okAtomic)
	doc = strings.Replace(doc, "<name>main</name>", "<name>Größe &lt;ü&gt; 日本 \xff</name>", 1)
	doc = strings.Replace(doc, "<name>ev</name>", "<name><![CDATA[a < b & ü]]></name>", 1)
	doc = "\x00" + strings.ReplaceAll(doc, "\n", "\r\n")
	for name, r := range map[string]io.Reader{
		"whole":    strings.NewReader(doc),
		"one byte": iotest.OneByteReader(strings.NewReader(doc)),
	} {
		tr, err := Decode(r, "utf8.xml")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := tr.Nodes[0].Name; got != "Größe <ü> 日本 \uFFFD" {
			t.Errorf("%s: node %q", name, got)
		}
		if got := tr.Counters[0].Name; got != "a < b & ü" {
			t.Errorf("%s: counter %q", name, got)
		}
		if tr.Values[0].Inclusive[0] != 5 {
			t.Errorf("%s: inclusive %v", name, tr.Values[0].Inclusive)
		}
	}
	bad := strings.Replace(doc, "0 1 0 5 5", "0 1 0 5 x", 1)
	_, err := Decode(strings.NewReader(bad), "crlf.xml")
	errorLine(t, err, 12, `bad number "x"`)
}

func TestDetect(t *testing.T) {
	gz := func(b []byte) []byte {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		zw.Write(b)
		zw.Close()
		return buf.Bytes()
	}
	real := largeStream(2, 20, 5) // a generated merged file
	snap := readFile(t, snapshotDir+"/snapshot.0.0.0")
	ppk := append([]byte{0, 'P', 0, 'P', 0, 'K', 0, 0, 0, 2}, make([]byte, 100)...)
	cases := []struct {
		name string
		head []byte
		want bool
	}{
		{"merged", real[:512], true},
		{"snapshot", snap[:512], true},
		{"gzip merged", gz(real)[:512], true},
		{"gzip header only", gz(real)[:10], true},
		{"gzip ppk", gz(ppk), false},
		{"NUL and blank first", []byte("\x00 <profile_xml>\n"), true},
		{"tenth line", []byte(strings.Repeat("\n", 9) + "<profile_xml>"), true},
		{"eleventh line", []byte(strings.Repeat("\n", 10) + "<profile_xml>"), false},
		{"text profile", []byte("23 templated_functions_MULTI_TIME\n# Name Calls Subrs Excl Incl ProfileCalls #\n"), false},
		{"other XML", []byte("<?xml version=\"1.0\"?>\n<root/>\n"), false},
		{"mid-line", []byte("x <profile_xml>\n"), false},
		{"empty", nil, false},
	}
	for _, c := range cases {
		if got := Detect(c.head); got != c.want {
			t.Errorf("%s: Detect = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestTrialName(t *testing.T) {
	cases := []struct {
		path  string
		isDir bool
		want  string
	}{
		{"a/b/tauprofile.xml", false, "tauprofile"},
		{"a/b/run-tauprofile.xml.gz", false, "run-tauprofile"},
		{"a/b/data.gz", false, "data"},
		{"a/b/snapshot.3.0.1", false, "b"},
		{"a/b/", true, "b"},
		{"a/.xml", false, ".xml"},
	}
	for _, c := range cases {
		if got := trialName(c.path, c.isDir); got != c.want {
			t.Errorf("trialName(%q) = %q, want %q", c.path, got, c.want)
		}
	}
	if _, ok := snapshotThread("snapshot.0.0.0.gz"); ok {
		t.Error("snapshot.0.0.0.gz taken for a thread file")
	}
	if id, ok := snapshotThread("snapshot.12.3.4"); !ok || id.Node != 12 || id.Context != 3 || id.Thread != 4 {
		t.Errorf("snapshot.12.3.4 = %v %v", id, ok)
	}
}
