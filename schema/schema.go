package schema

import (
	"time"
)

// FormatVersion is the version of the schema.json layout written by this package.
const FormatVersion = 1

// Schema is the output schema of one deep-web source: the ordered record features, their
// labels and value types, and the mapping between the form's inputs and the features.
// It is what schema.json holds.
type Schema struct {
	// Version is FormatVersion.
	Version int `json:"version"`
	// Source says where the records came from: the form and the probes.
	Source Source `json:"source"`
	// Features is the output schema: the informative record features in the order in
	// which they appear in the records.
	Features []Feature `json:"features"`
	// Identity is how records are told apart across probes: the link that names them
	// and the parts of its URL that follow the probe. Nil: by their text.
	Identity *Identity `json:"identity,omitempty"`
	// Joins are the elements whose text the pages cut around highlighted query terms;
	// their fragments and highlights are read as one value.
	Joins []Join `json:"joins,omitempty"`
	// Dropped lists the candidate features that were left out, with the reason, so that a
	// person can check the decision.
	Dropped []Dropped `json:"dropped,omitempty"`
	// Volatile are locations whose values depend on the page rather than the record
	// (its rank, an echo of the query): record identity ignores them.
	Volatile []Location `json:"volatile,omitempty"`
	// Mapping is the input–output schema mapping: which form field maps to which feature.
	Mapping []Mapping `json:"mapping"`
	// Trials are the submissions made (or found in the probe log) to test text fields
	// against features, including the ones that did not map.
	Trials []Trial `json:"trials,omitempty"`
	// Stats counts the input.
	Stats Stats `json:"stats"`
	// Options are the effective options of the run that built the schema.
	Options Options `json:"options"`

	// lowInfo holds the keys of the features whose values say little about a record
	// (see lowInformation); set before the mapping.
	lowInfo map[string]bool
}

// Source describes the deep-web source of the records.
type Source struct {
	// ID is a short identifier of the source derived from the form's method and action
	// URL (stable across runs): host, path and a hash, e.g. "127.0.0.1-18082-mobile-3f1c2a9b".
	ID string `json:"id"`
	// PageURL is the URL of the page holding the form; Action and Method the form's.
	PageURL string `json:"page_url,omitempty"`
	Action  string `json:"action,omitempty"`
	Method  string `json:"method,omitempty"`
	// Fields are the form's fields (name, type, label), in document order.
	Fields []FieldInfo `json:"fields,omitempty"`
	// Probes are the submissions whose pages gave the records, from probes.jsonl.
	Probes []ProbeInfo `json:"probes,omitempty"`
}

// FieldInfo is what the schema keeps of a form field.
type FieldInfo struct {
	Name  string `json:"name"`
	Type  string `json:"type"`
	Label string `json:"label,omitempty"`
}

// ProbeInfo is what the schema keeps of one probe: enough for provenance.
type ProbeInfo struct {
	N          int               `json:"n"`
	Kind       string            `json:"kind"`
	Assignment map[string]string `json:"assignment,omitempty"`
	URL        string            `json:"url,omitempty"`
	Started    time.Time         `json:"started"`
	Duration   time.Duration     `json:"duration_ns"`
	// Pages are the URLs of the probe's result pages; Files the saved pages (run-relative
	// paths, as in records.Record.Page).
	Pages []string `json:"pages,omitempty"`
	Files []string `json:"files,omitempty"`
	// Records is the number of records found on the probe's pages.
	Records int `json:"records"`
}

// ValueType is the type of a feature's values.
type ValueType string

// The kinds of features.
const (
	KindText = "text"
	KindLink = "link"
)

// The value types that are detected.
const (
	TypeString     ValueType = "string"
	TypeInteger    ValueType = "integer"
	TypeDecimal    ValueType = "decimal"
	TypePrice      ValueType = "price"
	TypeDate       ValueType = "date"
	TypeYear       ValueType = "year"
	TypeURL        ValueType = "url"
	TypeISBN       ValueType = "isbn"
	TypeIdentifier ValueType = "identifier"
)

