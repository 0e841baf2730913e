package graph

import (
	"errors"
	"testing"
)

func TestEscapeIRI(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"http://a.example/b", "http://a.example/b", true},
		{"  http://a.example/b  ", "http://a.example/b", true},
		{"http://a.example/b c", "http://a.example/b%20c", true},
		{"http://a.example/<x>{y}|z^`\"\\", "http://a.example/%3Cx%3E%7By%7D%7Cz%5E%60%22%5C", true},
		{"http://a.example/%zz and %4", "http://a.example/%25zz%20and%20%254", true},
		{"http://a.example/%20ok", "http://a.example/%20ok", true},
		{"http://a.example/café", "http://a.example/café", true},
		{"http://a.example/\x00\x7f\u0085x", "http://a.example/%00%7F%C2%85x", true},
		{"http://a.example/\xe9t\xe9", "http://a.example/%E9t%E9", true},
		{"javascript:void(0)", "javascript:void(0)", true},
		{"urn:isbn:9780439023481", "urn:isbn:9780439023481", true},
		{"/relative/4", "", false},
		{"www.example.org", "", false},
		{"", "", false},
		{"1http://x", "", false},
	}
	for _, tc := range tests {
		got, err := EscapeIRI(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("EscapeIRI(%q) = %q, %v; want %q, ok=%v", tc.in, got, err, tc.want, tc.ok)
		}
		if err != nil && !errors.Is(err, ErrIRI) {
			t.Errorf("EscapeIRI(%q): error %v does not wrap ErrIRI", tc.in, err)
		}
		if err == nil {
			if verr := NewIRI(got).Validate(); verr != nil {
				t.Errorf("EscapeIRI(%q) = %q is not a valid N-Triples IRI: %v", tc.in, got, verr)
			}
		}
	}
}

func TestPathSegment(t *testing.T) {
	tests := []struct{ in, want string }{
		{"first-line-by", "first-line-by"},
		{"a b/c?d#e", "a%20b%2Fc%3Fd%23e"},
		{"filter[author]", "filter%5Bauthor%5D"},
		{"Café", "Café"},
		{"x\x00y", "x%00y"},
	}
	for _, tc := range tests {
		if got := PathSegment(tc.in); got != tc.want {
			t.Errorf("PathSegment(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestRecordKey(t *testing.T) {
	a := RecordKey("Great Expectations  by Charles Dickens 02 Jan, 1861")
	for _, v := range []string{"great expectations by CHARLES DICKENS 02 jan 1861", "  Great Expectations, by Charles Dickens — 02 Jan, 1861!"} {
		if got := RecordKey(v); got != a {
			t.Errorf("RecordKey(%q) = %s, want %s (same normal form)", v, got, a)
		}
	}
	if len(a) != 16 {
		t.Errorf("RecordKey length %d, want 16 hex digits", len(a))
	}
	if RecordKey("Bleak House by Charles Dickens 02 Jan, 1853") == a {
		t.Error("two records share a key")
	}
	if RecordKey(" — ") != "" {
		t.Error("a key for text without letters or digits")
	}
}

func TestNamespace(t *testing.T) {
	ns, err := NewNamespace("https://data.example.org/trawl/", "127-0-0-1-18082-mobile-1a2b3c4d")
	if err != nil {
		t.Fatal(err)
	}
	src := "https://data.example.org/trawl/src/127-0-0-1-18082-mobile-1a2b3c4d"
	checks := map[string]Term{
		src:                           ns.Dataset(),
		src + "/Record":               ns.Class(),
		src + "/p/first-line-by":      ns.Predicate("first-line-by"),
		src + "/rec/0123456789abcdef": ns.Record("0123456789abcdef"),
		src + "/field/filter%5Bq%5D":  ns.Field("filter[q]"),
		src + "/probe/7":              ns.Probe(7),
		"https://data.example.org/trawl/vocab#mapsTo": ns.Vocab("mapsTo"),
	}
	for want, got := range checks {
		if got.Value != want {
			t.Errorf("got %s, want <%s>", got, want)
		}
		if err := got.Validate(); err != nil {
			t.Errorf("%s: %v", got, err)
		}
	}
	for _, bad := range [][2]string{{"not a base", "x"}, {"https://a.example/?q=1", "x"}, {"https://a.example/", " "}} {
		if _, err := NewNamespace(bad[0], bad[1]); err == nil {
			t.Errorf("NewNamespace(%q, %q): no error", bad[0], bad[1])
		}
	}
	def, err := NewNamespace("", "s")
	if err != nil || def.SourceIRI() != DefaultBase+"/src/s" {
		t.Errorf("default base: %v, %v", def.SourceIRI(), err)
	}
}

func TestLocalName(t *testing.T) {
	for iri, want := range map[string]string{
		"http://schema.org/name":                           "name",
		"http://www.w3.org/2000/01/rdf-schema#label":       "label",
		"http://yago-knowledge.org/resource/Paris_(Texas)": "Paris_(Texas)",
		"http://example.org/dir/":                          "",
		"urn:isbn:0451450523":                              "urn:isbn:0451450523",
	} {
		if got := LocalName(iri); got != want {
			t.Errorf("LocalName(%q) = %q, want %q", iri, got, want)
		}
	}
}
