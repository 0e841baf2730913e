package rundir

// The files of a run directory, relative to it, in the order the stages write them.
const (
	// FormFile is the probed form (Form), written by the probe stage.
	FormFile = "form.json"
	// ProbesFile is the probe log: one Probe per line.
	ProbesFile = "probes.jsonl"
	// PagesDir holds the DOM of each result page (NNNN-K.html) and its screenshot.
	PagesDir = "pages"
	// FormPNG is a screenshot of the form.
	FormPNG = "form.png"
	// ProbeRunFile holds the probe stage's effective options, the forms found and the
	// summary.
	ProbeRunFile = "probe-run.json"
	// WrapperFile is what FOREST learnt: page classes, the record XPath, the ranking.
	WrapperFile = "wrapper.json"
	// RecordsFile holds one record per line.
	RecordsFile = "records.jsonl"
	// RecordsPNG is a result page with its records outlined, for the report.
	RecordsPNG = "screenshots/records.png"
	// SchemaFile is the output schema and the input–output mapping.
	SchemaFile = "schema.json"
	// GraphFile is the labeled graph (canonical N-Triples).
	GraphFile = "graph.nt"
	// AlignmentTSV holds the instance, relation and class alignments.
	AlignmentTSV = "alignment.tsv"
	// AlignmentRDF holds the same in the OAEI Alignment format.
	AlignmentRDF = "alignment.rdf"
	// LinksFile holds owl:sameAs links above the link threshold.
	LinksFile = "links.nt"
	// AlignOptionsFile holds the aligner's effective options.
	AlignOptionsFile = "options.json"
	// AlignRunFile holds the aligner's inputs, statistics and iterations.
	AlignRunFile = "run.json"
	// UnderstandingFile says which feature is which KB relation and which class.
	UnderstandingFile = "understanding.json"
	// EnrichmentFile holds the new instances and facts for the KB.
	EnrichmentFile = "enrichment.nt"
	// ReportFile is what a person reads.
	ReportFile = "report.html"

	// StateDir holds the pipeline's bookkeeping: stage markers, the guided rounds, the
	// directory's identity.
	StateDir = ".trawl"
	// RoundsFile is the state of the ontology-guided rounds.
	RoundsFile = StateDir + "/rounds.json"
	// IdentityFile names the form whose run the directory holds.
	IdentityFile = StateDir + "/source.json"
	// SPARQLCacheFile keeps the relation statistics of a SPARQL endpoint used as the
	// reference KB (asked once per run directory).
	SPARQLCacheFile = StateDir + "/sparql-kb.json"
)
