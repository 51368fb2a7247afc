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
	"github.com/taudb-analyze/taudb-analyze/drg/caliper"
	"github.com/taudb-analyze/taudb-analyze/drg/cube"
	"github.com/taudb-analyze/taudb-analyze/drg/gprof"
	"github.com/taudb-analyze/taudb-analyze/drg/hpctoolkit"
	"github.com/taudb-analyze/taudb-analyze/drg/ppk"
	"github.com/taudb-analyze/taudb-analyze/drg/profile"
	"github.com/taudb-analyze/taudb-analyze/drg/snapshot"
	"github.com/taudb-analyze/taudb-analyze/internal/safefile"
)

// Formats lists the names accepted by Read's format argument.
var Formats = []string{"profile", "ppk", "snapshot", "caliper", "gprof", "hpctoolkit", "cube"}

// Read reads the trial at path. format is "" to detect it, or one of
// Formats: "profile" (a directory of profile.N.C.T files, MULTI__ folders,
// or one such file), "ppk" (a ParaProf packed profile, gzip or not) or
// "snapshot" (TAU merged or snapshot XML, gzip or not, or a directory of
// snapshot.N.C.T files), "caliper" (a Caliper .cali file or cali-query
// JSON), "gprof" (gprof's text output or a gprof2dot DOT graph),
// "hpctoolkit" (an HPCToolkit database folder of experiment.xml and
// metric-db files, or its experiment.xml, or a 2022+ meta.db/profile.db
// database) or "cube" (a Score-P CUBE4 .cubex).
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
	case "caliper":
		return caliper.Reader{Path: path}.Read()
	case "gprof":
		return gprof.Reader{Path: path}.Read()
	case hpctoolkit.Format:
		return hpctoolkit.Reader{Path: path}.Read()
	case cube.Format:
		return cube.Reader{Path: path}.Read()
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
		if hpctoolkit.Detect(path) {
			return hpctoolkit.Format, nil
		}
		return "", fmt.Errorf("%s: no TAU profile files (profile.N.C.T, MULTI__*/profile.N.C.T), snapshot files or HPCToolkit database in this folder", path)
	}
	if profile.Detect(path) {
		return "profile", nil
	}
	head, err := sniff(path)
	if err != nil {
		return "", err
	}
	switch {
	case hpctoolkit.DetectHead(head):
		return hpctoolkit.Format, nil
	case cube.DetectHead(head) || cube.Detect(path):
		return cube.Format, nil
	case ppk.Detect(head):
		return "ppk", nil
	case snapshot.Detect(head):
		return "snapshot", nil
	case caliper.Detect(head) || strings.HasSuffix(path, ".cali"):
		return "caliper", nil
	case gprof.Detect(head):
		return "gprof", nil
	}
	if what := lookalike(head); what != "" {
		return "", fmt.Errorf("%s: %s", path, what)
	}
	return "", fmt.Errorf("%s: not a trial this tool reads (TAU profile folder, .ppk, TAU XML, Caliper .cali or JSON, gprof or gprof2dot output, HPCToolkit database, Score-P .cubex)", path)
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
