// Package report writes analysis results as a folder of static HTML pages:
// an index linking every result with its main finding, and one page per
// result with charts (Apache ECharts, built with go-echarts) and, under each
// chart, the numbers behind it in a sortable table.
//
// A report opens from the file system with no network: the ECharts
// JavaScript is embedded in this package and written into the folder as
// assets/echarts.min.js, with its licence. Every name that comes from a
// user's program (regions, trials, metadata, parameters) is escaped: as HTML
// text and attributes by html/template, and in the chart options by
// json.Marshal, whose HTML escaping of <, > and & keeps a "</script>" inside
// a string from ending the script element.
package report

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"math"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/taudb-analyze/taudb-analyze/analysis"
)

// assetsDir is the folder, relative to the report's pages, holding the
// ECharts JavaScript and its licence.
const assetsDir = "assets/"

//go:embed assets/echarts.min.js assets/LICENSE assets/NOTICE assets/SOURCE.md
var assets embed.FS

// Meta describes a report as a whole.
type Meta struct {
	// Title heads the index page ("taudb-analyze report" when empty).
	Title string
	// Created is when the report was made (the current time when zero).
	Created time.Time
	// Source says where the results came from (a database URL, a command
	// line); shown on the index when set.
	Source string
	// Notes are extra lines shown on the index (e.g. results that could not
	// be made).
	Notes []string
	// Force lets Write put a report into a folder holding files it did not
	// write, beside them (see CheckDir); it never replaces them.
	Force bool
}

// EChart is what a chart of go-echarts offers the report: every chart type
// of github.com/go-echarts/go-echarts/v2/charts satisfies it.
type EChart interface {
	// Validate completes the chart's options (axis data, defaults).
	Validate()
	// JSON returns the ECharts option object.
	JSON() map[string]interface{}
}

// Chart is one chart of a page and the numbers behind it.
type Chart struct {
	// Title heads the chart's section.
	Title string
	// Chart holds the ECharts options.
	Chart EChart
	// Table holds the numbers drawn, shown under the chart (may be nil).
	Table *analysis.Table
	// Height is the chart's CSS height ("420px" when empty).
	Height string
}

// ChartFunc chooses the charts for one kind of analysis from a result's
// tables. It returns no chart when the tables do not allow one.
type ChartFunc func(*analysis.Result) []Chart

// chartFuncs maps an analysis name to its charts; analyses without an entry
// get only the generic table view.
var chartFuncs = map[string]ChartFunc{}

// register adds the charts of analysis name; each analysis' file calls it
// from init.
func register(name string, fn ChartFunc) { chartFuncs[name] = fn }

// Charts returns the charts chosen for res (none for an analysis with no
// chart, or whose tables lack the columns the charts need).
func Charts(res *analysis.Result) []Chart {
	if fn := chartFuncs[res.Analysis]; fn != nil {
		return fn(res)
	}
	return nil
}

// Write writes a report of results into dir (created if needed): index.html,
// one page per result and the assets folder, listed in MarkerFile. It
// returns the index's path. dir must pass CheckDir (with meta.Force): the
// files of an earlier report there are replaced, and its pages that this
// report does not write again are removed; files Write did not write are
// never replaced.
func Write(dir string, results []*analysis.Result, meta Meta) (indexPath string, err error) {
	if dir == "" {
		return "", errors.New("report: no output folder")
	}
	if meta.Title == "" {
		meta.Title = "taudb-analyze report"
	}
	if meta.Created.IsZero() {
		meta.Created = time.Now()
	}
	used := map[string]bool{"index.html": true}
	files := make([]string, len(results))
	for i, res := range results {
		if res == nil {
			return "", fmt.Errorf("report: result %d is nil", i+1)
		}
		files[i] = pageFile(i+1, res.Analysis, used)
	}
	written := append(assetNames(), "index.html")
	written = append(written, files...)
	if err := CheckDir(dir, meta.Force, written...); err != nil {
		return "", err
	}
	before, err := readOutDir(dir)
	if err != nil {
		return "", fmt.Errorf("report: %w", err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "assets"), 0o755); err != nil {
		return "", fmt.Errorf("report: %w", err)
	}
	if err := writeAssets(filepath.Join(dir, "assets")); err != nil {
		return "", err
	}
	if indexPath, err = writePages(dir, results, files, meta); err != nil {
		return "", err
	}
	return indexPath, finishDir(dir, before, written)
}

