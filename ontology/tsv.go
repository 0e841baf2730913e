package ontology

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/trawl-dev/trawl/graph"
)

// YAGO's namespaces and the prefixes YAGO3 TSV files use without declaring them.
const (
	// YAGONamespace is the namespace of YAGO resources (YAGO3 and YAGO 4.5).
	YAGONamespace = "http://yago-knowledge.org/resource/"
	schemaNS      = "http://schema.org/"
	skosNS        = "http://www.w3.org/2004/02/skos/core#"
)

var tsvPrefixes = map[string]string{
	"rdf":    graph.RDF,
	"rdfs":   graph.RDFS,
	"xsd":    graph.XSD,
	"owl":    graph.OWL,
	"skos":   skosNS,
	"dbp":    "http://dbpedia.org/ontology/",
	"foaf":   "http://xmlns.com/foaf/0.1/",
	"dc":     "http://purl.org/dc/terms/",
	"vcard":  "http://www.w3.org/2006/vcard/ns#",
	"schema": schemaNS,
	"yago":   YAGONamespace,
	"wd":     "http://www.wikidata.org/entity/",
}

// tsvFact is one fact of a YAGO TSV line. SName and OName are the decoded YAGO names of
// the subject and object when they were written bare (YAGO3-10 style), from which the
// loader derives labels.
type tsvFact struct {
	T            graph.Triple
	SName, OName string
}

// parseTSVLine parses one line of YAGO TSV:
//
//	factId TAB subject TAB predicate TAB object [TAB numericValue]   (YAGO3 dumps)
//	subject TAB predicate TAB object                                  (YAGO3-10, YAGO15K)
//
// Terms are written as in YAGO3: <Name> (a YAGO resource unless it is a full IRI),
// prefixed names (rdf:type, xsd:date, skos:prefLabel …), "literals"@eng or
// "…"^^xsd:date, or bare: a bare name is a YAGO resource, a bare number or date is a
// literal typed after its relation (dates for …Date relations, degrees for
// hasLatitude/hasLongitude). A line starting with a TAB has an empty fact id (YAGO3
// meta-facts use the fact id of the line before as their subject). ok is false for
// blank and comment lines ("#…", "//…").
func parseTSVLine(line []byte) (f tsvFact, ok bool, err *tsvError) {
	if len(bytes.TrimSpace(line)) == 0 {
		return f, false, nil
	}
	trim := bytes.TrimLeft(line, " ")
	if bytes.HasPrefix(trim, []byte("#")) || bytes.HasPrefix(trim, []byte("//")) {
		return f, false, nil
	}
	fields, offs := splitTabs(line)
	for len(fields) > 0 && len(bytes.TrimSpace(fields[len(fields)-1])) == 0 {
		fields = fields[:len(fields)-1]
	}
	if n := len(fields); n >= 4 && string(bytes.TrimSpace(fields[n-1])) == "." {
		fields = fields[:n-1] // "s TAB p TAB o TAB ." without a fact id
		if len(fields) == 3 {
			goto parse
		}
	}
	switch len(fields) {
	case 3:
	case 4, 5:
		fields, offs = fields[1:4], offs[1:4] // drop the fact id (and the numeric value)
	default:
		return f, false, &tsvError{col: 1, msg: fmt.Sprintf("expected 3 to 5 tab-separated columns (factId, subject, predicate, object, value), found %d", len(fields))}
	}
parse:
	col := func(i int) int { return offs[i] + 1 }
	s, sName, e := tsvTerm(bytes.TrimSpace(fields[0]), "")
	if e != nil {
		return f, false, e.at(col(0), "subject")
	}
	if s.Kind != graph.KindIRI && s.Kind != graph.KindBlank {
		return f, false, &tsvError{col: col(0), msg: "the subject must be a resource, not a literal"}
	}
	p, _, e := tsvTerm(bytes.TrimSpace(fields[1]), "")
	if e != nil {
		return f, false, e.at(col(1), "predicate")
	}
	if p.Kind != graph.KindIRI {
		return f, false, &tsvError{col: col(1), msg: "the predicate must be a relation name"}
	}
	o, oName, e := tsvTerm(bytes.TrimSpace(fields[2]), p.Value)
	if e != nil {
		return f, false, e.at(col(2), "object")
	}
	return tsvFact{T: graph.Triple{S: s, P: p, O: o}, SName: sName, OName: oName}, true, nil
}

