package report

import (
	"bytes"
	"cmp"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"image/png"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/trawl-dev/trawl/align"
	"github.com/trawl-dev/trawl/graph"
	"github.com/trawl-dev/trawl/internal/rundir"
	"github.com/trawl-dev/trawl/probe"
	"github.com/trawl-dev/trawl/schema"
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
	Pages         int
	Collapsed     bool
	Hidden        int
	ByKind        string
	RecordsKnown  bool
	FromSchema    bool
}

type probeRow struct {
	N                               int
	Kind, Assignment, Terms, Status string
	Pages                           int
	Classes, Records, Duration      string
	Error, Warnings                 string
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
	Passed, Baseline                       bool
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

// ---- 1. the source ----

func (b *builder) source() sourceView {
	d := b.d
	v := sourceView{Section: b.sectionOf(rundir.FormFile, rundir.ProbeRunFile, rundir.AlignRunFile)}
	if d.form != nil {
		v.FormURL, v.Action, v.Method = d.form.PageURL, d.form.Action, d.form.Method
	}
	if d.probeRun != nil {
		if v.FormURL == "" {
			v.FormURL = d.probeRun.URL
		}
		v.Started, v.Finished = fmtTime(d.probeRun.Started), fmtTime(d.probeRun.Finished)
		v.Plan, v.UserAgent, v.RunError = d.probeRun.Plan, d.probeRun.UserAgent, d.probeRun.Error
	}
	if d.schema != nil {
		v.SourceID = d.schema.Source.ID
		if v.FormURL == "" {
			v.FormURL = d.schema.Source.PageURL
		}
		if v.Action == "" {
			v.Action, v.Method = d.schema.Source.Action, d.schema.Source.Method
		}
	}
	if d.graph != nil {
		v.SourceIRI = d.graph.Source
	}
	if v.Started == "" && len(d.probes) > 0 {
		first, last := d.probes[0].Started, d.probes[0].Started.Add(d.probes[0].Duration)
		for _, p := range d.probes {
			if !p.Started.IsZero() && (first.IsZero() || p.Started.Before(first)) {
				first = p.Started
			}
			if e := p.Started.Add(p.Duration); e.After(last) {
				last = e
			}
		}
		v.Started, v.Finished = fmtTime(first), fmtTime(last)
	}
	if d.alignRun != nil {
		v.KB = d.alignRun.KB2
	}
	for _, m := range d.markers {
		v.Stages = append(v.Stages, kv{m.Stage, fmt.Sprintf("%s (%.1f s)", fmtTime(m.Finished), m.Seconds)})
	}
	if d.probeRun != nil && len(d.probeRun.Options) > 0 {
		v.Options = append(v.Options, optionGroup{"probing", rundir.ProbeRunFile, flatten(d.probeRun.Options)})
	}
	if d.wrapper != nil {
		v.Options = append(v.Options, optionGroup{"record isolation (FOREST)", rundir.WrapperFile, flatten(toMap(d.wrapper.Options))})
	}
	if d.schema != nil {
		v.Options = append(v.Options, optionGroup{"output schema and mapping", rundir.SchemaFile, flatten(toMap(d.schema.Options))})
	}
	if d.alignOptions != nil {
		v.Options = append(v.Options, optionGroup{"alignment (PARIS)", rundir.AlignOptionsFile, flatten(d.alignOptions)})
	}
	if u := d.understanding; u != nil {
		v.Options = append(v.Options, optionGroup{"understanding and enrichment", rundir.UnderstandingFile, []kv{
			{"link_threshold", conf(u.LinkThreshold)},
			{"min_relation_confidence", conf(u.MinRelationConfidence)},
			{"min_class_confidence", conf(u.MinClassConfidence)},
		}})
	}
	return v
}

// toMap turns a struct into its JSON object form.
func toMap(v any) map[string]any {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var m map[string]any
	if json.Unmarshal(b, &m) != nil {
		return nil
	}
	return m
}

// flatten lists a JSON object's leaves as key = value, nested keys joined by dots.
func flatten(m map[string]any) []kv {
	var out []kv
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		switch x := v.(type) {
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(x)) {
				p := k
				if prefix != "" {
					p = prefix + "." + k
				}
				walk(p, x[k])
			}
		case nil:
			out = append(out, kv{prefix, "null"})
		case string:
			out = append(out, kv{prefix, clip(x)})
		default:
			b, _ := json.Marshal(x)
			out = append(out, kv{prefix, clip(string(b))})
		}
	}
	walk("", m)
	return out
}

// ---- 2. the form ----

