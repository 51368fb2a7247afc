package profile

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/internal/safefile"
)

// ChunkBytes is the memory a chunk of Chunks is sized to when no thread
// count is given: its values at 4 + 16 + 16·metrics bytes per cell (thread
// column, calls and subroutines, inclusive and exclusive values), with as
// many cells per thread as the first file has timers.
const ChunkBytes = 512 << 20

// Chunks reads a TAU profile directory a run of threads at a time, so that
// a trial larger than memory can be saved as it is read
// (store.TrialChunks). Each chunk is a trial of the next threads in (N, C,
// T) order, read from every metric folder as Reader.Read reads the whole
// directory; its metadata is split between trial and threads over the
// chunk's threads only.
type Chunks struct {
	r       Reader
	dirs    []metricDir
	ids     []drg.ThreadID
	per     int
	next    int
	root    string
	owner   map[string]string
	name    string
	spawned []string
}

// Chunks opens the directory to be read per threads at a time; per ≤ 0
// sizes the chunks to ChunkBytes. It fails on a path that is a single file.
func (r Reader) Chunks(per int) (*Chunks, error) {
	dirs, err := r.layout()
	if err != nil {
		return nil, err
	}
	if len(dirs) == 1 && len(dirs[0].files) == 1 && dirs[0].files[0].path == r.Path {
		return nil, fmt.Errorf("%s: a single profile file is read whole", r.Path)
	}
	c := &Chunks{r: r, dirs: dirs, root: r.Path, owner: map[string]string{},
		name: filepath.Base(filepath.Clean(r.Path)), spawned: Spawned(r.Path)}
	c.ids = threadsOf(dirs)
	slices.SortFunc(c.ids, cmpID)
	if len(c.ids) == 0 {
		return nil, fmt.Errorf("%s: no profile.N.C.T file", r.Path)
	}
	if c.per = per; c.per <= 0 {
		if c.per, err = c.autoSize(); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// autoSize returns the threads per chunk that fill ChunkBytes, from the
// number of timers of the first file.
func (c *Chunks) autoSize() (int, error) {
	f := c.dirs[0].files[0]
	data, err := safefile.ReadFileIn(c.root, f.path, MaxFileBytes)
	if err != nil {
		return 0, err
	}
	var checked checkedNames
	p, err := parse(bytesToString(data), f.path, &checked)
	if err != nil {
		return 0, err
	}
	cell := 20 + 16*len(c.dirs)
	return max(1, ChunkBytes/(cell*max(1, len(p.Timers)))), nil
}

// Threads returns every thread of the trial, in the order the chunks hold
// them.
func (c *Chunks) Threads() []drg.ThreadID { return c.ids }

// PerChunk returns the number of threads of a chunk (the last may hold
// fewer).
func (c *Chunks) PerChunk() int { return c.per }

// Name returns the trial's name, the directory's base name as Read names
// it.
func (c *Chunks) Name() string { return c.name }

// Next reads the next chunk, or returns io.EOF after the last. The chunk's
// Name and Source are the whole trial's.
func (c *Chunks) Next() (*drg.Trial, error) {
	if c.next >= len(c.ids) {
		return nil, io.EOF
	}
	lo, hi := c.next, min(c.next+c.per, len(c.ids))
	c.next = hi
	want := c.ids[lo:hi]
	b, err := drg.NewBuilder(want)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.r.Path, err)
	}
	b.Sparse = true
	for di, d := range c.dirs {
		part := metricDir{path: d.path, files: filesOf(d.files, want[0], want[len(want)-1])}
		if len(part.files) == 0 {
			continue
		}
		if err := c.r.readDir(b, part, di == 0, c.root, c.owner); err != nil {
			return nil, err
		}
	}
	t, err := b.Finish(c.name, drg.Source{Format: "profile", Path: c.r.Path, DataSource: 1})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.r.Path, err)
	}
	if lo == 0 {
		for _, s := range c.spawned {
			t.Warnings = append(t.Warnings, spawnWarning(s))
		}
	}
	return t, nil
}

// filesOf returns the files of sorted whose thread lies in [first, last].
func filesOf(sorted []threadFile, first, last drg.ThreadID) []threadFile {
	lo, _ := slices.BinarySearchFunc(sorted, first, func(f threadFile, id drg.ThreadID) int { return cmpID(f.id, id) })
	hi, found := slices.BinarySearchFunc(sorted, last, func(f threadFile, id drg.ThreadID) int { return cmpID(f.id, id) })
	if found {
		hi++
	}
	return sorted[lo:hi]
}

// cmpID orders thread ids as less does.
func cmpID(a, b drg.ThreadID) int {
	switch {
	case less(a, b):
		return -1
	case less(b, a):
		return 1
	}
	return 0
}
