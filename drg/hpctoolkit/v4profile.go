package hpctoolkit

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// profile4 is one profile of profile.db: its thread (or summary) and where
// its values are.
type profile4 struct {
	summary bool
	id      drg.ThreadID
	tuple   string // the identifier tuple, for messages and contexts
	nValues uint64
	pValues uint64
	nCtxs   uint64
	pCtxs   uint64
}

// profileDB is an open profile.db.
type profileDB struct {
	d *dbFile4
	f interface {
		ReadAt([]byte, int64) (int, error)
	}
	close    func() error
	profiles []profile4
}

// openProfiles reads profile.db's header, profile infos and identifier
// tuples; kinds are meta.db's identifier kind names.
func openProfiles(path string, kinds []string) (*profileDB, error) {
	h, f, err := openDB4(path, "prof", 0x30)
	if err != nil {
		return nil, err
	}
	p := &profileDB{d: h, f: f, close: f.Close}
	size, pos := h.u64(0x10, "ProfileInfos size"), h.u64(0x18, "ProfileInfos pointer")
	isz, ipos := h.u64(0x20, "IdTuples size"), h.u64(0x28, "IdTuples pointer")
	info := h.window(f, pos, size, "Profile Info section")
	tuples := h.window(f, ipos, isz, "Identifier Tuple section")
	if h.err != nil {
		f.Close()
		return nil, h.err
	}
	pp, n, sz := info.u64(pos, "profiles pointer"), uint64(info.u32(pos+8, "number of profiles")), uint64(info.u8(pos+0xc, "profile size"))
	if info.err == nil && (sz < 0x2c || n > size/sz) {
		info.fail(pos+0xc, "%d profiles of %d bytes do not fit in the section", n, sz)
	}
	for i := uint64(0); i < n && info.err == nil && tuples.err == nil; i++ {
		e := pp + i*sz
		pr := profile4{
			nValues: info.u64(e, "number of values"), pValues: info.u64(e+8, "values pointer"),
			nCtxs: uint64(info.u32(e+0x10, "number of contexts")), pCtxs: info.u64(e+0x18, "context index pointer"),
			summary: info.u32(e+0x28, "flags")&1 != 0,
		}
		if !pr.summary {
			pr.id, pr.tuple = tupleThread(tuples, info.u64(e+0x20, "identifier tuple pointer"), kinds)
		}
		p.profiles = append(p.profiles, pr)
	}
	for _, w := range []*dbFile4{info, tuples} {
		if w.err != nil {
			f.Close()
			return nil, w.err
		}
	}
	return p, nil
}

// tupleThread reads an identifier tuple: the logical ids of kinds RANK
// and THREAD give the thread's node and thread; the other identifiers
// (node, GPU context, stream, core) are kept as text.
func tupleThread(d *dbFile4, p uint64, kinds []string) (drg.ThreadID, string) {
	var id drg.ThreadID
	var rest []string
	n := uint64(d.u16(p, "identifier count"))
	for i := uint64(0); i < n && d.err == nil; i++ {
		e := p + 8 + 16*i
		kind := d.u8(e, "identifier kind")
		logical := d.u32(e+4, "logical id")
		name := strconv.Itoa(int(kind))
		if int(kind) < len(kinds) {
			name = kinds[kind]
		}
		switch strings.ToUpper(name) {
		case "RANK":
			id.Node = int(min(logical, math.MaxInt32))
		case "THREAD":
			id.Thread = int(min(logical, math.MaxInt32))
		case "NODE", "CORE":
			// the host and core do not tell threads apart
		default:
			rest = append(rest, fmt.Sprintf("%s %d", name, logical))
		}
	}
	return id, strings.Join(rest, " ")
}

// values calls fn for each value of profile i: its context id, metric id
// and value. It reads the profile's values and context index in one window.
func (p *profileDB) values(i int, fn func(ctx uint32, metric uint16, v float64) error) error {
	pr := p.profiles[i]
	if pr.nValues == 0 {
		return nil
	}
	if pr.pValues > p.d.size || pr.nValues > (p.d.size-pr.pValues)/10 || pr.pCtxs < pr.pValues || pr.nCtxs > p.d.size/12 {
		return errorf(p.d.path, int64(min(pr.pValues, 1<<62)), "profile %d: %d values at %d and %d contexts at %d do not fit in the file", i, pr.nValues, pr.pValues, pr.nCtxs, pr.pCtxs)
	}
	w := p.d.window(p.f, pr.pValues, pr.pCtxs+12*pr.nCtxs-pr.pValues, "profile values")
	if p.d.err != nil {
		return p.d.err
	}
	for k := uint64(0); k < pr.nCtxs && w.err == nil; k++ {
		e := pr.pCtxs + 12*k
		ctx, start := w.u32(e, "context id"), w.u64(e+4, "start index")
		end := pr.nValues
		if k+1 < pr.nCtxs {
			end = w.u64(e+16, "next start index")
		}
		if w.err == nil && (start > end || end > pr.nValues) {
			w.fail(e+4, "profile %d: values %d..%d of context %d are not within its %d values", i, start, end, ctx, pr.nValues)
		}
		for j := start; j < end && w.err == nil; j++ {
			v := pr.pValues + 10*j
			val := math.Float64frombits(w.u64(v+2, "value"))
			if math.IsNaN(val) || math.IsInf(val, 0) {
				w.fail(v+2, "profile %d, context %d: value %v is not finite", i, ctx, val)
				break
			}
			if err := fn(ctx, w.u16(v, "metric id"), val); err != nil {
				w.fail(v, "profile %d: %v", i, err)
			}
		}
	}
	if w.err != nil {
		return w.err
	}
	return nil
}