// splitTabs splits a line at tabs and returns the fields and their byte offsets.
func splitTabs(line []byte) (fields [][]byte, offs []int) {
	start := 0
	for i, c := range line {
		if c == '\t' {
			fields, offs = append(fields, line[start:i]), append(offs, start)
			start = i + 1
		}
	}
	return append(fields, line[start:]), append(offs, start)
}

// tsvError is a problem with one field of a TSV line.
type tsvError struct {
	col int
	msg string
}

func (e *tsvError) at(col int, what string) *tsvError {
	return &tsvError{col: col + e.col, msg: what + ": " + e.msg}
}

func (e *tsvError) Error() string { return e.msg }

// tsvTerm parses one TSV term. pred is the predicate IRI when parsing an object.
func tsvTerm(b []byte, pred string) (graph.Term, string, *tsvError) {
	if len(b) == 0 {
		return graph.Term{}, "", &tsvError{msg: "empty column"}
	}
	if !utf8.Valid(b) {
		return graph.Term{}, "", &tsvError{msg: "invalid UTF-8"}
	}
	switch b[0] {
	case '<':
		if b[len(b)-1] != '>' || len(b) < 3 {
			return graph.Term{}, "", &tsvError{msg: fmt.Sprintf("unterminated IRI %q", b)}
		}
		name, err := graph.DecodeUCHAR(string(b[1 : len(b)-1]))
		if err != nil {
			return graph.Term{}, "", &tsvError{msg: err.Error()}
		}
		if isFullIRI(name) {
			return graph.NewIRI(graph.EscapeIRIRef(name)), "", nil
		}
		return graph.NewIRI(YAGONamespace + graph.EscapeIRIRef(name)), "", nil
	case '"':
		t, err := tsvLiteral(b)
		if err != nil {
			return graph.Term{}, "", &tsvError{msg: err.Error()}
		}
		return t, "", nil
	case '_':
		if len(b) > 2 && b[1] == ':' {
			return graph.NewBlank(string(b[2:])), "", nil
		}
	}
	s := string(b)
	if pfx, local, ok := strings.Cut(s, ":"); ok {
		if ns, known := tsvPrefixes[pfx]; known {
			return graph.NewIRI(ns + graph.EscapeIRIRef(local)), "", nil
		}
	}
	if pred != "" {
		if t, ok := bareLiteral(s, pred); ok {
			return t, "", nil
		}
	}
	name, err := graph.DecodeUCHAR(s)
	if err != nil {
		return graph.Term{}, "", &tsvError{msg: err.Error()}
	}
	return graph.NewIRI(YAGONamespace + graph.EscapeIRIRef(name)), name, nil
}

// isFullIRI tells a full IRI (<http://…>, <mailto:…>) from a YAGO name such as
// <Category:2011_births>, which is relative to the YAGO namespace.
func isFullIRI(s string) bool {
	i := strings.IndexByte(s, ':')
	if i <= 0 || !graph.HasScheme(s) {
		return false
	}
	rest := s[i+1:]
	switch strings.ToLower(s[:i]) {
	case "mailto", "urn", "tel", "isbn", "doi":
		return true
	}
	return strings.HasPrefix(rest, "//")
}

// tsvLiteral parses "…", "…"@lang, "…"^^prefix:type or "…"^^<type>.
func tsvLiteral(b []byte) (graph.Term, error) {
	// The string ends at the last quote that is followed by nothing, @ or ^^.
	end := -1
	for i := len(b) - 1; i > 0; i-- {
		if b[i] != '"' {
			continue
		}
		rest := b[i+1:]
		if len(rest) == 0 || rest[0] == '@' || bytes.HasPrefix(rest, []byte("^^")) {
			end = i
			break
		}
	}
	if end < 0 {
		return graph.Term{}, fmt.Errorf("unterminated string literal %q", b)
	}
	str, err := graph.ParseTerm(string(b[:end+1]))
	if err != nil {
		return graph.Term{}, fmt.Errorf("bad string literal: %v", err)
	}
	rest := string(b[end+1:])
	switch {
	case rest == "":
		return str, nil
	case rest[0] == '@':
		t, err := graph.ParseTerm(string(b))
		if err != nil {
			return graph.Term{}, fmt.Errorf("invalid language tag %q", rest)
		}
		return t, nil
	}
	dt := rest[2:]
	switch {
	case strings.HasPrefix(dt, "<") && strings.HasSuffix(dt, ">") && len(dt) > 2:
		name := dt[1 : len(dt)-1]
		if isFullIRI(name) {
			return graph.NewTyped(str.Value, graph.EscapeIRIRef(name)), nil
		}
		return graph.NewTyped(str.Value, YAGONamespace+graph.EscapeIRIRef(name)), nil
	default:
		pfx, local, ok := strings.Cut(dt, ":")
		ns, known := tsvPrefixes[pfx]
		if !ok || !known || local == "" {
			return graph.Term{}, fmt.Errorf("unknown datatype %q", dt)
		}
		return graph.NewTyped(str.Value, ns+local), nil
	}
}

