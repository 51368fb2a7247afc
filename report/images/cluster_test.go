package images

import (
	"bytes"
	"image/png"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/cluster"
	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/synth"
)

// TestCluster draws PerfExplorer's six pictures of a hierarchical clustering
// of the 24 threads of the demo's OpenMP run: every one is a PNG of
// 640×480 pixels with a 160×120 thumbnail, under PerfExplorer's
// result_type codes.
func TestCluster(t *testing.T) {
	tr, err := synth.Generate(synth.DemoOpenMP)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cluster.Cluster([]*drg.Trial{tr}, cluster.Options{Method: "hierarchical", K: 3})
	if err != nil {
		t.Fatal(err)
	}
	imgs, err := Cluster(res)
	if err != nil {
		t.Fatal(err)
	}
	want := []int{ImageDendrogram, ImageHistogram, ImageAverages, ImageMaxima, ImageMinima, ImagePCAScatter}
	if len(imgs) != len(want) {
		t.Fatalf("%d images, want %d", len(imgs), len(want))
	}
	for i, im := range imgs {
		if im.ResultType != want[i] {
			t.Errorf("image %d: result_type %d, want %d", i, im.ResultType, want[i])
		}
		for _, c := range []struct {
			data []byte
			w, h int
		}{{im.PNG, 640, 480}, {im.Thumbnail, 160, 120}} {
			img, err := png.Decode(bytes.NewReader(c.data))
			if err != nil {
				t.Fatalf("%s: %v", im.Description, err)
			}
			if b := img.Bounds(); b.Dx() != c.w || b.Dy() != c.h {
				t.Errorf("%s: %dx%d, want %dx%d", im.Description, b.Dx(), b.Dy(), c.w, c.h)
			}
		}
	}
	// k-means has no dendrogram.
	res, err = cluster.Cluster([]*drg.Trial{tr}, cluster.Options{K: 2})
	if err != nil {
		t.Fatal(err)
	}
	if imgs, err = Cluster(res); err != nil || len(imgs) != 5 || imgs[0].ResultType != ImageHistogram {
		t.Errorf("k-means images: %d, %v", len(imgs), err)
	}
}
