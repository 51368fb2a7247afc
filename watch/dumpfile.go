package watch

import (
	"fmt"
	"os"
	"time"

	"github.com/taudb-analyze/taudb-analyze/drg/profile"
	"github.com/taudb-analyze/taudb-analyze/internal/safefile"
)

// maxDumpBytes bounds one text profile dump.
const maxDumpBytes = 1 << 30

// wholeFile is a TAU text profile written whole at each dump: an
// incremental dump (<prefix>__<date>__.N.C.T, TAU_DB_DUMP_INCR), a dump
// TAU overwrites at every call (dump.N.C.T, TAU_DB_DUMP; <prefix>.N.C.T,
// TAU_DB_DUMP_PREFIX), or a profile.N.C.T in a folder per interval. A
// version of the file is read once it parses and has kept its size and
// modification time for one poll (TAU writes it with stdio; a file that
// parses may still be growing by its user events).
type wholeFile struct {
	root, path string
	// key orders the files of one rank (the dump's time, the folder's
	// position); timestamp is the dump's time in µs when the name tells it.
	key       string
	timestamp int64
	// rewritten marks a file TAU overwrites: each new version is a dump.
	rewritten bool
	// seen is the size and time of the version last observed, read that
	// of the version last read.
	seenSize, readSize int64
	seenTime, readTime time.Time
	// since is when the current version was first observed unparsable.
	since time.Time
	done  bool
	// grew is set when a new version was seen (the watcher clears it).
	grew bool
}

// errNotYet says a file is being written: read it at a later poll.
var errNotYet = fmt.Errorf("not complete yet")

// read returns the file's new version as a dump, errNotYet while it is
// being written, nil when there is no new version. A version that stays
// unparsable for settle is an error naming the file and line.
// With force (the run has ended) a version is read as soon as it parses.
func (w *wholeFile) read(reg *regions, now time.Time, settle time.Duration, force bool) (*dump, error) {
	if w.done {
		return nil, nil
	}
	st, err := os.Stat(w.path)
	if err != nil {
		return nil, err
	}
	size, mod := st.Size(), st.ModTime()
	if w.readSize == size && w.readTime.Equal(mod) && !w.readTime.IsZero() {
		return nil, nil // the version already read
	}
	if size != w.seenSize || !mod.Equal(w.seenTime) {
		w.seenSize, w.seenTime, w.since = size, mod, time.Time{}
		w.grew = true
		if !force {
			return nil, errNotYet // changed since the last poll: wait one more
		}
	}
	data, err := safefile.ReadFileIn(w.root, w.path, maxDumpBytes)
	if err != nil {
		return nil, err
	}
	f, err := profile.Parse(string(data), w.path)
	if err != nil || int64(len(data)) != size {
		if w.since.IsZero() {
			w.since = now
		}
		if err != nil && now.Sub(w.since) >= settle {
			return nil, fmt.Errorf("reading dump: %w", err)
		}
		return nil, errNotYet
	}
	w.readSize, w.readTime = size, mod
	w.done = !w.rewritten
	d := &dump{timestamp: w.timestamp}
	if d.timestamp == 0 {
		d.timestamp = mod.UnixMicro()
	}
	for _, t := range f.Timers {
		d.add(reg.index(t.Name, t.Groups), t.Calls, t.Exclusive, t.Incl)
	}
	return d, nil
}