// bareLiteral turns a bare object value into a typed literal, following its relation:
// YAGO3 date relations (…Date) get xsd:date in YAGO's pattern form, with the
// YYYY.MMDD floats of the YAGO3-10-plus and YAGO15K extracts converted
// ("1942.0" → "1942-##-##", "1943.0602" → "1943-06-02"); hasLatitude and hasLongitude
// get YAGO's degrees; other numbers get xsd:integer, xsd:decimal or xsd:double.
func bareLiteral(s, pred string) (graph.Term, bool) {
	local := graph.LocalName(pred)
	isDateRel := strings.HasSuffix(local, "Date")
	if isDateRel {
		if _, ok := graph.ParseDate(s); ok && strings.Contains(s, "-") {
			return graph.NewTyped(s, graph.XSD+"date"), true
		}
		if d, ok := yearFloatDate(s); ok {
			return graph.NewTyped(d.String(), graph.XSD+"date"), true
		}
	}
	kind := numberKind(s)
	switch {
	case kind == "":
		if isDateRel {
			return graph.NewLiteral(s), true
		}
		return graph.Term{}, false
	case local == "hasLatitude" || local == "hasLongitude":
		return graph.NewTyped(s, YAGONamespace+"degrees"), true
	}
	return graph.NewTyped(s, graph.XSD+kind), true
}

// numberKind returns "integer", "decimal" or "double" for a number, "" otherwise.
func numberKind(s string) string {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits, frac, exp := 0, false, false
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case isDigit(c):
			digits++
		case c == '.' && !frac && !exp:
			frac = true
		case (c == 'e' || c == 'E') && digits > 0 && !exp:
			exp = true
			if i+1 < len(s) && (s[i+1] == '+' || s[i+1] == '-') {
				i++
			}
			if i+1 >= len(s) {
				return ""
			}
		default:
			return ""
		}
	}
	switch {
	case digits == 0:
		return ""
	case exp:
		return "double"
	case frac:
		return "decimal"
	}
	return "integer"
}

// yearFloatDate reads the YYYY.MMDD float encoding of dates: the fraction, padded
// with zeros to four digits, holds the month and the day, 00 meaning unknown.
func yearFloatDate(s string) (graph.Date, bool) {
	y, frac, _ := strings.Cut(s, ".")
	if y == "" || len(y) > 4 || len(frac) > 4 {
		return graph.Date{}, false
	}
	for i := 0; i < len(y); i++ {
		if !isDigit(y[i]) {
			return graph.Date{}, false
		}
	}
	for i := 0; i < len(frac); i++ {
		if !isDigit(frac[i]) {
			return graph.Date{}, false
		}
	}
	frac += strings.Repeat("0", 4-len(frac))
	iso := strings.Repeat("0", 4-len(y)) + y
	switch mm, dd := frac[:2], frac[2:]; {
	case mm == "00":
		iso += "-##-##"
	case dd == "00":
		iso += "-" + mm + "-##"
	default:
		iso += "-" + mm + "-" + dd
	}
	return graph.ParseDate(iso)
}

// labelFromName derives a label from a YAGO3 name (an English Wikipedia title):
// underscores become spaces and a trailing disambiguator is dropped,
// "Jane_Eyre_(1997_film)" → "Jane Eyre". A "de/" style language prefix gives the
// label's language.
func labelFromName(name string) (label, lang string) {
	lang = "en"
	if i := strings.IndexByte(name, '/'); i >= 2 && i <= 3 && isLowerASCII(name[:i]) {
		lang, name = name[:i], name[i+1:]
	}
	label = strings.TrimSpace(strings.ReplaceAll(name, "_", " "))
	if strings.HasSuffix(label, ")") {
		if i := strings.LastIndex(label, " ("); i > 0 {
			label = label[:i]
		}
	}
	return label, lang
}

func isLowerASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return true
}
