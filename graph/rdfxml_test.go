package graph

import (
	"errors"
	"strings"
	"testing"
)

const rdfNS = `xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ex="http://ex.org/"`

func readXMLString(t *testing.T, doc, base string) ([]Triple, error) {
	t.Helper()
	var got []Triple
	err := ReadRDFXML(strings.NewReader(doc), "in.rdf", base, "f0", func(tr Triple) error {
		got = append(got, tr)
		return nil
	})
	return got, err
}

func TestReadRDFXML(t *testing.T) {
	doc := `<?xml version="1.0"?>
<rdf:RDF ` + rdfNS + `>
  <rdf:Description rdf:about="http://ex.org/a">
    <ex:name>Alice</ex:name>
    <ex:label xml:lang="EN">Alice A.</ex:label>
    <ex:born rdf:datatype="http://www.w3.org/2001/XMLSchema#date">1970-01-02</ex:born>
    <ex:knows rdf:resource="b"/>
    <ex:friend rdf:nodeID="x"/>
  </rdf:Description>
  <rdf:Description rdf:nodeID="x"><rdf:type rdf:resource="http://ex.org/Person"/><ex:name>X</ex:name></rdf:Description>
</rdf:RDF>`
	got, err := readXMLString(t, doc, "http://ex.org/")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`<http://ex.org/a> <http://ex.org/name> "Alice"`,
		`<http://ex.org/a> <http://ex.org/label> "Alice A."@en`,
		`<http://ex.org/a> <http://ex.org/born> "1970-01-02"^^<http://www.w3.org/2001/XMLSchema#date>`,
		`<http://ex.org/a> <http://ex.org/knows> <http://ex.org/b>`,
		`<http://ex.org/a> <http://ex.org/friend> _:f0_x`,
		`_:f0_x <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://ex.org/Person>`,
		`_:f0_x <http://ex.org/name> "X"`,
	}
	var lines []string
	for _, tr := range got {
		lines = append(lines, strings.TrimSuffix(tr.String(), " ."))
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}

// TestReadRDFXMLMalformed: twenty broken documents each give an ErrRDFXML error that
// names the file, and never a panic.
func TestReadRDFXMLMalformed(t *testing.T) {
	head := `<rdf:RDF ` + rdfNS + `>`
	bad := map[string]string{
		"empty":                 "",
		"not xml":               "hello world",
		"html":                  "<html><body>no rdf</body></html>",
		"unclosed root":         head + `<rdf:Description rdf:about="http://ex.org/a"><ex:p>v</ex:p>`,
		"unclosed property":     head + `<rdf:Description rdf:about="http://ex.org/a"><ex:p>v</rdf:Description></rdf:RDF>`,
		"mismatched tags":       head + `<rdf:Description rdf:about="http://ex.org/a"><ex:p>v</ex:q></rdf:Description></rdf:RDF>`,
		"undeclared prefix":     head + `<rdf:Description rdf:about="http://ex.org/a"><zz:p>v</zz:p></rdf:Description></rdf:RDF>`,
		"about and nodeID":      head + `<rdf:Description rdf:about="http://ex.org/a" rdf:nodeID="x"><ex:p>v</ex:p></rdf:Description></rdf:RDF>`,
		"ID and nodeID":         head + `<rdf:Description rdf:ID="a" rdf:nodeID="x"><ex:p>v</ex:p></rdf:Description></rdf:RDF>`,
		"resource and nodeID":   head + `<rdf:Description rdf:about="http://ex.org/a"><ex:p rdf:resource="http://ex.org/b" rdf:nodeID="x"/></rdf:Description></rdf:RDF>`,
		"rdf:li as node":        head + `<rdf:li rdf:about="http://ex.org/a"/></rdf:RDF>`,
		"rdf:RDF as property":   head + `<rdf:Description rdf:about="http://ex.org/a"><rdf:RDF>v</rdf:RDF></rdf:Description></rdf:RDF>`,
		"literal and resource":  head + `<rdf:Description rdf:about="http://ex.org/a"><ex:p rdf:parseType="Literal" rdf:resource="http://ex.org/b"/></rdf:Description></rdf:RDF>`,
		"bad entity":            head + `<rdf:Description rdf:about="http://ex.org/a"><ex:p>&nope;</ex:p></rdf:Description></rdf:RDF>`,
		"truncated attribute":   head + `<rdf:Description rdf:about="http://ex.org/a`,
		"binary":                "\x00\x01\x02\xff\xfe",
		"relative without base": head + `<rdf:Description rdf:about="a"><ex:p>v</ex:p></rdf:Description></rdf:RDF>`,
		"space in IRI":          head + `<rdf:Description rdf:about="http://ex.org/a b"><ex:p>v</ex:p></rdf:Description></rdf:RDF>`,
		"no rdf:RDF":            `<ex:thing ` + rdfNS + `/>`,
		"text after property":   head + `<rdf:Description rdf:about="http://ex.org/a"><ex:p><ex:q>v</ex:q>text</ex:p></rdf:Description></rdf:RDF>`,
	}
	if len(bad) != 20 {
		t.Fatalf("%d cases, want 20", len(bad))
	}
	for name, doc := range bad {
		t.Run(name, func(t *testing.T) {
			got, err := readXMLString(t, doc, "")
			if err == nil {
				t.Fatalf("no error; triples %v", got)
			}
			if !errors.Is(err, ErrRDFXML) || !strings.Contains(err.Error(), "in.rdf") {
				t.Errorf("error %v: want ErrRDFXML naming in.rdf", err)
			}
		})
	}
}

// TestReadRDFXMLRewrites: what knakk/rdf alone gets wrong — namespace declarations on
// property elements (as rapper writes them) and DOCTYPE entities (as OWL files use them).
func TestReadRDFXMLRewrites(t *testing.T) {
	doc := `<?xml version="1.0"?>
<!DOCTYPE rdf:RDF [ <!ENTITY ex "http://ex.org/"> <!ENTITY xsd 'http://www.w3.org/2001/XMLSchema#'> ]>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about="&ex;a">
    <ns0:knows xmlns:ns0="http://ex.org/v#" rdf:resource="&ex;b"/>
    <ns1:age xmlns:ns1="http://ex.org/w#" rdf:datatype="&xsd;integer">40</ns1:age>
  </rdf:Description>
</rdf:RDF>`
	got, err := readXMLString(t, doc, "")
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, tr := range got {
		lines = append(lines, tr.String())
	}
	want := `<http://ex.org/a> <http://ex.org/v#knows> <http://ex.org/b> .
<http://ex.org/a> <http://ex.org/w#age> "40"^^<http://www.w3.org/2001/XMLSchema#integer> .`
	if strings.Join(lines, "\n") != want {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(lines, "\n"), want)
	}
}
