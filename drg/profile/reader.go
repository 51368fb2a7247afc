package profile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"unsafe"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/internal/safefile"
)

// ErrSameMetric is wrapped by the error of a trial whose metric folders
// hold one metric twice.
var ErrSameMetric = errors.New("both hold the metric")

// MaxFileBytes is the largest profile.N.C.T file read, in bytes (1 GiB):
// one thread's text profile is held in memory while it is parsed, and real
// ones are kilobytes to a few megabytes.
const MaxFileBytes = 1 << 30

// Reader reads a TAU profile directory (or a single profile.N.C.T file)
// into a trial.
type Reader struct {
	// Path is the directory (or file) to read.
	Path string
	// Workers is the number of files parsed at once; 0 means one per
	// processor.
	Workers int
}

// Read reads the trial. Files are parsed in parallel and merged in (metric
// folder, N, C, T) order, so the result does not depend on scheduling.
// Calls, subroutines and user events come from the first metric folder, as
// in TAU's loader; every folder adds its metric's values and its metadata.
func (r Reader) Read() (*drg.Trial, error) {
	dirs, err := r.layout()
	if err != nil {
		return nil, err
	}
	b, err := drg.NewBuilder(threadsOf(dirs))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r.Path, err)
	}
	b.Sparse = true
	root := r.Path
	if len(dirs) == 1 && len(dirs[0].files) == 1 && dirs[0].files[0].path == r.Path {
		root = "" // a file named on its own: the user chose it
	}
	owner := map[string]string{} // metric name -> the folder that gave it
	for di, d := range dirs {
		if err := r.readDir(b, d, di == 0, root, owner); err != nil {
			return nil, err
		}
	}
	name := filepath.Base(filepath.Clean(r.Path))
	if len(dirs) == 1 && len(dirs[0].files) == 1 && dirs[0].path != r.Path {
		name = filepath.Base(filepath.Dir(r.Path))
	}
	t, err := b.Finish(name, drg.Source{Format: "profile", Path: r.Path, DataSource: 1})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r.Path, err)
	}
	for _, s := range Spawned(r.Path) {
		t.Warnings = append(t.Warnings, spawnWarning(s))
	}
	return t, nil
}

// threadsOf lists the threads of the metric folders' files, each once, in
// the order first met.
func threadsOf(dirs []metricDir) []drg.ThreadID {
	var ids []drg.ThreadID
	seen := map[drg.ThreadID]bool{}
	for _, d := range dirs {
		for _, f := range d.files {
			if !seen[f.id] {
				seen[f.id] = true
				ids = append(ids, f.id)
			}
		}
	}
	return ids
}

// spawnWarning is the warning of a trial whose folder holds the spawn-N
// folder s.
func spawnWarning(s string) string {
	return fmt.Sprintf("%s holds processes started by MPI_Comm_spawn: a separate trial, not read with this one (load --spawn loads it)", s)
}

// layout lists the metric folders to read, or the single file.
func (r Reader) layout() ([]metricDir, error) {
	st, err := os.Stat(r.Path)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		id, ok := parseThreadName(filepath.Base(r.Path), "profile")
		if !ok {
			return nil, fmt.Errorf("%s: not a TAU profile (want a file named profile.N.C.T or a directory of them)", r.Path)
		}
		return []metricDir{{path: filepath.Dir(r.Path), files: []threadFile{{path: r.Path, id: id}}}}, nil
	}
	return discover(r.Path)
}

type parsed struct {
	file *File
	err  error
}

// readDir parses the files of one metric folder in parallel and merges them
// into b in order. Files are read only if regular and, when root is not
// "", only if they are not links leading out of the folder root. owner maps
// each metric read so far to its folder: two folders holding one metric
// (MULTI__TIME and a copy MULTI__TIME.bak) are an error, not a sum.
func (r Reader) readDir(b *drg.Builder, d metricDir, first bool, root string, owner map[string]string) error {
	workers := r.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	type job struct {
		f   threadFile
		out chan parsed
	}
	jobs := make(chan job)
	futures := make(chan chan parsed, 4*workers)
	done := make(chan struct{})
	defer close(done)
	go func() {
		defer close(jobs)
		defer close(futures)
		for _, f := range d.files {
			ch := make(chan parsed, 1)
			select {
			case futures <- ch:
			case <-done:
				return
			}
			select {
			case jobs <- job{f, ch}:
			case <-done:
				return
			}
		}
	}()
	for w := 0; w < workers; w++ {
		go func() {
			var checked checkedNames
			for j := range jobs {
				data, err := safefile.ReadFileIn(root, j.f.path, MaxFileBytes)
				if err != nil {
					j.out <- parsed{err: err}
					continue
				}
				f, err := parse(bytesToString(data), j.f.path, &checked)
				j.out <- parsed{file: f, err: err}
			}
		}()
	}
	var nodes nodeCache
	i := 0
	for ch := range futures {
		p := <-ch
		if p.err != nil {
			return p.err
		}
		if o, ok := owner[p.file.Metric]; ok && o != d.path {
			return fmt.Errorf("%s and %s: %w %q: remove or rename one", o, d.path, ErrSameMetric, p.file.Metric)
		}
		owner[p.file.Metric] = d.path
		if b.NumNodes() == 0 {
			// Most trials have about the first file's timers in all: make
			// room for them at once instead of growing node by node.
			b.Reserve(len(p.file.Timers))
		}
		merge(b, p.file, b.Column(d.files[i].id), first, &nodes)
		if err := b.Err(); err != nil {
			return fmt.Errorf("%s: %w", r.Path, err)
		}
		i++
	}
	return nil
}

// nodeCache remembers the nodes of the previous file's timers, in the
// file's order. The files of a trial mostly list the same timers in the same
// order, so comparing a timer's name with the name at its position in the
// previous file (a length check and a memory compare) usually finds its
// node without hashing the name for the builder's map. The merge is the
// serial part of a parallel read, so this is where time counts.
type nodeCache struct {
	names []string
	nodes []int
}

// node returns the builder node of timer i named name.
func (c *nodeCache) node(b *drg.Builder, i int, name string) int {
	if i < len(c.names) && c.names[i] == name {
		return c.nodes[i]
	}
	n := b.Node(name)
	if i < len(c.names) {
		c.names[i], c.nodes[i] = name, n
	} else if i == len(c.names) {
		c.names, c.nodes = append(c.names, name), append(c.nodes, n)
	}
	return n
}

// merge adds one parsed file to the builder as thread column th; nodes is
// the read's node cache.
func merge(b *drg.Builder, f *File, th int, first bool, nodes *nodeCache) {
	m := b.Metric(f.Metric)
	for i, t := range f.Timers {
		n := nodes.node(b, i, t.Name)
		b.SetGroups(n, t.Groups)
		if first {
			b.AddCalls(n, th, t.Calls, t.Subrs)
		}
		b.AddValues(n, th, m, t.Exclusive, t.Incl)
	}
	if first {
		for _, e := range f.Events {
			b.AddCounter(b.Counter(e.Name), th, e.Value)
		}
	}
	for _, a := range f.Metadata {
		b.ThreadMetadata(th, a.Name, a.Value, a.Context)
	}
}

// bytesToString views a file's bytes as a string without copying them. The
// bytes are never modified afterwards; names kept from them (the first
// occurrence of each node name) keep that file's buffer alive, which is the
// price of not copying every file once more.
func bytesToString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}
