package otherfmt

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
)

// WriteCali writes a Caliper .cali profile to path, as Caliper's
// aggregate service writes one: regions (a "function" attribute, region i
// nested in region parent(i)) × ranks (mpi.rank), one record per (region,
// rank) with the min, max, sum and avg of time.duration and a count. The
// sum is Excl(i, rank); min, max and avg are derived from it and the count
// (Visits). It returns the file's size in bytes.
func WriteCali(path string, ranks, regions int) (int64, error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, fmt.Errorf("write cali: %w", err)
	}
	w := bufio.NewWriterSize(f, 1<<16)
	w.WriteString("__rec=node,id=12,attr=10,data=268,parent=3\n__rec=node,id=13,attr=8,data=function,parent=12\n")
	w.WriteString("__rec=node,id=14,attr=10,data=21,parent=5\n__rec=node,id=16,attr=10,data=12,parent=1\n__rec=node,id=17,attr=8,data=mpi.rank,parent=16\n")
	for i, a := range []string{"min#time.duration", "max#time.duration", "sum#time.duration", "avg#time.duration", "count"} {
		fmt.Fprintf(w, "__rec=node,id=%d,attr=8,data=%s,parent=14\n", 20+i, a)
	}
	for r := 0; r < regions; r++ {
		if r == 0 {
			fmt.Fprintf(w, "__rec=node,id=%d,attr=13,data=region_%d\n", 100, r)
		} else {
			fmt.Fprintf(w, "__rec=node,id=%d,attr=13,data=region_%d,parent=%d\n", 100+r, r, 100+parent(r))
		}
	}
	var line []byte
	for k := 0; k < ranks; k++ {
		for r := 0; r < regions; r++ {
			line = caliRecord(line[:0], r, k)
			w.Write(line)
		}
	}
	return finish(f, w.Flush)
}

// caliRecord appends the ctx record of region r on rank k.
func caliRecord(b []byte, r, k int) []byte {
	sum, count := Excl(r, k), Visits(r, k)
	avg := sum / float64(count)
	b = append(b, "__rec=ctx,ref="...)
	b = strconv.AppendInt(b, int64(100+r), 10)
	b = append(b, ",attr=20=21=22=23=24=17,data="...)
	for _, v := range []float64{avg * 0.5, avg * 1.5, sum, avg} {
		b = strconv.AppendFloat(b, v, 'g', -1, 64)
		b = append(b, '=')
	}
	b = strconv.AppendUint(b, count, 10)
	b = append(b, '=')
	b = strconv.AppendInt(b, int64(k), 10)
	return append(b, '\n')
}
