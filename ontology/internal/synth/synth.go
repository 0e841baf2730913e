// Package synth generates YAGO-shaped RDF for load benchmarks: entities in the YAGO 4.5
// vocabulary (yago:, schema:, rdfs:label, owl:sameAs to Wikidata) with the mix of
// taxonomy, entity links, labels in several languages and typed date literals that the
// real dump has. The facts are fictional; only the shape is YAGO's. Output is
// deterministic for a given seed.
package synth

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
)

// Format is the syntax of the generated file.
type Format int

const (
	// NTriples writes one N-Triples statement per line.
	NTriples Format = iota
	// YAGOTurtle writes the YAGO 4.5 export format: @prefix lines, then
	// "s TAB p TAB o TAB ." with prefixed names.
	YAGOTurtle
)

const (
	yagoNS   = "http://yago-knowledge.org/resource/"
	schemaNS = "http://schema.org/"
	rdfNS    = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
	rdfsNS   = "http://www.w3.org/2000/01/rdf-schema#"
	owlNS    = "http://www.w3.org/2002/07/owl#"
	xsdNS    = "http://www.w3.org/2001/XMLSchema#"
	wdNS     = "http://www.wikidata.org/entity/"
)

var syllables = []string{
	"ka", "ro", "li", "ne", "ma", "to", "sa", "vi", "der", "lan", "mor", "tek", "bel", "quin",
	"za", "pho", "rus", "gal", "en", "dor", "ith", "mar", "cel", "ost", "ur", "val", "bri",
	"son", "ell", "ame", "ric", "har", "ley", "ton", "ber", "ga", "mi", "no", "sto", "fe",
}

type gen struct {
	w        *bufio.Writer
	f        Format
	r        *rand.Rand
	n, limit int
	buf      []byte
}

// Write writes at least n triples (it finishes the current entity) and returns how many
// it wrote.
func Write(w io.Writer, n int, f Format, seed uint64) (int, error) {
	g := &gen{w: bufio.NewWriterSize(w, 1<<20), f: f, r: rand.New(rand.NewPCG(seed, seed^0x5eed)), limit: n}
	if f == YAGOTurtle {
		for _, p := range [][2]string{{"yago", yagoNS}, {"schema", schemaNS}, {"rdf", rdfNS},
			{"rdfs", rdfsNS}, {"owl", owlNS}, {"xsd", xsdNS}, {"wd", wdNS}} {
			fmt.Fprintf(g.w, "@prefix %s: <%s> .\n", p[0], p[1])
		}
	}
	// Taxonomy: 1,000 classes under the schema.org top classes.
	tops := []string{"Person", "Book", "Movie", "Organization", "Place", "Event", "CreativeWork"}
	nClasses := 1000
	for c := range nClasses {
		g.triple(iri(yagoNS, className(c)), iri(rdfsNS, "subClassOf"), iri(schemaNS, tops[c%len(tops)]))
		g.triple(iri(yagoNS, className(c)), iri(rdfNS, "type"), iri(rdfsNS, "Class"))
		g.triple(iri(yagoNS, className(c)), iri(rdfsNS, "label"), lang(strings.ReplaceAll(className(c), "_", " "), "en"))
	}
	nCountries := 200
	for c := range nCountries {
		g.triple(iri(yagoNS, countryName(c)), iri(rdfNS, "type"), iri(schemaNS, "Country"))
		g.triple(iri(yagoNS, countryName(c)), iri(rdfsNS, "label"), lang(strings.ReplaceAll(countryName(c), "_", " "), "en"))
	}
	// Entities: ~12 facts each; every third entity is a person, then works, then others.
	est := n/12 + 1
	for e := 0; g.n < g.limit; e++ {
		g.entity(e, est, nClasses, nCountries)
	}
	return g.n, g.w.Flush()
}

func (g *gen) name(e int) string {
	r := rand.New(rand.NewPCG(uint64(e), 77))
	var b strings.Builder
	for w := range 2 + r.IntN(2) {
		if w > 0 {
			b.WriteByte('_')
		}
		for s := range 2 + r.IntN(2) {
			syl := syllables[r.IntN(len(syllables))]
			if s == 0 {
				syl = strings.ToUpper(syl[:1]) + syl[1:]
			}
			b.WriteString(syl)
		}
	}
	if r.IntN(5) == 0 {
		fmt.Fprintf(&b, "_(%s)", []string{"film", "novel", "album", "band", "writer"}[r.IntN(5)])
	}
	fmt.Fprintf(&b, "_Q%d", e)
	return b.String()
}

func className(c int) string { return fmt.Sprintf("Class_%s_%d", syllables[c%len(syllables)], c) }
func countryName(c int) string {
	return fmt.Sprintf("Country_%s%s_%d", syllables[c%len(syllables)], syllables[(c/7)%len(syllables)], c)
}

