package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestScalabilityExtrapFiles runs scalability as an Extra-P user would:
// --input on a hand-written text file and a JSON file (no database), and
// --export-extrap on a synth series, whose export reads back through
// --input with the same program model.
func TestScalabilityExtrapFiles(t *testing.T) {
	dir := t.TempDir()
	text := filepath.Join(dir, "in.txt")
	os.WriteFile(text, []byte("PARAMETER p\nPOINTS ( 2 ) ( 4 ) ( 8 ) ( 16 ) ( 32 )\nREGION solve\nMETRIC time\n"+
		"DATA 505 505\nDATA 255 255\nDATA 130 130\nDATA 67.5 67.5\nDATA 36.25 36.25\n"), 0o644)
	r := ok(t, nil, "--format", "json", "scalability", "--input", text)
	var doc struct {
		Params map[string]string
		Tables []struct{ Rows []map[string]any }
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatal(err)
	}
	// 5 + 1000/p exactly.
	row := doc.Tables[0].Rows[0]
	if row["model"] != "5 + 1000 * p^-1" || row["repetitions_min"].(float64) != 2 || doc.Params["input"] != text {
		t.Errorf("text input: %v %v", row, doc.Params)
	}
	js := filepath.Join(dir, "in.json")
	os.WriteFile(js, []byte(`{"parameters": ["x"], "measurements": {"sweep": {"time": [
	  {"point": [4], "values": [3.5]}, {"point": [8], "values": [5.5]}, {"point": [16], "values": [9.5]},
	  {"point": [32], "values": [17.5]}, {"point": [64], "values": [33.5]}]}}}`), 0o644)
	r = ok(t, nil, "scalability", "--input", js, "--predict", "128")
	if !strings.Contains(r.stdout, "1.5 + 0.5 * p") || !strings.Contains(r.stdout, "single repetition") {
		t.Errorf("json input:\n%s", r.stdout)
	}
	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(bad, []byte("PARAMETER p\nPOINTS 1 2\nDATA 1\nDATA x\n"), 0o644)
	fails(t, 1, bad+":4: DATA value \"x\"", "scalability", "--input", bad)
	fails(t, 2, "give no --trial", "scalability", "--input", text, "--trials", "a,b")
	fails(t, 2, "--export-extrap", "scalability", "--input", text, "--export-extrap", filepath.Join(dir, "x.txt"))

	r = cli(t, nil, "synth", "--out", filepath.Join(dir, "s"), "--processes", "1,2,4,8,16", "--regions", "5", "--noise", "0", "--imbalance", "0",
		"--serial", "100000", "--parallel", "900000", "--log", "5000")
	if r.code != 0 {
		t.Fatalf("synth: %s", r.stderr)
	}
	db := []string{"--db", "sqlite:" + filepath.Join(dir, "s.db")} // noise 0: exact models
	for _, p := range strings.Fields(r.stdout) {
		ok(t, nil, append(db, "load", "-a", "synth", p)...)
	}
	out := filepath.Join(dir, "series.txt")
	r = ok(t, nil, append(db, "scalability", "--where", `application == "synth"`, "--no-save", "--export-extrap", out)...)
	if !strings.Contains(r.stdout, "Exported") {
		t.Errorf("no export finding:\n%s", r.stdout)
	}
	sr := ok(t, nil, append(db, "--format", "json", "scalability", "--where", `application == "synth"`, "--no-save", "--predict", "128", "--suggest", "2")...)
	if !strings.Contains(sr.stdout, `"suggestions"`) || !strings.Contains(sr.stdout, "no interval to narrow") {
		t.Errorf("--suggest:\n%s", sr.stdout)
	}
	fails(t, 2, "--suggest -1", append(db, "scalability", "--where", `application == "synth"`, "--suggest", "-1")...)
	data, err := os.ReadFile(out)
	if err != nil || !strings.HasPrefix(string(data), "PARAMETER p\n") || strings.Count(string(data), "POINTS") != 5 {
		t.Fatalf("export %v:\n%s", err, data)
	}
	back := ok(t, nil, "--format", "json", "scalability", "--input", out)
	var bd struct {
		Tables []struct{ Rows []map[string]any }
	}
	json.Unmarshal([]byte(back.stdout), &bd)
	if m := bd.Tables[0].Rows[0]["model"].(string); !strings.Contains(m, "p^-1") || !strings.Contains(m, "log2(p)") {
		t.Errorf("program model from the export: %q", m)
	}
}
