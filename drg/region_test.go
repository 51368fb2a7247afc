package drg

import (
	"reflect"
	"testing"
)

func TestParseRegionName(t *testing.T) {
	cases := []struct {
		name string
		want Region
	}{
		{"int main(int, char **) C [{ring.c} {46,1}-{56,1}]",
			Region{ShortName: "int main(int, char **) C", SourceFile: "ring.c", LineStart: 46, ColumnStart: 1, LineEnd: 56, ColumnEnd: 1}},
		{"[SAMPLE] compute [{/luke-perm/taucmdr/examples/mm/matmult.c} {101}]",
			Region{ShortName: "[SAMPLE] compute", SourceFile: "matmult.c", LineStart: 101, LineEnd: 101}},
		{"main [{/home/x/controller.pomp.cpp} {47,0}]",
			Region{ShortName: "main", SourceFile: "controller.pomp.cpp", LineStart: 47, LineEnd: 47}},
		{"for (barrier enter/exit) [OpenMP location: file:/home/p/parallel.c <60, 66>]",
			Region{ShortName: "for (barrier enter/exit) [OpenMP location: ", SourceFile: "parallel.c", LineStart: 60, LineEnd: 66}},
		{"int __wrap_dgemm(int) C [{wb.c} {5,1}-{11,1}] [ <size> = <100> ]",
			Region{ShortName: "int __wrap_dgemm(int) C", SourceFile: "wb.c", LineStart: 5, ColumnStart: 1, LineEnd: 11, ColumnEnd: 1,
				Params: []Param{{"size", "100"}}}},
		{"MPI_Send() [ <comm> = <0 1 2> <bytes> = <8> ]", Region{ShortName: "MPI_Send() [ <comm> = <0 1 2> <bytes> = <8> ]", Params: []Param{{"comm", "0 1 2"}}}},
		{"f [ <a> = <1>, <b> = <x y> ]", Region{ShortName: "f [ <a> = <1>, <b> = <x y> ]", Params: []Param{{"a", "1"}, {"b", "x y"}}}},
		{"MPI_Init()", Region{ShortName: "MPI_Init()"}},
		{"broken [{file", Region{ShortName: "broken"}},
		{"broken [{f} {x,y}-{", Region{ShortName: "broken", SourceFile: "f"}},
	}
	for _, c := range cases {
		r := Region{Name: c.name}
		parseRegionName(&r)
		c.want.Name = c.name
		if !reflect.DeepEqual(r, c.want) {
			t.Errorf("%q:\n got %+v\nwant %+v", c.name, r, c.want)
		}
	}
}

func TestCanonicalName(t *testing.T) {
	for in, want := range map[string]string{
		"MPI_Init()  ": "MPI_Init()",
		".TAU application => MPI_Finalize()   => MPI_Info_create()": ".TAU application => MPI_Finalize() => MPI_Info_create()",
		"  a  b ": "a b",
		"plain":   "plain",
	} {
		if got := CanonicalName(in); got != want {
			t.Errorf("CanonicalName(%q) = %q, want %q", in, got, want)
		}
	}
	if p, l := SplitCallpath("A => B => C"); p != "A => B" || l != "C" {
		t.Errorf("split %q %q", p, l)
	}
	if g := SplitGroups("TAU_PARAM | TAU_USER||"); !reflect.DeepEqual(g, []string{"TAU_PARAM", "TAU_USER"}) {
		t.Errorf("groups %q", g)
	}
}

// TestAggregateMetadata follows TAU's rule: rank 0's keys become common
// unless another rank has them with another value; keys only other ranks
// have, and context keys, stay per thread.
func TestAggregateMetadata(t *testing.T) {
	threads := []map[string]string{
		{"Hostname": "n0", "CPU": "x86", "pid": "10", "ctx": "a"},
		{"pid": "11", "Hostname": "n0"},
		{"pid": "12", "Hostname": "n1", "only2": "y"},
	}
	ctx := []map[string]bool{{"ctx": true}, {}, {}}
	common := aggregateMetadata(threads, ctx)
	if !reflect.DeepEqual(common, map[string]string{"CPU": "x86"}) {
		t.Errorf("common %v", common)
	}
	want := []map[string]string{
		{"Hostname": "n0", "pid": "10", "ctx": "a"},
		{"pid": "11", "Hostname": "n0"},
		{"pid": "12", "Hostname": "n1", "only2": "y"},
	}
	if !reflect.DeepEqual(threads, want) {
		t.Errorf("threads %v", threads)
	}
}
