package profile

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// Write writes t as TAU text profiles into dir, as TAU's measurement
// library does: one profile.N.C.T file per thread, in dir itself for a
// single metric and in MULTI__<metric> folders for several. Each file holds
// the thread's timers (flat and callpath entries it has a record of), "0
// aggregates", its user events, and on line 2 the metadata (the metric
// name, the trial's attributes and the thread's own). Values are printed
// with TAU's %.16G. The folder is created if needed; existing files are
// overwritten.
func Write(dir string, t *drg.Trial) error {
	for m, met := range t.Metrics {
		out := dir
		if len(t.Metrics) > 1 {
			out = filepath.Join(dir, "MULTI__"+multiName(met.Name))
		}
		if err := os.MkdirAll(out, 0o755); err != nil {
			return fmt.Errorf("write profiles: %w", err)
		}
		for th := range t.Threads {
			if err := writeThread(out, t, m, th); err != nil {
				return err
			}
		}
	}
	return nil
}

// multiName replaces the characters TAU replaces in MULTI__ folder names.
func multiName(metric string) string {
	return strings.Map(func(r rune) rune {
		if strings.ContainsRune(`/\?%*:|"<>= `, r) {
			return '_'
		}
		return r
	}, metric)
}

func writeThread(dir string, t *drg.Trial, m, th int) error {
	tr := t.Threads[th]
	path := filepath.Join(dir, fmt.Sprintf("profile.%d.%d.%d", tr.Node, tr.Context, tr.Thread))
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("write profiles: %w", err)
	}
	w := bufio.NewWriterSize(f, 1<<16)
	nt := len(t.Threads)
	var nodes []int
	for n := range t.Nodes {
		if t.Present.Get(n*nt + th) {
			nodes = append(nodes, n)
		}
	}
	fmt.Fprintf(w, "%d templated_functions_MULTI_%s\n", len(nodes), t.Metrics[m].Name)
	w.WriteString("# Name Calls Subrs Excl Incl ProfileCalls # <metadata>")
	attr := func(k, v string) {
		w.WriteString("<attribute><name>")
		xml.EscapeText(w, []byte(k))
		w.WriteString("</name><value>")
		xml.EscapeText(w, []byte(v))
		w.WriteString("</value></attribute>")
	}
	attr(drg.MetricNameKey, t.Metrics[m].Name)
	for _, kv := range [](map[string]string){t.Metadata, tr.Metadata} {
		keys := make([]string, 0, len(kv))
		for k := range kv {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			attr(k, kv[k])
		}
	}
	w.WriteString("</metadata>\n")
	num := func(v float64) string { return strconv.FormatFloat(v, 'G', 16, 64) }
	for _, n := range nodes {
		node := &t.Nodes[n]
		reg := &t.Regions[node.Region]
		groups := strings.Join(reg.Groups, "|")
		if node.Parent >= 0 {
			first := "TAU_USER"
			if len(reg.Groups) > 0 {
				first = reg.Groups[0]
			}
			groups = "TAU_CALLPATH|" + first
		}
		c := n*nt + th
		// TAU writes names and groups raw, without escaping.
		fmt.Fprintf(w, "\"%s\" %s %s %s %s 0 GROUP=\"%s\" \n", node.Name, num(t.Calls[c]), num(t.Subroutines[c]),
			num(t.Values[m].Exclusive[c]), num(t.Values[m].Inclusive[c]), groups)
	}
	w.WriteString("0 aggregates\n")
	var events []int
	for c := range t.Counters {
		if t.CounterPresent.Get(c*nt + th) {
			events = append(events, c)
		}
	}
	if len(events) > 0 {
		fmt.Fprintf(w, "%d userevents\n# eventname numevents max min mean sumsqr\n", len(events))
		for _, c := range events {
			v := t.CounterValues[c*nt+th]
			fmt.Fprintf(w, "\"%s\" %s %s %s %s %s\n", t.Counters[c].Name, num(v.NumEvents), num(v.Max), num(v.Min), num(v.Mean), num(v.SumSquares))
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
