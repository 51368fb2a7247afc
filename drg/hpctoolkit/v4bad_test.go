package hpctoolkit

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// copyV4 copies the 2022+ cpi database to a temporary folder.
func copyV4(t *testing.T) string {
	t.Helper()
	src := otherFormats(t, "hatchet_cpi_v4_database")
	dst := t.TempDir()
	for _, n := range []string{"meta.db", "profile.db", "cct.db"} {
		b, err := os.ReadFile(filepath.Join(src, n))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dst, n), b, 0o644)
	}
	return dst
}

// TestV4Truncated cuts meta.db and profile.db every 397 bytes: each copy
// is refused with an Error naming the file that was cut.
func TestV4Truncated(t *testing.T) {
	dir := copyV4(t)
	for _, name := range []string{"meta.db", "profile.db"} {
		p := filepath.Join(dir, name)
		full, _ := os.ReadFile(p)
		for cut := 0; cut < len(full); cut += 397 {
			os.WriteFile(p, full[:cut], 0o644)
			_, err := Reader{Path: dir}.Read()
			var e *Error
			if !errors.As(err, &e) || e.Path != p || e.Offset < 0 {
				t.Fatalf("%s cut at %d: %v, want an Error at a byte of %s", name, cut, err, p)
			}
		}
		os.WriteFile(p, full, 0o644)
	}
}

// TestV4Corrupt refuses a wrong format tag, a major version 5, a context
// array pointing outside its section, a profile whose values run past the
// file, and a context tree that loops, each at the byte at fault.
func TestV4Corrupt(t *testing.T) {
	cases := []struct {
		what, file string
		edit       func(b []byte)
		off        int64
	}{
		{"format", "meta.db", func(b []byte) { copy(b[10:], "prof") }, 0},
		{"version", "profile.db", func(b []byte) { b[14] = 5 }, 14},
		{"entry children", "meta.db", func(b []byte) {
			sec := binary.LittleEndian.Uint64(b[0x48:])
			pe := binary.LittleEndian.Uint64(b[sec:])
			binary.LittleEndian.PutUint64(b[pe+8:], 8) // into the header
		}, 8},
		{"profile values", "profile.db", func(b []byte) {
			sec := binary.LittleEndian.Uint64(b[0x18:])
			pp := binary.LittleEndian.Uint64(b[sec:])
			sz := uint64(b[sec+0xc])
			binary.LittleEndian.PutUint64(b[pp+sz:], 1<<40) // profile 1's value count
		}, -2},
		{"loop", "meta.db", func(b []byte) {
			sec := binary.LittleEndian.Uint64(b[0x48:])
			pe := binary.LittleEndian.Uint64(b[sec:])
			first := binary.LittleEndian.Uint64(b[pe+8:])
			size := binary.LittleEndian.Uint64(b[pe:])
			// the first context's children are its own array
			binary.LittleEndian.PutUint64(b[first:], size)
			binary.LittleEndian.PutUint64(b[first+8:], first)
		}, -2},
	}
	for _, c := range cases {
		dir := copyV4(t)
		p := filepath.Join(dir, c.file)
		b, _ := os.ReadFile(p)
		c.edit(b)
		os.WriteFile(p, b, 0o644)
		_, err := Reader{Path: dir}.Read()
		var e *Error
		if !errors.As(err, &e) || e.Path != p || (c.off >= 0 && e.Offset != c.off) || e.Offset < 0 {
			t.Errorf("%s: %v, want an Error in %s at %d", c.what, err, c.file, c.off)
		}
	}
}
