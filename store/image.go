package store

import (
	"context"
	"fmt"
	"unicode/utf8"
)

// ResultImage is a picture of a result as PerfExplorer stores it in
// analysis_result: a result_type code (for clustering: 0 dendrogram,
// 1 histogram of cluster sizes, 3 cluster averages, 4 maxima, 5 minima,
// 6 PCA scatterplot), a description, and the PNG image and thumbnail whose
// lengths go to image_size and thumbnail_size.
type ResultImage struct {
	ResultType  int
	Description string
	PNG         []byte
	Thumbnail   []byte
}

// SaveImages adds pictures to the stored result settings (an id SaveResult
// returned), one analysis_result row each, in one transaction: to the
// result's PerfExplorer viewer row when it has one (insertViewerSettings),
// else to the result's own row. Each picture needs a PNG and a thumbnail:
// PerfExplorer's viewer reads both of every row it shows and fails on a
// NULL one. To store a new result and its pictures together, so that
// neither stays without the other, use SaveResultWith.
func (db *DB) SaveImages(ctx context.Context, settings int64, images []ResultImage) error {
	if err := checkImages(images); err != nil {
		return fmt.Errorf("save images of result %d: %w", settings, err)
	}
	err := db.inTx(ctx, func(r runner) error {
		return insertImages(ctx, r, db.dialect, settings, images)
	})
	if err != nil {
		return fmt.Errorf("save images of result %d: %w", settings, err)
	}
	return nil
}

// checkImages fails on a picture without an image or a thumbnail.
func checkImages(images []ResultImage) error {
	for _, im := range images {
		if len(im.PNG) == 0 || len(im.Thumbnail) == 0 {
			return fmt.Errorf("picture %q has no image or no thumbnail", im.Description)
		}
	}
	return nil
}

// insertImages writes images in the transaction of r onto the viewer row
// of result settings (or its own row when it has none), one
// analysis_result row each; a description longer than 255 bytes is cut at
// a character boundary.
func insertImages(ctx context.Context, r runner, d Dialect, settings int64, images []ResultImage) error {
	if len(images) == 0 {
		return nil
	}
	target, err := viewerSettings(ctx, r, d, settings)
	if err != nil {
		return err
	}
	beforeTable(ctx, imageTable)
	for _, im := range images {
		desc := im.Description
		if len(desc) > 255 {
			cut := 255
			for cut > 0 && !utf8.RuneStart(desc[cut]) {
				cut--
			}
			desc = desc[:cut]
		}
		if _, err := r.execArgs(ctx, `INSERT INTO analysis_result (analysis_settings, description, thumbnail_size, image_size, thumbnail, image, result_type)
VALUES ($1, $2, $3, $4, $5, $6, $7)`, target, desc, len(im.Thumbnail), len(im.PNG), im.Thumbnail, im.PNG, im.ResultType); err != nil {
			return fmt.Errorf("insert %q: %w", desc, err)
		}
	}
	return nil
}

// imageTable is the name the before-table test hook is called with before
// a result's pictures are written (rows of analysis_result).
const imageTable = "analysis_result images"

// ResultImages reads the pictures of a stored result (on its own row or
// its PerfExplorer viewer row), in the order saved.
func (db *DB) ResultImages(ctx context.Context, settings int64) ([]ResultImage, error) {
	var out []ResultImage
	err := db.readTx(ctx, func(r runner) error {
		target, err := viewerSettings(ctx, r, db.dialect, settings)
		if err != nil {
			return err
		}
		return r.query(ctx, `SELECT result_type, description, image, thumbnail FROM analysis_result
WHERE analysis_settings IN ($1, $2) AND image IS NOT NULL ORDER BY id`, func(scan func(...any) error) error {
			var im ResultImage
			if err := scan(&im.ResultType, &im.Description, &im.PNG, &im.Thumbnail); err != nil {
				return err
			}
			out = append(out, im)
			return nil
		}, settings, target)
	})
	if err != nil {
		return nil, fmt.Errorf("read images of result %d: %w", settings, err)
	}
	return out, nil
}
