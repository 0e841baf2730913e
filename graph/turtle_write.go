package graph

import (
	"bufio"
	"cmp"
	"io"
	"slices"
	"strings"
	"unicode/utf8"
)

// WellKnownPrefixes are the prefixes WriteTurtle always offers: the vocabularies of
// trawl's outputs and of YAGO.
var WellKnownPrefixes = map[string]string{
	"rdf":     RDF,
	"rdfs":    RDFS,
	"xsd":     XSD,
	"owl":     OWL,
	"prov":    "http://www.w3.org/ns/prov#",
	"void":    "http://rdfs.org/ns/void#",
	"dcterms": "http://purl.org/dc/terms/",
	"schema":  "http://schema.org/",
	"yago":    "http://yago-knowledge.org/resource/",
}

// WriteTurtle writes triples as Turtle for people to read: @prefix lines, the triples
// grouped by subject (';') and by predicate (','), 'a' for rdf:type, subjects in
// canonical order. Besides the given prefixes (name → namespace) and
// WellKnownPrefixes, every namespace (an IRI up to its last '/' or '#') of at least
// five IRIs gets a prefix ns1, ns2, … An IRI is abbreviated only when its local part
// is a safe PN_LOCAL (letters, digits, '_', '-', inner '.'): "…/Paris_(Texas)" stays
// a full IRI, where knakk/rdf's encoder writes invalid Turtle. The output parses back
// with ReadTurtle into the same triples.
func WriteTurtle(w io.Writer, triples []Triple, prefixes map[string]string) error {
	ts := canonicalOrder(triples)
	pw := newPrefixer(ts, prefixes)
	var body strings.Builder
	for i := 0; i < len(ts); {
		s, start := ts[i].S, i
		body.WriteString(pw.term(s))
		for j := i; j < len(ts) && ts[j].S == s; {
			p := ts[j].P
			if j > start {
				body.WriteString(" ;\n   ")
			}
			if p.Value == RDFType && p.IsIRI() {
				body.WriteString(" a")
			} else {
				body.WriteString(" " + pw.term(p))
			}
			k := j
			for ; k < len(ts) && ts[k].S == s && ts[k].P == p; k++ {
				if k > j {
					body.WriteString(" ,\n       ")
				}
				body.WriteString(" " + pw.term(ts[k].O))
			}
			j, i = k, k
		}
		body.WriteString(" .\n")
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	names := make([]string, 0, len(pw.byNS))
	for ns, name := range pw.byNS {
		if pw.used[ns] {
			names = append(names, name+"\x00"+ns)
		}
	}
	slices.Sort(names)
	for _, n := range names {
		name, ns, _ := strings.Cut(n, "\x00")
		bw.WriteString("@prefix " + name + ": <" + ns + "> .\n")
	}
	if len(names) > 0 {
		bw.WriteString("\n")
	}
	bw.WriteString(body.String())
	return bw.Flush()
}

type prefixer struct {
	byNS map[string]string // namespace → prefix name
	used map[string]bool
}

func newPrefixer(ts []Triple, given map[string]string) *prefixer {
	p := &prefixer{byNS: map[string]string{}, used: map[string]bool{}}
	for name, ns := range WellKnownPrefixes {
		p.byNS[ns] = name
	}
	for name, ns := range given {
		p.byNS[ns] = name
	}
	count := map[string]int{}
	for _, t := range ts {
		for _, x := range []Term{t.S, t.P, t.O} {
			if x.IsIRI() {
				if ns, _, ok := splitLocal(x.Value); ok {
					count[ns]++
				}
			}
		}
	}
	var frequent []string
	for ns, n := range count {
		if _, ok := p.byNS[ns]; !ok && n >= 5 {
			frequent = append(frequent, ns)
		}
	}
	slices.SortFunc(frequent, func(a, b string) int { return cmp.Or(cmp.Compare(count[b], count[a]), strings.Compare(a, b)) })
	for i, ns := range frequent {
		p.byNS[ns] = "ns" + itoa(i+1)
	}
	return p
}

func itoa(n int) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		if n /= 10; n == 0 {
			return string(b[i:])
		}
	}
}

// splitLocal splits an IRI after its last '/' or '#' into a namespace and a local part
// that is a safe PN_LOCAL.
func splitLocal(iri string) (ns, local string, ok bool) {
	i := strings.LastIndexAny(iri, "/#")
	if i < 0 || i == len(iri)-1 {
		return "", "", false
	}
	ns, local = iri[:i+1], iri[i+1:]
	return ns, local, safeLocal(local)
}

func safeLocal(s string) bool {
	if s == "" || s[len(s)-1] == '.' {
		return false
	}
	for i, r := range s {
		switch {
		case r == utf8.RuneError:
			return false
		case IsPNCharsU(r) || r >= '0' && r <= '9':
		case i > 0 && (r == '-' || r == '.'):
		default:
			return false
		}
	}
	return true
}

// term writes a term, abbreviated when its namespace has a prefix.
func (p *prefixer) term(t Term) string {
	if t.IsLiteral() && t.Datatype != "" && t.Lang == "" && t.Datatype != LangString && t.Datatype != DirLangStr {
		return NewLiteral(t.Value).String() + "^^" + p.term(NewIRI(t.Datatype))
	}
	if t.IsIRI() {
		if ns, local, ok := splitLocal(t.Value); ok {
			if name, has := p.byNS[ns]; has {
				p.used[ns] = true
				return name + ":" + local
			}
		}
	}
	return t.String()
}

// canonicalOrder returns the distinct triples sorted by the N-Triples forms of subject,
// predicate and object. Each term is written once, not on every comparison: a sort
// makes n·log n comparisons and a comparison that built its six strings made the sort,
// not the writing, the cost of a large graph.
func canonicalOrder(triples []Triple) []Triple {
	type keyed struct {
		s, p, o string
		t       Triple
	}
	ks := make([]keyed, len(triples))
	for i, t := range triples {
		ks[i] = keyed{t.S.String(), t.P.String(), t.O.String(), t}
	}
	slices.SortFunc(ks, func(a, b keyed) int {
		return cmp.Or(strings.Compare(a.s, b.s), strings.Compare(a.p, b.p), strings.Compare(a.o, b.o))
	})
	ts := make([]Triple, 0, len(ks))
	for i, k := range ks {
		if i > 0 && k.t == ks[i-1].t {
			continue
		}
		ts = append(ts, k.t)
	}
	return ts
}
