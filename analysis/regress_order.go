package analysis

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// startKeys are the metadata keys where TAU records when a run started
// ("Starting Timestamp": µs since the epoch), in order of preference.
var startKeys = []string{"Starting Timestamp", "Timestamp"}

// OrderValue returns the value that places trial t in a performance
// history, as by says:
//
//	"meta:KEY"  the trial metadata KEY (see ByKey), such as "Commit Date"
//	            or "Build"
//	"name"      the trial's name
//	"date"      when the run started: TAU's "Starting Timestamp" metadata
//	            (µs since the epoch), else "Timestamp"
//
// (ordering by database id is the caller's: the trial does not know it).
func OrderValue(t *drg.Trial, by string) (string, error) {
	if t == nil {
		return "", fmt.Errorf("no trial")
	}
	f := strings.TrimSpace(by)
	switch {
	case strings.EqualFold(f, "name"):
		return t.Name, nil
	case strings.EqualFold(f, "date"):
		for _, k := range startKeys {
			if v := strings.TrimSpace(t.Metadata[k]); v != "" {
				return v, nil
			}
		}
		return "", fmt.Errorf("trial %q has no %q metadata: cannot order by date (use meta:KEY)", t.Name, startKeys[0])
	case len(f) > 5 && strings.EqualFold(f[:5], "meta:"):
		prop, err := ByKey(t, f[5:])
		if err != nil {
			return "", err
		}
		return prop.Text, nil
	}
	return "", fmt.Errorf(`order by %q: want "meta:KEY", "name", "id" or "date"`, by)
}

// NewHistory makes the series of a performance history from trials and
// their order values (parallel slices): the values are compared as numbers
// when every one is a number (a build number, a timestamp), else as text
// (RFC 3339 and ISO 8601 dates sort correctly as text). Trials with equal
// values are repetitions of one point. Each experiment gets P = the 1-based
// rank of its value among the distinct values and Key = the value, so the
// series' P order is the history's order.
func NewHistory(trials []*drg.Trial, values []string) (Series, error) {
	if len(trials) != len(values) {
		return nil, fmt.Errorf("history: %d trials but %d order values", len(trials), len(values))
	}
	for i, t := range trials {
		if t == nil {
			return nil, fmt.Errorf("history: trial %d: no trial", i+1)
		}
	}
	ranks := HistoryRanks(values)
	out := make(Series, len(trials))
	for i, t := range trials {
		out[i] = Experiment{Trial: t, Name: t.Name, P: ranks[i], Key: values[i]}
	}
	return out, nil
}

// HistoryRanks returns each order value's 1-based rank among the distinct
// values: compared as numbers when every value is a number, else as text.
// Equal values get equal ranks (repetitions of one point).
func HistoryRanks(values []string) []float64 {
	numeric := true
	num := map[string]float64{}
	for _, v := range values {
		x, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil {
			numeric = false
			break
		}
		num[v] = x
	}
	distinct := map[string]bool{}
	keys := []string{}
	for _, v := range values {
		if !distinct[v] {
			distinct[v] = true
			keys = append(keys, v)
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		if numeric && num[keys[i]] != num[keys[j]] {
			return num[keys[i]] < num[keys[j]]
		}
		return keys[i] < keys[j]
	})
	rank := make(map[string]int, len(keys))
	for i, k := range keys {
		rank[k] = i + 1
	}
	out := make([]float64, len(values))
	for i, v := range values {
		out[i] = float64(rank[v])
	}
	return out
}
