package snapshot

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/internal/safefile"
)

// Format is the name of the format in drg.Source.Format.
const Format = "snapshot"

// DataSource is TAUdb's data_source id of TAU snapshot XML (SNAP).
const DataSource = 10

// Reader reads a TAU XML profile: a merged file (tauprofile.xml, *.xml or
// *.xml.gz), one snapshot.N.C.T file, or a directory of snapshot.N.C.T
// files (one per thread, all of them one trial).
type Reader struct {
	// Path is the file or directory to read.
	Path string
}

// Read reads the trial. Its name is the file's base name without ".gz"
// and ".xml", or the directory's name for a directory or a single
// snapshot.N.C.T file.
func (r Reader) Read() (*drg.Trial, error) {
	t, _, err := r.ReadDerived()
	return t, err
}

// ReadDerived reads the trial and the derived statistics TAU wrote into a
// merged file (nil when the file has none); see Derived.
func (r Reader) ReadDerived() (*drg.Trial, *Derived, error) {
	st, err := os.Stat(r.Path)
	if err != nil {
		return nil, nil, err
	}
	files, root := []string{r.Path}, ""
	if st.IsDir() {
		if files, err = listSnapshots(r.Path); err != nil {
			return nil, nil, err
		}
		root = r.Path
	}
	streams, err := parseFiles(files, root)
	if err != nil {
		return nil, nil, err
	}
	t, d, err := build(streams, trialName(r.Path, st.IsDir()), source(r.Path))
	if err == nil && st.IsDir() {
		for _, s := range Spawned(r.Path) {
			t.Warnings = append(t.Warnings, s+" holds processes started by MPI_Comm_spawn: a separate trial, not read with this one (load --spawn loads it)")
		}
	}
	return t, d, err
}

// Decode reads one snapshot XML stream (plain or gzip-compressed) from rd
// as a trial; name is the file name used in errors, in Trial.Source.Path
// and, as for Reader.Read, for the trial's name.
//
// It differs from TAU's Java loader where the loader loses data or has no
// rule: a <thread> given twice keeps the definitions of both copies and
// merges their metadata (a later value wins); per-thread definitions come
// before the global ones when both define an id; only events and user
// events that some thread measured become nodes and counters (as in text
// profiles, which list only events with calls); malformed input, unknown
// ids and bad numbers are errors that name the line, where Java skips or
// crashes.
func Decode(rd io.Reader, name string) (*drg.Trial, error) {
	t, _, err := DecodeDerived(rd, name)
	return t, err
}

// DecodeDerived is Decode that also returns the derived statistics of a
// merged file (nil when there are none); see Derived.
func DecodeDerived(rd io.Reader, name string) (*drg.Trial, *Derived, error) {
	s, err := decodeStream(rd, name)
	if err != nil {
		return nil, nil, err
	}
	return build([]*stream{s}, trialName(name, false), source(name))
}

func source(path string) drg.Source {
	return drg.Source{Format: Format, Path: path, DataSource: DataSource}
}

// gzipMagic starts every gzip stream.
var gzipMagic = []byte{0x1f, 0x8b}

// decodeStream parses one stream, decompressing it first if it is gzip.
func decodeStream(rd io.Reader, name string) (*stream, error) {
	br := bufio.NewReaderSize(rd, 64<<10)
	var in io.Reader = br
	if head, _ := br.Peek(2); bytes.Equal(head, gzipMagic) {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, &Error{Path: name, Err: fmt.Errorf("gzip: %w", err)}
		}
		defer zr.Close()
		in = safefile.Cap(zr, MaxInflated, "the limit for compressed XML")
	}
	return parseStream(in, name)
}

// parseFile parses the file at path, a regular file (not a link out of the
// folder root unless root is "").
func parseFile(root, path string) (*stream, error) {
	open := safefile.Open
	if root != "" {
		open = func(p string) (*os.File, error) { return safefile.OpenIn(root, p) }
	}
	f, err := open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return decodeStream(f, path)
}