func (g *gen) entity(e, est, nClasses, nCountries int) {
	r := g.r
	name := g.name(e)
	s := iri(yagoNS, name)
	label := strings.ReplaceAll(name[:strings.LastIndex(name, "_Q")], "_", " ")
	kind := e % 3
	top := []string{"Person", "Book", "Organization"}[kind]
	g.triple(s, iri(rdfNS, "type"), iri(schemaNS, top))
	g.triple(s, iri(rdfNS, "type"), iri(yagoNS, className(r.IntN(nClasses))))
	g.triple(s, iri(rdfsNS, "label"), lang(label, "en"))
	if r.IntN(2) == 0 {
		g.triple(s, iri(rdfsNS, "label"), lang(label, "fr"))
	}
	if r.IntN(3) == 0 {
		g.triple(s, iri(rdfsNS, "label"), lang(label+"s", "de"))
	}
	if r.IntN(3) == 0 {
		g.triple(s, iri(schemaNS, "alternateName"), lang(strings.ToUpper(label[:1])+". "+label[strings.IndexByte(label, ' ')+1:], "en"))
	}
	g.triple(s, iri(owlNS, "sameAs"), iri(wdNS, fmt.Sprintf("Q%d", 1000000+e)))
	if r.IntN(5) < 3 {
		g.triple(s, iri(schemaNS, "mainEntityOfPage"), iri("https://en.wikipedia.org/wiki/", name))
	}
	other := func() string { return iri(yagoNS, g.name(r.IntN(max(est, 1)))) }
	switch kind {
	case 0: // person
		y := 1700 + r.IntN(300)
		g.triple(s, iri(schemaNS, "birthDate"), typed(fmt.Sprintf("%04d-%02d-%02d", y, 1+r.IntN(12), 1+r.IntN(28)), xsdNS+"dateTime"))
		if r.IntN(2) == 0 {
			g.triple(s, iri(schemaNS, "deathDate"), typed(fmt.Sprintf("%04d", y+30+r.IntN(60)), xsdNS+"gYear"))
		}
		g.triple(s, iri(schemaNS, "nationality"), iri(yagoNS, countryName(r.IntN(nCountries))))
		g.triple(s, iri(schemaNS, "birthPlace"), other())
		g.triple(s, iri(schemaNS, "knowsLanguage"), iri(yagoNS, []string{"English_language", "French_language", "German_language", "Spanish_language"}[r.IntN(4)]))
		if r.IntN(2) == 0 {
			g.triple(s, iri(schemaNS, "award"), other())
		}
	case 1: // work
		g.triple(s, iri(schemaNS, "author"), other())
		g.triple(s, iri(schemaNS, "datePublished"), typed(fmt.Sprintf("%04d", 1800+r.IntN(220)), xsdNS+"gYear"))
		g.triple(s, iri(schemaNS, "isbn"), plain(fmt.Sprintf("978%010d", r.Int64N(1e10))))
		g.triple(s, iri(schemaNS, "inLanguage"), iri(yagoNS, []string{"English_language", "French_language", "German_language"}[r.IntN(3)]))
		if r.IntN(2) == 0 {
			g.triple(s, iri(schemaNS, "publisher"), other())
		}
	default: // organisation
		g.triple(s, iri(schemaNS, "location"), other())
		g.triple(s, iri(schemaNS, "foundingDate"), typed(fmt.Sprintf("%04d-%02d-%02d", 1800+r.IntN(220), 1+r.IntN(12), 1+r.IntN(28)), xsdNS+"date"))
		g.triple(s, iri(schemaNS, "url"), typed("http://www."+strings.ToLower(strings.ReplaceAll(label, " ", ""))+".example/", xsdNS+"anyURI"))
		g.triple(s, iri(schemaNS, "memberOf"), other())
	}
}

// Terms are written in N-Triples syntax; the Turtle writer shortens known namespaces.
func iri(ns, local string) string { return "<" + ns + local + ">" }
func lang(s, l string) string     { return `"` + s + `"@` + l }
func typed(s, dt string) string   { return `"` + s + `"^^<` + dt + ">" }
func plain(s string) string       { return `"` + s + `"` }

var prefixes = [][2]string{{"yago", yagoNS}, {"schema", schemaNS}, {"rdfs", rdfsNS}, {"rdf", rdfNS}, {"owl", owlNS}, {"xsd", xsdNS}, {"wd", wdNS}}

func (g *gen) triple(s, p, o string) {
	if g.f == NTriples {
		g.buf = append(g.buf[:0], s...)
		g.buf = append(g.buf, ' ')
		g.buf = append(g.buf, p...)
		g.buf = append(g.buf, ' ')
		g.buf = append(g.buf, o...)
		g.buf = append(g.buf, " .\n"...)
	} else {
		g.buf = g.short(g.buf[:0], s)
		g.buf = append(g.buf, '\t')
		g.buf = g.short(g.buf, p)
		g.buf = append(g.buf, '\t')
		g.buf = g.short(g.buf, o)
		g.buf = append(g.buf, "\t.\n"...)
	}
	_, _ = g.w.Write(g.buf) // bufio errors are sticky: Write returns them from Flush
	g.n++
}

// short abbreviates an IRI, or a literal's datatype IRI, with a prefix when the local
// name is a plain Turtle name (no parentheses, dots or other characters that would need
// escaping); otherwise it keeps the IRI in angle brackets, as YAGO 4.5 does.
func (g *gen) short(b []byte, t string) []byte {
	if strings.HasPrefix(t, "<") {
		v := t[1 : len(t)-1]
		for _, p := range prefixes {
			if local, ok := strings.CutPrefix(v, p[1]); ok && plainLocal(local) {
				return append(append(append(b, p[0]...), ':'), local...)
			}
		}
		return append(b, t...)
	}
	if i := strings.Index(t, `"^^<`); i >= 0 {
		b = append(b, t[:i+3]...)
		return g.short(b, t[i+3:])
	}
	return append(b, t...)
}

func plainLocal(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || (c == '-' && i > 0)) {
			return false
		}
	}
	return s != ""
}