// Feature is a record feature: a record-internal location and the bag of values found
// there across the records of all pages.
type Feature struct {
	// Name is unique within the schema and safe in an IRI path segment (lower-case
	// letters, digits and '-'). It comes from the label when there is one, else from the
	// path. The labeled graph names the feature's predicate with it.
	Name string `json:"name"`
	// Kind is "text" for a feature read from text leaves (an attribute of the output
	// schema, thesis §3.3) and "link" for the URL of a link or an image of the record
	// (kept as an extra feature, e.g. a detail page to follow later).
	Kind string `json:"kind"`
	// Key identifies the feature's location independently of its label: the paths,
	// occurrence, attribute and split steps. It does not change when a label is found.
	Key string `json:"key"`
	// Label is the human label of the feature, when the page or the form gives one;
	// LabelSource says where it came from: "header" (a table header), "prefix" (a
	// "Label:" text inside the record), "field" (the label of the mapped form field).
	Label       string  `json:"label,omitempty"`
	LabelSource string  `json:"label_source,omitempty"`
	Labels      []Label `json:"labels,omitempty"`
	// Locations are where the values are read; a feature found under slightly different
	// paths has several. Values are read from every location.
	Locations []Location `json:"locations"`
	// Split describes how the feature is cut out of a composite leaf (a text node that
	// holds several attributes): the steps are applied in order. Empty for a whole leaf.
	Split []SplitStep `json:"split,omitempty"`
	// Type is the detected value type; TypeShare the fraction of values that have it.
	Type      ValueType `json:"type"`
	TypeShare float64   `json:"type_share"`
	// Currency is the currency of a price feature (ISO 4217 code or symbol), when all
	// values share one.
	Currency string `json:"currency,omitempty"`
	// DateOrder is the order of day, month and year of a numeric date ("dmy", "mdy",
	// "ymd"); empty when the months are spelled out.
	DateOrder string `json:"date_order,omitempty"`
	// Multi is true when a record can hold several values of the feature (a list).
	Multi bool `json:"multi,omitempty"`
	// PerQuery is true when a record's values change with the probe that found it (a
	// snippet, a hit count): they describe the result, not only the record, and record
	// identity ignores them.
	PerQuery bool `json:"per_query,omitempty"`
	// Records is the number of records with a value; Distinct the number of distinct
	// values (after normalisation); Pages the number of pages with a value.
	Records  int `json:"records"`
	Distinct int `json:"distinct"`
	Pages    int `json:"pages"`
	// Samples are a few values, the most frequent first.
	Samples []string `json:"samples"`
	// Position orders the features: the median position of the feature's leaf in the
	// records, plus the segment order within a split leaf.
	Position float64 `json:"position"`
}

// Label is one candidate label of a feature.
type Label struct {
	Text   string `json:"text"`
	Source string `json:"source"`
	// Support is the number of records (or header cells, or mapped trials) backing it.
	Support int `json:"support"`
}

// Location is one place a feature's values are read from in a record.
type Location struct {
	// Path is the leaf's record-internal path (records.Leaf.Path).
	Path string `json:"path"`
	// Nth selects the n-th leaf with that path in the record (1-based); 0 takes every
	// leaf with that path (a list).
	Nth int `json:"nth,omitempty"`
	// Attr is "" for the leaf's text, or "href", "src" or "alt".
	Attr string `json:"attr,omitempty"`
}

// SplitStep cuts a composite value into segments and keeps one, or, with Segment
// SegmentList, cuts a list of values at every occurrence of its separators and keeps
// every piece ("Jon Stewart & Ben Karlin & David Javerbaum").
//
// Dates (in one of the recognised formats) and balanced […] or (…) groups are atoms: they
// are never cut inside. Markers are then found in the value in the given order, right to
// left, each at most once and each optional: literal separators (matched on word
// boundaries outside atoms) and atoms. Segment names the kept segment: "^" is the text
// before the first marker found; "sep:S" the text after separator S up to the next
// marker; "atom:date" and "atom:brackets" the atom itself (brackets removed);
// "post:date" and "post:brackets" the text after the atom.
type SplitStep struct {
	Markers []Marker `json:"markers"`
	Segment string   `json:"segment"`
}

// SegmentList is the Segment of a SplitStep that splits a list into its values.
const SegmentList = "*"

// Marker is a separator (Sep) or an atom kind (Atom: "date" or "brackets").
type Marker struct {
	Sep  string `json:"sep,omitempty"`
	Atom string `json:"atom,omitempty"`
}

// Dropped is a candidate feature that is not in the output schema.
type Dropped struct {
	Key     string   `json:"key"`
	Reason  string   `json:"reason"`
	Records int      `json:"records"`
	Samples []string `json:"samples,omitempty"`
}

