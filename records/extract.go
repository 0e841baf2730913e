package records

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"slices"
	"strings"
	"time"
	"unsafe"

	"golang.org/x/net/html"
)

// Page is one page given to Extract.
type Page struct {
	// Name identifies the page in the output (Record.Page): the run-relative file, or the
	// path given on the command line.
	Name string
	// URL is the page's address, used to make link and image URLs absolute; optional.
	URL string
	// HTML is the page's DOM (Chromium's outerHTML after scripts ran, or a saved file).
	HTML []byte
	// Terms are the query terms the page was obtained with; they are the signifiers when
	// they are strong. Empty for pages without a query.
	Terms []string
	// Kind is the probe kind (probe.Probe.Kind). "nonsense" marks the page of the
	// nonsense-word probe, from which the error pattern is learnt; other kinds are
	// informative only.
	Kind string
}

// KindNonsense is the probe kind of the nonsense-word probe.
const KindNonsense = "nonsense"

// Mode selects what FOREST looks for.
type Mode string

const (
	// ModeRecords finds the repeated records of result pages (the default).
	ModeRecords Mode = "records"
	// ModeArticle finds the one main block of each page: the thesis's FOREST for
	// articles, with the same measures and ranking.
	ModeArticle Mode = "article"
)

// RegionPolicy says how many record patterns are kept per template.
type RegionPolicy string

const (
	// RegionsBest keeps the top-ranked record pattern: the result list (the default).
	RegionsBest RegionPolicy = "best"
	// RegionsAll keeps every record pattern the list model accepts and that does not
	// overlap a better one: every data region of a page, as list-page benchmarks such
	// as NEXT-EVAL annotate them.
	RegionsAll RegionPolicy = "all"
)

// Page classes.
const (
	ClassResult  = "result"  // at least one record
	ClassEmpty   = "empty"   // no record, and not an error page
	ClassError   = "error"   // carries the error pattern of the nonsense-word page
	ClassInvalid = "invalid" // not readable as HTML
)

// Options configures Extract. Start from DefaultOptions and override fields.
type Options struct {
	// Mode is ModeRecords or ModeArticle.
	Mode Mode
	// Regions is RegionsBest or RegionsAll (record mode only).
	Regions RegionPolicy
	// Signifiers selects the signifier source (SignifiersAuto by default).
	Signifiers SignifierSource
	// TopK is the number of tf-idf signifiers per page (10 in the thesis; keep ≥ 5,
	// thesis Fig. 2.10).
	TopK int
	// MinStrongLeaves is the number of leaves a page's query terms must occur in (echoes
	// excluded) for them to be used as signifiers under SignifiersAuto.
	MinStrongLeaves int
	// TypeAttributes are the attributes that take part in element types, in tolerant
	// form (DefaultTypeAttributes).
	TypeAttributes []string
	// LayoutThreshold is the layout similarity at which a page joins a cluster, in
	// (0, 1].
	LayoutThreshold float64
	// MaxSamples bounds the sample pages FOREST learns from per layout cluster (the
	// thesis's quality plateaus at 8–10 pages); the learnt wrapper is then applied to
	// every page of the cluster.
	MaxSamples int
	// MaxPageBytes bounds the size of one page; larger pages are reported as invalid.
	MaxPageBytes int
	// ParsedCacheBytes bounds the memory of the pages kept parsed between the passes of
	// Extract: their trees, indexes and candidate lists as estimated by the page store
	// (about 5 times a page's raw size); pages past it are parsed again when needed, so
	// that thousands of pages fit in memory. 0 keeps none.
	ParsedCacheBytes int
	// SkipHidden ignores elements hidden by their own markup (hidden, aria-hidden,
	// inline display:none); off by default, since DOM snapshots hold content that is
	// hidden only for the moment.
	SkipHidden bool
	// RankingSize is the number of candidates reported in the wrapper per template.
	RankingSize int
	// ListModel selects the record lists in record mode; nil means DefaultListModel.
	ListModel *ListModel
	// Logger receives progress and diagnostics. Nil discards them.
	Logger *slog.Logger
}

