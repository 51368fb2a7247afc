package report

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// MarkerFile is the file a report folder holds to say which of its files
// Write wrote: one path a line, relative to the folder, after a comment
// line. A folder without it that is not empty holds someone else's files,
// which Write refuses to mix with a report.
const MarkerFile = ".taudb-analyze-report"

// markerHead is the first line of the marker.
const markerHead = "# files written by taudb-analyze report; it replaces only these"

// ErrFolderInUse is wrapped by the error of a folder holding files Write
// did not write.
var ErrFolderInUse = errors.New("holds files this tool did not write")

// outDir is what a report folder holds before Write: the files of an
// earlier report (from its marker) and the others.
type outDir struct {
	ours    map[string]bool
	foreign []string
}

// readOutDir lists the files of dir (and of its assets folder), sorting
// them into those the marker names and the others. A missing folder is an
// empty one.
func readOutDir(dir string) (*outDir, error) {
	d := &outDir{ours: map[string]bool{}}
	if b, err := os.ReadFile(filepath.Join(dir, MarkerFile)); err == nil {
		sc := bufio.NewScanner(bytes.NewReader(b))
		for sc.Scan() {
			if l := sc.Text(); l != "" && !strings.HasPrefix(l, "#") && filepath.IsLocal(l) {
				d.ours[path.Clean(l)] = true
			}
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return d, nil
	}
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		name := e.Name()
		switch {
		case name == MarkerFile, d.ours[name]:
		case name == "assets" && e.IsDir():
			sub, err := os.ReadDir(filepath.Join(dir, name))
			if err != nil {
				return nil, err
			}
			for _, s := range sub {
				if rel := "assets/" + s.Name(); !d.ours[rel] {
					d.foreign = append(d.foreign, rel)
				}
			}
		default:
			d.foreign = append(d.foreign, name)
		}
	}
	return d, nil
}

// CheckDir says whether a report may be written into dir: a missing or
// empty folder, or one holding only an earlier report's files (listed in
// its MarkerFile), is fine. A folder holding other files is refused
// (ErrFolderInUse, naming a few of them) unless force is set; with force
// those files are kept, and planned (the files the report will write,
// relative to dir) must not name one of them.
func CheckDir(dir string, force bool, planned ...string) error {
	d, err := readOutDir(dir)
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	if len(d.foreign) == 0 {
		return nil
	}
	if !force {
		return fmt.Errorf("report: %s %w (%s): choose a new or empty folder, or give --force to write beside them", dir, ErrFolderInUse, some(d.foreign))
	}
	foreign := map[string]bool{}
	for _, f := range d.foreign {
		foreign[f] = true
	}
	for _, p := range planned {
		if foreign[p] {
			return fmt.Errorf("report: %s: %s was not written by this tool: not replaced, even with --force; move it away", dir, p)
		}
	}
	return nil
}

// some names up to three of files, and how many more there are.
func some(files []string) string {
	sort.Strings(files)
	if len(files) <= 3 {
		return strings.Join(files, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(files[:3], ", "), len(files)-3)
}

// finishDir removes the files of the earlier report that this one did not
// write again (its pages beyond the new ones) and records written in the
// marker.
func finishDir(dir string, before *outDir, written []string) error {
	now := map[string]bool{}
	for _, w := range written {
		now[w] = true
	}
	for old := range before.ours {
		if !now[old] {
			if err := os.Remove(filepath.Join(dir, filepath.FromSlash(old))); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("report: removing %s of the earlier report: %w", old, err)
			}
		}
	}
	sort.Strings(written)
	b := []byte(markerHead + "\n" + strings.Join(written, "\n") + "\n")
	if err := writeFileAtomic(filepath.Join(dir, MarkerFile), b); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}
