package watch

import (
	"context"
	"fmt"
	"runtime"
	"sort"
	"sync"
	"time"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// Options tune a Watcher; the zero value takes every default.
type Options struct {
	// RankTimeout is how long a rank may send nothing while another rank
	// is ahead of it before intervals close without it (default 30 s).
	RankTimeout time.Duration
	// Ranks is the number of ranks the job has, when known: an interval
	// then closes as soon as that many have reported it. Unknown (0), it
	// closes once every rank seen has reported it and either no new rank
	// has appeared for Startup (default 3 s) or a rank has reported the
	// next interval, so that ranks whose files appear a little late are
	// not taken for missing.
	Ranks   int
	Startup time.Duration
	// DumpPrefixes are the names of rewritten text dumps PREFIX.N.C.T
	// (default "dump": TAU_DB_DUMP; add TAU_DB_DUMP_PREFIX's prefixes).
	DumpPrefixes []string
	// Settle is how long a text dump may stay unparsable, unchanged,
	// before it is reported as malformed (default 10 s).
	Settle time.Duration
	// MaxOpen bounds the intervals held open at once: a rank more than
	// MaxOpen intervals ahead of the slowest live rank is not read further
	// until that one catches up (default 4).
	MaxOpen int
	// Clusters is the k of the k-means of ranks per interval (default 3),
	// Features the number of regions it uses (the largest of the interval
	// by exclusive time, default 8).
	Clusters, Features int
	// Bins is the number of histogram bins (default 20).
	Bins int
	// Rules are the anomaly thresholds (zero fields take the defaults).
	Rules Rules
	// KeepSeries bounds the intervals kept for the time series of the
	// live view (default 1000; older ones are dropped from the view only).
	KeepSeries int
	// Now returns the time (tests); default time.Now.
	Now func() time.Time
}

func (o *Options) fill() {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	if o.RankTimeout <= 0 {
		o.RankTimeout = 30 * time.Second
	}
	if o.Startup <= 0 {
		o.Startup = 3 * time.Second
	}
	if o.Settle <= 0 {
		o.Settle = 10 * time.Second
	}
	if len(o.DumpPrefixes) == 0 {
		o.DumpPrefixes = []string{"dump"}
	}
	def(&o.MaxOpen, 4)
	def(&o.Clusters, 3)
	def(&o.Features, 8)
	def(&o.Bins, 20)
	def(&o.KeepSeries, 1000)
	if o.Now == nil {
		o.Now = time.Now
	}
	o.Rules.fill()
}

// rankState is what the watcher keeps of one rank: its cumulative values
// at its last dump (three per region: calls, exclusive, inclusive) and how
// many dumps it has sent.
type rankState struct {
	id      drg.ThreadID
	src     *rankSource
	cum     []float64
	seq     int
	last    time.Time
	stopped bool
}

// openInterval holds the deltas of the ranks that have reported an
// interval not yet closed: per rank, three values per region.
type openInterval struct {
	deltas map[int][]float64
	ts     map[int]int64
}

// Watcher follows the folder a running TAU job writes and turns its dumps
// into intervals. Poll reads what is new; Finish closes what is left.
type Watcher struct {
	opt   Options
	dir   string
	reg   *regions
	scan  *scanner
	ranks []*rankState
	byID  map[drg.ThreadID]int
	mu    sync.Mutex // guards open, free, late, notes
	open  map[int]*openInterval
	free  [][]float64 // released delta slices
	next  int         // the first interval not closed
	late  int         // dumps that came after their interval closed
	hist  *history
	view  *view
	// lastEnd is the end time of the last closed interval (µs).
	lastEnd int64
	// activity is when a dump was last read, rankAdded when a rank was
	// last seen for the first time.
	activity, rankAdded time.Time
	notes               []string
}

// New returns a watcher of dir.
func New(dir string, opt Options) (*Watcher, error) {
	opt.fill()
	if err := opt.Rules.check(); err != nil {
		return nil, err
	}
	w := &Watcher{opt: opt, dir: dir, reg: newRegions(), scan: newScanner(dir, opt.DumpPrefixes), byID: map[drg.ThreadID]int{}, open: map[int]*openInterval{}}
	w.hist = newHistory(opt.Rules)
	w.view = newView(dir, opt.KeepSeries)
	return w, nil
}

// Poll reads what the job wrote since the last poll and returns the
// intervals it completed, oldest first.
func (w *Watcher) Poll(ctx context.Context) ([]*Interval, error) {
	if err := w.scan.scan(); err != nil {
		return nil, fmt.Errorf("watch %s: %w", w.dir, err)
	}
	w.addRanks()
	if err := w.readAll(ctx, false); err != nil {
		return nil, err
	}
	return w.closeReady(false), nil
}

// Finish reads what is left and closes every open interval, with the
// ranks that reported it: the run has ended (or the watch was stopped).
func (w *Watcher) Finish(ctx context.Context) ([]*Interval, error) {
	if err := w.scan.scan(); err != nil {
		return nil, fmt.Errorf("watch %s: %w", w.dir, err)
	}
	w.addRanks()
	if err := w.readAll(ctx, true); err != nil {
		return nil, err
	}
	out := w.closeReady(true)
	for _, r := range w.ranks {
		if s := r.src.snap; s != nil && s.pending > 0 {
			w.note(fmt.Sprintf("%s: %d bytes after the last complete snapshot were not read (the file ends inside a document)", s.path, s.pending))
		}
	}
	return out, nil
}

// addRanks starts following the ranks the scanner found, in rank order.
func (w *Watcher) addRanks() {
	var ids []drg.ThreadID
	for id := range w.scan.sources {
		if _, ok := w.byID[id]; !ok {
			ids = append(ids, id)
		}
	}
	sort.Slice(ids, func(i, j int) bool { return lessID(ids[i], ids[j]) })
	now := w.opt.Now()
	if len(ids) > 0 {
		w.rankAdded = now
	}
	for _, id := range ids {
		w.byID[id] = len(w.ranks)
		w.ranks = append(w.ranks, &rankState{id: id, src: w.scan.sources[id], last: now})
	}
}

func lessID(a, b drg.ThreadID) bool {
	if a.Node != b.Node {
		return a.Node < b.Node
	}
	if a.Context != b.Context {
		return a.Context < b.Context
	}
	return a.Thread < b.Thread
}

// note records a message for the view (bounded).
func (w *Watcher) note(s string) {
	if len(w.notes) < 200 {
		w.notes = append(w.notes, s)
	}
}

// readAll reads every rank's new dumps, one goroutine per processor; all
// reads whole files as soon as they parse (the run has ended).
func (w *Watcher) readAll(ctx context.Context, all bool) error {
	work := make(chan int)
	errs := make([]error, len(w.ranks))
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var sc scratch
			for i := range work {
				errs[i] = w.readRank(i, all, &sc)
			}
		}()
	}
	var err error
	for i := range w.ranks {
		if err = ctx.Err(); err != nil {
			break
		}
		work <- i
	}
	close(work)
	wg.Wait()
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return err
}

