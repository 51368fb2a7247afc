package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/taudb-analyze/taudb-analyze/drg/ppk"
	"github.com/taudb-analyze/taudb-analyze/drg/profile"
	"github.com/taudb-analyze/taudb-analyze/synth"
)

func (a *app) synthCmd() *cobra.Command {
	var sf synthFlags
	cmd := &cobra.Command{
		Use:   "synth --out DIR [--processes 1,2,4,8] [--regions R] [-f profile|ppk] ...",
		Short: "Generate TAU profile folders or ParaProf .ppk files of any size following a scaling model",
		Long: `synth writes real TAU profile folders (profile.N.C.T files; MULTI__ folders
with several metrics), one per process count of --processes, into DIR/pP;
with --file-format ppk (-f ppk) it writes ParaProf packed profiles
DIR/pP.ppk instead. It prints the paths it wrote, one a line.
The program's time follows T(p) = serial + parallel/p + log*log2(p) µs,
split among --regions regions called from main (with --depth 2 also as
callpaths "main => r"), multiplied on each rank by 1 + imbalance*(rank/(p−1)
− ½) and by a seeded noise factor 1 + noise*u, u uniform in [−1, 1).
Counters after TIME (PAPI_TOT_CYC, PAPI_TOT_INS, ...) are proportional to
time. Use it for benchmarks and for tests that need big or known data.

--demo DIR writes the demo's trials instead (what "taudb-analyze demo" and
the example studies of scripts/ use): DIR/mpi/pP, an MPI program at
P = 1, 2, 4, 8, 16 whose every overhead is known (0.4 s of setup on rank 0,
16 s of work divided with a 20% spread, 0.1 s replicated on every rank,
20 ms·log2(p) of exchange, 50 ms in MPI_Init/Finalize; go doc
./synth.DemoMPI), and DIR/omp24, one process of 24 threads.

--job DIR writes a running MPI job instead, for "watch": every --every, one
more interval (a TAU_PROFILE_SNAPSHOT per rank appended to
DIR/snapshot.N.0.0, or with --dumps a TAU_DB_DUMP_INCR text dump), with
--regions compute regions, optionally a slow rank and a phase change whose
intervals "watch" should flag.`,
		Example: `  taudb-analyze synth --out /tmp/series --processes 1,2,4,8,16 --regions 200 --noise 0.02
  taudb-analyze synth --out /tmp/big --processes 65536 --regions 1000 --metrics 2
  taudb-analyze synth --out /tmp/ppk -f ppk --processes 2,4
  taudb-analyze synth --job /tmp/run --regions 20 --slow-rank 3 --slow-from 8 --phase-region 2 --phase-at 5 &
  taudb-analyze watch /tmp/run --out /tmp/live --idle-exit 10s`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if sf.job.dir != "" {
				return a.runJob(sf.job, sf.s.Regions, sf.s.Noise, sf.s.Seed)
			}
			return a.runSynth(sf)
		},
	}
	sf.register(cmd)
	sf.job.register(cmd)
	return cmd
}

// synthFlags are synth's flags: the model's spec and where and how to
// write it.
type synthFlags struct {
	s                               synth.Spec
	out, procs, format, demo, sizes string
	reps                            int
	job                             jobFlags
}