func (b *builder) form() formView {
	d := b.d
	v := formView{Section: b.sectionOf(rundir.FormFile)}
	shot := rundir.FormPNG
	if d.probeRun != nil && d.probeRun.Shot != "" {
		shot = d.probeRun.Shot
	}
	v.Shot = b.image(shot)
	if d.probeRun != nil {
		for i, f := range d.probeRun.Forms {
			k := fmt.Sprintf("form %d", i+1)
			if i == d.probeRun.Chosen {
				k += " (probed)"
			}
			v.Found = append(v.Found, kv{k, fmt.Sprintf("%s (%.2f), %s %s, %s", f.Class, f.Confidence, f.Method, f.Action, f.XPath)})
		}
	}
	f := d.form
	if f == nil {
		if d.schema != nil && len(d.schema.Source.Fields) > 0 {
			v.FromSchema = true
			for _, fi := range d.schema.Source.Fields {
				v.Fields = append(v.Fields, fieldRow{Name: fi.Name, Type: fi.Type, Label: fi.Label})
			}
		}
		return v
	}
	v.Known = true
	v.Class, v.Confidence = string(f.Class), conf(f.Confidence)
	v.Method, v.Action, v.PageURL, v.XPath = f.Method, f.Action, f.PageURL, f.XPath
	v.TextBefore = clip(f.TextBefore)
	v.Keyword = strings.Join(f.KeywordFields, ", ")
	for _, fd := range f.Fields {
		r := fieldRow{Name: fd.Name, Type: fd.Type, Label: fd.Label, LabelSource: fd.LabelSource,
			Role: fd.Role, Keyword: slices.Contains(f.KeywordFields, fd.Name), Submit: fd.Submit}
		if fd.Value != "" {
			r.Default = clip(fd.Value)
		}
		if fd.Type == "" {
			r.Type = fd.Tag
		}
		var opts []string
		for _, o := range fd.Options {
			t := o.Text
			if t == "" {
				t = o.Value
			}
			if t == "" {
				t = "(empty)"
			}
			if o.Selected {
				t += " ✓"
			}
			opts = append(opts, t)
		}
		if len(opts) > 0 {
			r.Options = strings.Join(clipAll(opts, 6), " · ")
			r.OptionsAll = clip(strings.Join(opts, " · "))
			if len(opts) > 6 {
				r.OptionsAll = fmt.Sprintf("%d options", len(opts))
			}
		}
		var c []string
		if fd.Required {
			c = append(c, "required")
		}
		if fd.Disabled {
			c = append(c, "disabled")
		}
		if fd.ReadOnly {
			c = append(c, "read-only")
		}
		if fd.Multiple {
			c = append(c, "multiple")
		}
		if fd.MinLength > 0 {
			c = append(c, fmt.Sprintf("minlength %d", fd.MinLength))
		}
		if fd.MaxLength > 0 {
			c = append(c, fmt.Sprintf("maxlength %d", fd.MaxLength))
		}
		if fd.Pattern != "" {
			c = append(c, "pattern "+clip(fd.Pattern))
		}
		if fd.Min != "" {
			c = append(c, "min "+fd.Min)
		}
		if fd.Max != "" {
			c = append(c, "max "+fd.Max)
		}
		if fd.Step != "" {
			c = append(c, "step "+fd.Step)
		}
		r.Constraints = strings.Join(c, ", ")
		v.Fields = append(v.Fields, r)
	}
	return v
}

// image reads a PNG of the run directory into a data: URI. The bytes must decode as a
// PNG header (nothing else is ever put into the report as an image) and fit the cap.
func (b *builder) image(rel string) imageView {
	v := imageView{File: rel}
	path, err := rundir.Path(b.d.dir, rel)
	if err != nil {
		v.Note = fmt.Sprintf("%v; not shown", err)
		return v
	}
	st, err := os.Stat(path)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			v.Note = err.Error()
		}
		return v
	}
	if st.Size() > b.o.MaxEmbedBytes {
		v.Note = fmt.Sprintf("%s is %s, more than the %s cap on embedded files; open it next to the report", rel, SizeOf(st.Size()), SizeOf(b.o.MaxEmbedBytes))
		return v
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		v.Note = err.Error()
		return v
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(raw))
	if err != nil {
		v.Note = fmt.Sprintf("%s is not a PNG image (%v); not shown", rel, err)
		return v
	}
	v.Width, v.Height = cfg.Width, cfg.Height
	v.Src = template.URL("data:image/png;base64," + base64.StdEncoding.EncodeToString(raw))
	return v
}

