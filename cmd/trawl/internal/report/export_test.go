package report

// Internals that the external tests (package report_test) check.
const (
	RecordClass = recordClass
	ProbesOpen  = probesOpen
	ByExtract   = byExtract
	BySchema    = bySchema
	ByGraph     = byGraph
	ByAlign     = byAlign
)

var (
	ProducedBy     = producedBy
	OutlinePage    = outlinePage
	NeutralCSS     = neutralCSS
	ReadEnrichment = readEnrichment
)

// ShortPath shortens a relation path as the report shows it.
func ShortPath(path string) string { return namer{}.shortPath(path) }

// Conf formats a confidence as the report shows it.
func Conf(x float64) string { return conf(x) }
