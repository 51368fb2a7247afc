package main

import (
	"encoding/xml"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/taudb-analyze/taudb-analyze/analysis"
)

// The JUnit XML report as common CI systems read it (Jenkins, GitLab,
// GitHub actions' test reporters; the Ant JUnit schema): a testsuites
// element holding one testsuite, one testcase per series of a regress
// result (the program and every region), a failure for each series whose
// newest point is in a regression at least as large as the threshold.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

// junitSuite is a testsuite element.
type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Time       string          `xml:"time,attr"`
	Timestamp  string          `xml:"timestamp,attr"`
	Properties []junitProperty `xml:"properties>property"`
	Cases      []junitCase     `xml:"testcase"`
	SystemOut  string          `xml:"system-out"`
}

// junitProperty is a property element (the result's parameters).
type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

// junitCase is a testcase element.
type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
}

// junitFailure is a failure element.
type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// writeJUnit writes a regress result as a JUnit XML document: a series
// fails when its last change is a regression of at least threshold
// (relative) and reaches the newest point.
func writeJUnit(w io.Writer, res *analysis.Result, threshold float64) error {
	tb := res.Table("series")
	if tb == nil {
		return usagef("--format junit: only regress writes JUnit XML")
	}
	s := junitSuite{Name: "taudb-analyze regress " + res.Metric, Time: "0", Timestamp: time.Now().UTC().Format("2006-01-02T15:04:05"),
		SystemOut: strings.Join(res.Findings, "\n")}
	for _, k := range slices.Sorted(maps.Keys(res.Params)) {
		s.Properties = append(s.Properties, junitProperty{Name: k, Value: res.Params[k]})
	}
	s.Properties = append(s.Properties, junitProperty{Name: "threshold", Value: fmt.Sprintf("%g%%", 100*threshold)})
	for i := 0; i < tb.NumRows(); i++ {
		c := junitCase{Name: tb.Text("series", i), Classname: "regress." + res.Metric, Time: "0"}
		shift := tb.Num("last_shift_percent", i)
		if tb.Text("last_verdict", i) == analysis.VerdictRegression && shift >= 100*threshold {
			c.Failure = &junitFailure{Type: "regression",
				Message: fmt.Sprintf("%s regressed by %+.1f%% at point %g, still at the newest point (threshold %g%%)", c.Name, shift, tb.Num("last_change_point", i), 100*threshold),
				Text:    fmt.Sprintf("series %s: %g points, %g changes; last change at point %g: %+.2f%%", c.Name, tb.Num("points", i), tb.Num("changes", i), tb.Num("last_change_point", i), shift)}
			s.Failures++
		}
		s.Cases = append(s.Cases, c)
	}
	s.Tests = len(s.Cases)
	doc := junitSuites{Name: "taudb-analyze", Tests: s.Tests, Failures: s.Failures, Time: "0", Suites: []junitSuite{s}}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("writing JUnit XML: %w", err)
	}
	_, err := io.WriteString(w, "\n")
	return err
}
