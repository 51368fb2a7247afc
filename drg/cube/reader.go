package cube

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/internal/safefile"
)

// DataSource is TAUdb's data_source id of CUBE data (the TAUdb manual's
// data_source table: 8, "Cube data (FZJ)").
const DataSource = 8

// Format is the trial's Source.Format for this reader.
const Format = "cube"

// Reader reads one Score-P CUBE4 .cubex file.
type Reader struct {
	// Path is the .cubex file.
	Path string
}

// DetectHead reports whether head, the first bytes of a file, is a tar
// archive whose first member is one a .cubex holds (anchor.xml, N.index,
// N.data, remapping.spec); Detect looks at every member.
func DetectHead(head []byte) bool {
	if len(head) < 512 || string(head[257:262]) != "ustar" {
		return false
	}
	name := string(bytes.TrimRight(head[:100], "\x00"))
	base := filepath.Base(name)
	return base == "anchor.xml" || base == "remapping.spec" ||
		strings.HasSuffix(base, ".index") || strings.HasSuffix(base, ".data")
}

// Detect reports whether the file at path is a tar archive holding an
// anchor.xml, that is a CUBE4 .cubex.
func Detect(path string) bool {
	f, err := safefile.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 512)
	if n, _ := io.ReadFull(f, head); n < 512 || string(head[257:262]) != "ustar" {
		return false
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return false
	}
	ms, err := members(f, path)
	if err != nil {
		return false
	}
	_, ok := ms["anchor.xml"]
	return ok
}

// Read reads the file into a trial named after it without extension, with
// Source{Format: "cube", DataSource: 8}. CUBE attributes become trial
// metadata ("CUBE <key>").
func (r Reader) Read() (*drg.Trial, error) {
	f, err := safefile.Open(r.Path)
	if err != nil {
		return nil, fmt.Errorf("cube: %w", err)
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return nil, errorf(r.Path, "", -1, "a folder, not a .cubex file")
	}
	ms, err := members(f, r.Path)
	if err != nil {
		return nil, err
	}
	am, ok := ms["anchor.xml"]
	if !ok {
		return nil, errorf(r.Path, "", -1, "no anchor.xml in the archive: not a CUBE4 .cubex")
	}
	ar, err := maybeGzip(openMember(f, am), r.Path)
	if err != nil {
		return nil, err
	}
	a, err := parseAnchor(ar, r.Path)
	if err != nil {
		return nil, err
	}
	tree, warnings, err := readTree(f, ms, a, r.Path)
	if err != nil {
		return nil, err
	}
	meta := map[string]string{"CUBE version": a.version, "File Type Name": "CUBE4 (.cubex)"}
	for k, v := range a.attrs {
		meta["CUBE "+k] = v
	}
	name := strings.TrimSuffix(filepath.Base(r.Path), filepath.Ext(r.Path))
	t, err := tree.Build(name, drg.Source{Format: Format, Path: r.Path, DataSource: DataSource}, meta)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r.Path, err)
	}
	t.Warnings = append(warnings, t.Warnings...)
	return t, nil
}

// maybeGzip returns anchor.xml's bytes, inflated when they are gzip.
func maybeGzip(sr *io.SectionReader, name string) (io.Reader, error) {
	var magic [2]byte
	if n, _ := sr.ReadAt(magic[:], 0); n == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(sr)
		if err != nil {
			return nil, errorf(name, "anchor.xml", 0, "gzip: %v", err)
		}
		return bufio.NewReader(zr), nil
	}
	return bufio.NewReaderSize(sr, 1<<16), nil
}

// threads returns the thread of each location, by location id: node = the
// location group's rank, thread = the location's rank; location groups of
// the same rank (a process and its GPU streams) get contexts 0, 1, ...
func threads(a *anchor) []drg.ThreadID {
	ids := make([]drg.ThreadID, len(a.locs))
	ctx := map[string]int{}
	next := map[int]int{}
	for _, l := range a.locs {
		key := strconv.Itoa(l.groupRank) + "\x00" + l.groupName
		c, ok := ctx[key]
		if !ok {
			c = next[l.groupRank]
			next[l.groupRank]++
			ctx[key] = c
		}
		ids[l.id] = drg.ThreadID{Node: l.groupRank, Context: c, Thread: l.rank}
	}
	return ids
}

// metricName gives the trial's name of a metric and the factor that turns
// its values into the model's units (time in microseconds): Score-P's
// "time" becomes TIME, TAU's name.
func metricName(m metric) (string, float64) {
	name := m.uniq
	if name == "" {
		name = m.disp
	}
	if name == "time" {
		name = "TIME"
	}
	switch m.uom {
	case "sec", "s":
		return name, 1e6
	case "ms", "msec":
		return name, 1e3
	}
	return name, 1
}

// sortedMetrics returns the metrics in id order.
func sortedMetrics(a *anchor) []metric {
	ms := append([]metric(nil), a.metrics...)
	sort.SliceStable(ms, func(i, j int) bool { return ms[i].id < ms[j].id })
	return ms
}
