package cluster

import (
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
)

// Normalization names, as PerfExplorer writes them to analysis_settings
// ("Z-Score" is ours).
const (
	// NormNone leaves the values as they are.
	NormNone = "None"
	// NormPercent is PerfExplorer's "Percentage of Total": each thread's
	// vector is divided by its sum, x'[t][r] = 100 * x[t][r] / Σ_r x[t][r]
	// (a vector summing to 0 stays 0).
	NormPercent = "Percentage of Total"
	// NormRange is PerfExplorer's "Range of Total": each dimension is
	// scaled to [0, 1], x'[t][r] = (x[t][r] − min_t x[·][r]) /
	// (max_t x[·][r] − min_t x[·][r]) (a constant dimension becomes 0).
	NormRange = "Range of Total"
	// NormZScore standardizes each dimension, x'[t][r] = (x[t][r] − μ_r) /
	// σ_r with σ_r the population standard deviation (a constant dimension
	// becomes 0).
	NormZScore = "Z-Score"
)

// Dimension reduction names, as PerfExplorer writes them ("PCA" is ours in
// the stored settings).
const (
	// ReduceNone keeps every dimension.
	ReduceNone = "None"
	// ReduceOverX keeps the regions whose total over all threads,
	// Σ_t x[t][r], is above X percent of the grand total Σ_t Σ_r x[t][r],
	// measured on the raw values (before normalization).
	ReduceOverX = "Over X Percent"
	// ReducePCA projects the (normalized) vectors on their first principal
	// components (gonum's stat.PC on the centered data): a given number of
	// them, or the fewest whose variances sum to at least a given fraction
	// of the total.
	ReducePCA = "PCA"
)

// ParseNormalization maps PerfExplorer's strings and our short names
// ("none", "percent", "range", "zscore"; case-insensitive; "" is None) to
// one of the Norm constants.
func ParseNormalization(s string) (string, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "none":
		return NormNone, nil
	case "percent", "percentage", "percentage of total":
		return NormPercent, nil
	case "range", "range of total":
		return NormRange, nil
	case "zscore", "z-score", "z score":
		return NormZScore, nil
	}
	return "", fmt.Errorf("cluster: unknown normalization %q (want none, percent, range or zscore)", s)
}

// ParseReduction maps PerfExplorer's strings and our short names ("none",
// "over", "overx", "pca"; case-insensitive; "" is None) to one of the
// Reduce constants.
func ParseReduction(s string) (string, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "none":
		return ReduceNone, nil
	case "over", "overx", "over x percent", "over_x_percent":
		return ReduceOverX, nil
	case "pca":
		return ReducePCA, nil
	}
	return "", fmt.Errorf("cluster: unknown dimension reduction %q (want none, over or pca)", s)
}