// readRank reads rank i's new dumps: at most as many as keep it within
// MaxOpen intervals of the oldest open one (any number with all).
func (w *Watcher) readRank(i int, all bool, sc *scratch) error {
	r := w.ranks[i]
	limit := w.next + w.opt.MaxOpen - r.seq
	if all || r.seq < w.next {
		limit = max(limit, 1<<30)
	}
	now := w.opt.Now()
	defer w.noteGrowth(r.src, now)
	if r.src.snap != nil {
		_, err := r.src.snap.read(w.reg, limit, sc, func(d *dump) { w.apply(i, d, now) })
		return err
	}
	src := r.src
	for src.next < len(src.files) && limit > 0 {
		f := src.files[src.next]
		d, err := f.read(w.reg, now, w.opt.Settle, all)
		if err == errNotYet {
			return nil
		}
		if err != nil {
			return err
		}
		if d == nil {
			if !f.done && src.next == len(src.files)-1 {
				return nil // a rewritten dump with no new version yet
			}
			src.next++ // read, or a rewritten dump followed by later files
			continue
		}
		w.apply(i, d, now)
		limit--
		if f.done {
			src.next++
		}
	}
	return nil
}

// noteGrowth counts bytes written since the last poll as activity (for
// RunOptions.IdleExit), even before they make a complete dump.
func (w *Watcher) noteGrowth(src *rankSource, now time.Time) {
	grew := false
	if src.snap != nil {
		grew, src.snap.grew = src.snap.grew, false
	}
	for _, f := range src.files[src.next:] {
		grew = grew || f.grew
		f.grew = false
	}
	if grew {
		w.mu.Lock()
		w.activity = now
		w.mu.Unlock()
	}
}

