package records

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"slices"
)

// Applying a learnt wrapper to a new page. Extract learns, per layout template, which
// elements are records; the wrapper it writes (wrapper.json) keeps that as Rules — the
// records' tag, the type path of their parent, their common tolerant attributes, the
// sibling runs and parallel rows they span — together with the layout of every page
// cluster and the exact location of the nonsense-word echo. Apply classifies one more
// page with them, without learning again: it carries the error echo (an error page),
// or a template's rules find records on it (a result page, whatever the number of its
// records: a page with one record has no repeated pattern of its own, but the rule
// learnt on the other pages matches it), or it has none. Its records have the leaf
// paths of the records Extract wrote, so that package schema can read them against the
// run's features.

// WrapperVersion is the version of the wrapper format this package writes and Apply
// reads. Version 2 added the rules of the templates, the page layouts and the type
// paths of the error patterns; version 3 leaves the id of a table body section beside
// another one out of type paths (the rules' parent paths).
const WrapperVersion = 3

// ClassUnmatched is the class Apply gives a page that holds no record and is laid out
// like none of the pages the wrapper was learnt on (a detail page a site redirects a
// single match to, a page of another site section): the wrapper cannot say whether it
// is empty. Extract never gives it.
const ClassUnmatched = "unmatched"

// Rule is one selected pattern of a template, in the form Apply matches it on any page.
type Rule struct {
	// Tag is the tag of the records (or of the main block in article mode).
	Tag string `json:"tag"`
	// Parent is the type path of the records' parent in record mode: the record types
	// (tag and tolerant type attributes) of its ancestors and itself from <html> down.
	Parent []string `json:"parent,omitempty"`
	// Attrs are the tolerant type attributes every record carries, as name–value pairs.
	Attrs [][2]string `json:"attrs,omitempty"`
	// Child is the tag of a child every record has ("" if none).
	Child string `json:"child,omitempty"`
	// Tokens are class tokens (tolerant forms) every record carries, when the records'
	// type also fits other elements of the sample pages that lack them.
	Tokens []string `json:"tokens,omitempty"`
	// Level and Type are the level and the element type (Def. 2) of the main block in
	// article mode.
	Level int    `json:"level,omitempty"`
	Type  string `json:"type,omitempty"`
	// Siblings is the run of sibling elements each record spans, if any.
	Siblings *SiblingRule `json:"siblings,omitempty"`
	// Parallel is true when each record takes the row of the same index in a parallel
	// table.
	Parallel bool `json:"parallel,omitempty"`
}

// SiblingRule is the run of sibling elements a record spans: their types (tag and
// tolerant class, in document order) and whether they precede the record's element.
type SiblingRule struct {
	Types  []string `json:"types"`
	Before bool     `json:"before,omitempty"`
}

// Layout is one layout cluster of the pages Extract was given.
type Layout struct {
	Cluster int `json:"cluster"`
	// Error is true for the cluster of a nonsense-word page.
	Error bool `json:"error,omitempty"`
	// Blocks are the layout block sequences of the cluster's first pages (at most five,
	// the members a page is compared with when it joins a cluster).
	Blocks [][]LayoutBlock `json:"blocks"`
}

// LayoutBlock is one block of a page layout: the last three steps of its path (tag,
// tolerant id and class) and the letters and digits of its text.
type LayoutBlock struct {
	Feature string  `json:"feature"`
	Weight  float64 `json:"weight"`
}

func layoutRecord(seq []block) []LayoutBlock {
	out := make([]LayoutBlock, len(seq))
	for i, b := range seq {
		out[i] = LayoutBlock{b.feature, b.weight}
	}
	return out
}

// ApplyOptions configures Apply. Start from DefaultApplyOptions. What the wrapper was
// learnt with (mode, type attributes, layout threshold, hidden elements) comes from
// the wrapper itself.
type ApplyOptions struct {
	// MaxPageBytes bounds the size of the page; a larger page is invalid.
	MaxPageBytes int
	// Logger receives diagnostics. Nil discards them.
	Logger *slog.Logger
}

// DefaultApplyOptions returns the options of Extract's defaults.
func DefaultApplyOptions() ApplyOptions {
	return ApplyOptions{MaxPageBytes: DefaultOptions().MaxPageBytes}
}

// Validate reports the first invalid field.
func (o ApplyOptions) Validate() error {
	if o.MaxPageBytes < 1 {
		return fmt.Errorf("%w: MaxPageBytes must be ≥ 1, got %d", ErrBadOptions, o.MaxPageBytes)
	}
	return nil
}

// Applier applies one wrapper to new pages. It is safe for concurrent use.
type Applier struct {
	w         *Wrapper
	opts      ApplyOptions
	log       *slog.Logger
	names     []string
	threshold float64
	sels      []*selection // per template
	eps       []ErrorPattern
	layouts   [][]*layoutSeq // per Layout
	tplOf     map[int]int    // cluster → template
}