// parseFiles parses files in parallel, one per processor, and returns
// their streams in the order of files (the first error in that order).
func parseFiles(files []string, root string) ([]*stream, error) {
	streams := make([]*stream, len(files))
	errs := make([]error, len(files))
	workers := min(runtime.GOMAXPROCS(0), len(files))
	var wg sync.WaitGroup
	next := make(chan int)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				streams[i], errs[i] = parseFile(root, files[i])
			}
		}()
	}
	for i := range files {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return streams, nil
}

// snapshotThread parses a file name "snapshot.N.C.T" (TAU's rule: N
// between the first and second dot, C up to the last dot, T after it, all
// decimal).
func snapshotThread(base string) (drg.ThreadID, bool) {
	rest, ok := strings.CutPrefix(base, "snapshot.")
	if !ok {
		return drg.ThreadID{}, false
	}
	parts := strings.Split(rest, ".")
	if len(parts) != 3 {
		return drg.ThreadID{}, false
	}
	var r [3]int
	for i, p := range parts {
		n, err := parseID([]byte(p))
		if err != nil {
			return drg.ThreadID{}, false
		}
		r[i] = n
	}
	return drg.ThreadID{Node: r[0], Context: r[1], Thread: r[2]}, true
}

// listSnapshots returns the snapshot.N.C.T files of dir in (N, C, T)
// order.
func listSnapshots(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	type file struct {
		path string
		id   drg.ThreadID
	}
	var fs []file
	for _, e := range ents {
		if e.IsDir() {
			continue
		}
		if id, ok := snapshotThread(e.Name()); ok {
			fs = append(fs, file{filepath.Join(dir, e.Name()), id})
		}
	}
	if len(fs) == 0 {
		return nil, fmt.Errorf("%s: no snapshot.N.C.T file in the directory", dir)
	}
	sort.Slice(fs, func(i, j int) bool {
		a, b := fs[i].id, fs[j].id
		if a.Node != b.Node {
			return a.Node < b.Node
		}
		if a.Context != b.Context {
			return a.Context < b.Context
		}
		return a.Thread < b.Thread
	})
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.path
	}
	return out, nil
}

// trialName names a trial after its path: a directory, and the directory
// of a snapshot.N.C.T file, by the directory's name; another file by its
// base name without ".gz" and ".xml".
func trialName(path string, isDir bool) string {
	if isDir {
		return filepath.Base(filepath.Clean(path))
	}
	base := filepath.Base(path)
	if _, ok := snapshotThread(base); ok {
		dir := filepath.Dir(path)
		if abs, err := filepath.Abs(dir); err == nil {
			dir = abs
		}
		return filepath.Base(dir)
	}
	base = strings.TrimSuffix(base, ".gz")
	if b := strings.TrimSuffix(base, ".xml"); b != "" {
		base = b
	}
	return base
}

// detectLines is the number of leading lines Detect looks at, as TAU's
// Java loader does.
const detectLines = 10

// Detect reports whether head, the first bytes of a file, looks like TAU
// snapshot XML: one of the first 10 lines starts with <profile_xml>
// (after NUL bytes and blanks), plain or inside gzip. A gzip stream whose
// first decompressed bytes do not fit in head is accepted; one that
// decompresses to something else (a ParaProf packed profile is gzip too) is
// not.
func Detect(head []byte) bool {
	if bytes.HasPrefix(head, gzipMagic) {
		plain, ok := gunzipHead(head)
		if !ok || len(plain) < len("<profile_xml>") {
			return true
		}
		head = plain
	}
	for i := 0; i < detectLines && len(head) > 0; i++ {
		line := head
		if j := bytes.IndexByte(head, '\n'); j >= 0 {
			line, head = head[:j], head[j+1:]
		} else {
			head = nil
		}
		line = bytes.TrimLeft(line, "\x00 \t\r\ufeff")
		if bytes.HasPrefix(line, []byte("<profile_xml>")) {
			return true
		}
	}
	return false
}

// gunzipHead decompresses as much of the gzip stream head as it holds; ok
// is false when not even the gzip header is complete.
func gunzipHead(head []byte) (plain []byte, ok bool) {
	zr, err := gzip.NewReader(bytes.NewReader(head))
	if err != nil {
		return nil, false
	}
	buf := make([]byte, 4096)
	n := 0
	for n < len(buf) {
		k, err := zr.Read(buf[n:])
		n += k
		if err != nil {
			break
		}
	}
	return buf[:n], true
}