// apply turns rank i's dump into its deltas since its previous dump and
// files them under the rank's next interval.
func (w *Watcher) apply(i int, d *dump, now time.Time) {
	r := w.ranks[i]
	n := w.reg.count()
	if len(r.cum) < 3*n {
		r.cum = append(r.cum, make([]float64, 3*n-len(r.cum))...)
	}
	seq := r.seq
	r.seq++
	r.last = now
	if r.stopped {
		r.stopped = false
		w.mu.Lock()
		w.note(fmt.Sprintf("rank %s sent data again (interval %d)", r.id, seq))
		w.mu.Unlock()
	}
	keep := seq >= w.next
	var delta []float64
	if keep {
		delta = w.deltaSlice(3 * n)
	}
	for j, reg := range d.region {
		c := int(reg) * 3
		if delta != nil {
			delta[c] = d.calls[j] - r.cum[c]
			delta[c+1] = d.excl[j] - r.cum[c+1]
			delta[c+2] = d.incl[j] - r.cum[c+2]
		}
		r.cum[c], r.cum[c+1], r.cum[c+2] = d.calls[j], d.excl[j], d.incl[j]
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.activity = now
	if !keep {
		w.late++
		return
	}
	oi := w.open[seq]
	if oi == nil {
		oi = &openInterval{deltas: map[int][]float64{}, ts: map[int]int64{}}
		w.open[seq] = oi
	}
	oi.deltas[i], oi.ts[i] = delta, d.timestamp
}

// deltaSlice returns n zeros: a slice released by an earlier interval
// when there is one (see Release), else a new one.
func (w *Watcher) deltaSlice(n int) []float64 {
	w.mu.Lock()
	var v []float64
	if k := len(w.free); k > 0 {
		v, w.free = w.free[k-1], w.free[:k-1]
	}
	w.mu.Unlock()
	if cap(v) < n {
		return make([]float64, n)
	}
	v = v[:n]
	clear(v)
	return v
}

// Release drops an interval's deltas once its callbacks are done with
// them, keeping their memory for the next intervals (at most one slice
// per rank is kept).
func (w *Watcher) Release(iv *Interval) {
	if iv.Deltas == nil {
		return
	}
	w.mu.Lock()
	for _, v := range iv.Deltas.values {
		if len(w.free) < len(w.ranks) {
			w.free = append(w.free, v)
		}
	}
	w.mu.Unlock()
	iv.Deltas = nil
}

// closeReady closes the oldest open intervals that every live rank has
// reported (with all, every open interval).
func (w *Watcher) closeReady(all bool) []*Interval {
	var out []*Interval
	now := w.opt.Now()
	for len(w.open) > 0 {
		oi := w.open[w.next]
		if oi == nil {
			if !all && !w.allPassed(w.next) {
				break
			}
			w.next++ // every dump of this interval came late
			continue
		}
		if !all && !w.ready(w.next, now) {
			break
		}
		out = append(out, w.close(w.next, oi))
		delete(w.open, w.next)
		w.next++
	}
	return out
}

// allPassed reports whether every rank has sent dump k.
func (w *Watcher) allPassed(k int) bool {
	for _, r := range w.ranks {
		if r.seq <= k {
			return false
		}
	}
	return true
}

// ready reports whether interval k can close: every rank has sent it or
// has stopped (sent nothing for RankTimeout while k waits for it).
func (w *Watcher) ready(k int, now time.Time) bool {
	for _, r := range w.ranks {
		if r.seq > k || r.stopped {
			continue
		}
		if now.Sub(r.last) < w.opt.RankTimeout {
			return false
		}
		r.stopped = true
		w.note(fmt.Sprintf("rank %s stopped: nothing new for %s while interval %d waited for it; intervals close without it until it sends again", r.id, w.opt.RankTimeout, k))
	}
	if w.opt.Ranks > 0 && len(w.ranks) >= w.opt.Ranks || now.Sub(w.rankAdded) >= w.opt.Startup {
		return true
	}
	for _, r := range w.ranks {
		if r.seq > k+1 {
			return true // the job has moved on: ranks not seen yet are late
		}
	}
	return false
}