// NewApplier checks the wrapper and prepares it for Apply. It fails with ErrStaleWrapper
// on a wrapper of another version and with ErrBadWrapper on an inconsistent one.
func NewApplier(w *Wrapper, opts ApplyOptions) (*Applier, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	if w == nil {
		return nil, fmt.Errorf("%w: no wrapper", ErrBadWrapper)
	}
	if w.Version != WrapperVersion {
		return nil, fmt.Errorf("%w: wrapper version %d, Apply reads version %d (run the extract stage again)", ErrStaleWrapper, w.Version, WrapperVersion)
	}
	bad := func(f string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrBadWrapper, fmt.Sprintf(f, args...))
	}
	if w.Mode != ModeRecords && w.Mode != ModeArticle {
		return nil, bad("mode must be %q or %q, got %q", ModeRecords, ModeArticle, w.Mode)
	}
	if len(w.Options.TypeAttributes) == 0 {
		return nil, bad("options.type_attributes is empty")
	}
	if t := w.Options.LayoutThreshold; t <= 0 || t > 1 {
		return nil, bad("options.layout_threshold must be in (0,1], got %g", t)
	}
	a := &Applier{w: w, opts: opts, log: opts.Logger, names: w.Options.TypeAttributes,
		threshold: w.Options.LayoutThreshold, tplOf: map[int]int{}}
	if a.log == nil {
		a.log = slog.New(slog.DiscardHandler)
	}
	for k, t := range w.Templates {
		if len(t.Rules) != len(t.Regions) {
			return nil, bad("templates[%d] (cluster %d) has %d regions but %d rules", k, t.Cluster, len(t.Regions), len(t.Rules))
		}
		for j, r := range t.Rules {
			switch {
			case r.Tag == "":
				return nil, bad("templates[%d].rules[%d] has no tag", k, j)
			case w.Mode == ModeRecords && len(r.Parent) == 0:
				return nil, bad("templates[%d].rules[%d] has no parent type path", k, j)
			case w.Mode == ModeArticle && r.Type == "":
				return nil, bad("templates[%d].rules[%d] has no element type", k, j)
			case r.Siblings != nil && len(r.Siblings.Types) == 0:
				return nil, bad("templates[%d].rules[%d] has an empty sibling run", k, j)
			}
		}
		a.sels = append(a.sels, selectionOf(w.Mode, a.names, t.Rules))
		a.tplOf[t.Cluster] = k
	}
	for k, ep := range w.ErrorPatterns {
		if len(ep.TypePath) == 0 {
			return nil, bad("error_patterns[%d] (%s) has no type_path", k, ep.Page)
		}
		ep.hash = hashTypePath(ep.TypePath)
		a.eps = append(a.eps, ep)
	}
	for k, l := range w.Layouts {
		if l.Cluster != k {
			return nil, bad("layouts[%d] is cluster %d: layouts must be numbered in order", k, l.Cluster)
		}
		var members []*layoutSeq
		for _, bs := range l.Blocks {
			seq := make([]block, len(bs))
			for i, b := range bs {
				seq[i] = block{b.Feature, b.Weight}
			}
			members = append(members, newLayoutSeq(seq))
		}
		a.layouts = append(a.layouts, members)
	}
	return a, nil
}

// Apply classifies one page with wrapper w and returns its records; see
// Applier.Apply. To apply one wrapper to many pages, make an Applier once.
func Apply(ctx context.Context, w *Wrapper, pg Page, opts ApplyOptions) ([]Record, PageClass, error) {
	a, err := NewApplier(w, opts)
	if err != nil {
		return nil, PageClass{Page: pg.Name, Cluster: -1}, err
	}
	return a.Apply(ctx, pg)
}