// writePages writes the page of each result (named files[i]) and the
// index.
func writePages(dir string, results []*analysis.Result, files []string, meta Meta) (string, error) {
	created := meta.Created.Format(time.RFC3339)
	var entries []indexEntry
	for i, res := range results {
		file := files[i]
		p, err := buildPage(res, meta, created)
		if err != nil {
			return "", fmt.Errorf("report: %s (%s): %w", file, res.Analysis, err)
		}
		if err := execute(filepath.Join(dir, file), pageTmpl, p); err != nil {
			return "", err
		}
		finding := ""
		if len(res.Findings) > 0 {
			finding = res.Findings[0]
		}
		entries = append(entries, indexEntry{File: file, Analysis: res.Analysis, Trials: trialsOf(res),
			Metric: res.Metric, Params: paramsOf(res), Finding: finding, Charts: len(p.Charts), Created: created})
	}
	indexPath := filepath.Join(dir, "index.html")
	idx := indexPage{Title: meta.Title, Created: created, Source: meta.Source, Notes: meta.Notes, Entries: entries}
	if err := execute(indexPath, indexTmpl, idx); err != nil {
		return "", err
	}
	return indexPath, nil
}

// assetNames lists the embedded assets as written, "assets/NAME".
func assetNames() []string {
	var out []string
	fs.WalkDir(assets, "assets", func(p string, d fs.DirEntry, err error) error { //nolint:errcheck // embedded
		if err == nil && !d.IsDir() {
			out = append(out, "assets/"+path.Base(p))
		}
		return nil
	})
	return out
}

// writeAssets copies the embedded ECharts files into dir.
func writeAssets(dir string) error {
	return fs.WalkDir(assets, "assets", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := assets.ReadFile(path)
		if err != nil {
			return err
		}
		if err := writeFileAtomic(filepath.Join(dir, filepath.Base(path)), b); err != nil {
			return fmt.Errorf("report: %w", err)
		}
		return nil
	})
}

var unsafeFileChars = regexp.MustCompile(`[^a-z0-9_-]+`)

// pageFile names the page of the n-th result: a number and the analysis
// name reduced to safe characters, so that no user text reaches a path.
func pageFile(n int, analysisName string, used map[string]bool) string {
	base := unsafeFileChars.ReplaceAllString(strings.ToLower(analysisName), "_")
	if base == "" || base == "_" {
		base = "result"
	}
	name := fmt.Sprintf("%02d-%s.html", n, base)
	for k := 2; used[name]; k++ {
		name = fmt.Sprintf("%02d-%s-%d.html", n, base, k)
	}
	used[name] = true
	return name
}

func execute(path string, t *template.Template, data any) error {
	var b bytes.Buffer
	if err := t.Execute(&b, data); err != nil {
		return fmt.Errorf("report: %s: %w", filepath.Base(path), err)
	}
	if err := writeFileAtomic(path, b.Bytes()); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}

// writeData writes b to f; tests replace it to simulate a full disk.
var writeData = func(f *os.File, b []byte) (int, error) { return f.Write(b) }

// writeFileAtomic writes b to path (mode 0644) through a temporary file in
// the same folder renamed over path once complete, so that a failed write
// (a full disk, ...) leaves the old file, or none, and never half a page;
// the temporary file is removed on failure.
func writeFileAtomic(path string, b []byte) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("write %s: %w", filepath.Base(path), err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if _, err := writeData(f, b); err != nil {
		return fmt.Errorf("write %s: %w", filepath.Base(path), err)
	}
	if err := f.Chmod(0o644); err != nil {
		return fmt.Errorf("write %s: %w", filepath.Base(path), err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", filepath.Base(path), err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", filepath.Base(path), err)
	}
	return nil
}

// trialsOf lists the trials behind res.
func trialsOf(res *analysis.Result) []string {
	var ts []string
	if res.Trial != "" {
		ts = append(ts, res.Trial)
	}
	return append(ts, res.Trials...)
}

