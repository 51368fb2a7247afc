// Package images draws the PNG pictures stored with a result: for a
// clustering result (package cluster) the six PerfExplorer's viewer shows,
// under its analysis_result.result_type codes. Drawing is kept out of the
// analyses, which compute numbers only, next to the report code that
// presents results; the CLI draws the pictures before it stores the result
// and passes them to the one transaction of store.DB.SaveResultWith.
package images

import (
	"bytes"
	"fmt"
	"image/color"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/taudb-analyze/taudb-analyze/result"
)

// PerfExplorer's analysis_result.result_type codes for the images of a
// clustering result.
const (
	ImageDendrogram = 0
	ImageHistogram  = 1
	ImageAverages   = 3
	ImageMaxima     = 4
	ImageMinima     = 5
	ImagePCAScatter = 6
)

// Image is one picture of a clustering result as PerfExplorer stores it in
// analysis_result: a result_type code, a description, the PNG and a smaller
// PNG thumbnail.
type Image struct {
	ResultType  int
	Description string
	PNG         []byte
	Thumbnail   []byte
}

// Image sizes in points; gonum/plot renders PNG at 96 dpi, so the picture
// is 640×480 pixels and the thumbnail 160×120.
var (
	imageWidth, imageHeight = vg.Points(480), vg.Points(360)
	thumbWidth, thumbHeight = vg.Points(120), vg.Points(90)
)

// Cluster draws the pictures PerfExplorer's viewer shows for a clustering
// result, from the result's own tables: the dendrogram (hierarchical only),
// the histogram of cluster sizes, the cluster averages, maxima and minima
// (bars of the regions that separate the clusters most, at most 8) and the
// PCA scatter plot coloured by cluster.
func Cluster(res *result.Result) ([]Image, error) {
	var out []Image
	add := func(code int, desc string, draw func() (*plot.Plot, error)) error {
		p, err := draw()
		if err != nil {
			return fmt.Errorf("%s: %w", desc, err)
		}
		big, err := renderPNG(p, imageWidth, imageHeight)
		if err != nil {
			return fmt.Errorf("%s: %w", desc, err)
		}
		small, err := renderPNG(p, thumbWidth, thumbHeight)
		if err != nil {
			return fmt.Errorf("%s: %w", desc, err)
		}
		out = append(out, Image{ResultType: code, Description: desc, PNG: big, Thumbnail: small})
		return nil
	}
	if t := res.Table("dendrogram"); t != nil && t.NumRows() > 0 {
		if err := add(ImageDendrogram, "Dendrogram", func() (*plot.Plot, error) { return dendrogramPlot(t) }); err != nil {
			return nil, err
		}
	}
	if t := res.Table("sizes"); t != nil {
		if err := add(ImageHistogram, "Cluster sizes", func() (*plot.Plot, error) { return sizesPlot(t) }); err != nil {
			return nil, err
		}
	}
	regions := separating(res, 8)
	for _, s := range []struct {
		code       int
		table, att string
	}{{ImageAverages, "averages", "Cluster averages"}, {ImageMaxima, "maxima", "Cluster maxima"}, {ImageMinima, "minima", "Cluster minima"}} {
		if t := res.Table(s.table); t != nil {
			if err := add(s.code, s.att, func() (*plot.Plot, error) { return profilePlot(t, regions, s.att) }); err != nil {
				return nil, err
			}
		}
	}
	if t := res.Table("pca"); t != nil && t.NumRows() > 0 {
		if err := add(ImagePCAScatter, "PCA scatterplot", func() (*plot.Plot, error) { return pcaPlot(t) }); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func renderPNG(p *plot.Plot, w, h vg.Length) ([]byte, error) {
	wt, err := p.WriterTo(w, h, "png")
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if _, err := wt.WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// palette colours clusters; noise (−1) is grey.
func clusterColor(c int) color.Color {
	pal := []color.RGBA{{31, 119, 180, 255}, {255, 127, 14, 255}, {44, 160, 44, 255}, {214, 39, 40, 255},
		{148, 103, 189, 255}, {140, 86, 75, 255}, {227, 119, 194, 255}, {188, 189, 34, 255}, {23, 190, 207, 255}}
	if c < 0 {
		return color.Gray{Y: 150}
	}
	return pal[c%len(pal)]
}

func sizesPlot(t *result.Table) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = "Cluster sizes"
	p.Y.Label.Text = "threads"
	var vals plotter.Values
	var names []string
	for i := 0; i < t.NumRows(); i++ {
		vals = append(vals, t.Num("size", i))
		names = append(names, fmt.Sprintf("%v", t.Num("cluster", i)))
	}
	bars, err := plotter.NewBarChart(vals, vg.Points(20))
	if err != nil {
		return nil, err
	}
	bars.Color = clusterColor(0)
	p.Add(bars)
	p.NominalX(names...)
	return p, nil
}

// separating returns the names of the n regions that separate the clusters
// most (the result's "separating" table, in rank order).
func separating(res *result.Result, n int) []string {
	t := res.Table("separating")
	if t == nil {
		return nil
	}
	var out []string
	for i := 0; i < t.NumRows() && len(out) < n; i++ {
		out = append(out, t.Text("region", i))
	}
	return out
}

func profilePlot(t *result.Table, regions []string, title string) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title
	p.Y.Label.Text = "value"
	clusters := map[float64]map[string]float64{}
	var ids []float64
	for i := 0; i < t.NumRows(); i++ {
		c := t.Num("cluster", i)
		if clusters[c] == nil {
			clusters[c] = map[string]float64{}
			ids = append(ids, c)
		}
		clusters[c][t.Text("region", i)] = t.Num("value", i)
	}
	sort.Float64s(ids)
	w := vg.Points(40) / vg.Length(max(1, len(ids)))
	for k, c := range ids {
		var vals plotter.Values
		for _, r := range regions {
			vals = append(vals, clusters[c][r])
		}
		bars, err := plotter.NewBarChart(vals, w)
		if err != nil {
			return nil, err
		}
		bars.Color = clusterColor(int(c))
		bars.Offset = vg.Length(k-len(ids)/2) * w
		p.Add(bars)
		p.Legend.Add(fmt.Sprintf("cluster %v", c), bars)
	}
	labels := make([]string, len(regions))
	for i, r := range regions {
		if len(r) > 18 {
			r = r[:18] + "…"
		}
		labels[i] = r
	}
	p.NominalX(labels...)
	p.Legend.Top = true
	return p, nil
}

func pcaPlot(t *result.Table) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = "PCA scatterplot"
	p.X.Label.Text = "PC1"
	p.Y.Label.Text = "PC2"
	byCluster := map[float64]plotter.XYs{}
	var ids []float64
	for i := 0; i < t.NumRows(); i++ {
		c := t.Num("cluster", i)
		if _, ok := byCluster[c]; !ok {
			ids = append(ids, c)
		}
		byCluster[c] = append(byCluster[c], plotter.XY{X: t.Num("pc1", i), Y: t.Num("pc2", i)})
	}
	sort.Float64s(ids)
	for _, c := range ids {
		s, err := plotter.NewScatter(byCluster[c])
		if err != nil {
			return nil, err
		}
		s.GlyphStyle.Color = clusterColor(int(c))
		s.GlyphStyle.Radius = vg.Points(3)
		p.Add(s)
		p.Legend.Add(fmt.Sprintf("cluster %v", c), s)
	}
	return p, nil
}

