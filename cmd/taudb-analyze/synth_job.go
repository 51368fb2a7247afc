package main

import (
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"
	"github.com/taudb-analyze/taudb-analyze/synth"
)

// jobFlags are synth's flags for --job: a running job writing TAU
// snapshots (or dumps) over time, for trying "watch".
type jobFlags struct {
	dir   string
	spec  synth.JobSpec
	every time.Duration
	dumps bool
}

func (jf *jobFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	s := &jf.spec
	fl.StringVar(&jf.dir, "job", "", "write a running job into DIR instead: one TAU snapshot per rank and interval (snapshot.N.0.0), every --every (see go doc ./synth.JobSpec)")
	fl.IntVar(&s.Ranks, "job-ranks", 16, "--job: ranks")
	fl.IntVar(&s.Intervals, "job-intervals", 20, "--job: intervals")
	fl.DurationVar(&jf.every, "every", time.Second, "--job: time between two intervals")
	fl.IntVar(&s.SlowRank, "slow-rank", -1, "--job: this rank becomes --slow-factor times slower from interval --slow-from (-1: none)")
	fl.IntVar(&s.SlowFrom, "slow-from", 0, "--job: first slow interval")
	fl.Float64Var(&s.SlowFactor, "slow-factor", 2, "--job: slowdown of the slow rank")
	fl.IntVar(&s.PhaseRegion, "phase-region", -1, "--job: compute_I takes --phase-factor times its time from interval --phase-at on (-1: none)")
	fl.IntVar(&s.PhaseAt, "phase-at", 0, "--job: first interval of the new phase")
	fl.Float64Var(&s.PhaseFactor, "phase-factor", 3, "--job: change of the phase's region")
	fl.BoolVar(&jf.dumps, "dumps", false, "--job: write TAU_DB_DUMP_INCR text dumps (dump__<date>__.N.0.0) instead of snapshots")
}

// runJob writes the job interval by interval, printing each.
func (a *app) runJob(jf jobFlags, regions int, noise float64, seed uint64) error {
	jf.spec.Regions, jf.spec.Noise, jf.spec.Seed = regions, noise, seed
	job, err := synth.NewJob(jf.spec)
	if err != nil {
		return usagef("%v", err)
	}
	if err := os.MkdirAll(jf.dir, 0o755); err != nil {
		return err
	}
	w := &synth.Writer{Job: job, Dir: jf.dir, Dumps: jf.dumps}
	for {
		k, err := w.Next()
		if err != nil {
			return err
		}
		if k < 0 {
			return nil
		}
		fmt.Fprintf(a.out, "interval %d written\n", k)
		if k+1 < jf.spec.Intervals {
			time.Sleep(jf.every)
		}
	}
}
