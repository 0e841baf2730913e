package graph

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/knakk/rdf"
)

// ErrRDFXML is wrapped by every error of ReadRDFXML about its input.
var ErrRDFXML = errors.New("graph: bad RDF/XML")

// ReadRDFXML reads an RDF/XML document (OAEI tasks and ontologies are exchanged in it,
// .rdf and .owl files) and calls emit with each triple. It uses the RDF/XML decoder of
// github.com/knakk/rdf, which runs in the caller's goroutine: its panics, deliberate
// (unsupported constructs) or not (runtime errors on malformed input), become an error
// naming the file and the number of triples read before it, and nothing is emitted
// after it. The document is read whole and rewritten first (normalizeRDFXML): the
// decoder mistakes namespace declarations below the root for properties and knows no
// DOCTYPE entities. Relative IRIs are resolved against base; blank node labels are scoped with
// blankPrefix as in TurtleOptions ("b" when empty). Triples that are not valid RDF (a
// relative IRI left without a base, for example) are an error too.
func ReadRDFXML(r io.Reader, name, base, blankPrefix string, emit func(Triple) error) (err error) {
	if blankPrefix == "" {
		blankPrefix = "b"
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	if data, err = normalizeRDFXML(data); err != nil {
		return fmt.Errorf("%w: %s: %v", ErrRDFXML, name, err)
	}
	dec := rdf.NewTripleDecoder(bytes.NewReader(data), rdf.RDFXML)
	if base != "" {
		b, err := rdf.NewIRI(base)
		if err == nil {
			err = dec.SetOption(rdf.Base, b)
		}
		if err != nil {
			return fmt.Errorf("%w: %s: base %q: %v", ErrRDFXML, name, base, err)
		}
	}
	n := 0
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%w: %s: after %d triples: %v", ErrRDFXML, name, n, p)
		}
	}()
	for {
		kt, derr := dec.Decode()
		if derr == io.EOF {
			if n == 0 {
				return fmt.Errorf("%w: %s: no triple (not an rdf:RDF document?)", ErrRDFXML, name)
			}
			return nil
		}
		if derr != nil {
			return fmt.Errorf("%w: %s: after %d triples: %v", ErrRDFXML, name, n, derr)
		}
		t := Triple{S: fromKnakk(kt.Subj, blankPrefix), P: fromKnakk(kt.Pred, blankPrefix), O: fromKnakk(kt.Obj, blankPrefix)}
		if err := t.Validate(); err != nil {
			return fmt.Errorf("%w: %s: triple %d: %v", ErrRDFXML, name, n+1, err)
		}
		if err := emit(t); err != nil {
			return err
		}
		n++
	}
}

// fromKnakk converts a knakk/rdf term.
func fromKnakk(t rdf.Term, blankPrefix string) Term {
	switch x := t.(type) {
	case rdf.IRI:
		return NewIRI(x.String())
	case rdf.Blank:
		return NewBlank(blankPrefix + "_" + x.String())
	case rdf.Literal:
		dt := x.DataType.String()
		switch {
		case x.Lang() != "":
			return NewLangString(x.String(), x.Lang())
		case dt == "" || dt == XSDString:
			return NewLiteral(x.String())
		}
		return NewTyped(x.String(), dt)
	}
	return Term{}
}

// IsRDFXML reports whether a file name has an RDF/XML extension (.rdf, .owl, .xml).
func IsRDFXML(name string) bool {
	n := strings.ToLower(name)
	return strings.HasSuffix(n, ".rdf") || strings.HasSuffix(n, ".owl") || strings.HasSuffix(n, ".xml")
}

// xmlNS is the namespace of the xml: prefix (xml:lang, xml:base).
const xmlNS = "http://www.w3.org/XML/1998/namespace"

// entityDecl matches an internal entity declaration of a DOCTYPE (OWL files declare
// &owl; &xsd; … this way and use them in attribute values).
var entityDecl = regexp.MustCompile(`<!ENTITY\s+([A-Za-z_][\w.-]*)\s+(?:"([^"]*)"|'([^']*)')\s*>`)

// normalizeRDFXML rewrites an XML document so that every namespace is declared once,
// on the root element, with a prefix of its own, and the DOCTYPE's internal entities
// are expanded. knakk/rdf's decoder takes a namespace declaration on a property
// element for a property attribute (rapper writes one on every property element) and
// knows no DOCTYPE entities; the rewritten document has the same triples.
func normalizeRDFXML(data []byte) ([]byte, error) {
	entities := map[string]string{}
	newDecoder := func() *xml.Decoder {
		d := xml.NewDecoder(bytes.NewReader(data))
		d.Entity = entities
		return d
	}
	// Pass 1: the entities and the namespaces in use.
	prefixes := map[string]string{rdfNamespace: "rdf"}
	var order []string
	d := newDecoder()
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		add := func(n xml.Name) {
			if n.Space == "" || n.Space == "xmlns" || n.Space == xmlNS {
				return
			}
			if _, ok := prefixes[n.Space]; !ok {
				prefixes[n.Space] = "ns" + strconv.Itoa(len(prefixes))
				order = append(order, n.Space)
			}
		}
		switch t := tok.(type) {
		case xml.Directive:
			for _, m := range entityDecl.FindAllSubmatch(t, -1) {
				entities[string(m[1])] = string(m[2]) + string(m[3])
			}
		case xml.StartElement:
			add(t.Name)
			for _, a := range t.Attr {
				add(a.Name)
			}
		}
	}
	// Pass 2: write the document again.
	var out bytes.Buffer
	name := func(n xml.Name) string {
		switch {
		case n.Space == "":
			return n.Local
		case n.Space == xmlNS:
			return "xml:" + n.Local
		}
		return prefixes[n.Space] + ":" + n.Local
	}
	d = newDecoder()
	root := true
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return out.Bytes(), nil
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			out.WriteString("<" + name(t.Name))
			if root {
				out.WriteString(` xmlns:rdf="` + rdfNamespace + `"`)
				for _, ns := range order {
					out.WriteString(" xmlns:" + prefixes[ns] + `="`)
					_ = xml.EscapeText(&out, []byte(ns))
					out.WriteString(`"`)
				}
				root = false
			}
			for _, a := range t.Attr {
				if a.Name.Space == "xmlns" || a.Name.Space == "" && a.Name.Local == "xmlns" {
					continue
				}
				out.WriteString(" " + name(a.Name) + `="`)
				_ = xml.EscapeText(&out, []byte(a.Value))
				out.WriteString(`"`)
			}
			out.WriteString(">")
		case xml.EndElement:
			out.WriteString("</" + name(t.Name) + ">")
		case xml.CharData:
			_ = xml.EscapeText(&out, t)
		}
	}
}

const rdfNamespace = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
