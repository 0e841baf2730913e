package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/net/html/atom"

	"github.com/trawl-dev/trawl/cmd/trawl/internal/runtest"
	"github.com/trawl-dev/trawl/records"
)

// TestReportCommand runs 'trawl report' through the root command.
func TestReportCommand(t *testing.T) {
	dir, kb := runtest.Bookshop(t)
	out := filepath.Join(t.TempDir(), "r.html")
	stdout, stderr, code := runCLI(t, "report", dir, "--out", out, "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var sum struct {
		Report  string   `json:"report"`
		Bytes   int      `json:"bytes"`
		Missing []string `json:"missing"`
	}
	if err := json.Unmarshal([]byte(stdout), &sum); err != nil {
		t.Fatalf("--json: %v\n%s", err, stdout)
	}
	st, err := os.Stat(out)
	if err != nil || sum.Report != out || int64(sum.Bytes) != st.Size() {
		t.Errorf("summary %+v, file %v (%v)", sum, st, err)
	}
	if sum.Missing == nil || len(sum.Missing) != 0 {
		t.Errorf("missing = %#v, want [] (the fixture is a complete run)", sum.Missing)
	}
	stdout, _, code = runCLI(t, "report", dir, "--out", "-")
	if code != exitOK || !strings.HasPrefix(stdout, "<!DOCTYPE html>") {
		t.Errorf("--out -: exit %d, output starts %q", code, stdout[:min(40, len(stdout))])
	}
	// With the KB, entities are named with their labels.
	_, stderr, code = runCLI(t, "report", dir, "--kb", kb, "--out", out)
	if code != exitOK {
		t.Fatalf("--kb: exit %d: %s", code, stderr)
	}
	raw, _ := os.ReadFile(out)
	if bytes.Contains(raw, []byte("are named from their IRIs")) {
		t.Error("with --kb the report still names entities from their IRIs")
	}
	kbDoc := runtest.CheckHTML(t, raw)
	if n := len(runtest.FindAll(runtest.ByID(kbDoc, "alignment"), atom.I)); n != 0 {
		t.Errorf("with --kb, %d KB labels are still derived from IRIs", n)
	}
	if !strings.Contains(runtest.SectionText(t, kbDoc, "alignment"), "Harry Potter and the Sorcerer's Stone yago:Harry_Potter_and_the_Sorcerer's_Stone_(book-2) Harry Potter and the Sorcerer's Stone 0.") {
		t.Error("with --kb, the KB label of a linked book is not next to the record's title")
	}
	for _, args := range [][]string{{"report"}, {"report", filepath.Join(dir, "nope")}, {"report", dir, "--max-embed", "0"}, {"report", dir, "--out", "-", "--json"}} {
		if _, _, code := runCLI(t, args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, records.RecordsFile), []byte("{\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := runCLI(t, "report", dir, "--out", out); code != exitPartial || !strings.Contains(stderr, "records.jsonl:1") {
		t.Errorf("malformed records.jsonl: exit %d, stderr %q", code, stderr)
	}
}
