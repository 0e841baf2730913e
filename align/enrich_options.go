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
	// FeatureLabels maps the KB1 predicate IRI of each record feature that maps to a
	// form field (the input–output mapping of the output schema) to the feature's own
	// label (a column header, a "Label:" prefix, or one made from its values), never the
	// field's: a search box labelled "books matching" says nothing about what a column
	// holds. A feature that aligned to no KB2 relation becomes a new relation named from
	// this label; a feature that maps to no field and aligned to nothing is left out (it
	// may be junk such as "In Stock", thesis ch. 3 §3.7).
	FeatureLabels map[string]string `json:"feature_labels,omitempty"`

	// LinkThreshold is the lowest instance confidence at which a record counts as
	// known to the KB (the owl:sameAs threshold of links.nt). Records below it become
	// new instances.
	LinkThreshold float64 `json:"link_threshold"`
	// MinRelationConfidence is the floor of Pr(r ⊆ r') at which a record feature counts
	// as understood as the KB2 relation or join r': below it the feature neither enriches
	// the KB (no values under r', no new relation either) nor counts as understood (the
	// guided rounds do not use it). 0.5: the relation holds for more of the feature's
	// facts than not, PARIS's damping counting as ten facts that disagree (so at least
	// ten agreeing facts are needed); a series name that is also the title of the
	// series' first book aligns with rdfs:label at about 0.35–0.46 and stays out.
	MinRelationConfidence float64 `json:"min_relation_confidence"`
	// ReviewThreshold: a record that is not linked but whose best KB2 partner has at
	// least this confidence and is of the records' class is neither linked nor written
	// as a new instance (it may be a KB entity the alignment could not confirm, and
	// minting it would duplicate that entity); it is listed for review in the
	// understanding (deepweb.md §15.4: accept and review thresholds).
	ReviewThreshold float64 `json:"review_threshold"`
	// MinClassConfidence is the least share of the linked records (or of the middle
	// entities of a join) that a KB2 class must hold to be taken as their class; the most
	// specific class that reaches it is taken (ClassUnderstanding.Aligned). 0.9: nine in
	// ten.
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
// Source (and usually RecordClass and FeatureLabels) must still be set.
func DefaultEnrichOptions() EnrichOptions {
	return EnrichOptions{
		LinkThreshold:         0.9,
		MinRelationConfidence: 0.5,
		ReviewThreshold:       0.5,
		MinClassConfidence:    0.9,
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
	case !in01(o.ReviewThreshold) || o.ReviewThreshold > o.LinkThreshold:
		return bad("ReviewThreshold", "in (0, LinkThreshold]", o.ReviewThreshold)
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
