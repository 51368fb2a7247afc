package drg

import (
	"strings"
	"testing"
)

func TestCheckName(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"main", ""},
		{"été ☃ 𝄞", ""},
		{strings.Repeat("x", MaxNameBytes), ""},
		{"ma\x00in", "timer name holds a NUL byte at byte 3"},
		{"ma\xffin", "timer name is not UTF-8: byte 3 is 0xff"},
		{"\xe2\x98", "timer name is not UTF-8: byte 1 is 0xe2"},
		{strings.Repeat("x", MaxNameBytes+1), "timer name of 2049 bytes is longer than the 2048 bytes a TAUdb name may have"},
	} {
		got := ""
		if err := CheckName("timer name", c.in); err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("CheckName(%.20q) = %q, want %q", c.in, got, c.want)
		}
	}
	if err := CheckText("value", strings.Repeat("x", 1<<20)); err != nil {
		t.Errorf("CheckText of a long value: %v", err)
	}
}

func TestTrialCheckNames(t *testing.T) {
	tr := &Trial{Name: "t", Metrics: []Metric{{Name: "TIME"}}, Regions: []Region{{Name: "main", Groups: []string{"TAU_DEFAULT"}}},
		Metadata: map[string]string{"b": "ok", "a": "x\x00y"}}
	if err := tr.CheckNames(); err == nil || err.Error() != `trial metadata attribute "a" holds a NUL byte at byte 2` {
		t.Errorf("CheckNames = %v", err)
	}
	tr.Metadata["a"] = "fine"
	tr.Regions[0].Groups = []string{"G\xc3"}
	if err := tr.CheckNames(); err == nil || err.Error() != `group name of region "main" is not UTF-8: byte 2 is 0xc3` {
		t.Errorf("CheckNames = %v", err)
	}
	tr.Regions[0].Groups = nil
	if err := tr.CheckNames(); err != nil {
		t.Errorf("CheckNames of a good trial = %v", err)
	}
}
