package synth

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// JobSpec describes a running MPI job that TAU measures with incremental
// output: every rank writes one cumulative profile per interval (an
// interval is the work between two TAU_PROFILE_SNAPSHOT or TAU_DB_DUMP
// calls). It is the ground truth for testing the watch package.
//
// Regions are "main" and "compute_0" .. "compute_{Regions−1}" (flat
// entries). In interval k (0-based) rank r spends in compute_i
//
//	Δexcl(k, r, i) = round(Base·(i+1)·(1 + Noise·u(k,r,i)) · slow · phase) µs
//
// with u uniform in [−1, 1) from a hash of (Seed, k, r, i); slow =
// SlowFactor for r = SlowRank and k ≥ SlowFrom, else 1; phase =
// PhaseFactor for i = PhaseRegion and k ≥ PhaseAt, else 1. main keeps
// MainExcl µs of exclusive time per interval and its inclusive delta is
// the sum of all. compute_i is called i+1 times per interval, main once
// in all. Values are whole microseconds, so cumulative sums and their
// differences are exact.
type JobSpec struct {
	// Ranks is the number of MPI ranks (one thread each), Regions the
	// number of compute regions, Intervals the number of intervals.
	Ranks, Regions, Intervals int
	// Base is compute_0's time per interval in µs (default 1000).
	Base float64
	// MainExcl is main's own time per interval in µs (default 100).
	MainExcl float64
	// Noise is the relative amplitude of the uniform noise (0.02 = ±2%).
	Noise float64
	// SlowRank (−1: none) becomes SlowFactor times slower from interval
	// SlowFrom on.
	SlowRank, SlowFrom int
	SlowFactor         float64
	// PhaseRegion (−1: none) takes PhaseFactor times its time from
	// interval PhaseAt on, on every rank: a phase change.
	PhaseRegion, PhaseAt int
	PhaseFactor          float64
	// Seed makes the noise reproducible.
	Seed uint64
	// Start is the timestamp of the program start in µs since the epoch
	// (default 2026-01-01); interval k ends at Start + (k+1)·Step.
	Start, Step int64
}

// Job is a generated job: its spec and the cumulative state of every
// rank, advanced one interval at a time by Next.
type Job struct {
	Spec JobSpec
}

// NewJob checks the spec and returns a job at interval 0.
func NewJob(s JobSpec) (*Job, error) {
	if s.Ranks < 1 || s.Regions < 1 || s.Intervals < 1 {
		return nil, errors.New("synth job: ranks, regions and intervals must be ≥ 1")
	}
	if s.Noise < 0 || s.Noise >= 0.5 {
		return nil, fmt.Errorf("synth job: noise %g outside [0, 0.5)", s.Noise)
	}
	if s.Base == 0 {
		s.Base = 1000
	}
	if s.MainExcl == 0 {
		s.MainExcl = 100
	}
	if s.Start == 0 {
		s.Start = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro()
	}
	if s.Step == 0 {
		s.Step = 1_000_000
	}
	return &Job{Spec: s}, nil
}

// JobRegionName is the name of region i: "main" for −1, else compute_i.
func JobRegionName(i int) string {
	if i < 0 {
		return "main"
	}
	return "compute_" + strconv.Itoa(i)
}

// noise returns u(k, r, i) in [−1, 1) from a SplitMix64 hash.
func (j *Job) noise(k, r, i int) float64 {
	x := j.Spec.Seed ^ uint64(k)*0x9e3779b97f4a7c15 ^ uint64(r)*0xbf58476d1ce4e5b9 ^ uint64(i)*0x94d049bb133111eb
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	x ^= x >> 31
	return float64(x>>11)/float64(1<<53)*2 - 1
}

// Delta returns rank r's exclusive time in compute_i during interval k
// (µs), or main's own time for i = −1.
func (j *Job) Delta(k, r, i int) float64 {
	s := j.Spec
	if i < 0 {
		return s.MainExcl
	}
	v := s.Base * float64(i+1) * (1 + s.Noise*j.noise(k, r, i))
	if r == s.SlowRank && k >= s.SlowFrom {
		v *= s.SlowFactor
	}
	if i == s.PhaseRegion && k >= s.PhaseAt {
		v *= s.PhaseFactor
	}
	return float64(int64(v + 0.5))
}