// DefaultOptions returns the options trawl uses on result pages: record mode, the best
// pattern, query terms as signifiers with the tf-idf fallback (k = 10).
func DefaultOptions() Options {
	return Options{
		Mode:             ModeRecords,
		Regions:          RegionsBest,
		Signifiers:       SignifiersAuto,
		TopK:             10,
		MinStrongLeaves:  2,
		TypeAttributes:   slices.Clone(DefaultTypeAttributes),
		LayoutThreshold:  0.75,
		MaxSamples:       10,
		MaxPageBytes:     64 << 20,
		ParsedCacheBytes: 256 << 20,
		RankingSize:      10,
	}
}

// Validate reports the first invalid field.
func (o Options) Validate() error {
	bad := func(f string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrBadOptions, fmt.Sprintf(f, args...))
	}
	switch {
	case o.Mode != ModeRecords && o.Mode != ModeArticle:
		return bad("Mode must be %q or %q, got %q", ModeRecords, ModeArticle, o.Mode)
	case o.Regions != RegionsBest && o.Regions != RegionsAll:
		return bad("Regions must be %q or %q, got %q", RegionsBest, RegionsAll, o.Regions)
	case !slices.Contains([]SignifierSource{SignifiersAuto, SignifiersQuery, SignifiersTFIDF, SignifiersUnion}, o.Signifiers):
		return bad("Signifiers must be auto, query, tfidf or union, got %q", o.Signifiers)
	case o.TopK < 1:
		return bad("TopK must be ≥ 1, got %d", o.TopK)
	case o.MinStrongLeaves < 1:
		return bad("MinStrongLeaves must be ≥ 1, got %d", o.MinStrongLeaves)
	case len(o.TypeAttributes) == 0:
		return bad("TypeAttributes must not be empty")
	case o.LayoutThreshold <= 0 || o.LayoutThreshold > 1:
		return bad("LayoutThreshold must be in (0,1], got %g", o.LayoutThreshold)
	case o.MaxSamples < 1:
		return bad("MaxSamples must be ≥ 1, got %d", o.MaxSamples)
	case o.MaxPageBytes < 1:
		return bad("MaxPageBytes must be ≥ 1, got %d", o.MaxPageBytes)
	case o.ParsedCacheBytes < 0:
		return bad("ParsedCacheBytes must be ≥ 0, got %d", o.ParsedCacheBytes)
	case o.RankingSize < 1:
		return bad("RankingSize must be ≥ 1, got %d", o.RankingSize)
	}
	if o.ListModel != nil {
		return o.ListModel.Check()
	}
	return nil
}

// Wrapper is what Extract learnt: the page classes, the error pattern, and per layout
// template the record XPath with the FOREST ranking of the candidates. It is written as
// wrapper.json.
type Wrapper struct {
	// Version is the version of the wrapper's format (WrapperVersion); Apply reads only
	// its own version.
	Version int `json:"version"`
	// Mode is the mode the wrapper was learnt in.
	Mode Mode `json:"mode"`
	// XPath is the generic XPath of the records (record mode) or of the main block
	// (article mode) of the main template, the one with the most result pages.
	XPath string `json:"xpath"`
	// Templates are the layout clusters that were given a wrapper, main template first.
	Templates []Template `json:"templates"`
	// Pages classifies every page given, in input order.
	Pages []PageClass `json:"pages"`
	// ErrorPatterns are what the nonsense-word pages echo (thesis ch. 3 §3.2).
	ErrorPatterns []ErrorPattern `json:"error_patterns,omitempty"`
	// Layouts are the layout clusters of the pages, which Apply compares a new page with.
	Layouts []Layout `json:"layouts,omitempty"`
	// Options are the effective options.
	Options OptionsRecord `json:"options"`
	// Elapsed is the wall time of Extract.
	Elapsed time.Duration `json:"elapsed_ns"`
}

