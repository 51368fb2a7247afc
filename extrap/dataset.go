// Package extrap reads and writes the measurement formats of Extra-P
// (extra-p/extrap, the reference performance-modeling tool), so that its
// users can bring their measurements to taudb-analyze and the two tools
// can be compared on the same data: Extra-P's text input format
// (ReadText, WriteText) and its JSON experiment format, the current one
// and the legacy one with numeric ids (ReadJSON). Read detects which.
package extrap

import (
	"bytes"
	"fmt"
	"io"

	"github.com/taudb-analyze/taudb-analyze/internal/safefile"
)

// MaxFileSize is the largest input file read (bytes).
const MaxFileSize = 256 << 20

// MaxParameters is the most parameters a dataset may have (Extra-P's text
// format allows 4).
const MaxParameters = 4

// Dataset is a set of measurements: for each kernel (region and metric),
// the values measured at points of the parameter space, each point with
// one value per repetition.
type Dataset struct {
	// Params are the parameter names, in coordinate order.
	Params []string
	// Kernels are the measured series, in the order the file gives them.
	Kernels []Kernel
}

// Kernel is one region's measurements of one metric.
type Kernel struct {
	// Region and Metric name the series ("" when the file names none).
	Region, Metric string
	// Points are the coordinates, len(Params) values each.
	Points [][]float64
	// Values are the repetitions measured at each point, parallel to
	// Points (at least one each).
	Values [][]float64
}

// FormatError is an input that does not follow the format: the file, the
// line (0 when not known, as in JSON) and what is wrong.
type FormatError struct {
	File string
	Line int
	Msg  string
}

// Error names the file and line.
func (e *FormatError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// Read reads an Extra-P text or JSON file (JSON when its first
// non-blank byte is '{'), at most MaxFileSize bytes.
func Read(path string) (*Dataset, error) {
	data, err := readBounded(path)
	if err != nil {
		return nil, err
	}
	if t := bytes.TrimLeft(data, " \t\r\n"); len(t) > 0 && t[0] == '{' {
		return parseJSON(path, data)
	}
	return parseText(path, data)
}

// readBounded reads a regular file of at most MaxFileSize bytes.
func readBounded(path string) ([]byte, error) {
	f, err := safefile.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if len(data) > MaxFileSize {
		return nil, &FormatError{File: path, Msg: fmt.Sprintf("larger than %d bytes", MaxFileSize)}
	}
	return data, nil
}

// check verifies that every kernel has a value at each point, points of
// len(Params) coordinates, and at least one kernel.
func (d *Dataset) check(file string) error {
	if len(d.Params) == 0 {
		return &FormatError{File: file, Msg: "no parameter"}
	}
	if len(d.Params) > MaxParameters {
		return &FormatError{File: file, Msg: fmt.Sprintf("%d parameters: at most %d", len(d.Params), MaxParameters)}
	}
	if len(d.Kernels) == 0 {
		return &FormatError{File: file, Msg: "no measurement"}
	}
	for _, k := range d.Kernels {
		for i, p := range k.Points {
			if len(p) != len(d.Params) {
				return &FormatError{File: file, Msg: fmt.Sprintf("region %q metric %q: point %d has %d coordinates, want %d", k.Region, k.Metric, i+1, len(p), len(d.Params))}
			}
			if len(k.Values[i]) == 0 {
				return &FormatError{File: file, Msg: fmt.Sprintf("region %q metric %q: no value at point %d", k.Region, k.Metric, i+1)}
			}
		}
	}
	return nil
}