// ProgramDelta returns main's inclusive time on rank r in interval k.
func (j *Job) ProgramDelta(k, r int) float64 {
	t := j.Delta(k, r, -1)
	for i := 0; i < j.Spec.Regions; i++ {
		t += j.Delta(k, r, i)
	}
	return t
}

// Cumulative returns rank r's cumulative calls, exclusive and inclusive
// values of region i (−1 main) at the end of interval k, as TAU writes
// them.
func (j *Job) Cumulative(k, r, i int) (calls, excl, incl float64) {
	for q := 0; q <= k; q++ {
		excl += j.Delta(q, r, i)
		if i < 0 {
			incl += j.ProgramDelta(q, r)
		}
	}
	if i < 0 {
		return 1, excl, incl
	}
	return float64((k + 1) * (i + 1)), excl, excl
}

// cumulativeRow is Cumulative for every region of rank r at interval k:
// row i+1 holds region i, row 0 main.
func (j *Job) cumulativeRows(k, r int, prev [][3]float64) [][3]float64 {
	n := j.Spec.Regions
	if prev == nil {
		prev = make([][3]float64, n+1)
	}
	prog := 0.0
	for i := -1; i < n; i++ {
		d := j.Delta(k, r, i)
		prev[i+1][1] += d
		prog += d
		if i >= 0 {
			prev[i+1][0] += float64(i + 1)
			prev[i+1][2] = prev[i+1][1]
		}
	}
	prev[0][0] = 1
	prev[0][2] += prog
	return prev
}

// SnapshotFile is the name TAU gives rank r's snapshot file.
func SnapshotFile(r int) string { return fmt.Sprintf("snapshot.%d.0.0", r) }

// SnapshotDoc returns the bytes TAU appends to rank r's snapshot file for
// interval k (TAU_PROFILE_FORMAT=snapshot, one <profile_xml> document per
// TAU_PROFILE_SNAPSHOT call): for k = 0 the thread, the metric and the
// event definitions come first, as TauSnapshot.cpp writes them. rows are
// the cumulative values (see CumulativeRows).
func (j *Job) SnapshotDoc(k, r int, rows [][3]float64) []byte {
	tid := fmt.Sprintf("%d.0.0.%d", r, 4000+r)
	b := make([]byte, 0, 64+40*len(rows))
	b = append(b, "<profile_xml>\n"...)
	if k == 0 {
		b = fmt.Appendf(b, "\n<thread id=%q node=\"%d\" context=\"0\" thread=\"0\">\n<metadata>\n<attribute>\n<name>Metric Name</name>\n<value>TIME</value>\n</attribute>\n</metadata>\n</thread>\n", tid, r)
		b = fmt.Appendf(b, "\n<definitions thread=%q>\n<metric id=\"0\"><name>TIME</name>\n<units>unknown</units>\n</metric>\n</definitions>\n", tid)
		b = fmt.Appendf(b, "\n<definitions thread=%q>\n", tid)
		for i := -1; i < j.Spec.Regions; i++ {
			group := "TAU_USER"
			if i < 0 {
				group = "TAU_DEFAULT"
			}
			b = fmt.Appendf(b, "<event id=\"%d\"><name>%s </name><group>%s</group></event>\n", i+1, JobRegionName(i), group)
		}
		b = append(b, "</definitions>\n"...)
	}
	b = fmt.Appendf(b, "\n<profile thread=%q>\n<name>iteration %d</name>\n<timestamp>%d</timestamp>\n<interval_data metrics=\"0 \">\n", tid, k, j.Timestamp(k))
	for i, row := range rows {
		subrs := 0.0
		if i == 0 {
			for q := 1; q < len(rows); q++ {
				subrs += rows[q][0]
			}
		}
		b = strconv.AppendInt(b, int64(i), 10)
		b = append(b, ' ')
		b = strconv.AppendFloat(b, row[0], 'G', 16, 64)
		b = append(b, ' ')
		b = strconv.AppendFloat(b, subrs, 'G', 16, 64)
		b = append(b, ' ')
		b = strconv.AppendFloat(b, row[1], 'G', 16, 64)
		b = append(b, ' ')
		b = strconv.AppendFloat(b, row[2], 'G', 16, 64)
		b = append(b, " \n"...)
	}
	b = append(b, "</interval_data>\n<atomic_data>\n</atomic_data>\n</profile>\n\n</profile_xml>\n"...)
	return b
}

