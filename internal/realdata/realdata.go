// Package realdata finds the real TAU trials that tests use. They are other
// projects' data, so the repository does not carry them: they live in the
// shared data folder next to the project (../shared/data/real, or
// $TAUDB_SHARED_DATA), described with their sources, licences and oracles in
// its SOURCES.md. A test that needs one skips when the folder is absent,
// unless TAUDB_REQUIRE_REAL_DATA=1, which turns the skip into a failure (as
// TAUDB_REQUIRE_PG does for PostgreSQL).
package realdata

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// RequireEnv is the environment variable that makes missing real data a
// test failure instead of a skip.
const RequireEnv = "TAUDB_REQUIRE_REAL_DATA"

// Root returns the project's root directory (the folder holding go.mod).
func Root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
}

// SharedReal returns the shared real-data folder (../shared/data/real next
// to the project, or $TAUDB_SHARED_DATA), or "" when it is absent.
func SharedReal() string {
	dir := os.Getenv("TAUDB_SHARED_DATA")
	if dir == "" {
		dir = filepath.Join(Root(), "..", "shared", "data", "real")
	}
	if st, err := os.Stat(dir); err == nil && st.IsDir() {
		return dir
	}
	return ""
}

// Real returns the path of rel (a path under shared/data/real, such as
// "LLNL-hatchet/tau-cpi-mpi") in the shared folder; the test is skipped when
// the folder does not hold it (failed with TAUDB_REQUIRE_REAL_DATA=1).
func Real(t testing.TB, rel string) string {
	t.Helper()
	if p, ok := Find(rel); ok {
		return p
	}
	Missing(t, rel+": no shared data folder holds it (../shared/data/real or $TAUDB_SHARED_DATA)")
	return ""
}

// Missing skips t with the reason why, or fails it when
// TAUDB_REQUIRE_REAL_DATA=1 says the real data must be there.
func Missing(t testing.TB, why string) {
	t.Helper()
	if os.Getenv(RequireEnv) == "1" {
		t.Fatalf("%s (%s=1)", why, RequireEnv)
	}
	t.Skip(why)
}

// Find is Real without a test: it returns the path and whether it exists.
func Find(rel string) (string, bool) {
	s := SharedReal()
	if s == "" {
		return "", false
	}
	p := filepath.Join(s, rel)
	if _, err := os.Stat(p); err != nil {
		return "", false
	}
	return p, true
}

// Oracle returns the path of the oracle folder for a trial (rel with "/"
// turned into "_") in the shared tau-oracles folder: statistics that TAU's
// Java tools and Hatchet computed on the trial.
func Oracle(t testing.TB, rel string) string {
	t.Helper()
	flat := strings.ReplaceAll(filepath.ToSlash(rel), "/", "_")
	return Real(t, filepath.Join("tau-oracles", flat))
}

// ProfileTrials lists the TAU profile-directory trials of the shared data
// (paths under shared/data/real), with the counts SOURCES.md gives: threads,
// distinct measured timer names (flat and callpath) and callpath names among
// them, and user events.
var ProfileTrials = []struct {
	Rel                                string
	Threads, Timers, Callpaths, Events int
	Licensed                           bool
}{
	{"LLNL-hatchet/tau-cpi-mpi", 4, 23, 11, 2, true},
	{"UO-OACISS-tau2/taudb_c_api/parse_tau_profile_test", 2, 3, 0, 0, true},
	{"UO-OACISS-tau2/examples/wrap", 2, 8, 0, 0, true},
	{"UO-OACISS-tau2/examples/workflow_consolidation/xmain_0", 8, 27, 0, 29, true},
	{"UO-OACISS-tau2/examples/workflow_consolidation/reader2_0", 4, 17, 0, 10, true},
	{"ParaToolsInc-taucmdr/jupyter/east02-mm-profile/0", 1, 21, 10, 0, true},
	{"ParaToolsInc-taucmdr/jupyter/east02-mm-profile/1", 2, 21, 10, 0, true},
	{"ParaToolsInc-taucmdr/jupyter/east02-mm-profile/2", 3, 21, 10, 0, true},
	{"ParaToolsInc-taucmdr/jupyter/east02-mm-profile/3", 4, 21, 10, 0, true},
	{"ParaToolsInc-taucmdr/jupyter/east02-mm-profile/4", 5, 21, 10, 0, true},
	{"ParaToolsInc-taucmdr/jupyter/east02-mm-profile/5", 6, 21, 10, 0, true},
	{"ParaToolsInc-taucmdr/jupyter/east02-mm-profile/6", 7, 21, 10, 0, true},
	{"ParaToolsInc-taucmdr/jupyter/east02-mm-profile/7", 8, 21, 10, 0, true},
	{"ParaToolsInc-taucmdr/jupyter-new/mpi-profile-example", 7, 29, 14, 0, true},
	{"ParaToolsInc-taucmdr/charts-devel/pthreads-matmult", 4, 13, 0, 0, false},
	{"stevenpl98-ParallelFinalProject/parallel-omp12", 12, 32, 0, 0, false},
	{"ThanGeo-Hecatoncheir/profile-6ef6332", 1, 192, 103, 6, false},
	{"ThanGeo-Hecatoncheir/profile-6ef6332/spawn-1", 8, 366, 221, 61, false},
}

// FileTrials lists the packed-profile and XML trials of the shared data with
// the counts SOURCES.md gives (same fields as ProfileTrials).
var FileTrials = []struct {
	Rel                                string
	Threads, Timers, Callpaths, Events int
	Licensed                           bool
}{
	{"UO-OACISS-tau2/perfexplorer/StackedBarChart/2.ppk", 2, 10, 0, 3, true},
	{"UO-OACISS-tau2/perfexplorer/StackedBarChart/4.ppk", 4, 10, 0, 3, true},
	{"UO-OACISS-tau2/perfexplorer/StackedBarChart/6.ppk", 6, 10, 0, 3, true},
	{"UO-OACISS-tau2/perfexplorer/StackedBarChart/8.ppk", 8, 10, 0, 3, true},
	{"UO-OACISS-tau2/perfexplorer/HeatMapSamples/matmult.ppk", 24, 51, 19, 0, true},
	{"UO-OACISS-tau2/perfexplorer/HardwareCounterBasicAnalysis/xgc-nosamples.ppk", 16, 42, 0, 4, true},
	{"UO-OACISS-tau2/perfexplorer/MetadataCorrelation/tauprofile-unweighted.xml", 8, 79, 0, 215, true},
}
