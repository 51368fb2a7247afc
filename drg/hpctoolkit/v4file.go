package hpctoolkit

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"os"

	"github.com/taudb-analyze/taudb-analyze/internal/safefile"
)

// dbFile4 is a window of a .db file of a 2022+ database: meta.db is read
// whole, profile.db by its header, its sections and one profile's values at
// a time. Its accessors take absolute file offsets, check bounds and
// remember the first error.
type dbFile4 struct {
	path string
	base uint64 // file offset of b[0]
	size uint64 // size of the whole file
	b    []byte
	err  *Error
}

// maxDB4 bounds the size of a meta.db read into memory.
const maxDB4 = 2 << 30

// openDB4 opens a .db file and checks its common header: "HPCTOOLKIT",
// the 4-byte format, major version 4. With head > 0 only the first head
// bytes are read (the header); otherwise the whole file. The caller closes
// the returned file.
func openDB4(path, format string, head int) (*dbFile4, *os.File, error) {
	f, err := safefile.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("hpctoolkit: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("hpctoolkit: %w", err)
	}
	n := st.Size()
	if head > 0 {
		n = min(n, int64(head))
	} else if n > maxDB4 {
		f.Close()
		return nil, nil, errorf(path, -1, "%d bytes is more than the %d this reader holds in memory", n, int64(maxDB4))
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(f, b); err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("hpctoolkit: %s: %w", path, err)
	}
	d := &dbFile4{path: path, b: b, size: uint64(st.Size())}
	if len(b) < 16 || !bytes.Equal(b[:10], []byte("HPCTOOLKIT")) || string(b[10:14]) != format {
		f.Close()
		return nil, nil, errorf(path, 0, "not an HPCToolkit %s.db file (no HPCTOOLKIT%s header)", dbName(format), format)
	}
	if b[14] != 4 {
		f.Close()
		return nil, nil, errorf(path, 14, "major version %d, only version 4 is read", b[14])
	}
	// Every .db file ends with an 8-byte footer ("_meta.db", "_prof.db"):
	// without it the file was cut short.
	var foot [8]byte
	if st.Size() < 24 {
		f.Close()
		return nil, nil, &Error{Path: path, Offset: st.Size(), Err: fmt.Errorf("%w: no room for the header and footer", ErrTruncated)}
	}
	if _, err := f.ReadAt(foot[:], st.Size()-8); err != nil || string(foot[:]) != "_"+format+".db" {
		f.Close()
		return nil, nil, &Error{Path: path, Offset: st.Size() - 8, Err: fmt.Errorf("%w: no %q footer at the end", ErrTruncated, "_"+format+".db")}
	}
	return d, f, nil
}

func dbName(format string) string {
	switch format {
	case "prof":
		return "profile"
	case "ctxt":
		return "cct"
	}
	return format
}

// fail records the first error.
func (d *dbFile4) fail(off uint64, format string, args ...any) {
	if d.err == nil {
		d.err = errorf(d.path, int64(min(off, uint64(1)<<62)), format, args...)
	}
}

// need reports whether n bytes at off lie in the window, recording an
// error when they do not.
func (d *dbFile4) need(off, n uint64, what string) bool {
	end := d.base + uint64(len(d.b))
	if off < d.base || off > end || n > end-off {
		if off > d.size || n > d.size-off {
			d.fail(off, "%s runs past the end of the file (%d bytes)", what, d.size)
		} else {
			d.fail(off, "%s lies outside the part of the file that holds it", what)
		}
		return false
	}
	return true
}

// window reads size bytes at off of the file f into a new window.
func (d *dbFile4) window(f io.ReaderAt, off, size uint64, what string) *dbFile4 {
	w := &dbFile4{path: d.path, base: off, size: d.size}
	if off > d.size || size > d.size-off {
		d.fail(off, "%s (%d bytes) runs past the end of the file (%d bytes)", what, size, d.size)
		return w
	}
	w.b = make([]byte, size)
	if _, err := f.ReadAt(w.b, int64(off)); err != nil {
		d.fail(off, "%s: %v", what, err)
	}
	return w
}

func (d *dbFile4) u8(off uint64, what string) uint8 {
	if !d.need(off, 1, what) {
		return 0
	}
	return d.b[off-d.base]
}

func (d *dbFile4) u16(off uint64, what string) uint16 {
	if !d.need(off, 2, what) {
		return 0
	}
	return binary.LittleEndian.Uint16(d.b[off-d.base:])
}

func (d *dbFile4) u32(off uint64, what string) uint32 {
	if !d.need(off, 4, what) {
		return 0
	}
	return binary.LittleEndian.Uint32(d.b[off-d.base:])
}

func (d *dbFile4) u64(off uint64, what string) uint64 {
	if !d.need(off, 8, what) {
		return 0
	}
	return binary.LittleEndian.Uint64(d.b[off-d.base:])
}

// str reads the NUL-terminated string at off ("" for a null pointer).
func (d *dbFile4) str(off uint64, what string) string {
	if off == 0 {
		return ""
	}
	if !d.need(off, 1, what) {
		return ""
	}
	rest := d.b[off-d.base:]
	end := bytes.IndexByte(rest, 0)
	if end < 0 {
		d.fail(off, "%s: string without its terminating NUL", what)
		return ""
	}
	return string(rest[:end])
}

// section returns the size and position of section i of the header.
func (d *dbFile4) section(i int, what string) (size, pos uint64) {
	size, pos = d.u64(uint64(0x10+16*i), what), d.u64(uint64(0x18+16*i), what)
	d.need(pos, size, what+" section")
	return size, pos
}
