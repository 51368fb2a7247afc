package watch

import (
	"encoding/json"
	"math"
	"time"
)

// viewTop is the number of regions the view's time series and tables show.
const viewTop = 8

// maxViewAnomalies bounds the anomalies the view lists (the newest).
const maxViewAnomalies = 200

// view is what the live page shows, kept up to date interval by interval
// in memory bounded by KeepSeries intervals of a few numbers each.
type view struct {
	Dir       string         `json:"dir"`
	Updated   string         `json:"updated"`
	Status    string         `json:"status"`
	Series    []point        `json:"series"`
	Current   *current       `json:"current"`
	Anomalies []Anomaly      `json:"anomalies"`
	Notes     []string       `json:"notes"`
	Counts    map[string]int `json:"counts"`
	keep      int
}

// point is one interval of the time series.
type point struct {
	Index   int                `json:"index"`
	End     int64              `json:"end"`
	Ranks   int                `json:"ranks"`
	Missing int                `json:"missing"`
	Mean    float64            `json:"mean"`
	Min     float64            `json:"min"`
	Max     float64            `json:"max"`
	Flags   int                `json:"flags"`
	Top     map[string]float64 `json:"top"`
}

// current is the latest interval in detail.
type current struct {
	Index      int          `json:"index"`
	Ranks      int          `json:"ranks"`
	Missing    []string     `json:"missing"`
	Program    Stat         `json:"program"`
	Regions    []RegionStat `json:"regions"`
	Histograms []Histogram  `json:"histograms"`
	Features   []string     `json:"features"`
	Clusters   []Cluster    `json:"clusters"`
	// Silhouette is the chosen k's mean silhouette; absent for one group.
	Silhouette *float64 `json:"silhouette,omitempty"`
}

func newView(dir string, keep int) *view {
	return &view{Dir: dir, Status: "watching", keep: keep, Counts: map[string]int{}}
}

// add records a closed interval.
func (v *view) add(iv *Interval) {
	p := point{Index: iv.Index, End: iv.End, Ranks: iv.Ranks, Missing: len(iv.Missing), Mean: iv.Program.Mean,
		Min: iv.Program.Min, Max: iv.Program.Max, Flags: len(iv.Anomalies), Top: map[string]float64{}}
	for _, s := range iv.Regions[:min(viewTop, len(iv.Regions))] {
		p.Top[s.Region] = s.Sum / float64(max(iv.Ranks, 1))
	}
	if len(v.Series) == v.keep {
		v.Series = append(v.Series[:0], v.Series[1:]...)
	}
	v.Series = append(v.Series, p)
	c := &current{Index: iv.Index, Ranks: iv.Ranks, Program: iv.Program, Regions: iv.Regions[:min(4*viewTop, len(iv.Regions))],
		Histograms: iv.Histograms, Features: iv.Features, Clusters: iv.Clusters}
	if !math.IsNaN(iv.Silhouette) {
		s := iv.Silhouette
		c.Silhouette = &s
	}
	for _, m := range iv.Missing[:min(32, len(iv.Missing))] {
		c.Missing = append(c.Missing, m.String())
	}
	v.Current = c
	for _, a := range iv.Anomalies {
		v.Counts[a.Kind]++
	}
	v.Anomalies = append(v.Anomalies, iv.Anomalies...)
	if n := len(v.Anomalies); n > maxViewAnomalies {
		v.Anomalies = append(v.Anomalies[:0], v.Anomalies[n-maxViewAnomalies:]...)
	}
}

// json returns the view as a JSON document (with <, > and & escaped, so
// that it can sit inside a <script> element).
func (v *view) json(now time.Time, notes []string) []byte {
	v.Updated = now.UTC().Format(time.RFC3339)
	v.Notes = notes
	b, err := json.Marshal(v)
	if err != nil { // only NaN or infinities could fail; the values are finite
		return []byte(`{"status":"error"}`)
	}
	return b
}