// Timestamp is the time of the snapshot that ends interval k, µs since
// the epoch.
func (j *Job) Timestamp(k int) int64 { return j.Spec.Start + int64(k+1)*j.Spec.Step }

// DumpFile returns the name and text of the profile rank r writes with
// TAU_DB_DUMP_INCR at the end of interval k: a TAU text profile named
// dump__<Day-Mon-dd-hh:mm:ss-yyyy>__.N.C.T after the dump's time.
func (j *Job) DumpFile(k, r int, rows [][3]float64) (string, []byte) {
	t := time.UnixMicro(j.Timestamp(k)).UTC()
	name := fmt.Sprintf("dump__%s-%s-%d-%s-%d__.%d.0.0", t.Format("Mon"), t.Format("Jan"), t.Day(), t.Format("15:04:05"), t.Year(), r)
	b := fmt.Appendf(nil, "%d templated_functions_MULTI_TIME\n# Name Calls Subrs Excl Incl ProfileCalls # <metadata><attribute><name>Metric Name</name><value>TIME</value></attribute></metadata>\n", len(rows))
	for i, row := range rows {
		group := "TAU_USER"
		if i == 0 {
			group = "TAU_DEFAULT"
		}
		b = fmt.Appendf(b, "\"%s \" %s 0 %s %s 0 GROUP=\"%s\" \n", JobRegionName(i-1),
			strconv.FormatFloat(row[0], 'G', 16, 64), strconv.FormatFloat(row[1], 'G', 16, 64), strconv.FormatFloat(row[2], 'G', 16, 64), group)
	}
	b = append(b, "0 aggregates\n"...)
	return name, b
}

// Rows returns the cumulative rows of every rank at the end of interval k
// (row 0 main, row i+1 compute_i; columns calls, exclusive, inclusive).
func (j *Job) Rows(k int) [][][3]float64 {
	out := make([][][3]float64, j.Spec.Ranks)
	for r := range out {
		var rows [][3]float64
		for q := 0; q <= k; q++ {
			rows = j.cumulativeRows(q, r, rows)
		}
		out[r] = rows
	}
	return out
}

// Writer appends a job's intervals to files in a folder, one interval per
// call, keeping the ranks' cumulative values between calls.
type Writer struct {
	Job *Job
	Dir string
	// Dumps writes TAU_DB_DUMP_INCR text profiles instead of snapshot XML.
	Dumps bool
	rows  [][][3]float64
	next  int
}

// Next writes the next interval for every rank and returns its index, or
// −1 when every interval is written.
func (w *Writer) Next() (int, error) {
	k := w.next
	if k >= w.Job.Spec.Intervals {
		return -1, nil
	}
	if w.rows == nil {
		w.rows = make([][][3]float64, w.Job.Spec.Ranks)
	}
	for r := range w.rows {
		w.rows[r] = w.Job.cumulativeRows(k, r, w.rows[r])
		if err := w.write(k, r); err != nil {
			return k, err
		}
	}
	w.next++
	return k, nil
}

// Piece returns what rank r's next write (interval k) adds, and the file
// it goes to, without writing it; the rows advance.
func (w *Writer) Piece(k, r int) (path string, data []byte, appendTo bool) {
	if w.rows == nil {
		w.rows = make([][][3]float64, w.Job.Spec.Ranks)
	}
	w.rows[r] = w.Job.cumulativeRows(k, r, w.rows[r])
	if w.Dumps {
		name, b := w.Job.DumpFile(k, r, w.rows[r])
		return filepath.Join(w.Dir, name), b, false
	}
	return filepath.Join(w.Dir, SnapshotFile(r)), w.Job.SnapshotDoc(k, r, w.rows[r]), true
}

func (w *Writer) write(k, r int) error {
	if w.Dumps {
		name, b := w.Job.DumpFile(k, r, w.rows[r])
		return os.WriteFile(filepath.Join(w.Dir, name), b, 0o644)
	}
	f, err := os.OpenFile(filepath.Join(w.Dir, SnapshotFile(r)), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(w.Job.SnapshotDoc(k, r, w.rows[r])); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
