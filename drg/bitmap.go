package drg

// Bitmap is a growable set of bits, used to mark which (node, thread) cells
// of a trial hold a profile record.
type Bitmap struct {
	words []uint64
	n     int
}

// NewBitmap returns a bitmap of n cleared bits.
func NewBitmap(n int) Bitmap {
	return Bitmap{words: make([]uint64, (n+63)/64), n: n}
}

// Len returns the number of bits.
func (b *Bitmap) Len() int { return b.n }

// Get reports whether bit i is set; bits beyond Len are clear.
func (b *Bitmap) Get(i int) bool {
	if i < 0 || i >= b.n {
		return false
	}
	return b.words[i>>6]&(1<<(uint(i)&63)) != 0
}

// Set sets bit i, which must be below Len.
func (b *Bitmap) Set(i int) { b.words[i>>6] |= 1 << (uint(i) & 63) }

// Clear clears bit i, which must be below Len.
func (b *Bitmap) Clear(i int) { b.words[i>>6] &^= 1 << (uint(i) & 63) }

// Grow appends n cleared bits.
func (b *Bitmap) Grow(n int) {
	b.n += n
	need := (b.n + 63) / 64
	for len(b.words) < need {
		b.words = append(b.words, 0)
	}
}

// Count returns the number of set bits in [from, to).
func (b *Bitmap) Count(from, to int) int {
	c := 0
	for i := from; i < to; i++ {
		if b.Get(i) {
			c++
		}
	}
	return c
}