func (sf *synthFlags) register(cmd *cobra.Command) {
	s := &sf.s
	fl := cmd.Flags()
	fl.StringVar(&sf.out, "out", "", "folder to write into")
	fl.StringVar(&sf.procs, "processes", "1,2,4,8", "process counts of the series")
	fl.StringVarP(&sf.format, "file-format", "f", "profile", "file format: profile (TAU profile folders DIR/pP) or ppk (ParaProf packed profiles DIR/pP.ppk)")
	fl.IntVar(&s.ThreadsPerProcess, "threads-per-process", 1, "threads per process")
	fl.IntVar(&s.Regions, "regions", 100, "regions besides main")
	fl.IntVar(&s.Depth, "depth", 2, "callpath depth: 1 (flat) or 2")
	fl.IntVar(&s.Metrics, "metrics", 1, "metrics: TIME, then counters")
	fl.Float64Var(&s.Serial, "serial", 1e6, "serial time of the model, µs")
	fl.Float64Var(&s.Parallel, "parallel", 9e6, "parallel work of the model, µs (divided by p)")
	fl.Float64Var(&s.Log, "log", 5e4, "log2(p) term of the model, µs")
	fl.Float64Var(&s.Noise, "noise", 0.02, "relative noise amplitude")
	fl.Float64Var(&s.Imbalance, "imbalance", 0.1, "relative load imbalance from the first to the last rank")
	fl.Uint64Var(&s.Seed, "seed", 1, "random seed")
	fl.StringVar(&sf.sizes, "sizes", "", "a second parameter n (trial metadata SIZE): its values, comma-separated; the parallel work becomes parallel·n^size-exp")
	fl.Float64Var(&s.SizeExp, "size-exp", 1, "with --sizes: the exponent of n in the parallel term")
	fl.IntVar(&sf.reps, "repetitions", 1, "trials per parameter point (each with its own noise)")
	fl.StringVar(&sf.demo, "demo", "", "write the demo's generated trials into DIR instead (see above)")
}

// runSynth writes the demo's trials, or one trial of the model per process
// count, and prints the paths it wrote.
func (a *app) runSynth(sf synthFlags) error {
	if sf.demo != "" {
		if err := synth.WriteDemo(sf.demo); err != nil {
			return err
		}
		fmt.Fprintln(a.out, sf.demo)
		return nil
	}
	if sf.out == "" {
		return usagef("synth needs --out DIR (or --demo DIR)")
	}
	if sf.format != "profile" && sf.format != "ppk" {
		return usagef("--file-format %q: want profile or ppk", sf.format)
	}
	var ps []int
	for _, f := range strings.Split(sf.procs, ",") {
		p, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || p < 1 {
			return usagef("--processes %q: want a comma-separated list of positive counts", sf.procs)
		}
		ps = append(ps, p)
	}
	sizes, err := parseSizes(sf.sizes)
	if err != nil {
		return err
	}
	if sf.reps < 1 || sf.reps > 100 {
		return usagef("--repetitions %d: want 1 to 100", sf.reps)
	}
	for _, p := range ps {
		for _, n := range sizes {
			for r := range sf.reps {
				path, err := writeSynth(sf, p, n, r)
				if err != nil {
					return err
				}
				fmt.Fprintln(a.out, path)
			}
		}
	}
	return nil
}

// parseSizes parses --sizes: [0] (no second parameter) when empty.
func parseSizes(list string) ([]float64, error) {
	if strings.TrimSpace(list) == "" {
		return []float64{0}, nil
	}
	var out []float64
	for _, f := range strings.Split(list, ",") {
		n, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || !(n > 0) || math.IsInf(n, 0) {
			return nil, usagef("--sizes %q: want a comma-separated list of positive numbers", list)
		}
		out = append(out, n)
	}
	return out, nil
}

// writeSynth generates the model's trial at p processes (size n when >
// 0, repetition r) and writes it as sf says; it returns the path written:
// DIR/pP, or DIR/pP-nN-rR with sizes or repetitions.
func writeSynth(sf synthFlags, p int, n float64, r int) (string, error) {
	spec := sf.s
	spec.Processes, spec.Size = p, n
	spec.Seed += uint64(r) * 7919
	base := fmt.Sprintf("p%d", p)
	if n > 0 || sf.reps > 1 {
		base = fmt.Sprintf("p%d-n%s-r%d", p, strconv.FormatFloat(n, 'g', -1, 64), r+1)
	}
	spec.Name = "synth-" + base
	t, err := synth.Generate(spec)
	if err != nil {
		return "", usagef("%v", err)
	}
	path := filepath.Join(sf.out, base)
	if sf.format == "ppk" {
		path += ".ppk"
		if err := os.MkdirAll(sf.out, 0o755); err != nil {
			return "", fmt.Errorf("synth: %w", err)
		}
		return path, ppk.WriteFile(path, t)
	}
	return path, profile.Write(path, t)
}