// Template is the wrapper of one layout cluster.
type Template struct {
	// Cluster numbers the layout cluster; Pages names its pages; Samples those FOREST
	// learnt from.
	Cluster int      `json:"cluster"`
	Pages   []string `json:"pages"`
	Samples []string `json:"samples"`
	// XPath selects the records (or the main block) of a page of this template; in
	// record mode with several regions it is their union.
	XPath string `json:"xpath"`
	// XPathExact is true when XPath selects exactly the extracted elements on every
	// sample page (checked with an XPath engine).
	XPathExact bool `json:"xpath_exact"`
	// ForestXPath is the thesis's form of the article wrapper, with dfs positions
	// (article mode only); it addresses the dfs-enriched tree.
	ForestXPath string `json:"forest_xpath,omitempty"`
	// Regions are the selected patterns (one under RegionsBest and in article mode).
	Regions []Candidate `json:"regions"`
	// Ranking lists the best candidates, selected or not.
	Ranking []Candidate `json:"ranking"`
	// Siblings describes records that span sibling elements, one entry per selected
	// pattern that has them ("following siblings dd", "preceding siblings h3", "rows of
	// the same index in a parallel table"); such records list their other elements in
	// Record.Extra.
	Siblings []string `json:"siblings,omitempty"`
	// Rules are the selected patterns in the form Apply matches them on a new page, one
	// per region.
	Rules []Rule `json:"rules,omitempty"`
	// Reason says why the template has no wrapper, when it has none.
	Reason string `json:"reason,omitempty"`
}

// Candidate is one ranked structural pattern.
type Candidate struct {
	// XPath is the pattern's generic XPath.
	XPath string `json:"xpath"`
	// Level is the depth of the pattern's elements (body = 1).
	Level int `json:"level"`
	// Pages is p, the number of sample pages the pattern occurs in.
	Pages int `json:"pages"`
	// Elements counts the pattern's elements over the sample pages (the records, in
	// record mode).
	Elements int `json:"elements"`
	// X and Y are the signifier and other-term counts of the pattern summed over the
	// sample pages.
	X int `json:"x"`
	Y int `json:"y"`
	// I is Σ_d I(sp, d); R the relevance I × p × level (eq. 2.5).
	I float64 `json:"i"`
	R float64 `json:"r"`
	// Fields is true for siblings that are the fixed fields of another pattern's records
	// (never selected).
	Fields bool `json:"fields,omitempty"`
	// Navigation says why the pattern is navigation, not records (never selected):
	// inside a header, footer, nav or similar landmark, or an anchor list.
	Navigation string `json:"navigation,omitempty"`
	// Groups is true for elements that are groups of records, each holding most of its
	// text in a list of records of varying length (never selected).
	Groups bool `json:"groups,omitempty"`
	// Score is the list model's probability that the pattern's elements are records
	// (record mode).
	Score float64 `json:"score,omitempty"`
	// Selected is true for the patterns whose elements were extracted.
	Selected bool `json:"selected"`
}

// PageClass is the class of one page.
type PageClass struct {
	Page  string `json:"page"`
	Class string `json:"class"`
	// Cluster is the page's layout cluster (-1 for invalid pages).
	Cluster int  `json:"cluster"`
	Sample  bool `json:"sample,omitempty"`
	Records int  `json:"records"`
	// Signifiers are the signifiers used on a sample page, and SignifierSource where they
	// came from ("query", "tfidf" or "union").
	Signifiers      []string `json:"signifiers,omitempty"`
	SignifierSource string   `json:"signifier_source,omitempty"`
	// Reason explains the class of error, empty and invalid pages.
	Reason string `json:"reason,omitempty"`
}

// ErrorPattern is where a nonsense-word page echoes the nonsense word.
type ErrorPattern struct {
	Page string `json:"page"`
	Word string `json:"word"`
	// Path is the generic path of the echoing block; Phrase its folded text with the
	// word replaced by {q}.
	Path   string `json:"path"`
	Phrase string `json:"phrase"`
	// TypePath is the exact generic location of the echoing block: the record types
	// (tag and tolerant type attributes) of its ancestors and itself from <html> down.
	// Apply matches new pages against it.
	TypePath []string `json:"type_path,omitempty"`
	hash     uint64
}

// OptionsRecord is the serialisable part of Options.
type OptionsRecord struct {
	Mode            Mode            `json:"mode"`
	Regions         RegionPolicy    `json:"regions"`
	Signifiers      SignifierSource `json:"signifiers"`
	TopK            int             `json:"top_k"`
	MinStrongLeaves int             `json:"min_strong_leaves"`
	TypeAttributes  []string        `json:"type_attributes"`
	LayoutThreshold float64         `json:"layout_threshold"`
	MaxSamples      int             `json:"max_samples"`
	SkipHidden      bool            `json:"skip_hidden,omitempty"`
}

