package report

import (
	"context"
	"fmt"
	"html/template"
	"slices"
	"strconv"
	"time"

	"github.com/trawl-dev/trawl/align"
)

// The view model of report.html: plain strings and numbers, built from runData. The
// template escapes all of it; the only value that is not a plain string is the data:
// URI of a PNG the report encoded itself (template.URL).

// Caps that keep the report small on large runs.
const (
	maxProbeRows   = 500 // probes listed
	probesOpen     = 12  // more probes than this: the table starts collapsed
	sampleRecords  = 5   // records listed as extracted
	maxLinkRows    = 500 // instance pairs listed
	linksOpen      = 25  // instance pairs shown before the rest is collapsed
	maxTrialRows   = 300 // trials listed
	sampleNew      = 8   // new instances shown
	sampleKnown    = 10  // facts about known entities shown
	maxSampleChars = 120 // a sample value longer than this is cut
)

type reportView struct {
	// CSP is the report's Content-Security-Policy: no request of any kind but data:
	// images and inline styles. A srcdoc frame inherits it.
	CSP       string
	Title     string
	Generated string
	Dir       string
	Problems  []string
	Summary   []summaryItem
	Source    sourceView
	Form      formView
	Probes    probesView
	Page      pageView
	Schema    schemaView
	Mapping   mappingView
	Align     alignView
	Enrich    enrichView
}

// Section is what every section has: the files it lacks and the files it could not read.
type Section struct {
	Missing []missingFile
	Errors  []string
}

// missingFile names missing files that one command writes.
type missingFile struct {
	Files   []string
	Command string
}

type summaryItem struct {
	Label, Value string
	Known        bool
}

type kv struct{ Key, Value string }

type imageView struct {
	Src           template.URL
	Width, Height int
	File          string
	Note          string // why it is not shown
}

type sourceView struct {
	Section
	FormURL, Action, Method, SourceID, SourceIRI string
	Started, Finished, Plan, UserAgent, KB       string
	RunError                                     string
	Stages                                       []kv
	Options                                      []optionGroup
}

type optionGroup struct {
	Name, File string
	Rows       []kv
}

type formView struct {
	Section
	Known                          bool
	FromSchema                     bool
	Class, Method, Action, PageURL string
	XPath, TextBefore, Keyword     string
	Confidence                     string
	Shot                           imageView
	Fields                         []fieldRow
	Found                          []kv
}

type fieldRow struct {
	Name, Type, Label, LabelSource, Default string
	Options, OptionsAll                     string
	Constraints, Role                       string
	Keyword, Submit                         bool
}

type probesView struct {
	Section
	Rows          []probeRow
	Count, Failed int
	// Unanswered counts the probes the site answered with its form page unchanged
	// because every text box was empty (not failures).
	Unanswered   int
	Pages        int
	Collapsed    bool
	Hidden       int
	ByKind       string
	RecordsKnown bool
	FromSchema   bool
}

type probeRow struct {
	N                               int
	Kind, Assignment, Terms, Status string
	Pages                           int
	Classes, Records, Duration      string
	Error, Unanswered, Warnings     string
}

type pageView struct {
	Section
	Known            bool
	File, URL, Terms string
	Probe            int
	Records          int
	Srcdoc           string
	Found, Missed    int
	Problems         []string
	Note             string
	Shot, PageShot   imageView
	Sample           []recordView
	XPath            string
	Classes          string
}

type recordView struct {
	N      int
	XPath  string
	Leaves []leafRow
}

type leafRow struct{ Path, Text, Href, Src, Alt string }

type schemaView struct {
	Section
	Known    bool
	Features []featureRow
	Dropped  []droppedRow
	Volatile []string
	Stats    string
}

type featureRow struct {
	Name, Label, LabelSource, Kind, Type string
	Paths                                string
	Records, Distinct, Pages             int
	Samples                              []string
	Multi                                bool
}

type droppedRow struct {
	Key, Reason string
	Records     int
	Samples     []string
}

type mappingView struct {
	Section
	Known    bool
	Rows     []mappingRow
	Unmapped []string
	Other    []trialRow
	Hidden   int
}

type mappingRow struct {
	Field, FieldLabel, FieldType string
	Feature, FeatureLabel        string
	Method, Relation, Score      string
	Evidence                     int
	Trials                       []trialRow
}

type trialRow struct {
	Field, Feature, Value, Relation, Error string
	Probe, Records, Instances, Matched     int
	// Holding of Of records hold the value (see the mapping section); Joint marks a
	// keyword box's trial over all the text features.
	Holding, Of             int
	Passed, Baseline, Joint bool
}