// Normalize returns a normalized copy of m (see the Norm constants).
func Normalize(m Matrix, norm string) (Matrix, error) {
	norm, err := ParseNormalization(norm)
	if err != nil {
		return Matrix{}, err
	}
	out := m.clone()
	switch norm {
	case NormPercent:
		for i := 0; i < out.N; i++ {
			row := out.Row(i)
			s := 0.0
			for _, v := range row {
				s += v
			}
			for j := range row {
				if s != 0 {
					row[j] = 100 * row[j] / s
				} else {
					row[j] = 0
				}
			}
		}
	case NormRange:
		for j := 0; j < out.D; j++ {
			lo, hi := math.Inf(1), math.Inf(-1)
			for i := 0; i < out.N; i++ {
				v := out.X[i*out.D+j]
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
			for i := 0; i < out.N; i++ {
				p := &out.X[i*out.D+j]
				if hi > lo {
					*p = (*p - lo) / (hi - lo)
				} else {
					*p = 0
				}
			}
		}
	case NormZScore:
		for j := 0; j < out.D; j++ {
			mu := 0.0
			for i := 0; i < out.N; i++ {
				mu += out.X[i*out.D+j]
			}
			mu /= float64(out.N)
			ss := 0.0
			for i := 0; i < out.N; i++ {
				dv := out.X[i*out.D+j] - mu
				ss += dv * dv
			}
			sd := math.Sqrt(ss / float64(out.N))
			for i := 0; i < out.N; i++ {
				p := &out.X[i*out.D+j]
				if sd > 0 {
					*p = (*p - mu) / sd
				} else {
					*p = 0
				}
			}
		}
	}
	return out, nil
}

// OverX returns the indices of the columns of raw whose total over all
// rows is above x percent of the grand total: Σ_t raw[t][r] > x/100 ·
// Σ_t Σ_r raw[t][r]. With a grand total of 0 it keeps every column.
func OverX(raw Matrix, x float64) []int {
	tot := make([]float64, raw.D)
	grand := 0.0
	for i := 0; i < raw.N; i++ {
		for j, v := range raw.Row(i) {
			tot[j] += v
			grand += v
		}
	}
	var keep []int
	for j, t := range tot {
		if grand == 0 || t > x/100*grand {
			keep = append(keep, j)
		}
	}
	return keep
}

// Columns returns the sub-matrix of m made of the given columns.
func Columns(m Matrix, cols []int) Matrix {
	out := Matrix{N: m.N, D: len(cols), X: make([]float64, m.N*len(cols))}
	for i := 0; i < m.N; i++ {
		row := m.Row(i)
		for k, c := range cols {
			out.X[i*out.D+k] = row[c]
		}
	}
	return out
}

// PCA is the result of a principal component analysis of a Matrix.
type PCA struct {
	// Scores holds the projections of the centered rows on the kept
	// components: score[t][c] = Σ_r (x[t][r] − μ_r) · v_c[r].
	Scores Matrix
	// Variances holds the variance of every component (all of them,
	// descending), Σ = total variance.
	Variances []float64
	// Kept is the number of components in Scores.
	Kept int
}

// PrincipalComponents projects m on its first principal components, by
// gonum's stat.PC (an SVD of the centered data). With components > 0 it
// keeps that many (at most min(n, d)); otherwise it keeps the fewest whose
// variances sum to at least fraction (0 < fraction ≤ 1; 0 means 0.9) of the
// total variance. A matrix with fewer than 2 rows, or of zero variance,
// gives one component of zeros.
func PrincipalComponents(m Matrix, components int, fraction float64) (PCA, error) {
	if fraction <= 0 {
		fraction = 0.9
	}
	if fraction > 1 {
		return PCA{}, fmt.Errorf("cluster: PCA variance fraction %g above 1", fraction)
	}
	var vars []float64
	var vecs mat.Dense
	ok := false
	if m.N >= 2 && m.D >= 1 {
		var pc stat.PC
		ok = pc.PrincipalComponents(mat.NewDense(m.N, m.D, m.X), nil)
		if ok {
			pc.VectorsTo(&vecs)
			vars = pc.VarsTo(nil)
		}
	}
	total := 0.0
	for _, v := range vars {
		total += v
	}
	if !ok || total <= 0 {
		k := max(components, 1)
		return PCA{Scores: Matrix{N: m.N, D: k, X: make([]float64, m.N*k)}, Variances: vars, Kept: k}, nil
	}
	k := components
	if k <= 0 {
		acc := 0.0
		for k < len(vars) {
			acc += vars[k]
			k++
			if acc >= fraction*total*(1-1e-12) {
				break
			}
		}
	}
	k = min(k, len(vars))
	mu := make([]float64, m.D)
	for i := 0; i < m.N; i++ {
		for j, v := range m.Row(i) {
			mu[j] += v
		}
	}
	for j := range mu {
		mu[j] /= float64(m.N)
	}
	out := Matrix{N: m.N, D: k, X: make([]float64, m.N*k)}
	for i := 0; i < m.N; i++ {
		row := m.Row(i)
		for c := 0; c < k; c++ {
			s := 0.0
			for j, v := range row {
				s += (v - mu[j]) * vecs.At(j, c)
			}
			out.X[i*k+c] = s
		}
	}
	// Fix the sign of each component (largest |loading| positive) so that
	// the scatter does not flip between LAPACK implementations.
	for c := 0; c < k; c++ {
		best, bj := 0.0, 0
		for j := 0; j < m.D; j++ {
			if a := math.Abs(vecs.At(j, c)); a > best {
				best, bj = a, j
			}
		}
		if vecs.At(bj, c) < 0 {
			for i := 0; i < m.N; i++ {
				out.X[i*k+c] = -out.X[i*k+c]
			}
		}
	}
	return PCA{Scores: out, Variances: vars, Kept: k}, nil
}
