package hpctoolkit

import (
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// copyDB copies the cpi database to a temporary folder.
func copyDB(t *testing.T) string {
	t.Helper()
	src := otherFormats(t, "hpctoolkit-cpi-database")
	dst := t.TempDir()
	ents, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

const rank1 = "1.cpi-000001-000-a8c00270-160444-0.metric-db"

func edit(t *testing.T, path string, f func([]byte) []byte) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, f(b), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestBadDatabase refuses corrupted and truncated copies of the cpi
// database with the file at fault and the byte offset of the problem.
func TestBadDatabase(t *testing.T) {
	cases := []struct {
		what, file string
		f          func([]byte) []byte
		off        int64
	}{
		{"truncated values", rank1, func(b []byte) []byte { return b[:500] }, 500},
		{"truncated header", rank1, func(b []byte) []byte { return b[:20] }, 20},
		{"magic", rank1, func(b []byte) []byte { b[3] = 'X'; return b }, 0},
		{"endianness", rank1, func(b []byte) []byte { b[23] = 'l'; return b }, 23},
		{"too few contexts", rank1, func(b []byte) []byte { binary.BigEndian.PutUint32(b[24:], 10); return b }, 24},
		{"metric count", rank1, func(b []byte) []byte { binary.BigEndian.PutUint32(b[28:], 3); return b }, 28},
		{"NaN", rank1, func(b []byte) []byte {
			binary.BigEndian.PutUint64(b[32+8*5:], math.Float64bits(math.NaN()))
			return b
		}, 32 + 8*5},
		{"experiment.xml cut", "experiment.xml", func(b []byte) []byte { return b[:len(b)-300] }, -2},
		{"experiment.xml context id", "experiment.xml", func(b []byte) []byte {
			return []byte(strings.Replace(string(b), `<PF i="4" `, `<PF i="four" `, 1))
		}, -2},
		{"experiment.xml duplicate id", "experiment.xml", func(b []byte) []byte {
			return []byte(strings.Replace(string(b), `<PF i="4" `, `<PF i="2" `, 1))
		}, -2},
		{"experiment.xml id beyond the metric-db", "experiment.xml", func(b []byte) []byte {
			return []byte(strings.Replace(string(b), `<PF i="4" `, `<PF i="400" `, 1))
		}, 992}, // the end of the first metric-db file, which holds ids up to 60
	}
	for _, c := range cases {
		dir := copyDB(t)
		edit(t, filepath.Join(dir, c.file), c.f)
		_, err := Reader{Path: dir}.Read()
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%s: error %v, want an hpctoolkit.Error", c.what, err)
			continue
		}
		wantFile := filepath.Join(dir, c.file)
		if c.off == 992 {
			wantFile = e.Path // the first metric-db file read says it
		}
		if e.Path != wantFile || (c.off >= 0 && e.Offset != c.off) || (c.off == -2 && e.Offset <= 0) {
			t.Errorf("%s: %v (file %s offset %d), want %s at %d", c.what, err, e.Path, e.Offset, wantFile, c.off)
		}
		if !strings.Contains(err.Error(), "byte ") {
			t.Errorf("%s: %q gives no byte offset", c.what, err)
		}
	}
}

// TestTruncatedExperiment cuts experiment.xml every 211 bytes: each copy
// is refused with an Error naming experiment.xml.
func TestTruncatedExperiment(t *testing.T) {
	dir := copyDB(t)
	x := filepath.Join(dir, "experiment.xml")
	full, _ := os.ReadFile(x)
	for cut := 0; cut < len(full)-len("</HPCToolkitExperiment>\n"); cut += 211 {
		os.WriteFile(x, full[:cut], 0o644)
		_, err := Reader{Path: dir}.Read()
		var e *Error
		if !errors.As(err, &e) || e.Path != x {
			t.Fatalf("cut at %d: %v, want an Error in %s", cut, err, x)
		}
	}
}

// TestMetricDBNames refuses a metric-db file whose name carries no rank
// and thread, and a folder without metric-db files.
func TestMetricDBNames(t *testing.T) {
	dir := copyDB(t)
	if err := os.Rename(filepath.Join(dir, rank1), filepath.Join(dir, "rank1.metric-db")); err != nil {
		t.Fatal(err)
	}
	if _, err := (Reader{Path: dir}).Read(); err == nil || !strings.Contains(err.Error(), "rank1.metric-db") {
		t.Errorf("renamed file: %v", err)
	}
	m, _ := filepath.Glob(filepath.Join(dir, "*.metric-db"))
	for _, f := range m {
		os.Remove(f)
	}
	if _, err := (Reader{Path: dir}).Read(); err == nil || !strings.Contains(err.Error(), "no metric-db files") {
		t.Errorf("no files: %v", err)
	}
}