type alignView struct {
	Section
	Known          bool
	KB             string
	Threshold      string
	Classes        []classRow
	Relations      []relRow
	FromRun        bool
	Links          []linkRow
	MoreLinks      []linkRow
	LinksTotal     int
	LinksAbove     int
	LinksFile      int
	LinksFileKnown bool
	Hidden         int
	LabelsFromKB   bool
	Iterations     []align.IterationStats
	Warnings       []string
	Stats          string
}

type classRow struct {
	Class, ClassFull, Aligned, AlignedFull, Confidence string
	Linked, Records                                    int
	Others                                             string
}

type relRow struct {
	Feature, Label, Predicate, Status string
	Aligned, Confidence, N            string
	Join                              bool
	ValueClass, NewRelation           string
	Matched, LinkedRecords            int
	Super, Sub                        []kv
}

type linkRow struct {
	Record, RecordFull, Title     string
	Entity, EntityFull, EntityURL string
	KBLabel                       string
	LabelFromIRI                  bool
	Confidence                    string
	Linked                        bool
}

type enrichView struct {
	Section
	Known        bool
	Path         string
	Stats        []kv
	ByPredicate  []predCount
	Instances    []instanceView
	MoreNew      int
	OnKnown      []factRow
	MoreKnown    int
	Triples      int
	Facts        int
	Declarations int
}

type predCount struct {
	Predicate, Full string
	Count           int
	Mean            string
}

type instanceView struct {
	IRI, Full, Title, Record string
	Facts                    []factRow
}

type factRow struct {
	Subject, Predicate, Object, Conf string
	ObjectIsIRI                      bool
}

// builder holds what the section builders share.
type builder struct {
	ctx    context.Context
	d      *runData
	o      Options
	nm     namer
	kbl    *kbLabels
	titleP string
	// recsByPage counts records per page file.
	recsByPage map[string]int
}

func buildView(ctx context.Context, d *runData, o Options) *reportView {
	b := &builder{ctx: ctx, d: d, o: o, kbl: &kbLabels{kb: o.KB}, recsByPage: map[string]int{}}
	if d.graph != nil {
		b.nm.src = d.graph.Source
	} else if d.understanding != nil && d.understanding.Source != "" {
		b.nm.src = d.understanding.Source
	}
	for _, r := range d.records {
		b.recsByPage[r.Page]++
	}
	b.titleP = titlePredicate(d.understanding, d.schema, d.graph)
	v := &reportView{
		CSP:       pageCSP,
		Generated: time.Now().UTC().Format(time.RFC3339),
		Dir:       d.dir,
	}
	for _, err := range d.errs {
		v.Problems = append(v.Problems, err.Error())
	}
	v.Source = b.source()
	v.Form = b.form()
	v.Probes = b.probes()
	v.Page = b.page()
	v.Schema = b.schemaSection()
	v.Mapping = b.mapping()
	v.Align = b.alignment()
	v.Enrich = b.enrichment()
	v.Summary = b.summary(v)
	v.Title = "trawl report"
	if v.Source.FormURL != "" {
		v.Title += ": " + v.Source.FormURL
	}
	return v
}

// sectionOf lists the missing and unreadable files among names.
func (b *builder) sectionOf(names ...string) Section {
	var s Section
	for _, n := range names {
		if b.d.missing[n] {
			cmd := producedBy[n]
			if k := slices.IndexFunc(s.Missing, func(m missingFile) bool { return m.Command == cmd }); k >= 0 {
				s.Missing[k].Files = append(s.Missing[k].Files, n)
			} else {
				s.Missing = append(s.Missing, missingFile{Files: []string{n}, Command: cmd})
			}
		}
		if err := b.d.bad[n]; err != nil {
			s.Errors = append(s.Errors, err.Error())
		}
	}
	return s
}

func conf(x float64) string { return strconv.FormatFloat(x, 'f', 3, 64) }

func clip(s string) string {
	if len(s) <= maxSampleChars {
		return s
	}
	cut := maxSampleChars
	for cut > 0 && !utf8Start(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func utf8Start(c byte) bool { return c&0xC0 != 0x80 }

func clipAll(ss []string, n int) []string {
	var out []string
	for i, s := range ss {
		if i == n {
			out = append(out, fmt.Sprintf("… %d more", len(ss)-n))
			break
		}
		out = append(out, clip(s))
	}
	return out
}

func fmtTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02 15:04:05 MST")
}
