package watch

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// dumpDateLayout is the date TAU_DB_DUMP_INCR puts in a dump's name:
// ctime's fields joined by dashes (TauProfiler_writeData), local time.
const dumpDateLayout = "Mon-Jan-2-15:04:05-2006"

// rankOf parses the ".N.C.T" end of a file name.
func rankOf(name string) (prefix string, id drg.ThreadID, ok bool) {
	parts := strings.Split(name, ".")
	if len(parts) < 4 {
		return "", id, false
	}
	var v [3]int
	for i, p := range parts[len(parts)-3:] {
		if v[i], ok = parseInt([]byte(p)); !ok {
			return "", id, false
		}
	}
	return strings.Join(parts[:len(parts)-3], "."), drg.ThreadID{Node: v[0], Context: v[1], Thread: v[2]}, true
}

// kind of a file in the watched folder.
type fileKind int

const (
	kindNone     fileKind = iota
	kindSnapshot          // snapshot.N.C.T, growing
	kindIncr              // <prefix>__<date>__.N.C.T, one per dump
	kindRewrite           // dump.N.C.T, rewritten at each TAU_DB_DUMP
	kindFinal             // profile.N.C.T at the end of the run
)

// classify names the kind of a top-level file, its rank, and for an
// incremental dump its time; prefixes are the names of rewritten dumps
// (TAU_DB_DUMP's "dump", TAU_DB_DUMP_PREFIX's own).
func classify(name string, prefixes []string) (fileKind, drg.ThreadID, time.Time) {
	prefix, id, ok := rankOf(name)
	if !ok {
		return kindNone, id, time.Time{}
	}
	switch {
	case prefix == "snapshot":
		return kindSnapshot, id, time.Time{}
	case isDumpPrefix(prefix, prefixes):
		return kindRewrite, id, time.Time{}
	case prefix == "profile":
		return kindFinal, id, time.Time{}
	}
	if i := strings.Index(prefix, "__"); i >= 0 && strings.HasSuffix(prefix, "__") && len(prefix) > i+4 {
		t, err := time.ParseInLocation(dumpDateLayout, prefix[i+2:len(prefix)-2], time.Local)
		if err == nil {
			return kindIncr, id, t
		}
	}
	return kindNone, id, time.Time{}
}

func isDumpPrefix(p string, prefixes []string) bool {
	p = strings.TrimPrefix(p, "sel_")
	for _, q := range prefixes {
		if p == q {
			return true
		}
	}
	return false
}

// naturalKey makes names sort with their digit runs compared as numbers
// (step-9 before step-10).
func naturalKey(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j > i {
			b.WriteString(strings.Repeat("0", max(0, 20-(j-i))))
			b.WriteString(s[i:j])
			i = j
			continue
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

// rankSource is what one rank writes: a growing snapshot file, or text
// profile dumps read in key order.
type rankSource struct {
	snap  *snapReader
	files []*wholeFile
	next  int // files[:next] are read
	known map[string]bool
}

// addFile inserts a dump file in key order (after the files already read).
func (r *rankSource) addFile(f *wholeFile) {
	if r.known == nil {
		r.known = map[string]bool{}
	}
	if r.known[f.path] {
		return
	}
	r.known[f.path] = true
	at := r.next + sort.Search(len(r.files)-r.next, func(i int) bool { return r.files[r.next+i].key > f.key })
	r.files = append(r.files, nil)
	copy(r.files[at+1:], r.files[at:])
	r.files[at] = f
}

// scanner lists the watched folder and keeps the sources of every rank.
type scanner struct {
	dir      string
	prefixes []string
	sources  map[drg.ThreadID]*rankSource
	folders  map[string]time.Time // interval folders and their last mtime
	topTime  time.Time
}

func newScanner(dir string, prefixes []string) *scanner {
	return &scanner{dir: dir, prefixes: prefixes, sources: map[drg.ThreadID]*rankSource{}, folders: map[string]time.Time{}}
}

func (s *scanner) source(id drg.ThreadID) *rankSource {
	r := s.sources[id]
	if r == nil {
		r = &rankSource{}
		s.sources[id] = r
	}
	return r
}

// scan lists the folder (and the interval folders whose time changed) and
// registers new files.
func (s *scanner) scan() error {
	st, err := os.Stat(s.dir)
	if err != nil {
		return err
	}
	if settled(st.ModTime(), s.topTime) && len(s.folders) == 0 {
		return nil // nothing was added to the folder
	}
	s.topTime = st.ModTime()
	ents, err := os.ReadDir(s.dir)
	if err != nil {
		return err
	}
	for _, e := range ents {
		name := e.Name()
		path := filepath.Join(s.dir, name)
		if e.IsDir() {
			if !strings.HasPrefix(name, "MULTI_") && !strings.HasPrefix(name, "spawn-") {
				if err := s.scanFolder(name, path); err != nil {
					return err
				}
			}
			continue
		}
		s.addTop(name, path)
	}
	return nil
}

// addTop registers a top-level file.
func (s *scanner) addTop(name, path string) {
	kind, id, when := classify(name, s.prefixes)
	switch kind {
	case kindSnapshot:
		r := s.source(id)
		if r.snap == nil {
			r.snap = &snapReader{root: s.dir, path: path}
		}
	case kindIncr:
		s.source(id).addFile(&wholeFile{root: s.dir, path: path, key: "1" + when.UTC().Format("20060102150405") + naturalKey(name), timestamp: when.UnixMicro()})
	case kindRewrite:
		s.source(id).addFile(&wholeFile{root: s.dir, path: path, key: "2", rewritten: true})
	case kindFinal:
		s.source(id).addFile(&wholeFile{root: s.dir, path: path, key: "3"})
	}
}

// scanFolder registers the profile files of an interval folder.
func (s *scanner) scanFolder(name, path string) error {
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	if t, ok := s.folders[name]; ok && settled(st.ModTime(), t) {
		return nil
	}
	s.folders[name] = st.ModTime()
	ents, err := os.ReadDir(path)
	if err != nil {
		return err
	}
	for _, e := range ents {
		prefix, id, ok := rankOf(e.Name())
		if !ok || e.IsDir() || (prefix != "profile" && !isDumpPrefix(prefix, s.prefixes)) {
			continue
		}
		s.source(id).addFile(&wholeFile{root: s.dir, path: filepath.Join(path, e.Name()), key: "0" + naturalKey(name)})
	}
	return nil
}

// settled reports whether a folder's modification time mod equals the one
// of the last listing, last, and is old enough that an entry added in the
// same clock tick cannot have been missed (coarse file system clocks).
func settled(mod, last time.Time) bool {
	return !last.IsZero() && mod.Equal(last) && time.Since(mod) > 2*time.Second
}
