package caliper

import (
	"bytes"
	"fmt"
	"testing"
)

// genCali writes a .cali profile of ranks ranks × regions regions (a chain
// of nested functions 10 deep, repeated), each record with 5 values.
func genCali(ranks, regions int) []byte {
	var b bytes.Buffer
	b.WriteString("__rec=node,id=12,attr=10,data=268,parent=3\n__rec=node,id=13,attr=8,data=function,parent=12\n")
	b.WriteString("__rec=node,id=14,attr=10,data=21,parent=5\n__rec=node,id=16,attr=10,data=12,parent=1\n__rec=node,id=17,attr=8,data=mpi.rank,parent=16\n")
	for i, a := range []string{"min#time.duration", "max#time.duration", "sum#time.duration", "avg#time.duration", "count"} {
		fmt.Fprintf(&b, "__rec=node,id=%d,attr=8,data=%s,parent=14\n", 20+i, a)
	}
	for r := 0; r < regions; r++ {
		if r%10 == 0 {
			fmt.Fprintf(&b, "__rec=node,id=%d,attr=13,data=region_%d\n", 100+r, r)
		} else {
			fmt.Fprintf(&b, "__rec=node,id=%d,attr=13,data=region_%d,parent=%d\n", 100+r, r, 99+r)
		}
	}
	for k := 0; k < ranks; k++ {
		for r := 0; r < regions; r++ {
			fmt.Fprintf(&b, "__rec=ctx,ref=%d,attr=20=21=22=23=24=17,data=0.000123=0.004567=0.123456=0.001234=%d=%d\n", 100+r, r+1, k)
		}
	}
	return b.Bytes()
}

// BenchmarkDecodeCali measures the .cali reader's throughput (bytes of
// input per second, as the TAU profile reader's benchmark reports).
func BenchmarkDecodeCali(b *testing.B) {
	data := genCali(64, 1000)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for range b.N {
		if _, err := Decode(bytes.NewReader(data), "bench.cali"); err != nil {
			b.Fatal(err)
		}
	}
}