// Apply classifies page pg and returns its records, whose leaf paths are those of the
// records Extract found with the same wrapper:
//
//   - a nonsense-word probe's page, or a page that carries the error pattern (the
//     nonsense word's echo, with pg.Terms in place of the word), is an error page;
//   - otherwise the page joins the first layout cluster it is similar to, as it would
//     have in Extract, and the rules of that cluster's template, then those of the
//     other templates in order, are matched on it: the first that find records make it
//     a result page — one record is enough;
//   - a page without records is an error page when it is laid out like a nonsense-word
//     page, empty when it joins another cluster, and unmatched (ClassUnmatched) when
//     it joins none.
//
// Apply fails when ctx is cancelled, and on a page that cannot be read (ErrBadPage,
// with the page class invalid).
func (a *Applier) Apply(ctx context.Context, pg Page) ([]Record, PageClass, error) {
	pc := PageClass{Page: pg.Name, Cluster: -1}
	if err := ctx.Err(); err != nil {
		return nil, pc, err
	}
	if len(pg.HTML) > a.opts.MaxPageBytes {
		pc.Class = ClassInvalid
		pc.Reason = fmt.Sprintf("page of %d bytes exceeds MaxPageBytes (%d)", len(pg.HTML), a.opts.MaxPageBytes)
		return nil, pc, fmt.Errorf("%s: %w: %s", pg.Name, ErrBadPage, pc.Reason)
	}
	p, err := parsePage(pg.Name, pg.HTML, a.w.Options.SkipHidden)
	if err != nil {
		pc.Class, pc.Reason = ClassInvalid, err.Error()
		return nil, pc, err
	}
	s := newSample(p, a.names)
	l := newLayoutSeq(layoutBlocks(p))
	for c, members := range a.layouts {
		if joinsCluster(l, members, a.threshold) {
			pc.Cluster = c
			break
		}
	}
	if pg.Kind == KindNonsense {
		pc.Class, pc.Reason = ClassError, "nonsense-word probe"
		return nil, pc, nil
	}
	if ep, ok := matchErrorPattern(s, pg.Terms, a.eps); ok {
		pc.Class = ClassError
		pc.Reason = fmt.Sprintf("echoes the error pattern of %s (%q)", ep.Page, ep.Phrase)
		return nil, pc, nil
	}
	errLayout := pc.Cluster >= 0 && a.w.Layouts[pc.Cluster].Error
	own := -1
	if t, ok := a.tplOf[pc.Cluster]; ok && pc.Cluster >= 0 && !errLayout {
		own = t
	}
	var base *url.URL
	if pg.URL != "" {
		base, _ = url.Parse(pg.URL)
	}
	ownReason := "no element matches the template's wrapper"
	if own >= 0 && a.w.Templates[own].Reason != "" {
		ownReason = a.w.Templates[own].Reason
	}
	for _, t := range tryOrder(len(a.sels), own) {
		if err := ctx.Err(); err != nil {
			return nil, pc, err
		}
		elems, extra := a.sels[t].records(s)
		recs := dropSeparators(slices.DeleteFunc(segment(p, elems, extra, base), func(r Record) bool { return len(r.Leaves) == 0 }))
		if len(recs) == 0 {
			continue
		}
		pc.Class, pc.Records = ClassResult, len(recs)
		if t != own {
			cl := a.w.Templates[t].Cluster
			switch {
			case errLayout:
				pc.Reason = fmt.Sprintf("laid out like the nonsense-word page, but the wrapper of template %d finds records", cl)
			case pc.Cluster < 0:
				pc.Reason = fmt.Sprintf("laid out like no page of the run (%s), but the wrapper of template %d finds records", a.nearest(l), cl)
			case own < 0:
				pc.Reason = fmt.Sprintf("laid out like cluster %d, which has no wrapper, but the wrapper of template %d finds records", pc.Cluster, cl)
			default:
				pc.Reason = fmt.Sprintf("the wrapper of its layout cluster finds none (%s), but the wrapper of template %d finds records", ownReason, cl)
			}
		}
		a.log.Debug("wrapper applied", "page", pg.Name, "template", a.w.Templates[t].Cluster, "records", len(recs))
		return recs, pc, nil
	}
	switch {
	case errLayout:
		pc.Class, pc.Reason = ClassError, "same layout as the nonsense-word page, and no wrapper finds records on it"
	case pc.Cluster < 0:
		pc.Class = ClassUnmatched
		pc.Reason = fmt.Sprintf("laid out like no page of the run (%s), and no wrapper finds records on it", a.nearest(l))
	case own >= 0:
		pc.Class, pc.Reason = ClassEmpty, ownReason
	default:
		pc.Class, pc.Reason = ClassEmpty, fmt.Sprintf("laid out like cluster %d, which has no wrapper, and no wrapper finds records on it", pc.Cluster)
	}
	return nil, pc, nil
}

// nearest describes the cluster most similar to a page that joins none.
func (a *Applier) nearest(l *layoutSeq) string {
	best, sim := -1, -1.0
	for c, members := range a.layouts {
		if len(members) == 0 {
			continue
		}
		if v := layoutSimilarity(l.blocks, members[0].blocks); v > sim {
			best, sim = c, v
		}
	}
	if best < 0 {
		return "the wrapper holds no layout"
	}
	return fmt.Sprintf("best layout similarity %.2f with cluster %d, threshold %.2f", sim, best, a.threshold)
}

// ReadWrapper reads wrapper.json (WrapperFile) of a run directory. A missing file is
// reported with an error that wraps fs.ErrNotExist; a file that is not a wrapper with
// ErrBadWrapper. The wrapper is not checked against Apply's version: NewApplier does
// that.
func ReadWrapper(dir string) (*Wrapper, error) {
	path := filepath.Join(dir, WrapperFile)
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("records: %w", err)
	}
	var w Wrapper
	if err := json.Unmarshal(b, &w); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			line, col := lineCol(b, se.Offset-1) // Offset is past the bad byte
			return nil, fmt.Errorf("%w: %s:%d:%d: %v", ErrBadWrapper, path, line, col, err)
		}
		return nil, fmt.Errorf("%w: %s: %v", ErrBadWrapper, path, err)
	}
	return &w, nil
}

// lineCol converts a byte offset of b into the 1-based line and column of that byte.
func lineCol(b []byte, off int64) (int, int) {
	line, col := 1, 1
	for i := int64(0); i < off && i < int64(len(b)); i++ {
		if b[i] == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return line, col
}
