// Package ppk reads and writes ParaProf packed profiles (.ppk), the binary
// format that ParaProf and TAU's perfdmf write with
// DataSourceExport.writePacked. Write and WriteFile write one as that
// method does (see Write for the layout); the rest of this comment is about
// reading.
//
// A packed profile is a gzip stream (a raw, already decompressed stream is
// accepted too) holding a Java DataOutputStream: big-endian ints and
// doubles and modified-UTF-8 strings. Versions 1 and 2 are read; a file
// whose "compatible" version is above 2 is refused. The version-2 header
// block carries the trial metadata, which becomes the trial's metadata as
// is (no aggregation), and each thread's own metadata. Then come the
// metric, group, function and user-event tables and each thread's function
// and user-event profiles, which feed a drg.Builder.
//
// Only a regular file is read (a FIFO or a device named .ppk is an error).
// The decompressed payload is read into memory (at most MaxPayload bytes,
// and at most what the gzip trailer states, checked before inflating) and checked completely before the trial is built: every count against the
// bytes left, every id against its table. Bad input gives an *Error naming
// the file and the byte offset in the decompressed payload; the decoder
// never panics on it.
//
// The reader is stricter than ParaProf where the trial model needs it or
// the Java writer never goes: a metric named twice, a thread whose profiles
// are listed twice, a negative rank and a negative sample count are errors.
// Bytes after the last thread record are ignored with a Trial.Warnings
// entry. A thread that has metadata in the header but no profiles is still
// a thread of the trial, as in ParaProf.
package ppk

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/internal/safefile"
)

// Reader reads one packed profile file.
type Reader struct {
	// Path is the .ppk file.
	Path string
}

// Read decodes the file at r.Path into a trial named after the file's base
// name without extension ("2" for ".../2.ppk"), with Source{Format: "ppk",
// Path: r.Path, DataSource: 0}.
func (r Reader) Read() (*drg.Trial, error) {
	f, err := safefile.Open(r.Path)
	if err != nil {
		return nil, fmt.Errorf("ppk: %w", err)
	}
	defer f.Close()
	return Decode(f, r.Path)
}

// Detect reports whether head, the first bytes of a file, looks like a
// packed profile: the raw PPK magic, or a gzip stream whose decompressed
// start is the magic. When head is too short to inflate six bytes of a gzip
// stream it answers true and leaves the verdict to Read.
func Detect(head []byte) bool {
	if bytes.HasPrefix(head, magic) {
		return true
	}
	if len(head) < 2 || head[0] != 0x1f || head[1] != 0x8b {
		return false
	}
	zr, err := gzip.NewReader(bytes.NewReader(head))
	if err != nil {
		// A header cut short by the end of head cannot be judged.
		return errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF)
	}
	var start [6]byte
	n, err := io.ReadFull(zr, start[:])
	if n == len(start) {
		return bytes.Equal(start[:], magic)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		// Ran out of head (or of data): judge on what was inflated.
		return bytes.HasPrefix(magic, start[:n])
	}
	return false
}
