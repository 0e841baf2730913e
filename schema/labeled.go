package schema

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"

	"github.com/trawl-dev/trawl/graph"
	"github.com/trawl-dev/trawl/internal/rundir"
	"github.com/trawl-dev/trawl/records"
)

// The labeled graph of a deep-web source (thesis ch. 3 §3.5): each record is an entity,
// all records are instances of one class of the source (rdf:type), attribute values are
// literals, and each record links to its values through the predicate of the record
// feature (named from its label when known, from its record-internal path otherwise).
// A star per record, as in Herzig and Tran 2012; the stars share the class.

// SoftwareIRI identifies trawl as the prov:SoftwareAgent of a run.
const SoftwareIRI = "https://github.com/trawl-dev/trawl"

// LabeledOptions configures BuildLabeled.
type LabeledOptions struct {
	// Base is the base of minted IRIs (DefaultBase when empty).
	Base string
	// SourceID overrides the schema's source ID (Source.ID).
	SourceID string
	// Provenance adds the VoID/PROV description of the source: the dataset, the form,
	// its fields and their mapping, the run and each probe with its time.
	Provenance bool
	// RecordProvenance also puts prov:wasGeneratedBy from each record to the probes
	// whose pages held it into the record stars (Records). Off by default: the aligner
	// reads the stars, and these are no attributes. With Provenance on, they are
	// written into the provenance part anyway.
	RecordProvenance bool
	// Logger receives diagnostics (values or records that could not be written). Nil
	// discards them.
	Logger *slog.Logger
}

// DefaultLabeledOptions returns the options trawl uses: default base, provenance on.
func DefaultLabeledOptions() LabeledOptions {
	return LabeledOptions{Base: graph.DefaultBase, Provenance: true}
}

// Labeled is the labeled graph of one source.
type Labeled struct {
	// NS mints the source's IRIs; the aligner and the enrichment step name the source's
	// class, predicates and records with it.
	NS graph.Namespace
	// Records are the record stars: rdf:type and one triple per attribute value.
	Records []graph.Triple
	// Schema describes the class and the predicates (labels, ranges, record paths).
	Schema []graph.Triple
	// Provenance is the VoID/PROV description of the source.
	Provenance []graph.Triple
	// Entities is the number of distinct record entities.
	Entities int
	// Skipped counts records without any identifying text, and values that could not
	// be written (each logged).
	SkippedRecords, SkippedValues int
}

// Triples returns all triples: records, schema and provenance.
func (l *Labeled) Triples() []graph.Triple {
	return slices.Concat(l.Records, l.Schema, l.Provenance)
}