// SizeOf formats a file size for people.
func SizeOf(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.0f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// ---- 3. the probes ----

func (b *builder) probes() probesView {
	d := b.d
	v := probesView{Section: b.sectionOf(rundir.ProbesFile), RecordsKnown: d.records != nil}
	classOf := map[string]string{}
	if d.wrapper != nil {
		for _, pc := range d.wrapper.Pages {
			classOf[pc.Page] = pc.Class
		}
	}
	kinds := map[string]int{}
	add := func(r probeRow) {
		v.Count++
		kinds[r.Kind]++
		if r.Error != "" {
			v.Failed++
		}
		v.Pages += r.Pages
		if len(v.Rows) < maxProbeRows {
			v.Rows = append(v.Rows, r)
		} else {
			v.Hidden++
		}
	}
	switch {
	case d.probes != nil:
		for _, p := range d.probes {
			r := probeRow{N: p.N, Kind: p.Kind, Assignment: assignment(p.Assignment), Terms: strings.Join(p.Terms, " | "),
				Pages: len(p.Pages), Duration: p.Duration.Round(time.Millisecond).String(), Error: clip(p.Error),
				Warnings: clip(strings.Join(p.Warnings, "; "))}
			if p.Status != 0 {
				r.Status = strconv.Itoa(p.Status)
			}
			if !p.Navigated && p.Status == 0 {
				r.Status = "in place"
			}
			var cls []string
			n := 0
			for _, pg := range p.Pages {
				if c := classOf[pg.File]; c != "" {
					cls = append(cls, c)
				}
				n += b.recsByPage[pg.File]
			}
			r.Classes = strings.Join(cls, ", ")
			if d.records != nil {
				r.Records = strconv.Itoa(n)
			}
			add(r)
		}
	case d.schema != nil && len(d.schema.Source.Probes) > 0:
		v.FromSchema = true
		v.RecordsKnown = true
		for _, p := range d.schema.Source.Probes {
			add(probeRow{N: p.N, Kind: p.Kind, Assignment: assignment(p.Assignment), Pages: len(p.Files),
				Records: strconv.Itoa(p.Records), Duration: p.Duration.Round(time.Millisecond).String()})
		}
	}
	var ks []string
	for _, k := range slices.Sorted(maps.Keys(kinds)) {
		name := k
		if name == "" {
			name = "(no kind)"
		}
		ks = append(ks, fmt.Sprintf("%d %s", kinds[k], name))
	}
	v.ByKind = strings.Join(ks, ", ")
	v.Collapsed = v.Count > probesOpen
	return v
}

func assignment(m map[string]string) string {
	if len(m) == 0 {
		return "(form defaults)"
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, k+"="+strconv.Quote(m[k]))
	}
	return clip(strings.Join(parts, " "))
}

// ---- 4. a result page with its records outlined ----

func (b *builder) page() pageView {
	d := b.d
	v := pageView{Section: b.sectionOf(rundir.ProbesFile, rundir.RecordsFile)}
	if d.wrapper != nil {
		v.XPath = d.wrapper.XPath
		counts := map[string]int{}
		for _, pc := range d.wrapper.Pages {
			counts[pc.Class]++
		}
		var cs []string
		for _, c := range slices.Sorted(maps.Keys(counts)) {
			cs = append(cs, fmt.Sprintf("%d %s", counts[c], c))
		}
		v.Classes = strings.Join(cs, ", ")
	}
	v.Shot = b.image(rundir.RecordsPNG)
	if d.records == nil {
		return v
	}
	if len(d.records) == 0 {
		v.Note = "records.jsonl holds no record: FOREST found no record list on the pages."
		return v
	}
	// The page the records screenshot shows (recordsPages: the first page in probe order
	// with several records).
	var ref *probe.PageRef
	if pages := RecordsPages(d.probes, d.records); len(pages) > 0 {
		for _, p := range d.probes {
			for i := range p.Pages {
				if p.Pages[i].File == pages[0].File {
					ref, v.Probe, v.Terms = &p.Pages[i], p.N, strings.Join(p.Terms, " | ")
				}
			}
		}
	}
	if ref == nil {
		ref = &probe.PageRef{File: d.records[0].Page}
	}
	v.File, v.URL = ref.File, ref.URL
	if ref.Screenshot != "" {
		v.PageShot = b.image(ref.Screenshot)
	}
	var recs [][]string
	for _, r := range d.records {
		if r.Page != ref.File {
			continue
		}
		v.Records++
		recs = append(recs, append([]string{r.XPath}, r.Extra...))
		if len(v.Sample) < sampleRecords {
			rv := recordView{N: v.Records, XPath: r.XPath}
			for _, l := range r.Leaves {
				rv.Leaves = append(rv.Leaves, leafRow{Path: l.Path, Text: clip(l.Text), Href: l.Href, Src: l.Src, Alt: clip(l.Alt)})
			}
			v.Sample = append(v.Sample, rv)
		}
	}
	path, err := rundir.Path(b.d.dir, ref.File)
	if err != nil {
		v.Note = fmt.Sprintf("%v; not shown", err)
		return v
	}
	st, err := os.Stat(path)
	if err != nil {
		v.Note = fmt.Sprintf("the saved page is not available: %v (it is written by %s)", err, byProbe)
		return v
	}
	if st.Size() > b.o.MaxEmbedBytes {
		v.Note = fmt.Sprintf("%s is %s, more than the %s cap on embedded pages; it is not embedded (open it next to the report)", ref.File, SizeOf(st.Size()), SizeOf(b.o.MaxEmbedBytes))
		return v
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		v.Note = err.Error()
		return v
	}
	op, err := outlinePage(raw, recs)
	if err != nil {
		v.Note = fmt.Sprintf("%s: %v", ref.File, err)
		return v
	}
	v.Known = true
	v.Srcdoc, v.Found, v.Missed, v.Problems = op.Srcdoc, op.Found, op.Missed, clipAll(op.Problems, 10)
	return v
}