func (o Options) record() OptionsRecord {
	return OptionsRecord{o.Mode, o.Regions, o.Signifiers, o.TopK,
		o.MinStrongLeaves, slices.Clone(o.TypeAttributes), o.LayoutThreshold, o.MaxSamples, o.SkipHidden}
}

// Extract isolates the records of the given pages (record mode) or their main blocks
// (article mode) with FOREST. Pages are grouped by layout; pages that echo the
// nonsense word's error pattern are error pages; each other layout cluster gets its own
// wrapper, learnt from up to MaxSamples of its pages and applied to all of them.
//
// Unreadable pages are skipped and reported in the wrapper's page classes; Extract
// fails only on invalid options, when no page is given or none is readable, or when
// ctx is cancelled. Records come in input page order, then document order.
func Extract(ctx context.Context, pages []Page, opts Options) (*Wrapper, []Record, error) {
	start := time.Now()
	x, err := newExtraction(pages, &opts)
	if err != nil {
		return nil, nil, err
	}
	if err := x.learnErrorPatterns(ctx); err != nil {
		return nil, nil, err
	}
	if err := x.classifyPages(ctx); err != nil {
		return x.w, nil, err
	}
	x.groupTemplates()
	if err := x.learnTemplates(ctx); err != nil {
		return nil, nil, err
	}
	recs, err := x.extractRecords(ctx)
	if err != nil {
		return nil, nil, err
	}
	x.w.Elapsed = time.Since(start)
	return x.w, recs, nil
}

// extraction is the state of one Extract call, passed from step to step.
type extraction struct {
	pages []Page
	opts  *Options
	log   *slog.Logger
	w     *Wrapper
	st    *pageStore
	vocab map[string]bool // words of the error phrases
	// document frequencies over the readable pages that are not error pages
	// (classifyPages)
	df   map[string]int
	docs int
	// page clusters (groupTemplates): pages laid out like a nonsense-word page
	// (suspects), the pages of every other cluster, the clusters largest first
	suspect      map[int]bool
	clusterPages map[int][]int
	clusterOrder []int
	// learnt wrappers (learnTemplates), in template order, and the template of a cluster
	sels  []*selection
	tplOf map[int]int
}

