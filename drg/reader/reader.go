// Package reader reads a TAU trial from a path in any supported format,
// detecting the format from the path and the first bytes of the file.
package reader

import (
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/drg/ppk"
	"github.com/taudb-analyze/taudb-analyze/drg/profile"
	"github.com/taudb-analyze/taudb-analyze/drg/snapshot"
	"github.com/taudb-analyze/taudb-analyze/internal/safefile"
)

// Formats lists the names accepted by Read's format argument.
var Formats = []string{"profile", "ppk", "snapshot"}

// Read reads the trial at path. format is "" to detect it, or one of
// Formats: "profile" (a directory of profile.N.C.T files, MULTI__ folders,
// or one such file), "ppk" (a ParaProf packed profile, gzip or not) or
// "snapshot" (TAU merged or snapshot XML, gzip or not, or a directory of
// snapshot.N.C.T files).
func Read(path, format string) (*drg.Trial, error) {
	if format == "" {
		var err error
		if format, err = Detect(path); err != nil {
			return nil, err
		}
	}
	switch format {
	case "profile":
		return profile.Reader{Path: path}.Read()
	case "ppk":
		return ppk.Reader{Path: path}.Read()
	case "snapshot", "xml":
		return snapshot.Reader{Path: path}.Read()
	}
	return nil, fmt.Errorf("unknown format %q (want one of %s)", format, strings.Join(Formats, ", "))
}

// Detect returns the format of the trial at path.
func Detect(path string) (string, error) {
	st, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	if st.IsDir() {
		if profile.Detect(path) {
			return "profile", nil
		}
		if m, _ := filepath.Glob(filepath.Join(path, "snapshot.*")); len(m) > 0 {
			return "snapshot", nil
		}
		return "", fmt.Errorf("%s: no TAU profile files (profile.N.C.T, MULTI__*/profile.N.C.T) or snapshot files in this folder", path)
	}
	if profile.Detect(path) {
		return "profile", nil
	}
	head, err := sniff(path)
	if err != nil {
		return "", err
	}
	switch {
	case ppk.Detect(head):
		return "ppk", nil
	case snapshot.Detect(head):
		return "snapshot", nil
	}
	return "", fmt.Errorf("%s: not a TAU trial this tool reads (TAU profile folder, .ppk, or TAU XML)", path)
}

// sniff returns the first bytes of a file, decompressed if it is gzip.
func sniff(path string) ([]byte, error) {
	f, err := safefile.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	head := make([]byte, 1024)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	if len(head) >= 2 && head[0] == 0x1f && head[1] == 0x8b {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return nil, err
		}
		zr, err := gzip.NewReader(f)
		if err != nil {
			return nil, fmt.Errorf("%s: gzip: %w", path, err)
		}
		out := make([]byte, 1024)
		n, _ := io.ReadFull(zr, out)
		return out[:n], nil
	}
	return head, nil
}
