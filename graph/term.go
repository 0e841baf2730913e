package graph

import (
	"fmt"
	"strings"
)

// Kind tells what an RDF term is.
type Kind uint8

// The kinds of RDF terms.
const (
	KindIRI     Kind = iota + 1 // an IRI
	KindBlank                   // a blank node
	KindLiteral                 // a literal
	KindTriple                  // an RDF 1.2 triple term
)

// Common vocabulary IRIs.
const (
	RDF        = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
	RDFS       = "http://www.w3.org/2000/01/rdf-schema#"
	XSD        = "http://www.w3.org/2001/XMLSchema#"
	OWL        = "http://www.w3.org/2002/07/owl#"
	RDFType    = RDF + "type"
	RDFSLabel  = RDFS + "label"
	SubClassOf = RDFS + "subClassOf"
	OWLSameAs  = OWL + "sameAs"
	XSDString  = XSD + "string"
	LangString = RDF + "langString"
	DirLangStr = RDF + "dirLangString"
)

// Term is an RDF term. It is a comparable value, usable as a map key: two terms are the
// same RDF term exactly when they are ==.
//
// For an IRI, Value is the IRI. For a blank node, Value is its label without "_:". For a
// literal, Value is the lexical form, Datatype its datatype IRI ("" for xsd:string, the
// canonical spelling of a simple literal), Lang its language tag in lower case and Dir its
// base direction ("ltr", "rtl" or ""). For a triple term, Value is the canonical
// N-Triples of the quoted triple ("<s> <p> <o>"); Triple() parses it back.
type Term struct {
	Kind     Kind
	Value    string
	Datatype string
	Lang     string
	Dir      string
}

// NewIRI returns the IRI term iri.
func NewIRI(iri string) Term { return Term{Kind: KindIRI, Value: iri} }

// NewBlank returns the blank node with the given label (without "_:").
func NewBlank(label string) Term { return Term{Kind: KindBlank, Value: label} }

// NewLiteral returns a simple literal (datatype xsd:string).
func NewLiteral(s string) Term { return Term{Kind: KindLiteral, Value: s} }

// NewTyped returns a literal with a datatype. xsd:string is stored as "" so that the two
// spellings of a simple literal are one term.
func NewTyped(s, datatype string) Term {
	if datatype == XSDString {
		datatype = ""
	}
	return Term{Kind: KindLiteral, Value: s, Datatype: datatype}
}

// NewLangString returns a language-tagged string; the tag is lower-cased.
func NewLangString(s, lang string) Term {
	return Term{Kind: KindLiteral, Value: s, Lang: strings.ToLower(lang)}
}

// NewTripleTerm returns the triple term quoting t.
func NewTripleTerm(t Triple) Term {
	var b strings.Builder
	appendTerm(&b, t.S)
	b.WriteByte(' ')
	appendTerm(&b, t.P)
	b.WriteByte(' ')
	appendTerm(&b, t.O)
	return Term{Kind: KindTriple, Value: b.String()}
}

// IsZero reports whether t is the zero Term (no term at all).
func (t Term) IsZero() bool { return t.Kind == 0 }

// IsIRI reports whether t is an IRI.
func (t Term) IsIRI() bool { return t.Kind == KindIRI }

// IsLiteral reports whether t is a literal.
func (t Term) IsLiteral() bool { return t.Kind == KindLiteral }

// IsBlank reports whether t is a blank node.
func (t Term) IsBlank() bool { return t.Kind == KindBlank }

// DatatypeIRI returns the literal's datatype IRI, spelling out the implicit ones
// (xsd:string, rdf:langString, rdf:dirLangString). It returns "" for non-literals.
func (t Term) DatatypeIRI() string {
	switch {
	case t.Kind != KindLiteral:
		return ""
	case t.Dir != "":
		return DirLangStr
	case t.Lang != "":
		return LangString
	case t.Datatype == "":
		return XSDString
	}
	return t.Datatype
}

// Triple returns the triple quoted by a triple term.
func (t Term) Triple() (Triple, error) {
	if t.Kind != KindTriple {
		return Triple{}, fmt.Errorf("graph: %s is not a triple term", t)
	}
	var p parser
	p.init([]byte("<<( " + t.Value + " )>>"))
	tt, err := p.tripleTerm(0)
	if err != nil {
		return Triple{}, err
	}
	return tt, nil
}

// String returns the canonical N-Triples form of the term.
func (t Term) String() string {
	var b strings.Builder
	appendTerm(&b, t)
	return b.String()
}

// LocalName returns the local name of an IRI: what follows its last '/' or '#' ("" when
// the IRI ends with one), or the whole IRI when it has neither. It is the one helper for
// "the last segment of an IRI" in trawl.
func LocalName(iri string) string {
	return iri[strings.LastIndexAny(iri, "/#")+1:]
}

// Triple is an RDF triple.
type Triple struct {
	S, P, O Term
}

// String returns the canonical N-Triples line of the triple, without the newline.
func (t Triple) String() string {
	var b strings.Builder
	appendTriple(&b, t)
	return b.String()
}

// Validate reports whether t is a well-formed RDF triple: an IRI or blank subject, an IRI
// predicate, any object, and terms that can be written as N-Triples.
func (t Triple) Validate() error {
	if t.S.Kind != KindIRI && t.S.Kind != KindBlank {
		return fmt.Errorf("graph: subject %s is not an IRI or blank node", t.S)
	}
	if t.P.Kind != KindIRI {
		return fmt.Errorf("graph: predicate %s is not an IRI", t.P)
	}
	for _, x := range []Term{t.S, t.P, t.O} {
		if err := x.Validate(); err != nil {
			return err
		}
	}
	return nil
}

// Validate reports whether the term can be written as valid N-Triples: an absolute IRI
// without forbidden characters, a well-formed blank label, a language tag of the right
// shape, a datatype that is an IRI.
func (t Term) Validate() error {
	switch t.Kind {
	case KindIRI:
		return checkIRI(t.Value)
	case KindBlank:
		if !validBlankLabel(t.Value) {
			return fmt.Errorf("graph: invalid blank node label %q", t.Value)
		}
	case KindLiteral:
		if t.Lang != "" {
			if !validLangDir([]byte(t.Lang + dirSuffix(t.Dir))) {
				return fmt.Errorf("graph: invalid language tag %q", t.Lang)
			}
			if t.Datatype != "" {
				return fmt.Errorf("graph: literal %q has both a language tag and a datatype", t.Value)
			}
		} else if t.Dir != "" {
			return fmt.Errorf("graph: literal %q has a direction but no language", t.Value)
		}
		if t.Datatype != "" {
			return checkIRI(t.Datatype)
		}
	case KindTriple:
		tt, err := t.Triple()
		if err != nil {
			return err
		}
		return tt.Validate()
	default:
		return fmt.Errorf("graph: term of unknown kind %d", t.Kind)
	}
	return nil
}

func dirSuffix(dir string) string {
	if dir == "" {
		return ""
	}
	return "--" + dir
}

// checkIRI accepts an absolute IRI (a scheme followed by ':') with none of the
// characters N-Triples forbids in IRIREF.
func checkIRI(s string) error {
	if !HasScheme(s) {
		return fmt.Errorf("graph: IRI %q is not absolute", s)
	}
	for _, r := range s {
		if r <= 0x20 || strings.ContainsRune("<>\"{}|^`\\", r) {
			return fmt.Errorf("graph: IRI %q contains %q", s, r)
		}
	}
	return nil
}
