package profile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// metricDir is one folder of profile files holding one metric.
type metricDir struct {
	path  string
	files []threadFile
}

// errDuplicateThread is the error of a folder with two files for one
// thread (profile.0.0.0 and profile.00.0.0).
var errDuplicateThread = errors.New("both are the profile of thread")

// threadFile is one profile.N.C.T file.
type threadFile struct {
	path string
	id   drg.ThreadID
}

// parseThreadName reads N, C and T from "profile.N.C.T" (or "dump.N.C.T"):
// exactly three dot-separated non-negative decimal integers after the
// prefix, so "profile.0.0.0.json" is not a profile.
func parseThreadName(base, prefix string) (drg.ThreadID, bool) {
	rest, ok := strings.CutPrefix(base, prefix+".")
	if !ok {
		return drg.ThreadID{}, false
	}
	parts := strings.Split(rest, ".")
	if len(parts) != 3 {
		return drg.ThreadID{}, false
	}
	var v [3]int
	for i, p := range parts {
		if p == "" || strings.TrimLeft(p, "0123456789") != "" || len(p) > 9 {
			return drg.ThreadID{}, false
		}
		v[i], _ = strconv.Atoi(p)
	}
	return drg.ThreadID{Node: v[0], Context: v[1], Thread: v[2]}, true
}

// listThreadFiles returns the prefix.N.C.T files of dir in (N, C, T) order.
func listThreadFiles(dir, prefix string) ([]threadFile, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []threadFile
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		if id, ok := parseThreadName(e.Name(), prefix); ok {
			out = append(out, threadFile{path: filepath.Join(dir, e.Name()), id: id})
		}
	}
	sort.Slice(out, func(i, j int) bool { return less(out[i].id, out[j].id) })
	for i := 1; i < len(out); i++ {
		if out[i].id == out[i-1].id {
			id := out[i].id
			return nil, fmt.Errorf("%s and %s: %w %d.%d.%d: remove one", out[i-1].path, out[i].path, errDuplicateThread, id.Node, id.Context, id.Thread)
		}
	}
	return out, nil
}

func less(a, b drg.ThreadID) bool {
	if a.Node != b.Node {
		return a.Node < b.Node
	}
	if a.Context != b.Context {
		return a.Context < b.Context
	}
	return a.Thread < b.Thread
}

// discover finds the metric folders of a trial directory the way TAU's
// loader does: profile.N.C.T files in dir; else MULTI__* subfolders (sorted
// by name), one metric each; else dump.N.C.T files.
func discover(dir string) ([]metricDir, error) {
	files, err := listThreadFiles(dir, "profile")
	if err != nil {
		return nil, err
	}
	if len(files) > 0 {
		return []metricDir{{path: dir, files: files}}, nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var dirs []metricDir
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), "MULTI_") {
			continue
		}
		sub := filepath.Join(dir, e.Name())
		files, err := listThreadFiles(sub, "profile")
		if err != nil {
			return nil, err
		}
		if len(files) > 0 {
			dirs = append(dirs, metricDir{path: sub, files: files})
		}
	}
	if len(dirs) > 0 {
		return dirs, nil
	}
	files, err = listThreadFiles(dir, "dump")
	if err != nil {
		return nil, err
	}
	if len(files) > 0 {
		return []metricDir{{path: dir, files: files}}, nil
	}
	return nil, fmt.Errorf("%s: no TAU profile files (profile.N.C.T, MULTI__*/profile.N.C.T or dump.N.C.T)", dir)
}

// Spawned returns the spawn-N subfolders of dir that hold profiles of
// processes started with MPI_Comm_spawn; each is a trial of its own.
func Spawned(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() && strings.HasPrefix(e.Name(), "spawn-") {
			if _, err := discover(filepath.Join(dir, e.Name())); err == nil {
				out = append(out, filepath.Join(dir, e.Name()))
			}
		}
	}
	return out
}

// Detect reports whether path is a TAU profile directory or a single
// profile.N.C.T file.
func Detect(path string) bool {
	st, err := os.Stat(path)
	if err != nil {
		return false
	}
	if !st.IsDir() {
		_, ok := parseThreadName(filepath.Base(path), "profile")
		return ok
	}
	_, err = discover(path)
	return err == nil || errors.Is(err, errDuplicateThread)
}