// WriteTo writes the graph as sorted canonical N-Triples without duplicates.
func (l *Labeled) WriteTo(w io.Writer) (int64, error) {
	cw := &countWriter{w: w}
	err := graph.WriteSorted(cw, l.Triples())
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

// BuildLabeled builds the labeled graph of the records under the output
//
// A record's IRI comes from the source and its key (RecordKey: the URL of its
// identifying link, else its identity text), not from page order: the same record
// found by two probes is one entity with the provenance of each (prov:wasGeneratedBy
// in the provenance part), and re-running on the same pages gives the same IRIs. A value is a typed literal (xsd:integer,
// xsd:decimal, xsd:date, xsd:gYear) when the feature has that type and the value parses
// as it, an IRI for URL features when it can be made a valid IRI, and a plain string
// otherwise. Nothing invalid is ever emitted: bad values are skipped and logged.
func BuildLabeled(ctx context.Context, s *Schema, recs []records.Record, o LabeledOptions) (*Labeled, error) {
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	id := o.SourceID
	if id == "" {
		id = s.Source.ID
	}
	if id == "" {
		return nil, errors.New("schema: the schema names no source (no form URL); set a source ID")
	}
	ns, err := graph.NewNamespace(o.Base, id)
	if err != nil {
		return nil, err
	}
	l := &Labeled{NS: ns}
	var found []graph.Triple // record → probe, for the provenance part
	class := ns.Class()
	typ := graph.NewIRI(graph.RDFType)
	preds := make([]graph.Term, len(s.Features))
	for i := range s.Features {
		preds[i] = ns.Predicate(s.Features[i].Name)
	}
	seen := map[graph.Triple]bool{}
	add := func(dst *[]graph.Triple, t graph.Triple) {
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
	entities := map[graph.Term]bool{}
	probeOfFile := map[string]int{}
	for _, p := range s.Source.Probes {
		for _, f := range p.Files {
			probeOfFile[f] = p.N
		}
	}
	idFeature := -1
	if s.Identity != nil {
		for fi := range s.Features {
			if slices.Equal(s.Features[fi].Locations, s.Identity.Links) {
				idFeature = fi
			}
		}
	}
	keys := s.RecordKeys(recs)
	for i, r := range recs {
		if i%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		key := keys[i]
		if key == "" {
			key = graph.RecordKey(linkText(r))
		}
		if key == "" {
			l.SkippedRecords++
			log.Warn("record without text or links not written", "page", r.Page, "xpath", r.XPath)
			continue
		}
		e := ns.Record(key)
		entities[e] = true
		add(&l.Records, graph.Triple{S: e, P: typ, O: class})
		for fi, vals := range s.Values(r) {
			f := &s.Features[fi]
			for _, v := range vals {
				if fi == idFeature {
					v = canonicalURL(v, s.Identity.VolatileParams) // the record's own URL
				}
				obj, ok := object(f, v)
				if !ok {
					l.SkippedValues++
					log.Warn("value not written", "feature", f.Name, "value", v)
					continue
				}
				add(&l.Records, graph.Triple{S: e, P: preds[fi], O: obj})
			}
		}
		// The probe that found the record: one entity found by several probes carries
		// the provenance of each.
		if n, ok := probeOfFile[r.Page]; ok {
			t := graph.Triple{S: e, P: graph.NewIRI(graph.PROV + "wasGeneratedBy"), O: ns.Probe(n)}
			if o.RecordProvenance {
				add(&l.Records, t)
			} else if o.Provenance {
				found = append(found, t)
			}
		}
	}
	l.Entities = len(entities)
	l.describeSchema(s, preds, add)
	if o.Provenance {
		l.describeSource(s, preds, add, log)
		for _, t := range found {
			add(&l.Provenance, t)
		}
	}
	return l, nil
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
func object(f *Feature, v string) (graph.Term, bool) {
	if v == "" {
		return graph.Term{}, false
	}
	if f.Type == TypeURL {
		if iri, err := graph.EscapeIRI(v); err == nil {
			return graph.NewIRI(iri), true
		}
		return graph.NewLiteral(v), true
	}
	if lex, ok := f.Typed(v); ok {
		switch f.Type {
		case TypeInteger:
			return graph.NewTyped(lex, graph.XSDInteger), true
		case TypeDecimal, TypePrice:
			return graph.NewTyped(lex, graph.XSDDecimal), true
		case TypeDate:
			return graph.NewTyped(lex, graph.XSDDate), true
		case TypeYear:
			return graph.NewTyped(lex, graph.XSDGYear), true
		}
	}
	return graph.NewLiteral(v), true
}

// rangeOf returns the datatype of a feature's typed values, or "".
func rangeOf(f *Feature) string {
	switch f.Type {
	case TypeInteger:
		return graph.XSDInteger
	case TypeDecimal:
		return graph.XSDDecimal
	case TypePrice:
		if f.Currency != "" {
			return graph.XSDDecimal
		}
	case TypeDate:
		return graph.XSDDate
	case TypeYear:
		return graph.XSDGYear
	}
	return ""
}

// describeSchema states the class and the predicates.
func (l *Labeled) describeSchema(s *Schema, preds []graph.Term, add func(*[]graph.Triple, graph.Triple)) {
	ns := l.NS
	src := ns.Dataset()
	class := ns.Class()
	typ := graph.NewIRI(graph.RDFType)
	label := graph.NewIRI(graph.RDFSLabel)
	defBy := graph.NewIRI(graph.RDFSDefBy)
	add(&l.Schema, graph.Triple{S: class, P: typ, O: graph.NewIRI(graph.RDFSClass)})
	add(&l.Schema, graph.Triple{S: class, P: defBy, O: src})
	where := s.Source.PageURL
	if where == "" {
		where = s.Source.Action
	}
	if where != "" {
		add(&l.Schema, graph.Triple{S: class, P: label, O: graph.NewLiteral("record of " + where)})
	}
	for i := range s.Features {
		f := &s.Features[i]
		p := preds[i]
		add(&l.Schema, graph.Triple{S: p, P: typ, O: graph.NewIRI(graph.RDFProp)})
		add(&l.Schema, graph.Triple{S: p, P: graph.NewIRI(graph.RDFSDomain), O: class})
		add(&l.Schema, graph.Triple{S: p, P: defBy, O: src})
		if f.Label != "" {
			add(&l.Schema, graph.Triple{S: p, P: label, O: graph.NewLiteral(f.Label)})
		}
		if r := rangeOf(f); r != "" {
			add(&l.Schema, graph.Triple{S: p, P: graph.NewIRI(graph.RDFSRange), O: graph.NewIRI(r)})
		}
		add(&l.Schema, graph.Triple{S: p, P: ns.Vocab("recordPath"), O: graph.NewLiteral(f.Key)})
		add(&l.Schema, graph.Triple{S: p, P: ns.Vocab("valueType"), O: graph.NewLiteral(string(f.Type))})
		if f.Currency != "" {
			add(&l.Schema, graph.Triple{S: p, P: ns.Vocab("currency"), O: graph.NewLiteral(f.Currency)})
		}
	}
}

// WriteFile writes the graph to path as sorted canonical N-Triples, atomically
// (rundir.WriteFile).
func (l *Labeled) WriteFile(path string) error {
	var buf bytes.Buffer
	if _, err := l.WriteTo(&buf); err != nil {
		return err
	}
	if err := rundir.WriteFile(path, buf.Bytes()); err != nil {
		return fmt.Errorf("write graph: %w", err)
	}
	return nil
}
