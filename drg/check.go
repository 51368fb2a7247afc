package drg

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// MaxNameBytes is the longest name, in bytes, that a trial may hold for a
// region, group, metric, user event, metadata attribute or the trial
// itself. TAUdb indexes these columns; PostgreSQL refuses an index entry
// larger than about 2.7 kB, so a longer name would make a save fail on
// PostgreSQL and succeed on SQLite. The longest name in the real data of
// ../shared/data/real (its licensed trials) is 298 bytes.
const MaxNameBytes = 2048

// CheckName says what is wrong with a name that TAUdb cannot store the same
// way in PostgreSQL and SQLite: a NUL byte (PostgreSQL text cannot hold
// one), bytes that are not UTF-8 (PostgreSQL's TAUdb databases are UTF-8),
// or more than MaxNameBytes bytes. what names the name in the message
// ("timer name", ...). It returns nil for a good name.
func CheckName(what, s string) error {
	if len(s) > MaxNameBytes {
		return fmt.Errorf("%s of %d bytes is longer than the %d bytes a TAUdb name may have", what, len(s), MaxNameBytes)
	}
	return CheckText(what, s)
}

// CheckText is CheckName without the length limit, for texts that TAUdb
// does not index (metadata values).
func CheckText(what, s string) error {
	if strings.IndexByte(s, 0) < 0 && utf8.ValidString(s) {
		return nil // the common case, with the library's word-at-a-time scans
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c == 0 {
			return fmt.Errorf("%s holds a NUL byte at byte %d", what, i+1)
		}
		if c < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			return fmt.Errorf("%s is not UTF-8: byte %d is 0x%02x", what, i+1, c)
		}
		i += n
	}
	return nil
}

// CheckNames checks every name and text of t with CheckName and CheckText
// (metadata values with CheckText) and returns the first problem, saying
// where it is: a region's (by index), a metric's, a user event's, a
// metadata attribute's. It leaves the trial's Name alone: the name stored
// may be another one (see store.SaveOptions).
func (t *Trial) CheckNames() error {
	for i, m := range t.Metrics {
		if err := CheckName(fmt.Sprintf("metric %d name", i+1), m.Name); err != nil {
			return err
		}
	}
	for i := range t.Regions {
		r := &t.Regions[i]
		if err := CheckName(fmt.Sprintf("region %d name", i+1), r.Name); err != nil {
			return err
		}
		for _, g := range r.Groups {
			if err := CheckName(fmt.Sprintf("group name of region %q", clipName(r.Name)), g); err != nil {
				return err
			}
		}
		for _, p := range r.Params {
			if err := CheckText(fmt.Sprintf("parameter of region %q", clipName(r.Name)), p.Name+p.Value); err != nil {
				return err
			}
		}
	}
	for i, c := range t.Counters {
		if err := CheckName(fmt.Sprintf("user event %d name", i+1), c.Name); err != nil {
			return err
		}
	}
	if err := checkMetadata("trial metadata", t.Metadata); err != nil {
		return err
	}
	for _, th := range t.Threads {
		if err := checkMetadata(fmt.Sprintf("metadata of thread %d.%d.%d", th.Node, th.Context, th.Thread), th.Metadata); err != nil {
			return err
		}
	}
	return nil
}

// checkMetadata checks the names and values of one metadata map, in name
// order so that the first problem reported does not vary.
func checkMetadata(what string, md map[string]string) error {
	keys := make([]string, 0, len(md))
	for k := range md {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if err := CheckName(what+" attribute name", k); err != nil {
			return err
		}
		if err := CheckText(fmt.Sprintf("%s attribute %q", what, clipName(k)), md[k]); err != nil {
			return err
		}
	}
	return nil
}

// clipName shortens a name quoted in a message to 60 bytes, on a UTF-8
// boundary when it is UTF-8.
func clipName(s string) string {
	const n = 60
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "..."
}
