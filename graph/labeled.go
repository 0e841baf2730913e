package graph

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"

	"github.com/trawl-dev/trawl/records"
	"github.com/trawl-dev/trawl/schema"
)

// The labeled graph of a deep-web source (thesis ch. 3 §3.5): each record is an entity,
// all records are instances of one class of the source (rdf:type), attribute values are
// literals, and each record links to its values through the predicate of the record
// feature (named from its label when known, from its record-internal path otherwise).
// A star per record, as in Herzig and Tran 2012; the stars share the class.

// More vocabulary.
const (
	VoID       = "http://rdfs.org/ns/void#"
	DCTerms    = "http://purl.org/dc/terms/"
	PROV       = "http://www.w3.org/ns/prov#"
	RDFProp    = RDF + "Property"
	RDFSClass  = RDFS + "Class"
	RDFSDomain = RDFS + "domain"
	RDFSRange  = RDFS + "range"
	RDFSDefBy  = RDFS + "isDefinedBy"
	RDFSCmt    = RDFS + "comment"
	XSDInteger = XSD + "integer"
	XSDDecimal = XSD + "decimal"
	XSDDate    = XSD + "date"
	XSDGYear   = XSD + "gYear"
	XSDDT      = XSD + "dateTime"
	XSDAnyURI  = XSD + "anyURI"
)

// SoftwareIRI identifies trawl as the prov:SoftwareAgent of a run.
const SoftwareIRI = "https://github.com/trawl-dev/trawl"

// LabeledOptions configures BuildLabeled.
type LabeledOptions struct {
	// Base is the base of minted IRIs (DefaultBase when empty).
	Base string
	// SourceID overrides the schema's source ID (schema.Source.ID).
	SourceID string
	// Provenance adds the VoID/PROV description of the source: the dataset, the form,
	// its fields and their mapping, the run and each probe with its time.
	Provenance bool
	// RecordProvenance adds prov:wasGeneratedBy from each record to the probes whose
	// pages held it. Off by default: it puts non-attribute edges into the record stars
	// that the aligner reads.
	RecordProvenance bool
	// Logger receives diagnostics (values or records that could not be written). Nil
	// discards them.
	Logger *slog.Logger
}

// DefaultLabeledOptions returns the options trawl uses: default base, provenance on.
func DefaultLabeledOptions() LabeledOptions {
	return LabeledOptions{Base: DefaultBase, Provenance: true}
}

// Labeled is the labeled graph of one source.
type Labeled struct {
	// NS mints the source's IRIs; the aligner and the enrichment step name the source's
	// class, predicates and records with it.
	NS Namespace
	// Records are the record stars: rdf:type and one triple per attribute value.
	Records []Triple
	// Schema describes the class and the predicates (labels, ranges, record paths).
	Schema []Triple
	// Provenance is the VoID/PROV description of the source.
	Provenance []Triple
	// Entities is the number of distinct record entities.
	Entities int
	// Skipped counts records without any identifying text, and values that could not
	// be written (each logged).
	SkippedRecords, SkippedValues int
}

// Triples returns all triples: records, schema and provenance.
func (l *Labeled) Triples() []Triple {
	return slices.Concat(l.Records, l.Schema, l.Provenance)
}

