package report

import (
	"bytes"
	"fmt"
	"io"
	"time"

	"github.com/taudb-analyze/taudb-analyze/analysis"
)

// PageOptions say where a page written by WritePage finds what Write would
// have put beside it.
type PageOptions struct {
	// EChartsURL is the address of the ECharts JavaScript (EChartsJS).
	EChartsURL string
	// IndexURL and IndexTitle make the link at the top of the page.
	IndexURL, IndexTitle string
	// Created is shown as the time the page was made.
	Created time.Time
}

// WritePage writes the page of one result, as Write writes it into a
// report folder, to w: a front end that serves pages itself (serve) uses
// it with its own addresses for the chart library and the index. Names are
// escaped as in Write.
func WritePage(w io.Writer, res *analysis.Result, opt PageOptions) error {
	if res == nil {
		return fmt.Errorf("report: no result")
	}
	p, err := buildPage(res, Meta{Title: opt.IndexTitle}, opt.Created.Format(time.RFC3339))
	if err != nil {
		return fmt.Errorf("report: %s: %w", res.Analysis, err)
	}
	p.EChartsJS, p.Index = opt.EChartsURL, opt.IndexURL
	var b bytes.Buffer
	if err := pageTmpl.Execute(&b, p); err != nil {
		return fmt.Errorf("report: %s: %w", res.Analysis, err)
	}
	_, err = w.Write(b.Bytes())
	return err
}

// EChartsJS returns the Apache ECharts library (echarts.min.js, Apache
// License 2.0) that travels with every report.
func EChartsJS() []byte {
	b, _ := assets.ReadFile("assets/echarts.min.js") // embedded: cannot fail
	return b
}