// ---- 5. the output schema ----

func (b *builder) schemaSection() schemaView {
	s := b.d.schema
	v := schemaView{Section: b.sectionOf(rundir.SchemaFile)}
	if s == nil {
		return v
	}
	v.Known = true
	v.Stats = fmt.Sprintf("%d features from %d candidates; %d records on %d pages, %d leaves", len(s.Features),
		s.Stats.Candidates, s.Stats.Records, s.Stats.Pages, s.Stats.Leaves)
	for _, f := range s.Features {
		r := featureRow{Name: f.Name, Label: f.Label, LabelSource: f.LabelSource, Kind: f.Kind, Type: string(f.Type),
			Records: f.Records, Distinct: f.Distinct, Pages: f.Pages, Samples: clipAll(f.Samples, 4), Multi: f.Multi}
		if f.TypeShare > 0 && f.TypeShare < 1 {
			r.Type += fmt.Sprintf(" (%.0f %%)", 100*f.TypeShare)
		}
		if f.Currency != "" {
			r.Type += " " + f.Currency
		}
		var ps []string
		for _, l := range f.Locations {
			p := l.Path
			if l.Nth > 0 {
				p += fmt.Sprintf("[%d]", l.Nth)
			}
			if l.Attr != "" {
				p += "/@" + l.Attr
			}
			ps = append(ps, p)
		}
		if len(f.Split) > 0 {
			ps = append(ps, fmt.Sprintf("(split: %s)", f.Split[len(f.Split)-1].Segment))
		}
		r.Paths = strings.Join(ps, " | ")
		v.Features = append(v.Features, r)
	}
	for _, dr := range s.Dropped {
		v.Dropped = append(v.Dropped, droppedRow{Key: dr.Key, Reason: dr.Reason, Records: dr.Records, Samples: clipAll(dr.Samples, 3)})
	}
	for _, l := range s.Volatile {
		v.Volatile = append(v.Volatile, l.Path)
	}
	return v
}

// ---- 6. the input–output mapping ----

func (b *builder) mapping() mappingView {
	s := b.d.schema
	v := mappingView{Section: b.sectionOf(rundir.SchemaFile)}
	if s == nil {
		return v
	}
	v.Known = true
	label := func(feature string) string {
		if f := s.Feature(feature); f != nil {
			return f.Label
		}
		return ""
	}
	trial := func(t schema.Trial) trialRow {
		return trialRow{Field: t.Field, Feature: t.Feature, Value: clip(t.Value), Relation: t.Relation, Error: clip(t.Error),
			Probe: t.Probe, Records: t.Records, Instances: t.Instances, Matched: t.Matched, Passed: t.Passed, Baseline: t.Baseline}
	}
	used := map[int]bool{}
	mapped := map[string]bool{}
	shown := 0
	for _, m := range s.Mapping {
		mapped[m.Field] = true
		r := mappingRow{Field: m.Field, FieldLabel: m.FieldLabel, FieldType: m.FieldType, Feature: m.Feature,
			FeatureLabel: label(m.Feature), Method: m.Method, Relation: m.Relation, Score: conf(m.Score), Evidence: m.Evidence}
		for i, t := range s.Trials {
			if t.Field == m.Field && t.Feature == m.Feature {
				used[i] = true
				if shown < maxTrialRows {
					r.Trials = append(r.Trials, trial(t))
					shown++
				} else {
					v.Hidden++
				}
			}
		}
		v.Rows = append(v.Rows, r)
	}
	for i, t := range s.Trials {
		if used[i] {
			continue
		}
		if shown < maxTrialRows {
			v.Other = append(v.Other, trial(t))
			shown++
		} else {
			v.Hidden++
		}
	}
	if f := b.d.form; f != nil {
		for _, fd := range f.Fields {
			if fd.Submit || fd.Type == "hidden" || fd.Name == "" || mapped[fd.Name] {
				continue
			}
			l := fd.Name
			if fd.Label != "" {
				l += " (" + fd.Label + ")"
			}
			v.Unmapped = append(v.Unmapped, l)
		}
	}
	return v
}

