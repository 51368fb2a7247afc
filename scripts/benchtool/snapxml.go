package main

import (
	"bufio"
	"fmt"
	"os"
)

// writeMergedXML writes a merged TAU XML profile (as TAU_PROFILE_FORMAT=merged
// writes it: global definitions, then one <profile_xml> document per thread,
// NUL-separated) of s.Threads threads × s.Regions events × 2 metrics and 20
// user events to path, and returns its size in bytes.
func writeMergedXML(path string, s Size) (int64, error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, fmt.Errorf("write merged XML: %w", err)
	}
	w := bufio.NewWriterSize(f, 1<<16)
	const userEvents = 20
	fmt.Fprint(w, "<profile_xml>\n<definitions thread=\"*\">\n")
	fmt.Fprint(w, "<metric id=\"0\"><name>TIME</name>\n<units>unknown</units>\n</metric>\n")
	fmt.Fprint(w, "<metric id=\"1\"><name>PAPI_FP_OPS</name>\n<units>unknown</units>\n</metric>\n")
	for e := range s.Regions {
		fmt.Fprintf(w, "<event id=\"%d\"><name>function_%d [{file%d.c} {%d,1}-{%d,1}]</name><group>TAU_USER</group></event>\n", e, e, e%7, e, e+10)
	}
	for u := range userEvents {
		fmt.Fprintf(w, "<userevent id=\"%d\"><name>event %d : main =&gt; f</name></userevent>\n", u, u)
	}
	fmt.Fprint(w, "</definitions>\n</profile_xml>\n")
	for t := range s.Threads {
		id := fmt.Sprintf("%d.0.0.%d", t, 1000+t)
		fmt.Fprintf(w, "<profile_xml>\n<thread id=\"%s\" node=\"%d\" context=\"0\" thread=\"0\">\n<metadata>\n", id, t)
		fmt.Fprintf(w, "<attribute>\n<name>pid</name>\n<value>%d</value>\n</attribute>\n</metadata>\n</thread>\n", 1000+t)
		fmt.Fprintf(w, "<profile thread=\"%s\">\n<timestamp>%d</timestamp>\n<interval_data metrics=\"0 1 \">\n", id, 1386278165195333+t)
		for e := range s.Regions {
			x := float64((e*7919+t*104729)%1000003) / 7
			fmt.Fprintf(w, "%d %d %d %.16G %.16G %d %d \n", e, 1+e%50, e%3, x, x*1.5, e*1000+t, e*2000+t)
		}
		fmt.Fprint(w, "</interval_data>\n<atomic_data>\n")
		for u := range userEvents {
			fmt.Fprintf(w, "%d %d %.16G %.16G %.16G %.16G\n", u, 10+u, float64(u)*3.5, 0.25, float64(u)*1.7, float64(u*u)*31.3)
		}
		fmt.Fprint(w, "</atomic_data>\n</profile>\n\n</profile_xml>\n\x00")
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return 0, fmt.Errorf("write merged XML: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return 0, fmt.Errorf("write merged XML: %w", err)
	}
	return st.Size(), f.Close()
}
