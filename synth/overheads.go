package synth

import (
	"fmt"
	"math"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// OverheadSpec describes an MPI program whose parallel overheads are known
// exactly, for testing SCALEA's overhead classification (package overhead)
// against ground truth. Every rank k of a run with p ranks (times in µs,
// no noise):
//
//	MPI_Init()        Control/2
//	serial_init       Serial on rank 0 only (unparallelized code); the
//	                  other ranks wait for it in MPI_Barrier()
//	setup_replicated  Replicated on every rank (replicated code)
//	compute           w_k = (Work/p)·(1 + Imbalance·(k/(p−1) − ½)), the
//	                  divided work (w_0 = Work at p = 1)
//	MPI_Barrier()     the wait for serial_init (Serial on ranks k > 0) plus
//	                  max_j w_j − w_k
//	MPI_Sendrecv()    Comm·log2(p), point-to-point data movement
//	MPI_Finalize()    Control/2
//
// so every rank ends at T(p) = Control + Serial + Replicated + max_j w_j +
// Comm·log2(p). Overheads returns what each category must be.
type OverheadSpec struct {
	Serial, Work, Replicated, Comm, Control, Imbalance float64
	// CoresPerHost, when positive, puts that many ranks on each host in the
	// metadata ("CPU Cores" and "Hostname").
	CoresPerHost int
}

// Overheads are the figures of a run of an OverheadSpec as SCALEA's
// classification should find them for the average process, with T_s the
// useful work of the 1-process run (Serial + Replicated + Work).
type Overheads struct {
	P, Tp, Ts, To                                  float64
	DataMovement, Synchronization, Control         float64
	Unparallelized, Replicated, Loss, Unidentified float64
}

// share is w_k, rank k's part of the divided work.
func (s OverheadSpec) share(k, p int) float64 {
	if p == 1 {
		return s.Work
	}
	return s.Work / float64(p) * (1 + s.Imbalance*(float64(k)/float64(p-1)-0.5))
}

// Overheads returns the ground truth at p ranks.
func (s OverheadSpec) Overheads(p int) Overheads {
	fp := float64(p)
	wmax := s.share(p-1, p)
	o := Overheads{P: fp, Ts: s.Serial + s.Replicated + s.Work}
	o.Tp = s.Control + s.Serial + s.Replicated + wmax + s.Comm*math.Log2(fp)
	o.To = o.Tp - o.Ts/fp
	o.DataMovement = s.Comm * math.Log2(fp)
	o.Control = s.Control
	if p > 1 {
		o.Synchronization = wmax - s.Work/fp // the imbalance the others wait for
		o.Unparallelized = s.Serial * (fp - 1) / fp
		o.Replicated = s.Replicated * (fp - 1) / fp
	}
	o.Loss = o.Unparallelized + o.Replicated
	return o
}

// Generate writes the run at p ranks as a trial named name.
func (s OverheadSpec) Generate(p int, name string) (*drg.Trial, error) {
	if p < 1 || p > 1<<16 {
		return nil, fmt.Errorf("synth: %d ranks: want 1 to 65536", p)
	}
	for _, v := range []float64{s.Serial, s.Work, s.Replicated, s.Comm, s.Control} {
		if !(v >= 0) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("synth: overhead spec times must be finite and >= 0")
		}
	}
	if !(s.Imbalance >= 0 && s.Imbalance < 2) {
		return nil, fmt.Errorf("synth: imbalance must be in [0, 2)")
	}
	ids := make([]drg.ThreadID, p)
	for k := range ids {
		ids[k] = drg.ThreadID{Node: k}
	}
	b, err := drg.NewBuilder(ids)
	if err != nil {
		return nil, err
	}
	s.fill(b, p)
	b.TrialMetadata("Application", "synth-overhead")
	return b.Finish(name, drg.Source{Format: "profile", Path: "synth", DataSource: 1})
}

// fill records every rank's regions.
func (s OverheadSpec) fill(b *drg.Builder, p int) {
	m := b.Metric("TIME")
	node := func(name, group string) int {
		n := b.Node(name)
		b.SetGroups(n, group)
		return n
	}
	mainN := node("main", "TAU_DEFAULT")
	regions := []int{node("MPI_Init()", "MPI"), node("serial_init", "TAU_USER"), node("setup_replicated", "TAU_USER"),
		node("compute", "TAU_USER"), node("MPI_Barrier()", "MPI"), node("MPI_Sendrecv()", "MPI"), node("MPI_Finalize()", "MPI")}
	wmax := s.share(p-1, p)
	comm := s.Comm * math.Log2(float64(p))
	for k := 0; k < p; k++ {
		serial, wait := 0.0, s.Serial
		if k == 0 {
			serial, wait = s.Serial, 0
		}
		w := s.share(k, p)
		vals := []float64{s.Control / 2, serial, s.Replicated, w, wait + wmax - w, comm, s.Control / 2}
		var sum float64
		for i, n := range regions {
			if n == regions[1] && k != 0 {
				continue // serial_init runs on rank 0 only
			}
			b.AddCalls(n, k, 1, 0)
			b.AddValues(n, k, m, vals[i], vals[i])
			sum += vals[i]
		}
		b.AddCalls(mainN, k, 1, float64(len(regions)))
		b.AddValues(mainN, k, m, 0, sum)
		if s.CoresPerHost > 0 {
			b.ThreadMetadata(k, "Hostname", fmt.Sprintf("node%03d", k/s.CoresPerHost), false)
			b.ThreadMetadata(k, "CPU Cores", fmt.Sprint(s.CoresPerHost), false)
		}
	}
}