// ---- 7. the alignment ----

// featureOf names the schema feature of a graph predicate IRI ("…/p/title" → title).
func (b *builder) featureOf(pred string) (name, label string) {
	i := strings.LastIndex(pred, "/p/")
	if i < 0 {
		return "", ""
	}
	seg := pred[i+3:]
	if s := b.d.schema; s != nil {
		for _, f := range s.Features {
			if graph.PathSegment(f.Name) == seg {
				return f.Name, f.Label
			}
		}
	}
	if b.d.graph != nil {
		label = b.d.graph.PredLabel[pred]
	}
	return seg, label
}

func (b *builder) alignment() alignView {
	d := b.d
	v := alignView{Section: b.sectionOf(rundir.GraphFile, rundir.AlignmentTSV, rundir.AlignRunFile, rundir.AlignOptionsFile, rundir.LinksFile, rundir.UnderstandingFile)}
	v.Known = d.alignment != nil || d.alignRun != nil || d.understanding != nil
	if d.linkThreshold > 0 {
		v.Threshold = conf(d.linkThreshold)
	}
	if d.alignRun != nil {
		v.KB = d.alignRun.KB2
		v.Iterations = d.alignRun.Iterations
		v.Warnings = append(v.Warnings, d.alignRun.Warnings...)
		st := d.alignRun.Stats
		v.Stats = fmt.Sprintf("%d graph entities, %d of %d literals matched in the KB, %d KB nodes read (%d hubs skipped)",
			st.KB1Entities, st.LiteralsMatched, st.KB1Literals, st.KB2Nodes, st.KB2Hubs)
	}
	if u := d.understanding; u != nil {
		v.Warnings = append(v.Warnings, u.Warnings...)
		for _, c := range u.Classes {
			r := classRow{Class: b.nm.short(c.Class), ClassFull: c.Class, Linked: c.Linked, Records: c.Records}
			if c.Aligned != "" {
				r.Aligned, r.AlignedFull, r.Confidence = b.nm.short(c.Aligned), c.Aligned, conf(c.Confidence)
			}
			var others []string
			for i, sc := range c.Superclasses {
				if i == 4 {
					break
				}
				others = append(others, fmt.Sprintf("%s %s", b.nm.short(sc.Class), conf(sc.Confidence)))
			}
			r.Others = strings.Join(others, ", ")
			v.Classes = append(v.Classes, r)
		}
		for _, ru := range u.Relations {
			name, label := b.featureOf(ru.Relation)
			r := relRow{Feature: name, Label: label, Predicate: b.nm.short(ru.Relation), Status: ru.Status,
				Matched: ru.Matched, LinkedRecords: ru.LinkedRecords}
			if ru.FieldLabel != "" && r.Label == "" {
				r.Label = ru.FieldLabel
			}
			if a := ru.Aligned; a != nil {
				r.Aligned, r.Confidence, r.N, r.Join = b.nm.shortPath(a.Relation), conf(a.Confidence), strconv.FormatFloat(a.N, 'f', 1, 64), a.Join
			}
			if ru.ValueClass != "" {
				r.ValueClass = fmt.Sprintf("%s (%s)", b.nm.short(ru.ValueClass), conf(ru.ValueClassConfidence))
			}
			if ru.NewRelation != "" {
				r.NewRelation = b.nm.short(ru.NewRelation)
			}
			for i, sc := range ru.Super {
				if i == 4 {
					break
				}
				r.Super = append(r.Super, kv{b.nm.shortPath(sc.Relation), fmt.Sprintf("%s, n %.1f", conf(sc.Confidence), sc.N)})
			}
			for i, sc := range ru.Sub {
				if i == 4 {
					break
				}
				r.Sub = append(r.Sub, kv{b.nm.shortPath(sc.Relation), fmt.Sprintf("%s, n %.1f", conf(sc.Confidence), sc.N)})
			}
			v.Relations = append(v.Relations, r)
		}
	} else if d.alignRun != nil || d.alignment != nil {
		v.FromRun = true
		b.relationsFromRun(&v)
	}
	if d.links != nil {
		v.LinksFile, v.LinksFileKnown = len(d.links), true
	}
	if d.alignment != nil {
		rows := slices.Clone(d.alignment.Instances)
		slices.SortStableFunc(rows, func(x, y alignRow) int {
			return cmp.Or(cmp.Compare(y.Confidence, x.Confidence), cmp.Compare(x.Left, y.Left))
		})
		v.LinksTotal = len(rows)
		v.LabelsFromKB = b.o.KB != nil
		for i, a := range rows {
			linked := d.linkThreshold > 0 && a.Confidence >= d.linkThreshold
			if d.links != nil {
				linked = d.links[[2]string{a.Left, a.Right}]
			}
			if linked {
				v.LinksAbove++
			}
			if i >= maxLinkRows {
				v.Hidden++
				continue
			}
			if i%64 == 0 && b.ctx.Err() != nil {
				break
			}
			r := linkRow{Record: b.nm.short(a.Left), RecordFull: a.Left, Title: clip(recordTitle(d.graph, b.titleP, a.Left)),
				Entity: b.nm.short(a.Right), EntityFull: a.Right, Confidence: conf(a.Confidence), Linked: linked}
			if strings.HasPrefix(a.Right, "http://") || strings.HasPrefix(a.Right, "https://") {
				r.EntityURL = a.Right
			}
			r.KBLabel = clip(b.kbl.label(b.ctx, a.Right))
			if r.KBLabel == "" && !strings.HasPrefix(a.Right, "_:") && !strings.HasPrefix(a.Right, "\"") {
				r.KBLabel, r.LabelFromIRI = clip(iriLabel(a.Right)), true
			}
			if len(v.Links) < linksOpen {
				v.Links = append(v.Links, r)
			} else {
				v.MoreLinks = append(v.MoreLinks, r)
			}
		}
	}
	return v
}

