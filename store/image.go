package store

import (
	"context"
	"fmt"
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
// returned), one analysis_result row each, in one transaction.
func (db *DB) SaveImages(ctx context.Context, settings int64, images []ResultImage) error {
	err := db.inTx(ctx, func(r runner) error {
		for _, im := range images {
			desc := im.Description
			if len(desc) > 255 {
				desc = desc[:255]
			}
			if _, err := r.execArgs(ctx, `INSERT INTO analysis_result (analysis_settings, description, thumbnail_size, image_size, thumbnail, image, result_type)
VALUES ($1, $2, $3, $4, $5, $6, $7)`, settings, desc, len(im.Thumbnail), len(im.PNG), im.Thumbnail, im.PNG, im.ResultType); err != nil {
				return fmt.Errorf("insert %q: %w", desc, err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("save images of result %d: %w", settings, err)
	}
	return nil
}

// ResultImages reads the pictures of a stored result, in the order saved.
func (db *DB) ResultImages(ctx context.Context, settings int64) ([]ResultImage, error) {
	var out []ResultImage
	err := db.readTx(ctx, func(r runner) error {
		return r.query(ctx, `SELECT result_type, description, image, thumbnail FROM analysis_result
WHERE analysis_settings = $1 AND image IS NOT NULL ORDER BY id`, func(scan func(...any) error) error {
			var im ResultImage
			if err := scan(&im.ResultType, &im.Description, &im.PNG, &im.Thumbnail); err != nil {
				return err
			}
			out = append(out, im)
			return nil
		}, settings)
	})
	if err != nil {
		return nil, fmt.Errorf("read images of result %d: %w", settings, err)
	}
	return out, nil
}
