package analysis

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// Oversubscription is what a trial's metadata says about ranks sharing a
// host's cores: for each host (TAU's "Hostname", else "Node Name"), its
// ranks (distinct TAU node ranks N) against its "CPU Cores".
type Oversubscription struct {
	// Host is the most crowded host, Ranks its ranks and Cores its cores.
	Host         string
	Ranks, Cores int
}

// Oversubscribed returns the host of t whose ranks outnumber its cores by
// the largest factor, and ok = true when some host's ranks do; ok is false
// when none does or the metadata lacks hosts or cores. A thread's own
// metadata is read first, then the trial's.
func Oversubscribed(t *drg.Trial) (o Oversubscription, ok bool) {
	ranks := map[string]map[int]bool{}
	cores := map[string]int{}
	for _, th := range t.Threads {
		host := metaOf(t, th, "Hostname", "Node Name")
		c, err := strconv.Atoi(strings.TrimSpace(metaOf(t, th, "CPU Cores")))
		if host == "" || err != nil || c <= 0 {
			continue
		}
		if ranks[host] == nil {
			ranks[host] = map[int]bool{}
		}
		ranks[host][th.Node] = true
		cores[host] = c
	}
	hosts := make([]string, 0, len(ranks))
	for h := range ranks {
		hosts = append(hosts, h)
	}
	sort.Strings(hosts)
	worst := 1.0
	for _, h := range hosts {
		if f := float64(len(ranks[h])) / float64(cores[h]); f > worst {
			worst, o, ok = f, Oversubscription{Host: h, Ranks: len(ranks[h]), Cores: cores[h]}, true
		}
	}
	return o, ok
}

// metaOf returns the first of keys in the thread's metadata, else in the
// trial's; "" when neither has any.
func metaOf(t *drg.Trial, th drg.Thread, keys ...string) string {
	for _, k := range keys {
		if v, ok := th.Metadata[k]; ok && v != "" {
			return v
		}
		if v, ok := t.Metadata[k]; ok && v != "" {
			return v
		}
	}
	return ""
}

// WorkShrinkLimit is the ratio of the mean time per process at the largest
// p to that at the smallest p above which a strong-scaling series is said
// not to divide its work: with perfect division the ratio is p_min/p_max.
const WorkShrinkLimit = 0.9

// seriesCaveats adds the findings that warn when a series' measurements
// do not describe the scaling they seem to: ranks outnumbering a host's
// cores (from the metadata), and, for strong scaling, a mean time per
// process that does not shrink as p grows (each process doing the whole
// work, or a weak-scaling series analysed as strong).
func (d *seriesData) seriesCaveats(res *Result, weak bool) {
	for k, e := range d.exps {
		if o, ok := Oversubscribed(e.Trial); ok {
			res.Findf("%s is oversubscribed: %d ranks share the %d cores of host %s (metadata \"CPU Cores\"), so its times measure contention, not scaling.",
				d.names[k], o.Ranks, o.Cores, o.Host)
		}
	}
	if weak || len(d.exps) < 2 {
		return
	}
	first, last := 0, len(d.exps)-1
	a, b := d.meanPerProcess(first), d.meanPerProcess(last)
	if pa, pb := d.exps[first].P, d.exps[last].P; pb > pa && a > 0 && b/a >= WorkShrinkLimit {
		res.Findf("The mean time per process does not shrink with p: %s at p = %s, %s at p = %s (perfect division: %.3g×). Each process may be doing the whole work: is this weak scaling, or replicated work?",
			formatMicrosOrValue(d, a), formatNum(pa), formatMicrosOrValue(d, b), formatNum(pb), pa/pb)
	}
}

// meanPerProcess is the mean over experiment k's processes of their main
// region's inclusive value (a process's largest over its threads).
func (d *seriesData) meanPerProcess(k int) float64 {
	t := d.exps[k].Trial
	main := t.MainInclusive(d.metrics[k])
	per := map[int]float64{}
	for th, v := range main {
		n := t.Threads[th].Node
		per[n] = math.Max(per[n], v)
	}
	var s float64
	for _, v := range per {
		s += v
	}
	if len(per) == 0 {
		return math.NaN()
	}
	return s / float64(len(per))
}

// String names the oversubscription: "8 ranks on the 4 cores of east02".
func (o Oversubscription) String() string {
	return fmt.Sprintf("%d ranks on the %d cores of %s", o.Ranks, o.Cores, o.Host)
}
