package otherfmt

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
)

// WriteHPCToolkit writes an HPCToolkit database (experiment.xml and one
// metric-db file per thread, format 2.0) into dir: n procedure frames
// f1..fn (frame i+1 is node i of the generated tree, called through a
// call site element), each frame's call site a context of its own with
// no values, and threads threads (rank th, thread 0). Metric-db columns:
// CPUTIME (usec) inclusive (Excl summed over subtrees, in µs) and
// exclusive (Excl in µs). It returns the bytes written.
func WriteHPCToolkit(dir string, n, threads int) (int64, error) {
	x := hpcExperiment(n)
	if err := os.WriteFile(filepath.Join(dir, "experiment.xml"), []byte(x), 0o644); err != nil {
		return 0, fmt.Errorf("write HPCToolkit database: %w", err)
	}
	total := int64(len(x))
	incl := make([]float64, 0, n)
	for th := 0; th < threads; th++ {
		p := filepath.Join(dir, fmt.Sprintf("gen-%06d-000-a8c0-%d-0.metric-db", th, 1000+th))
		size, err := writeMetricDB(p, n, th, &incl)
		if err != nil {
			return 0, err
		}
		total += size
	}
	return total, nil
}

// hpcExperiment returns the experiment.xml of WriteHPCToolkit: context id
// i+1 is the frame of node i, id n+i+1 its call site (the C element its
// children are called through).
func hpcExperiment(n int) string {
	var x strings.Builder
	x.WriteString(`<?xml version="1.0"?>
<HPCToolkitExperiment version="2.0"><Header n="gen"></Header><SecCallPathProfile i="0" n="gen"><SecHeader><MetricDBTable>
<MetricDB i="0" n="CPUTIME (usec) (I)" t="inclusive" partner="1" db-id="0"/><MetricDB i="1" n="CPUTIME (usec) (E)" t="exclusive" partner="0" db-id="1"/>
</MetricDBTable><LoadModuleTable><LoadModule i="1" n="/gen/a.out"/></LoadModuleTable><FileTable><File i="1" n="gen.c"/></FileTable><ProcedureTable>`)
	for i := 0; i < n; i++ {
		fmt.Fprintf(&x, `<Procedure i="%d" n="f%d"/>`, i+1, i+1)
	}
	x.WriteString("</ProcedureTable></SecHeader><SecCallPathProfileData>")
	hpcFrame(&x, 0, n)
	x.WriteString("</SecCallPathProfileData></SecCallPathProfile></HPCToolkitExperiment>\n")
	return x.String()
}

// hpcFrame writes node i's frame, its call site and its subtree.
func hpcFrame(x *strings.Builder, i, n int) {
	fmt.Fprintf(x, `<PF i="%d" n="%d" lm="1" f="1" l="%d"><C i="%d" l="%d">`, i+1, i+1, 10*i+1, n+i+1, 10*i+5)
	for c := 10*i + 1; c <= 10*i+10 && c < n; c++ {
		hpcFrame(x, c, n)
	}
	x.WriteString("</C></PF>")
}

// writeMetricDB writes thread th's metric-db file: 2n rows (frames, then
// call sites, which hold zeros) of 2 big-endian doubles.
func writeMetricDB(path string, n, th int, incl *[]float64) (int64, error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, fmt.Errorf("write metric-db: %w", err)
	}
	w := bufio.NewWriterSize(f, 1<<16)
	w.WriteString("HPCPROF-metricdb__00.10b")
	var b [16]byte
	binary.BigEndian.PutUint32(b[:], uint32(2*n))
	binary.BigEndian.PutUint32(b[4:], 2)
	w.Write(b[:8])
	*incl = inclusive(n, th, *incl)
	for id := 0; id < 2*n; id++ {
		var in, ex float64
		if id < n {
			in, ex = 1e6*(*incl)[id], 1e6*Excl(id, th)
		}
		binary.BigEndian.PutUint64(b[:], math.Float64bits(in))
		binary.BigEndian.PutUint64(b[8:], math.Float64bits(ex))
		w.Write(b[:])
	}
	return finish(f, w.Flush)
}
