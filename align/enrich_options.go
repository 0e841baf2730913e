package align

import (
	"fmt"
	"log/slog"
	"math"
	"strings"

	"github.com/trawl-dev/trawl/graph"
)

// Reification says how Enrich attaches a confidence and provenance to each fact it
// writes. The fact itself is always asserted as a plain triple.
type Reification string

// The reification modes (deepweb.md §15.5).
const (
	// ReifyRDF12 writes an RDF 1.2 reifier per fact:
	// _:r rdf:reifies <<( s p o )>> . _:r conf "0.83"^^xsd:decimal .
	// _:r prov:wasDerivedFrom <record> . Raptor (rapper), rdflib and Virtuoso's loader
	// predate RDF 1.2 and reject triple terms; Jena riot reads them. Only on request.
	ReifyRDF12 Reification = "rdf12"
	// ReifyRDF11 writes classic RDF reification (rdf:Statement with rdf:subject,
	// rdf:predicate, rdf:object), which every N-Triples 1.1 parser and triple store
	// accepts. The default.
	ReifyRDF11 Reification = "rdf11"
	// ReifyNone writes the facts and declarations only, without confidences.
	ReifyNone Reification = "none"
)

// DefaultConfidencePredicate is the predicate of a fact's confidence: the "confidence"
// term of trawl's vocabulary under the default base of minted IRIs
// ({base}/vocab#confidence with base https://trawl.invalid). A pipeline with another
// base passes its own.
const DefaultConfidencePredicate = "https://trawl.invalid/vocab#confidence"

// EnrichOptions configures Understand and Enrich. Start from DefaultEnrichOptions and
// override fields.
type EnrichOptions struct {
	// Source is the IRI of the source (the void:Dataset of its labeled graph, for
	// example https://trawl.invalid/src/example.org-books-1a2b). Enrich needs it: new
	// instances and relations are minted under it (see EntityNS and RelationNS).
	Source string `json:"source"`
	// RecordClass is the KB1 class of the records (the labeled graph's per-source
	// class). Empty means every KB1 class that the alignment relates to KB2: the KB1
	// classes of Result.Classes and the classes of KB1 entities that have a partner.
	RecordClass string `json:"record_class,omitempty"`
	// FieldLabels maps a KB1 predicate IRI (a record feature) to the label of the form
	// field it maps to (the input–output mapping of the output schema). A feature that
	// aligned to no KB2 relation becomes a new relation named from this label; a
	// feature without a label and without an alignment is left out (it may be junk
	// such as "In Stock", thesis ch. 3 §3.7).
	FieldLabels map[string]string `json:"field_labels,omitempty"`

	// LinkThreshold is the lowest instance confidence at which a record counts as
	// known to the KB (the owl:sameAs threshold of links.nt). Records below it become
	// new instances.
	LinkThreshold float64 `json:"link_threshold"`
	// MinRelationConfidence is the lowest Pr(r ⊆ r') at which a record feature counts
	// as aligned to the KB2 relation or join r'. With PARIS's n/(n+10) damping, 0.25
	// needs at least 4 agreeing facts.
	MinRelationConfidence float64 `json:"min_relation_confidence"`
	// MinClassConfidence is the lowest confidence at which a KB2 class is taken as the
	// class of the records (or of the middle entities of a join); see
	// ClassUnderstanding.Confidence.
	MinClassConfidence float64 `json:"min_class_confidence"`

	// EntityNS is the namespace of minted instances: new records and new middle
	// entities of joins (authors). Empty means Source + "/entity/".
	EntityNS string `json:"entity_ns,omitempty"`
	// RelationNS is the namespace of relations minted from field labels. Empty means
	// Source + "/rel/".
	RelationNS string `json:"relation_ns,omitempty"`
	// Reification is how confidences and provenance are written.
	Reification Reification `json:"reification"`
	// ConfidencePredicate is the predicate of the confidence of a reified fact.
	ConfidencePredicate string `json:"confidence_predicate"`
	// Candidates is how many literal candidates are looked up in KB2 per value when a
	// join value is resolved to an existing entity.
	Candidates int `json:"candidates"`

	// Logger receives diagnostics. Nil discards them.
	Logger *slog.Logger `json:"-"`
}

// DefaultEnrichOptions returns the defaults described on each field of EnrichOptions.
// Source (and usually RecordClass and FieldLabels) must still be set.
func DefaultEnrichOptions() EnrichOptions {
	return EnrichOptions{
		LinkThreshold:         0.9,
		MinRelationConfidence: 0.25,
		MinClassConfidence:    0.5,
		Reification:           ReifyRDF11,
		ConfidencePredicate:   DefaultConfidencePredicate,
		Candidates:            16,
	}
}

// Validate reports the first invalid field. It does not require Source (Understand
// works without it); Enrich does.
func (o EnrichOptions) Validate() error {
	bad := func(field, format string, v any) error {
		return fmt.Errorf("align: enrichment option %s must be %s, got %v", field, format, v)
	}
	in01 := func(x float64) bool { return x > 0 && x <= 1 && !math.IsNaN(x) }
	absolute := func(s string) bool { return s == "" || graph.NewIRI(s).Validate() == nil }
	switch {
	case !in01(o.LinkThreshold):
		return bad("LinkThreshold", "in (0, 1]", o.LinkThreshold)
	case !in01(o.MinRelationConfidence):
		return bad("MinRelationConfidence", "in (0, 1]", o.MinRelationConfidence)
	case !in01(o.MinClassConfidence):
		return bad("MinClassConfidence", "in (0, 1]", o.MinClassConfidence)
	case o.Reification != ReifyRDF12 && o.Reification != ReifyRDF11 && o.Reification != ReifyNone:
		return bad("Reification", `"rdf12", "rdf11" or "none"`, fmt.Sprintf("%q", o.Reification))
	case o.ConfidencePredicate == "" || !absolute(o.ConfidencePredicate):
		return bad("ConfidencePredicate", "an absolute IRI", fmt.Sprintf("%q", o.ConfidencePredicate))
	case !absolute(o.Source):
		return bad("Source", "an absolute IRI", fmt.Sprintf("%q", o.Source))
	case !absolute(o.EntityNS):
		return bad("EntityNS", "an absolute IRI", fmt.Sprintf("%q", o.EntityNS))
	case !absolute(o.RelationNS):
		return bad("RelationNS", "an absolute IRI", fmt.Sprintf("%q", o.RelationNS))
	case o.Candidates < 1:
		return bad("Candidates", "≥ 1", o.Candidates)
	}
	return nil
}

// entityNS and relationNS return the effective namespaces.
func (o EnrichOptions) entityNS() string {
	if o.EntityNS != "" {
		return o.EntityNS
	}
	return strings.TrimRight(o.Source, "/") + "/entity/"
}

func (o EnrichOptions) relationNS() string {
	if o.RelationNS != "" {
		return o.RelationNS
	}
	return strings.TrimRight(o.Source, "/") + "/rel/"
}