func newExtraction(pages []Page, opts *Options) (*extraction, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	if len(pages) == 0 {
		return nil, ErrNoPages
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	x := &extraction{pages: pages, opts: opts, log: log, st: newPageStore(pages, opts),
		w: &Wrapper{Version: WrapperVersion, Mode: opts.Mode, Options: opts.record(), Pages: make([]PageClass, len(pages))}}
	for i, pg := range pages {
		x.w.Pages[i].Page, x.w.Pages[i].Cluster = pg.Name, -1
	}
	return x, nil
}

// get returns page i parsed, or nil after recording why it cannot be read.
func (x *extraction) get(i int) *sample {
	s, err := x.st.get(i)
	if err != nil {
		if pc := &x.w.Pages[i]; pc.Class != ClassInvalid {
			pc.Class, pc.Reason = ClassInvalid, err.Error()
			x.log.Warn("page skipped", "page", x.pages[i].Name, "err", err)
		}
		return nil
	}
	return s
}

// learnErrorPatterns learns the error patterns of the nonsense-word pages.
func (x *extraction) learnErrorPatterns(ctx context.Context) error {
	for i := range x.pages {
		if x.pages[i].Kind != KindNonsense {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if s := x.get(i); s != nil {
			x.w.ErrorPatterns = append(x.w.ErrorPatterns, learnErrorPatterns(s, x.pages[i])...)
		}
	}
	x.vocab = echoVocabulary(x.w.ErrorPatterns)
	return nil
}

// classifyPages goes page by page: layout blocks, error pages, document frequencies;
// then it clusters the pages by layout. Only small summaries stay in memory (the store
// keeps parsed pages within its budget).
func (x *extraction) classifyPages(ctx context.Context) error {
	w := x.w
	var seqs [][]block
	var seqPage []int
	x.df = map[string]int{}
	for i, pg := range x.pages {
		if err := ctx.Err(); err != nil {
			return err
		}
		s := x.get(i)
		if s == nil {
			continue
		}
		seqs = append(seqs, layoutBlocks(s.p))
		seqPage = append(seqPage, i)
		if pg.Kind == KindNonsense {
			w.Pages[i].Class, w.Pages[i].Reason = ClassError, "nonsense-word probe"
			continue
		}
		if ep, ok := matchErrorPattern(s, pg.Terms, w.ErrorPatterns); ok {
			w.Pages[i].Class = ClassError
			w.Pages[i].Reason = fmt.Sprintf("echoes the error pattern of %s (%q)", ep.Page, ep.Phrase)
			continue
		}
		for t := range docTerms(s.p) {
			x.df[t]++
		}
		x.docs++
	}
	if len(seqs) == 0 {
		return fmt.Errorf("%w: all %d pages were rejected (first: %s: %s)", ErrNoUsablePage, len(x.pages), w.Pages[0].Page, w.Pages[0].Reason)
	}
	for k, c := range clusterLayouts(seqs, x.opts.LayoutThreshold) {
		w.Pages[seqPage[k]].Cluster = c
		if c == len(w.Layouts) {
			w.Layouts = append(w.Layouts, Layout{Cluster: c})
		}
		if l := &w.Layouts[c]; len(l.Blocks) < maxClusterCompare {
			l.Blocks = append(l.Blocks, layoutRecord(seqs[k]))
		}
	}
	return nil
}

// groupTemplates groups the pages that are neither error nor invalid pages by layout
// cluster, largest cluster first. Pages laid out like a nonsense-word page are
// suspects: error pages unless a learnt wrapper finds records on them.
func (x *extraction) groupTemplates() {
	w := x.w
	errCluster := map[int]bool{}
	for i := range x.pages {
		if x.pages[i].Kind == KindNonsense && w.Pages[i].Class == ClassError {
			errCluster[w.Pages[i].Cluster] = true
			w.Layouts[w.Pages[i].Cluster].Error = true
		}
	}
	x.suspect, x.clusterPages = map[int]bool{}, map[int][]int{}
	for i := range x.pages {
		if w.Pages[i].Class != "" {
			continue
		}
		c := w.Pages[i].Cluster
		if errCluster[c] {
			x.suspect[i] = true
			continue
		}
		if _, ok := x.clusterPages[c]; !ok {
			x.clusterOrder = append(x.clusterOrder, c)
		}
		x.clusterPages[c] = append(x.clusterPages[c], i)
	}
	slices.SortStableFunc(x.clusterOrder, func(a, b int) int { return len(x.clusterPages[b]) - len(x.clusterPages[a]) })
}

// learnTemplates learns the wrapper of every layout cluster (largest first) with
// FOREST on up to MaxSamples of its pages.
func (x *extraction) learnTemplates(ctx context.Context) error {
	if x.opts.ListModel == nil && x.opts.Mode == ModeRecords && len(x.clusterOrder) > 0 {
		m, err := DefaultListModel()
		if err != nil {
			return err
		}
		x.opts.ListModel = m
	}
	x.tplOf = map[int]int{}
	for _, c := range x.clusterOrder {
		if err := ctx.Err(); err != nil {
			return err
		}
		idx := x.clusterPages[c]
		tpl := Template{Cluster: c}
		for _, i := range idx {
			tpl.Pages = append(tpl.Pages, x.pages[i].Name)
		}
		samples := x.prepareSamples(pickSamples(idx, x.opts.MaxSamples), &tpl)
		sel := learn(samples, x.opts, &tpl)
		x.sels = append(x.sels, sel)
		x.tplOf[c] = len(x.w.Templates)
		x.log.Info("template learnt", "cluster", c, "pages", len(idx), "samples", len(samples), "xpath", tpl.XPath)
		x.w.Templates = append(x.w.Templates, tpl)
	}
	return nil
}

// prepareSamples parses the sample pages idx of a template and marks their
// signifiers: the query terms, or the page's top tf-idf terms.
func (x *extraction) prepareSamples(idx []int, tpl *Template) []*sample {
	var samples []*sample
	for _, i := range idx {
		s := x.get(i)
		if s == nil {
			continue
		}
		pg := x.pages[i]
		s.echo = echoLeaves(s, pg.Terms, x.vocab)
		var tf []string
		if x.opts.Signifiers != SignifiersQuery {
			s.p.df, s.p.docs, s.p.spec = x.df, x.docs, nil
			tf = topTerms(s.p, x.df, x.docs, x.opts.TopK)
		}
		sigs, src := chooseSignifiers(s, pg.Terms, tf, x.opts)
		markSignifiers(s.p, sigs, s.echo)
		pc := &x.w.Pages[i]
		pc.Sample, pc.Signifiers, pc.SignifierSource = true, sigs, src
		samples = append(samples, s)
		tpl.Samples = append(tpl.Samples, pg.Name)
	}
	return samples
}

// extractRecords applies the learnt wrappers page by page. A page whose own template
// has no wrapper, or whose wrapper finds nothing on it, tries the wrappers of the other
// templates in their order: a result page with a single record has no repeated
// pattern of its own and is often laid out like a no-result page (the record blocks
// that set result pages apart carry little weight), yet the wrapper of the result
// pages finds its record.
func (x *extraction) extractRecords(ctx context.Context) ([]Record, error) {
	w := x.w
	var out []Record
	for i, pg := range x.pages {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		pc := &w.Pages[i]
		if pc.Class != "" && !x.suspect[i] {
			continue // error and invalid pages
		}
		s := x.get(i)
		if s == nil {
			continue
		}
		own := -1
		if t, ok := x.tplOf[pc.Cluster]; ok && !x.suspect[i] {
			own = t
		}
		k, recs := -1, []Record(nil)
		for _, t := range tryOrder(len(x.sels), own) {
			if recs = pageRecords(s, pg, x.sels[t]); len(recs) > 0 {
				k = t
				break
			}
		}
		ownReason := "no element matches the template's wrapper"
		if own >= 0 && w.Templates[own].Reason != "" {
			ownReason = w.Templates[own].Reason
		}
		switch {
		case k >= 0:
			out = append(out, recs...)
			pc.Class, pc.Records = ClassResult, len(recs)
			switch {
			case x.suspect[i]:
				pc.Reason = fmt.Sprintf("laid out like the nonsense-word page, but the wrapper of template %d finds records", w.Templates[k].Cluster)
				w.Templates[k].Pages = append(w.Templates[k].Pages, pg.Name)
			case k != own:
				pc.Reason = fmt.Sprintf("the wrapper of its layout cluster finds none (%s), but the wrapper of template %d finds records", ownReason, w.Templates[k].Cluster)
			}
		case x.suspect[i]:
			pc.Class, pc.Reason = ClassError, "same layout as the nonsense-word page, and no wrapper finds records on it"
		default:
			pc.Class, pc.Reason = ClassEmpty, ownReason
		}
	}
	if len(w.Templates) > 0 {
		w.XPath = w.Templates[0].XPath
	}
	return out, nil
}

// pageRecords returns the records sel finds on page s, those without leaves and the
// separator rows between groups of records (dropSeparators) left out.
func pageRecords(s *sample, pg Page, sel *selection) []Record {
	var base *url.URL
	if pg.URL != "" {
		base, _ = url.Parse(pg.URL)
	}
	elems, extra := sel.records(s)
	recs := segment(s.p, elems, extra, base)
	return dropSeparators(slices.DeleteFunc(recs, func(r Record) bool { return len(r.Leaves) == 0 }))
}

// tryOrder returns the templates a page tries, own first (-1: none), then the others
// in their order.
func tryOrder(n, own int) []int {
	out := make([]int, 0, n)
	if own >= 0 {
		out = append(out, own)
	}
	for t := range n {
		if t != own {
			out = append(out, t)
		}
	}
	return out
}

// pageStore parses pages on demand. It keeps parsed pages while their estimated
// memory (modelBytes) stays within a budget — every page of an ordinary run — and
// parses again past it, so that memory stays bounded with thousands of pages.
// Unreadable pages are remembered.
type pageStore struct {
	pages  []Page
	opts   *Options
	cache  map[int]*sample
	failed map[int]error
	bytes  int
	budget int
}

func newPageStore(pages []Page, opts *Options) *pageStore {
	return &pageStore{pages: pages, opts: opts, cache: map[int]*sample{}, failed: map[int]error{}, budget: opts.ParsedCacheBytes}
}

// get returns page i parsed and indexed (with its candidate lists in record mode).
func (st *pageStore) get(i int) (*sample, error) {
	if s, ok := st.cache[i]; ok {
		return s, nil
	}
	if err, ok := st.failed[i]; ok {
		return nil, err
	}
	pg := st.pages[i]
	if len(pg.HTML) > st.opts.MaxPageBytes {
		err := fmt.Errorf("%s: %w: page of %d bytes exceeds MaxPageBytes (%d)", pg.Name, ErrBadPage, len(pg.HTML), st.opts.MaxPageBytes)
		st.failed[i] = err
		return nil, err
	}
	p, err := parseKeptPage(pg.Name, pg.HTML, st.opts.SkipHidden)
	if err != nil {
		st.failed[i] = err
		return nil, err
	}
	s := newSample(p, st.opts.TypeAttributes)
	if st.opts.Mode == ModeRecords {
		findLists(s)
	}
	if n := modelBytes(len(pg.HTML), s); st.bytes+n <= st.budget {
		st.cache[i] = s
		st.bytes += n
	}
	return s, nil
}

// pickSamples takes up to n pages spread evenly over idx.
func pickSamples(idx []int, n int) []int {
	if len(idx) <= n {
		return idx
	}
	out := make([]int, 0, n)
	for k := range n {
		out = append(out, idx[k*len(idx)/n])
	}
	return out
}

// chooseSignifiers returns the signifiers of a sample page and their source.
func chooseSignifiers(s *sample, terms, tf []string, o *Options) ([]string, string) {
	q := queryTokens(terms)
	strong := len(q) > 0 && leavesWith(s.p, q, s.echo) >= o.MinStrongLeaves
	switch o.Signifiers {
	case SignifiersQuery:
		if len(q) == 0 {
			return allQueryTokens(terms), "query"
		}
		return q, "query"
	case SignifiersTFIDF:
		return tf, "tfidf"
	case SignifiersUnion:
		if strong {
			out := slices.Clone(q)
			for _, t := range tf {
				if !slices.Contains(out, t) {
					out = append(out, t)
				}
			}
			return out, "union"
		}
		return tf, "tfidf"
	}
	if strong {
		return q, "query"
	}
	return tf, "tfidf"
}

// echoVocabulary collects the words of the error phrases (without the placeholder):
// the template words a site puts around an echoed query.
func echoVocabulary(eps []ErrorPattern) map[string]bool {
	v := map[string]bool{}
	for _, ep := range eps {
		for _, t := range strings.Fields(strings.ReplaceAll(ep.Phrase, "{q}", " ")) {
			v[t] = true
		}
	}
	return v
}

// modelBytes estimates the memory a kept page takes, the measure of the store's
// budget: its tree (a node per element and about as many text and blank nodes, the
// strings bounded by the raw size), the page's tables (elements, leaves, tokens) and
// the sample's (types, candidate lists). On the 123 NEXT-EVAL pages it is 0.71–1.05
// of the heap a kept page holds, 0.87 over all of them (about 5 times the raw size).
func modelBytes(raw int, s *sample) int {
	const (
		node = int(unsafe.Sizeof(html.Node{}))
		elem = int(unsafe.Sizeof(elem{}))
		leaf = int(unsafe.Sizeof(leaf{}))
	)
	p := s.p
	n := raw + 2*len(p.elems)*node + len(p.leaves)*node
	n += cap(p.elems)*(elem+4+4) + cap(p.leaves)*leaf + cap(p.toks)*(16+8) + cap(p.noise)
	n += cap(s.types)*8 + cap(s.atts.pairs)*32
	for _, l := range s.lists {
		n += 48 + cap(l.members)*4
	}
	return n
}
