package synth

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/drg/profile"
)

// DemoMPI is the MPI program of the demo: a strong-scaling series whose
// every overhead is known (see OverheadSpec and Overheads). Per run, in µs:
// 0.4 s of unparallelized setup on rank 0, 16 s of divided work with a 20%
// spread across the ranks, 0.1 s replicated on every rank, 20 ms·log2(p) of
// point-to-point exchange and 50 ms in MPI_Init/MPI_Finalize; 8 ranks per
// 8-core host, so no run is oversubscribed.
var DemoMPI = OverheadSpec{Serial: 4e5, Work: 16e6, Replicated: 1e5, Comm: 2e4, Control: 5e4, Imbalance: 0.2, CoresPerHost: 8}

// DemoProcesses are the process counts of the demo's MPI series.
var DemoProcesses = []int{1, 2, 4, 8, 16}

// DemoOpenMP is the demo's threaded run: one process of 24 threads, 12
// regions, a 40% spread of the work across the threads and 5% noise.
var DemoOpenMP = Spec{Processes: 1, ThreadsPerProcess: 24, Regions: 12, Depth: 2, Metrics: 2,
	Serial: 2e5, Parallel: 8e6, Noise: 0.05, Imbalance: 0.4, Seed: 24, Name: "omp-24"}

// WriteDemo writes the demo's trials as TAU profile folders under dir:
// dir/mpi/pP for every P of DemoProcesses and dir/omp24. It writes into a
// fresh folder beside dir and renames it into place, so that concurrent
// callers and interrupted runs never leave a half-written set; a dir that
// exists already is left as it is (the data are deterministic).
func WriteDemo(dir string) error {
	if _, err := os.Stat(dir); err == nil {
		return nil
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), ".demo-*")
	if err != nil {
		return fmt.Errorf("synth demo: %w", err)
	}
	defer os.RemoveAll(tmp)
	for _, p := range DemoProcesses {
		t, err := DemoMPI.Generate(p, fmt.Sprintf("mpi-np%d", p))
		if err != nil {
			return err
		}
		if err := writeProfile(filepath.Join(tmp, "mpi", fmt.Sprintf("p%d", p)), t); err != nil {
			return err
		}
	}
	omp, err := Generate(DemoOpenMP)
	if err != nil {
		return err
	}
	if err := writeProfile(filepath.Join(tmp, "omp24"), omp); err != nil {
		return err
	}
	if err := os.Rename(tmp, dir); err != nil && !os.IsExist(err) {
		if _, statErr := os.Stat(dir); statErr == nil {
			return nil // another caller finished first
		}
		return fmt.Errorf("synth demo: %w", err)
	}
	return nil
}

// writeProfile writes t as TAU profiles into a new folder.
func writeProfile(dir string, t *drg.Trial) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("synth demo: %w", err)
	}
	if err := profile.Write(dir, t); err != nil {
		return fmt.Errorf("synth demo: %s: %w", dir, err)
	}
	return nil
}
