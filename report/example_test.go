package report_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/taudb-analyze/taudb-analyze/analysis"
	"github.com/taudb-analyze/taudb-analyze/report"
	"github.com/taudb-analyze/taudb-analyze/synth"
)

// Write an HTML report of two analyses of one trial: an index page and one
// page per result, with the chart library in assets/ so that it opens
// offline.
func ExampleWrite() {
	// A generated MPI program of 4 ranks and 8 regions (package synth).
	t, err := synth.Generate(synth.Spec{Processes: 4, ThreadsPerProcess: 1, Regions: 8, Depth: 2, Metrics: 1,
		Serial: 1e5, Parallel: 4e6, Imbalance: 0.2, Name: "mpi-4"})
	if err != nil {
		log.Fatal(err)
	}
	imb, err := analysis.Imbalance(t, analysis.ImbalanceOptions{})
	if err != nil {
		log.Fatal(err)
	}
	reg, err := analysis.Regions(t, analysis.RegionsOptions{})
	if err != nil {
		log.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "report-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	index, err := report.Write(dir, []*analysis.Result{imb, reg}, report.Meta{Title: "mpi-4", Created: time.Now()})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(filepath.Base(index))
	pages, _ := filepath.Glob(filepath.Join(dir, "*.html"))
	for _, p := range pages {
		fmt.Println(filepath.Base(p))
	}
	// Output:
	// index.html
	// 01-imbalance.html
	// 02-regions.html
	// index.html
}