// relationsFromRun lists the relation subsumptions of run.json (or alignment.tsv) per
// graph predicate when understanding.json is missing.
func (b *builder) relationsFromRun(v *alignView) {
	type pair struct {
		other string
		c, n  float64
	}
	super, sub := map[string][]pair{}, map[string][]pair{}
	isOurs := func(p string) bool {
		return b.nm.src != "" && strings.HasPrefix(strings.TrimSuffix(p, "-"), b.nm.src+"/")
	}
	if d := b.d.alignRun; d != nil {
		for _, r := range d.Relations {
			if r.SubKB == 1 {
				super[r.Sub] = append(super[r.Sub], pair{r.Super, r.Confidence, r.N})
			} else {
				sub[r.Super] = append(sub[r.Super], pair{r.Sub, r.Confidence, r.N})
			}
		}
	} else {
		for _, r := range b.d.alignment.Relations {
			if isOurs(r.Left) {
				super[r.Left] = append(super[r.Left], pair{r.Right, r.Confidence, -1})
			} else if isOurs(r.Right) {
				sub[r.Right] = append(sub[r.Right], pair{r.Left, r.Confidence, -1})
			}
		}
		for _, c := range b.d.alignment.Classes {
			if isOurs(c.Left) {
				v.Classes = append(v.Classes, classRow{Class: b.nm.short(c.Left), ClassFull: c.Left, Aligned: b.nm.short(c.Right), AlignedFull: c.Right, Confidence: conf(c.Confidence)})
			}
		}
	}
	keys := slices.Sorted(maps.Keys(super))
	for k := range sub {
		if _, ok := super[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	fmtN := func(p pair) string {
		if p.n < 0 {
			return conf(p.c)
		}
		return fmt.Sprintf("%s, n %.1f", conf(p.c), p.n)
	}
	for _, k := range keys {
		if strings.HasSuffix(k, "-") {
			continue // the inverse of a feature repeats it
		}
		name, label := b.featureOf(k)
		r := relRow{Feature: name, Label: label, Predicate: b.nm.shortPath(k)}
		ps := super[k]
		slices.SortFunc(ps, func(x, y pair) int { return cmp.Compare(y.c, x.c) })
		for i, p := range ps {
			if i == 0 {
				r.Aligned, r.Confidence, r.Join = b.nm.shortPath(p.other), conf(p.c), strings.Contains(p.other, " / ")
				if p.n >= 0 {
					r.N = strconv.FormatFloat(p.n, 'f', 1, 64)
				}
			}
			if i < 4 {
				r.Super = append(r.Super, kv{b.nm.shortPath(p.other), fmtN(p)})
			}
		}
		ss := sub[k]
		slices.SortFunc(ss, func(x, y pair) int { return cmp.Compare(y.c, x.c) })
		for i, p := range ss {
			if i < 4 {
				r.Sub = append(r.Sub, kv{b.nm.shortPath(p.other), fmtN(p)})
			}
		}
		v.Relations = append(v.Relations, r)
	}
}

// ---- 8. what enrichment would add ----

func (b *builder) enrichment() enrichView {
	d := b.d
	v := enrichView{Section: b.sectionOf(rundir.EnrichmentFile, rundir.UnderstandingFile), Path: filepath.Join(d.dir, rundir.EnrichmentFile)}
	if u := d.understanding; u != nil && u.Enrichment != nil {
		st := u.Enrichment
		v.Known = true
		v.Stats = []kv{
			{"records", strconv.Itoa(st.Records)},
			{"linked to the KB (known)", strconv.Itoa(st.Linked)},
			{"new instances", strconv.Itoa(st.NewInstances)},
			{"new facts (distinct triples)", strconv.Itoa(st.Facts)},
			{"of which about entities the KB has", strconv.Itoa(st.FactsOnKnown)},
			{"values the KB already has", strconv.Itoa(st.Present)},
			{"values that differ from the KB's (left out)", strconv.Itoa(st.Conflicts)},
			{"join values naming several KB entities (left out)", strconv.Itoa(st.Ambiguous)},
			{"KB entities reused as join values", strconv.Itoa(st.ReusedEntities)},
			{"entities minted for join values", strconv.Itoa(st.MintedEntities)},
			{"relations minted from field labels", strconv.Itoa(st.NewRelations)},
			{"new instances with a near link (review)", strconv.Itoa(st.NearLinks)},
			{"unlinked records without an aligned class (left out)", strconv.Itoa(st.Untyped)},
			{"values of unaligned, unmapped features (left out)", strconv.Itoa(st.Unaligned)},
			{"values the aligned path cannot carry (left out)", strconv.Itoa(st.Unwritable)},
		}
	}
	e := d.enrichment
	if e == nil {
		return v
	}
	v.Known = true
	v.Triples, v.Declarations = e.Triples, len(e.Declarations)
	distinct := map[graph.Triple]bool{}
	type agg struct {
		n    int
		sum  float64
		nsum int
	}
	byPred := map[string]*agg{}
	for _, f := range e.Facts {
		if distinct[f.T] {
			continue
		}
		distinct[f.T] = true
		a := byPred[f.T.P.Value]
		if a == nil {
			a = &agg{}
			byPred[f.T.P.Value] = a
		}
		a.n++
		if f.Confidence >= 0 {
			a.sum += f.Confidence
			a.nsum++
		}
	}
	v.Facts = len(distinct)
	for _, p := range slices.Sorted(maps.Keys(byPred)) {
		a := byPred[p]
		pc := predCount{Predicate: b.nm.short(p), Full: p, Count: a.n}
		if a.nsum > 0 {
			pc.Mean = conf(a.sum / float64(a.nsum))
		}
		v.ByPredicate = append(v.ByPredicate, pc)
	}
	slices.SortStableFunc(v.ByPredicate, func(x, y predCount) int { return cmp.Compare(y.Count, x.Count) })
	// New instances: the subjects declared as derived from a record.
	const derived = "http://www.w3.org/ns/prov#wasDerivedFrom"
	newFrom := map[string]string{}
	var newOrder []string
	for _, t := range e.Declarations {
		if t.P.Value == derived && t.S.IsIRI() {
			if _, ok := newFrom[t.S.Value]; !ok {
				newOrder = append(newOrder, t.S.Value)
			}
			newFrom[t.S.Value] = termKey(t.O)
		}
	}
	// Labels of minted entities, to show a join's value by name.
	labels := map[string]string{}
	for _, f := range e.Facts {
		if f.T.P.Value == graph.RDFSLabel && f.T.O.IsLiteral() && f.T.S.IsIRI() {
			labels[f.T.S.Value] = f.T.O.Value
		}
	}
	factsOf := map[string][]enrichFact{}
	for _, f := range e.Facts {
		factsOf[termKey(f.T.S)] = append(factsOf[termKey(f.T.S)], f)
	}
	row := func(f enrichFact, withSubject bool) factRow {
		r := factRow{Predicate: b.nm.short(f.T.P.Value), Object: clip(b.nm.shortTerm(f.T.O))}
		if f.T.O.IsIRI() {
			r.ObjectIsIRI = true
			if l := labels[f.T.O.Value]; l != "" {
				r.Object += " “" + clip(l) + "”"
			} else if l := b.kbl.label(b.ctx, f.T.O.Value); l != "" {
				r.Object += " “" + clip(l) + "”"
			}
		}
		if f.Confidence >= 0 {
			r.Conf = conf(f.Confidence)
		}
		if withSubject {
			r.Subject = b.nm.short(termKey(f.T.S))
			if l := b.kbl.label(b.ctx, f.T.S.Value); l != "" {
				r.Subject += " “" + clip(l) + "”"
			} else if f.T.S.IsIRI() && !strings.HasPrefix(f.T.S.Value, b.nm.src+"/") {
				r.Subject += " (" + clip(iriLabel(f.T.S.Value)) + ")"
			}
		}
		return r
	}
	for i, s := range newOrder {
		if i >= sampleNew {
			v.MoreNew = len(newOrder) - sampleNew
			break
		}
		iv := instanceView{IRI: b.nm.short(s), Full: s, Record: b.nm.short(newFrom[s]), Title: clip(recordTitle(d.graph, b.titleP, newFrom[s]))}
		seen := map[graph.Triple]bool{}
		for _, f := range factsOf[s] {
			if seen[f.T] {
				continue
			}
			seen[f.T] = true
			iv.Facts = append(iv.Facts, row(f, false))
		}
		v.Instances = append(v.Instances, iv)
	}
	known := 0
	seen := map[graph.Triple]bool{}
	for _, f := range e.Facts {
		s := termKey(f.T.S)
		if _, isNew := newFrom[s]; isNew || seen[f.T] || labels[s] != "" && strings.HasPrefix(s, b.nm.src+"/") {
			continue
		}
		if b.nm.src != "" && strings.HasPrefix(s, b.nm.src+"/") {
			continue // a minted middle entity (an author the KB lacks): shown with its instance
		}
		seen[f.T] = true
		known++
		if len(v.OnKnown) < sampleKnown {
			v.OnKnown = append(v.OnKnown, row(f, true))
		}
	}
	v.MoreKnown = known - len(v.OnKnown)
	return v
}

// ---- the summary line ----

func (b *builder) summary(v *reportView) []summaryItem {
	d := b.d
	item := func(label string, n int, known bool) summaryItem {
		if !known {
			return summaryItem{Label: label, Value: "—"}
		}
		return summaryItem{Label: label, Value: strconv.Itoa(n), Known: true}
	}
	var out []summaryItem
	probes := item("probes", v.Probes.Count, d.probes != nil || v.Probes.FromSchema)
	if v.Probes.Failed > 0 {
		probes.Value += fmt.Sprintf(" (%d failed)", v.Probes.Failed)
	}
	out = append(out, probes, item("result pages", v.Probes.Pages, d.probes != nil || v.Probes.FromSchema))
	out = append(out, item("records", len(d.records), d.records != nil))
	nf := 0
	if d.schema != nil {
		nf = len(d.schema.Features)
	}
	out = append(out, item("features", nf, d.schema != nil))
	fields := map[string]bool{}
	if d.schema != nil {
		for _, m := range d.schema.Mapping {
			fields[m.Field] = true
		}
	}
	out = append(out, item("mapped fields", len(fields), d.schema != nil))
	aligned := 0
	for _, r := range v.Align.Relations {
		if r.Aligned != "" && (r.Status == "" || r.Status == align.RelationAligned) {
			aligned++
		}
	}
	out = append(out, item("aligned relations", aligned, d.understanding != nil || d.alignRun != nil || d.alignment != nil))
	links, known := 0, false
	switch {
	case d.links != nil:
		links, known = len(d.links), true
	case d.alignment != nil:
		links, known = v.Align.LinksAbove, true
	}
	out = append(out, item("sameAs links", links, known))
	facts, known := 0, false
	switch {
	case d.understanding != nil && d.understanding.Enrichment != nil:
		facts, known = d.understanding.Enrichment.Facts, true
	case d.enrichment != nil:
		facts, known = v.Enrich.Facts, true
	}
	out = append(out, item("new facts", facts, known))
	return out
}