// dendrogramPlot draws the merges of an average-linkage clustering (SciPy
// numbering: leaves 0..n−1, merge i creates node n+i) with the leaves in
// the order a depth-first walk of the tree gives.
func dendrogramPlot(t *result.Table) (*plot.Plot, error) {
	m := t.NumRows()
	n := m + 1
	type node struct {
		a, b int
		h    float64
	}
	nodes := make([]node, m)
	for i := 0; i < m; i++ {
		nodes[i] = node{int(t.Num("a", i)), int(t.Num("b", i)), t.Num("height", i)}
	}
	x := make([]float64, n+m)
	y := make([]float64, n+m)
	next := 0.0
	var place func(id int) error
	place = func(id int) error {
		if id < 0 || id >= n+m {
			return fmt.Errorf("merge refers to node %d of %d", id, n+m)
		}
		if id < n {
			x[id] = next
			next++
			return nil
		}
		nd := nodes[id-n]
		if err := place(nd.a); err != nil {
			return err
		}
		if err := place(nd.b); err != nil {
			return err
		}
		x[id] = (x[nd.a] + x[nd.b]) / 2
		y[id] = nd.h
		return nil
	}
	if err := place(n + m - 1); err != nil {
		return nil, err
	}
	p := plot.New()
	p.Title.Text = "Dendrogram (average linkage)"
	p.Y.Label.Text = "distance"
	for i, nd := range nodes {
		id := n + i
		pts := plotter.XYs{{X: x[nd.a], Y: y[nd.a]}, {X: x[nd.a], Y: y[id]}, {X: x[nd.b], Y: y[id]}, {X: x[nd.b], Y: y[nd.b]}}
		l, err := plotter.NewLine(pts)
		if err != nil {
			return nil, err
		}
		p.Add(l)
	}
	return p, nil
}
