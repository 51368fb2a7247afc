package hpctoolkit

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/drg/internal/cct"
	"github.com/taudb-analyze/taudb-analyze/internal/safefile"
)

// cellsPerProfileByte bounds the value columns of a 2022+ database by its
// profile.db: contexts × threads may not exceed 16 per byte of profile.db
// (with a floor of 65,536), so that a small file cannot make the reader
// allocate without bound.
const cellsPerProfileByte = 16

// hasMeta reports whether dir holds a meta.db and no experiment.xml: Read
// then reads it as a 2022+ database, and says what is wrong with it.
func hasMeta(dir string) bool {
	if _, err := os.Stat(filepath.Join(dir, "experiment.xml")); err == nil {
		return false
	}
	_, err := os.Stat(filepath.Join(dir, "meta.db"))
	return err == nil
}

// isV4 reports whether dir holds a 2022+ database: a meta.db that starts
// with HPCTOOLKITmeta.
func isV4(dir string) bool {
	f, err := safefile.Open(filepath.Join(dir, "meta.db"))
	if err != nil {
		return false
	}
	defer f.Close()
	var head [14]byte
	n, _ := f.Read(head[:])
	return n == len(head) && string(head[:]) == "HPCTOOLKITmeta"
}

// readTree4 reads meta.db and profile.db into a calling context tree: the
// inclusive value of a node is hpcprof's execution-scope value of its
// context, its exclusive value the inclusive minus its children's.
func readTree4(dir string) (*cct.Tree, *meta4, error) {
	m, err := readMeta(filepath.Join(dir, "meta.db"))
	if err != nil {
		return nil, nil, err
	}
	pdb := filepath.Join(dir, "profile.db")
	p, err := openProfiles(pdb, m.kinds)
	if err != nil {
		return nil, nil, err
	}
	defer p.close()
	t := &m.tree
	var cols []int // profile index of each thread
	ctx := map[string]int{}
	next := map[[2]int]int{}
	for i, pr := range p.profiles {
		if pr.summary {
			continue
		}
		key := [2]int{pr.id.Node, pr.id.Thread}
		k := fmt.Sprint(key) + pr.tuple
		c, ok := ctx[k]
		if !ok {
			c = next[key]
			next[key]++
			ctx[k] = c
		}
		id := pr.id
		id.Context = c
		t.Threads = append(t.Threads, id)
		cols = append(cols, i)
	}
	if len(cols) == 0 {
		return nil, nil, errorf(pdb, -1, "no thread profile (only summaries)")
	}
	if cells := int64(len(t.Nodes)) * int64(len(cols)); cells > max(1<<16, cellsPerProfileByte*int64(p.d.size)) {
		return nil, nil, errorf(pdb, -1, "%d contexts × %d profiles need more values than a profile.db of %d bytes holds", len(t.Nodes), len(cols), p.d.size)
	}
	unknown, err := m.fill(t, p, cols)
	if err != nil {
		return nil, nil, err
	}
	m.unknown = unknown
	return t, m, nil
}

// fill reads every thread profile's execution-scope values (inclusive)
// into t and derives the exclusive ones from the tree. It returns the
// number of context ids with values that meta.db does not list (their cost
// is already in their ancestors' inclusive values; Hatchet leaves them
// out too).
func (m *meta4) fill(t *cct.Tree, p *profileDB, cols []int) (int, error) {
	byID := make([]int, 1<<16)
	for i := range byID {
		byID[i] = -1
	}
	scale := make([]float64, len(m.metrics))
	for i, mt := range m.metrics {
		name, s := mt.name, 1.0
		if strings.Contains(name, "(sec)") {
			name, s = strings.Replace(name, "(sec)", "(usec)", 1), 1e6
		}
		t.Metrics = append(t.Metrics, name)
		scale[i] = s
		byID[mt.exec] = i
	}
	t.Alloc(false)
	nt := len(cols)
	unknown := map[uint32]bool{}
	for th, pi := range cols {
		err := p.values(pi, func(ctx uint32, metric uint16, v float64) error {
			mi := byID[metric]
			if ctx == 0 || mi < 0 {
				return nil // the global context, or another scope
			}
			n, ok := m.node[ctx]
			if !ok {
				unknown[ctx] = true
				return nil
			}
			if n >= 0 {
				t.Incl[mi][n*nt+th] = v * scale[mi]
			}
			return nil
		})
		if err != nil {
			return 0, err
		}
	}
	for mi := range m.metrics {
		t.DeriveExclusive(mi)
	}
	return len(unknown), nil
}

// read4 reads a 2022+ database into a trial.
func (r Reader) read4(dir string) (*drg.Trial, error) {
	tree, m, err := readTree4(dir)
	if err != nil {
		return nil, err
	}
	meta := map[string]string{
		"HPCToolkit database version": "4",
		"HPCToolkit program":          m.title,
		"File Type Name":              "HPCToolkit database (meta.db, profile.db)",
	}
	for i, k := range m.kinds {
		meta["HPCToolkit identifier kind "+strconv.Itoa(i)] = k
	}
	t, err := tree.Build(filepath.Base(dir), drg.Source{Format: Format, Path: r.Path, DataSource: DataSource}, meta)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r.Path, err)
	}
	if m.unknown > 0 {
		t.Warnings = append(t.Warnings, fmt.Sprintf("profile.db has values for %d context ids that meta.db does not list; their cost is in their ancestors' inclusive values", m.unknown))
	}
	return t, nil
}
