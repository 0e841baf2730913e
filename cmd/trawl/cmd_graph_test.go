package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl/schema/schematest"
)

// TestSchemaAndGraphCommands runs 'trawl schema' and 'trawl graph' through the root
// command on a fixture run directory (no browser: mapping from the probe log).
func TestSchemaAndGraphCommands(t *testing.T) {
	site := schematest.NewSite(schematest.List)
	dir := t.TempDir()
	if _, err := site.WriteRun(dir, site.Plan(), true); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) (string, error) {
		var out, errb bytes.Buffer
		root := newRootCommand()
		root.SetArgs(args)
		root.SetOut(&out)
		root.SetErr(&errb)
		err := root.ExecuteContext(t.Context())
		return out.String(), err
	}
	out, err := run("schema", dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"features from 84 records", "byline-by", "published", "mapping:"} {
		if !strings.Contains(out, want) {
			t.Errorf("schema output lacks %q:\n%s", want, out)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "schema.json")); err != nil {
		t.Fatal(err)
	}
	out, err = run("graph", "--json", "--base", "https://data.example.org/trawl", dir)
	if err != nil {
		t.Fatal(err)
	}
	var sum struct {
		Graph    string `json:"graph"`
		Source   string `json:"source"`
		Entities int    `json:"entities"`
		Triples  int    `json:"triples"`
	}
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatalf("graph --json output: %v\n%s", err, out)
	}
	if sum.Entities != 41 || !strings.HasPrefix(sum.Source, "https://data.example.org/trawl/src/") || sum.Triples == 0 {
		t.Errorf("graph summary = %+v", sum)
	}
	nt, err := os.ReadFile(sum.Graph)
	if err != nil || bytes.Count(nt, []byte("\n")) != sum.Triples {
		t.Errorf("graph.nt has %d lines, summary says %d (%v)", bytes.Count(nt, []byte("\n")), sum.Triples, err)
	}
	// --print streams the same bytes.
	out, err = run("graph", "--print", "--base", "https://data.example.org/trawl", dir)
	if err != nil || out != string(nt) {
		t.Errorf("graph --print differs from graph.nt (%v)", err)
	}
	if _, err := run("graph", "--print", "--json", dir); err == nil || exitCode(err, &bytes.Buffer{}) != exitUsage {
		t.Errorf("--print with --json: error %v, want a usage error", err)
	}
	if _, err := run("graph", filepath.Join(dir, "missing")); err == nil {
		t.Error("graph on a missing directory: no error")
	}
}