// WriteTo writes the graph as sorted canonical N-Triples without duplicates.
func (l *Labeled) WriteTo(w io.Writer) (int64, error) {
	cw := &countWriter{w: w}
	err := WriteSorted(cw, l.Triples())
	return cw.n, err
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// BuildLabeled builds the labeled graph of the records under the output schema.
//
// A record's IRI comes from the source and its identity text (schema.IdentityText), not
// from page order: the same record found by two probes is one entity, and re-running
// on the same pages gives the same IRIs. A value is a typed literal (xsd:integer,
// xsd:decimal, xsd:date, xsd:gYear) when the feature has that type and the value parses
// as it, an IRI for URL features when it can be made a valid IRI, and a plain string
// otherwise. Nothing invalid is ever emitted: bad values are skipped and logged.
func BuildLabeled(ctx context.Context, s *schema.Schema, recs []records.Record, o LabeledOptions) (*Labeled, error) {
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	id := o.SourceID
	if id == "" {
		id = s.Source.ID
	}
	if id == "" {
		return nil, errors.New("graph: the schema names no source (no form URL); set a source ID")
	}
	ns, err := NewNamespace(o.Base, id)
	if err != nil {
		return nil, err
	}
	l := &Labeled{NS: ns}
	class := ns.Class()
	typ := NewIRI(RDFType)
	preds := make([]Term, len(s.Features))
	for i := range s.Features {
		preds[i] = ns.Predicate(s.Features[i].Name)
	}
	seen := map[Triple]bool{}
	add := func(dst *[]Triple, t Triple) {
		if seen[t] {
			return
		}
		if err := t.Validate(); err != nil {
			l.SkippedValues++
			log.Warn("triple not written", "triple", t.String(), "err", err)
			return
		}
		seen[t] = true
		*dst = append(*dst, t)
	}
	entities := map[Term]bool{}
	for i, r := range recs {
		if i%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		key := RecordKey(s.IdentityText(r))
		if key == "" {
			key = RecordKey(linkText(r))
		}
		if key == "" {
			l.SkippedRecords++
			log.Warn("record without text or links not written", "page", r.Page, "xpath", r.XPath)
			continue
		}
		e := ns.Record(key)
		entities[e] = true
		add(&l.Records, Triple{e, typ, class})
		for fi, vals := range s.Values(r) {
			f := &s.Features[fi]
			for _, v := range vals {
				obj, ok := object(f, v)
				if !ok {
					l.SkippedValues++
					log.Warn("value not written", "feature", f.Name, "value", v)
					continue
				}
				add(&l.Records, Triple{e, preds[fi], obj})
			}
		}
		if o.RecordProvenance {
			for _, p := range s.Source.Probes {
				if p.Records > 0 && pageOfProbe(r.Page, p) {
					add(&l.Records, Triple{e, NewIRI(PROV + "wasGeneratedBy"), ns.Probe(p.N)})
				}
			}
		}
	}
	l.Entities = len(entities)
	l.describeSchema(s, preds, add)
	if o.Provenance {
		l.describeSource(s, preds, add, log)
	}
	return l, nil
}

func pageOfProbe(page string, p schema.ProbeInfo) bool {
	for _, f := range p.Files {
		if f == page {
			return true
		}
	}
	return false
}

// linkText is the identity of a record without text: its links and images.
func linkText(r records.Record) string {
	var b bytes.Buffer
	for _, l := range r.Leaves {
		for _, u := range []string{l.Href, l.Src} {
			if u != "" {
				b.WriteString(u)
				b.WriteByte(' ')
			}
		}
	}
	return b.String()
}

// object returns the RDF object of one value of a feature.
func object(f *schema.Feature, v string) (Term, bool) {
	if v == "" {
		return Term{}, false
	}
	if f.Type == schema.TypeURL {
		if iri, err := EscapeIRI(v); err == nil {
			return NewIRI(iri), true
		}
		return NewLiteral(v), true
	}
	if lex, ok := f.Typed(v); ok {
		switch f.Type {
		case schema.TypeInteger:
			return NewTyped(lex, XSDInteger), true
		case schema.TypeDecimal, schema.TypePrice:
			return NewTyped(lex, XSDDecimal), true
		case schema.TypeDate:
			return NewTyped(lex, XSDDate), true
		case schema.TypeYear:
			return NewTyped(lex, XSDGYear), true
		}
	}
	return NewLiteral(v), true
}

// rangeOf returns the datatype of a feature's typed values, or "".
func rangeOf(f *schema.Feature) string {
	switch f.Type {
	case schema.TypeInteger:
		return XSDInteger
	case schema.TypeDecimal:
		return XSDDecimal
	case schema.TypePrice:
		if f.Currency != "" {
			return XSDDecimal
		}
	case schema.TypeDate:
		return XSDDate
	case schema.TypeYear:
		return XSDGYear
	}
	return ""
}

// describeSchema states the class and the predicates.
func (l *Labeled) describeSchema(s *schema.Schema, preds []Term, add func(*[]Triple, Triple)) {
	ns := l.NS
	src := ns.Dataset()
	class := ns.Class()
	typ := NewIRI(RDFType)
	label := NewIRI(RDFSLabel)
	defBy := NewIRI(RDFSDefBy)
	add(&l.Schema, Triple{class, typ, NewIRI(RDFSClass)})
	add(&l.Schema, Triple{class, defBy, src})
	where := s.Source.PageURL
	if where == "" {
		where = s.Source.Action
	}
	if where != "" {
		add(&l.Schema, Triple{class, label, NewLiteral("record of " + where)})
	}
	for i := range s.Features {
		f := &s.Features[i]
		p := preds[i]
		add(&l.Schema, Triple{p, typ, NewIRI(RDFProp)})
		add(&l.Schema, Triple{p, NewIRI(RDFSDomain), class})
		add(&l.Schema, Triple{p, defBy, src})
		if f.Label != "" {
			add(&l.Schema, Triple{p, label, NewLiteral(f.Label)})
		}
		if r := rangeOf(f); r != "" {
			add(&l.Schema, Triple{p, NewIRI(RDFSRange), NewIRI(r)})
		}
		add(&l.Schema, Triple{p, ns.Vocab("recordPath"), NewLiteral(f.Key)})
		add(&l.Schema, Triple{p, ns.Vocab("valueType"), NewLiteral(string(f.Type))})
		if f.Currency != "" {
			add(&l.Schema, Triple{p, ns.Vocab("currency"), NewLiteral(f.Currency)})
		}
	}
}

// RunLabeled is the graph stage of a run directory: it reads schema.json and
// records.jsonl and writes graph.nt (atomically).
func RunLabeled(ctx context.Context, dir string, o LabeledOptions) (*Labeled, error) {
	s, err := schema.Load(filepath.Join(dir, schema.SchemaFile))
	if err != nil {
		return nil, err
	}
	f, err := os.Open(filepath.Join(dir, schema.RecordsFile))
	if err != nil {
		return nil, err
	}
	recs, err := schema.ReadRecords(f, filepath.Join(dir, schema.RecordsFile))
	_ = f.Close()
	if err != nil {
		return nil, err
	}
	l, err := BuildLabeled(ctx, s, recs, o)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if _, err := l.WriteTo(&buf); err != nil {
		return nil, err
	}
	if err := writeFileAtomic(filepath.Join(dir, GraphFile), buf.Bytes()); err != nil {
		return nil, fmt.Errorf("write graph: %w", err)
	}
	return l, nil
}

// GraphFile is the labeled graph's file in a run directory.
const GraphFile = "graph.nt"

func writeFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer func() { _ = os.Remove(tmp.Name()) }()
	if _, err := tmp.Write(data); err != nil {
		_ = tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
