package schema_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/trawl-dev/trawl/records"
	"github.com/trawl-dev/trawl/schema"
	"github.com/trawl-dev/trawl/schema/schematest"
)

// badRecords are records as a careless extractor or a legacy site could give them:
// missing attributes, markup in values, odd white space, Windows-1252 bytes, links that
// are not valid IRIs, empty leaves.
func badRecords() []records.Record {
	titles := []string{"Great Expectations", "<b>Bleak</b> House", "Les Mis\xe9rables", "Crime &amp; Punishment",
		"Emma\u00a0\u00a0(1815)", "Dune\u200b", "The\tTrial\n", "Jane Eyre", "Dracula", "Moby-Dick", "Persuasion", "Animal Farm"}
	hrefs := []string{"http://shop.example/b/1", "http://shop.example/b/2 copy", "javascript:void(0)", "/relative/4",
		"http://shop.example/b/5?q=a|b", "http://shop.example/b/<6>", "", "http://shop.example/b/8", "http://shop.example/b/9",
		"http://shop.example/b/%zz", "http://shop.example/b/11", "http://shop.example/b/12"}
	var out []records.Record
	for i, ti := range titles {
		leaves := []records.Leaf{{Path: "h3.title/a", Text: ti, Href: hrefs[i]}}
		if i%3 != 0 { // a missing attribute
			leaves = append(leaves, records.Leaf{Path: "span.author", Text: []string{"Dickens", "Hugo", "Austen", "Kafka"}[i%4]})
		}
		if i%4 != 1 {
			leaves = append(leaves, records.Leaf{Path: "span.year", Text: fmt.Sprint(1800 + i*11)})
		}
		leaves = append(leaves, records.Leaf{Path: "span.empty", Text: "   "}, records.Leaf{Path: "img", Src: fmt.Sprintf("http://shop.example/c/%d.jpg", i), Alt: ""})
		out = append(out, records.Record{Page: fmt.Sprintf("pages/%04d-1.html", i/4+1), XPath: fmt.Sprintf("/html[1]/body[1]/ul[1]/li[%d]", i%4+1), Leaves: leaves})
	}
	return out
}

func TestBuildBadInput(t *testing.T) {
	s, err := schema.Build(t.Context(), badRecords(), schema.Input{}, schema.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if s.Stats.Repaired == 0 {
		t.Error("no value counted as repaired")
	}
	title := s.Feature("title")
	if title == nil {
		t.Fatalf("no title feature: %+v", s.Features)
	}
	for _, r := range badRecords() {
		for fi, vals := range s.Values(r) {
			for _, v := range vals {
				if !utf8.ValidString(v) || strings.ContainsAny(v, "<>\t\n\u00a0\u200b") && s.Features[fi].Locations[0].Attr == "" || strings.Contains(v, "&amp;") || v != strings.TrimSpace(v) {
					t.Errorf("feature %s: value %q not cleaned", s.Features[fi].Name, v)
				}
			}
		}
	}
	vals := map[string]bool{}
	for _, r := range badRecords() {
		for _, v := range s.Values(r)[0] {
			vals[v] = true
		}
	}
	for _, want := range []string{"Les Misérables", "Bleak House", "Crime & Punishment", "Emma (1815)", "The Trial"} {
		if !vals[want] {
			t.Errorf("title %q not found among %v", want, vals)
		}
	}
	if f := s.Feature("author"); f == nil || f.Records != 8 {
		t.Errorf("author feature = %+v, want 8 records (4 records lack it)", f)
	}
}

func TestRunDirErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := schematest.RunDir(t.Context(), dir, nil, schema.DefaultOptions()); err == nil || !strings.Contains(err.Error(), "records.jsonl") {
		t.Errorf("Run without records.jsonl: error %v, want one naming records.jsonl", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "records.jsonl"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := schematest.RunDir(t.Context(), dir, nil, schema.DefaultOptions()); err == nil || !strings.Contains(err.Error(), "no records") {
		t.Errorf("Run with no records: error %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "schema.json"), []byte(`{"version": 99}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := schema.Load(filepath.Join(dir, "schema.json")); err == nil || !strings.Contains(err.Error(), "version 99") {
		t.Errorf("Load of version 99: error %v", err)
	}
}