// param is one analysis parameter.
type param struct{ Name, Value string }

// paramsOf lists res.Params sorted by name.
func paramsOf(res *analysis.Result) []param {
	var ps []param
	for k, v := range res.Params {
		ps = append(ps, param{k, v})
	}
	sort.Slice(ps, func(i, j int) bool { return ps[i].Name < ps[j].Name })
	return ps
}

type indexEntry struct {
	File, Analysis, Metric, Finding, Created string
	Trials                                   []string
	Params                                   []param
	Charts                                   int
}

type indexPage struct {
	Title, Created, Source string
	Notes                  []string
	Entries                []indexEntry
}

// htmlTable is a table ready for the template.
type htmlTable struct {
	ID, Title string
	Header    []htmlHeader
	Rows      [][]htmlCell
}

type htmlHeader struct {
	Name, Unit string
	Numeric    bool
}

type htmlCell struct {
	Text string
	// Sort is the numeric sort key of a number cell ("" for text and
	// undefined values).
	Sort string
}

type pageChart struct {
	ID, Title, Height string
	Option            template.JS
	Table             *htmlTable
}

type page struct {
	Title, Analysis, Metric, Created, Report string
	// Index is the link to the report's index ("index.html").
	Index     string
	Trials    []string
	Params    []param
	Findings  []string
	Charts    []pageChart
	Tables    []*htmlTable
	EChartsJS string
}

func buildPage(res *analysis.Result, meta Meta, created string) (*page, error) {
	res = res.Shown()
	p := &page{Title: res.Analysis, Analysis: res.Analysis, Metric: res.Metric, Created: created, Report: meta.Title,
		Trials: trialsOf(res), Params: paramsOf(res), Findings: res.Findings, EChartsJS: assetsDir + "echarts.min.js",
		Index: "index.html"}
	if ts := p.Trials; len(ts) > 0 {
		p.Title += " of " + strings.Join(ts, ", ")
	}
	tid := 0
	for i, c := range Charts(res) {
		opt, err := chartJSON(c.Chart)
		if err != nil {
			return nil, fmt.Errorf("chart %q: %w", c.Title, err)
		}
		pc := pageChart{ID: fmt.Sprintf("chart-%d", i+1), Title: c.Title, Height: c.Height, Option: opt}
		if pc.Height == "" {
			pc.Height = "420px"
		}
		if c.Table != nil {
			tid++
			pc.Table = toHTML(c.Table, fmt.Sprintf("table-%d", tid))
		}
		p.Charts = append(p.Charts, pc)
	}
	for i := range res.Tables {
		tid++
		p.Tables = append(p.Tables, toHTML(&res.Tables[i], fmt.Sprintf("table-%d", tid)))
	}
	return p, nil
}

// chartJSON renders a chart's options as JSON safe to embed in a script
// element: json.Marshal escapes <, > and & (and U+2028, U+2029), so no
// string can close the element or open a comment.
func chartJSON(c EChart) (template.JS, error) {
	c.Validate()
	b, err := json.Marshal(c.JSON())
	if err != nil {
		return "", err
	}
	return template.JS(b), nil
}

// toHTML prepares t for the page template.
func toHTML(t *analysis.Table, id string) *htmlTable {
	ht := &htmlTable{ID: id, Title: t.Title}
	if ht.Title == "" {
		ht.Title = t.Name
	}
	for _, c := range t.Columns {
		ht.Header = append(ht.Header, htmlHeader{Name: c.Name, Unit: c.Unit, Numeric: c.Kind == analysis.Number})
	}
	for i := 0; i < t.NumRows(); i++ {
		row := make([]htmlCell, len(t.Columns))
		for j := range t.Columns {
			c := &t.Columns[j]
			if c.Kind == analysis.Text {
				row[j] = htmlCell{Text: c.Text[i]}
				continue
			}
			v := c.Num[i]
			if math.IsNaN(v) {
				row[j] = htmlCell{Text: "—"}
				continue
			}
			row[j] = htmlCell{Text: strconv.FormatFloat(v, 'g', 6, 64), Sort: strconv.FormatFloat(v, 'g', -1, 64)}
		}
		ht.Rows = append(ht.Rows, row)
	}
	return ht
}
