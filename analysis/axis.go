package analysis

import (
	"fmt"
	"strings"
)

// axis is what places the experiments of a multi-region analysis: p, or a
// trial property (MultiRegionOptions.By).
type axis struct {
	by      string // "" for p
	numeric bool   // the property's values are positive numbers
}

// newAxis returns the axis of by and the experiments placed on it: with
// by "" they are returned as they are; else each gets Key = the
// property's text and P = its number when every experiment's is a positive
// number, else the rank of its text among the distinct texts.
func newAxis(exps []Experiment, by string) (axis, []Experiment, error) {
	ax := axis{by: strings.TrimSpace(by), numeric: true}
	if ax.by == "" {
		return ax, exps, nil
	}
	out := append([]Experiment(nil), exps...)
	nums := make([]float64, len(out))
	texts := make([]string, len(out))
	for i, e := range out {
		prop, err := ByKey(e.Trial, ax.by)
		if err != nil {
			return ax, nil, fmt.Errorf("--by %s: %w", ax.by, err)
		}
		texts[i], nums[i] = prop.Text, prop.Num
		ax.numeric = ax.numeric && nums[i] > 0
	}
	if !ax.numeric {
		nums = HistoryRanks(texts)
	}
	for i := range out {
		out[i].P, out[i].Key = nums[i], texts[i]
	}
	return ax, out, nil
}

// name is how findings call the axis: "p" or the property.
func (ax axis) name() string {
	if ax.by == "" {
		return "p"
	}
	return strings.TrimPrefix(ax.by, "meta:")
}

// at is experiment k's place on the axis as findings print it: its p, or
// the property's text.
func (ax axis) at(d *seriesData, k int) string {
	if ax.by == "" {
		return formatNum(d.ps()[k])
	}
	return d.exps[k].Key
}