// The reasons a candidate feature is dropped.
const (
	DropConstant     = "constant"      // one value (or nearly) everywhere: template text
	DropPageConstant = "page-constant" // the same value for all records of each page: an echo of the query or page
	DropRank         = "rank"          // the record's rank on the page (1, 2, 3 …)
	DropSparse       = "sparse"        // too few records have it
	DropDuplicate    = "duplicate"     // the same values as an earlier feature
	DropLabel        = "label"         // a label of another feature ("Author:")
	DropComposite    = "composite"     // a composite leaf whose segments became features
	DropEcho         = "echo"          // the query's own words, highlighted or listed
)

// Mapping maps one form field to one feature.
type Mapping struct {
	// Field is the field's name; FieldLabel its label; FieldType its type.
	Field      string `json:"field"`
	FieldLabel string `json:"field_label,omitempty"`
	FieldType  string `json:"field_type"`
	// Feature is the feature's Name.
	Feature string `json:"feature"`
	// Method is how the mapping was found: "options" (the option texts of a select or
	// radio group match the feature's values), "option-probes" (records found by
	// submitting an option all carry the option's text at the feature), "resubmission"
	// (values of the feature typed into the field came back at the feature: thesis §3.4),
	// "probe-log" (the same test, on probes already in the probe log), "joint" (values
	// typed into the field came back in one of the record's text features in every
	// record, and in this one in a fair share of them: a keyword box over several
	// features).
	Method string `json:"method"`
	// Relation is how the field's value relates to the feature's values: "contains"
	// (equal, or a substring: the thesis rule), "min" or "max" (a bound of an ordered
	// feature, as in a "year from" field), "option" (the options are the values).
	Relation string `json:"relation"`
	// Score is the share of evidence that supports the mapping (matched values over
	// feature values for options, passed trials over trials for text fields).
	Score float64 `json:"score"`
	// Evidence is the number of values or trials behind Score.
	Evidence int `json:"evidence"`
}

// Trial is one test of a text field against a feature: the field is filled with an
// instance of the feature, the form is submitted, and the feature's values on the result
// page are compared with the instance.
type Trial struct {
	Field   string `json:"field"`
	Feature string `json:"feature"`
	Value   string `json:"value"`
	// Probe is the probe number when the trial comes from the probe log rather than from
	// a new submission.
	Probe int `json:"probe,omitempty"`
	// Records is the number of records on the result page; Instances the number of
	// values of the feature there; Matched how many of them equal or contain Value.
	// Holders is the number of the records holding Value at the feature: the relation
	// "contains" needs InstanceMatchShare of Records.
	Records   int  `json:"records"`
	Instances int  `json:"instances"`
	Matched   int  `json:"matched"`
	Holders   int  `json:"holders,omitempty"`
	Passed    bool `json:"passed"`
	// Relation is the relation under which the trial passed (see Mapping.Relation).
	Relation string `json:"relation,omitempty"`
	// Baseline is true when the relation held on the page of the form's defaults too:
	// the field had no visible effect, so the trial does not count as passed.
	Baseline bool `json:"baseline,omitempty"`
	// Error is the submission error, if any.
	Error string `json:"error,omitempty"`
	// Held is the number of result records holding Value in one of the schema's text
	// features; Having counts, per feature (by name), the result records with a value
	// there and Holding those of them holding Value; BaselineHeld is true when every
	// record of the page of the defaults holds it too. They decide the joint mappings
	// of keyword boxes that search several features.
	Held         int            `json:"held,omitempty"`
	Having       map[string]int `json:"having,omitempty"`
	Holding      map[string]int `json:"holding,omitempty"`
	BaselineHeld bool           `json:"baseline_held,omitempty"`
}

// Stats counts the input of the schema.
type Stats struct {
	Records  int `json:"records"`
	Pages    int `json:"pages"`
	Leaves   int `json:"leaves"`
	Repaired int `json:"repaired_values"`
	// Candidates is the number of candidate features before filtering.
	Candidates int `json:"candidates"`
}

// Feature returns the feature with the given name, or nil.
func (s *Schema) Feature(name string) *Feature {
	for i := range s.Features {
		if s.Features[i].Name == name {
			return &s.Features[i]
		}
	}
	return nil
}

// MappedFields returns the names of the fields mapped to the feature, in mapping order.
func (s *Schema) MappedFields(feature string) []string {
	var out []string
	for _, m := range s.Mapping {
		if m.Feature == feature {
			out = append(out, m.Field)
		}
	}
	return out
}
