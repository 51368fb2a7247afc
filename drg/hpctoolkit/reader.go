package hpctoolkit

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/drg/internal/cct"
	"github.com/taudb-analyze/taudb-analyze/internal/safefile"
)

// DataSource is TAUdb's data_source id of HPCToolkit profiles (the TAUdb
// manual's data_source table: 9, "HPC Toolkit profiles (Rice Univ.)").
const DataSource = 9

// Format is the trial's Source.Format for this reader.
const Format = "hpctoolkit"

// Reader reads one HPCToolkit database.
type Reader struct {
	// Path is the database folder, or its experiment.xml.
	Path string
}

// Detect reports whether path is an HPCToolkit database folder (or its
// experiment.xml or meta.db): a meta.db starting with HPCTOOLKITmeta (the
// 2022+ format), or an experiment.xml whose root element is
// <HPCToolkitExperiment>.
func Detect(path string) bool {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		if isV4(path) {
			return true
		}
		path = filepath.Join(path, "experiment.xml")
	} else if filepath.Base(path) == "meta.db" {
		return isV4(filepath.Dir(path))
	}
	f, err := safefile.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 4096)
	n, _ := f.Read(head)
	return DetectHead(head[:n])
}

// DetectHead reports whether the first bytes of a file look like an
// HPCToolkit experiment.xml or meta.db.
func DetectHead(head []byte) bool {
	return strings.HasPrefix(string(head), "HPCTOOLKITmeta") ||
		strings.Contains(string(head), "<HPCToolkitExperiment") ||
		strings.Contains(string(head), "DOCTYPE HPCToolkitExperiment")
}

// Read reads the database into a trial named after its folder, with
// Source{Format: "hpctoolkit", DataSource: 9}: the 2022+ format when the
// folder has a meta.db, else experiment.xml and the metric-db files. The trial's metadata holds
// the experiment's version, program name and header Info values.
func (r Reader) Read() (*drg.Trial, error) {
	dir := r.Path
	if st, err := os.Stat(dir); err == nil && !st.IsDir() {
		dir = filepath.Dir(dir)
	}
	if hasMeta(dir) {
		return r.read4(dir)
	}
	tree, e, dir, err := r.readTree()
	if err != nil {
		return nil, err
	}
	meta := map[string]string{
		"HPCToolkit database version": e.version,
		"HPCToolkit program":          e.program,
		"File Type Name":              "HPCToolkit database (experiment.xml)",
	}
	for k, v := range e.info {
		meta["HPCToolkit "+k] = v
	}
	name := filepath.Base(dir)
	t, err := tree.Build(name, drg.Source{Format: Format, Path: r.Path, DataSource: DataSource}, meta)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r.Path, err)
	}
	return t, nil
}

// readTree reads experiment.xml and the metric-db files into a calling
// context tree with its values, statements' and loops' exclusive values
// taken out of their parents and missing halves of metric pairs derived.
func (r Reader) readTree() (*cct.Tree, *experiment, string, error) {
	dir := r.Path
	if st, err := os.Stat(dir); err != nil {
		return nil, nil, "", fmt.Errorf("hpctoolkit: %w", err)
	} else if !st.IsDir() {
		dir = filepath.Dir(dir)
	}
	xmlPath := filepath.Join(dir, "experiment.xml")
	f, err := safefile.Open(xmlPath)
	if err != nil {
		return nil, nil, "", fmt.Errorf("hpctoolkit: %w", err)
	}
	e, err := parseExperiment(bufio.NewReaderSize(f, 1<<16), xmlPath)
	f.Close()
	if err != nil {
		return nil, nil, "", err
	}
	cols, halves, scale, err := e.pairMetrics(xmlPath)
	if err != nil {
		return nil, nil, "", err
	}
	files, err := listFiles(dir, e.glob)
	if err != nil {
		return nil, nil, "", err
	}
	for _, df := range files {
		e.tree.Threads = append(e.tree.Threads, df.id)
		// Every file must hold a value per context id and column before
		// the value columns are allocated, so that their size is bounded
		// by the files' bytes.
		if st, err := os.Stat(df.path); err != nil {
			return nil, nil, "", fmt.Errorf("hpctoolkit: %w", err)
		} else if need := metricDBHeader + e.maxID*int64(len(cols))*8; st.Size() < need {
			return nil, nil, "", &Error{Path: df.path, Offset: st.Size(), Err: fmt.Errorf("%w: experiment.xml's context ids up to %d need %d bytes", ErrTruncated, e.maxID, need)}
		}
	}
	// The builder sorts threads; values are stored in file order here and
	// the builder's columns are found by id at build time.
	if _, err := drg.NewBuilder(e.tree.Threads); err != nil {
		return nil, nil, "", fmt.Errorf("%s: metric-db files: %w", dir, err)
	}
	e.tree.Alloc(false)
	if err := readFiles(files, e, cols, scale); err != nil {
		return nil, nil, "", err
	}
	e.subtractStatements()
	for m, h := range halves {
		switch h {
		case "inclusive":
			e.tree.DeriveExclusive(m)
		case "exclusive":
			e.tree.DeriveInclusive(m)
		}
	}
	return &e.tree, e, dir, nil
}

// subtractStatements takes each statement's and loop's exclusive values
// out of its parent's: in the database a procedure's or loop's exclusive
// value covers every statement of its body, loops included. Hatchet does
// this for statements only.
func (e *experiment) subtractStatements() {
	nt := len(e.tree.Threads)
	// Parents before children, so that a loop's value is taken out of its
	// parent before its own inner loops and statements are taken out of it.
	for s := range e.tree.Nodes {
		p, ok := e.stmtParent[s]
		if !ok || p < 0 {
			continue
		}
		for m := range e.tree.Metrics {
			ex := e.tree.Excl[m]
			for th := 0; th < nt; th++ {
				ex[p*nt+th] -= ex[s*nt+th]
			}
		}
	}
}

// readFiles reads the metric-db files in blocks of blockThreads, up to
// GOMAXPROCS blocks at a time: each block writes only its own threads'
// cells, 8 neighbouring values per context. The first error in file order
// is returned.
func readFiles(files []dbFile, e *experiment, cols []column, scale []float64) error {
	e.nodeOfID() // made once, before the goroutines read it
	nblocks := (len(files) + blockThreads - 1) / blockThreads
	errs := make([]error, nblocks)
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < min(nblocks, runtime.GOMAXPROCS(0)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range next {
				lo := b * blockThreads
				hi := min(len(files), lo+blockThreads)
				errs[b] = readBlock(files[lo:hi], lo, e, cols, scale)
			}
		}()
	}
	for b := 0; b < nblocks; b++ {
		next <- b
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
