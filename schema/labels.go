package schema

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/trawl-dev/trawl/internal/rundir"
	"github.com/trawl-dev/trawl/internal/textnorm"
)

// assemble turns the candidates into the schema's features (ordered by position) and
// its list of dropped candidates.
func (s *Schema) assemble(cands []*cand, rs []rec, o Options) {
	slices.SortStableFunc(cands, func(a, b *cand) int { return cmp.Compare(a.pos, b.pos) })
	// A leaf location is volatile (ignored by record identity) when a part of it is the
	// rank or an echo of the query and no part of it is an attribute.
	type loc struct {
		path string
		nth  int
	}
	kept, volatile := map[loc]bool{}, map[loc]bool{}
	for _, c := range cands {
		for _, l := range c.locs {
			if l.Attr != "" {
				continue
			}
			switch c.dropped {
			case "":
				kept[loc{l.Path, l.Nth}] = true
			case DropRank, DropPageConstant:
				volatile[loc{l.Path, l.Nth}] = true
			}
		}
	}
	for _, c := range cands {
		for _, l := range c.locs {
			k := loc{l.Path, l.Nth}
			if l.Attr == "" && (volatile[k] && !kept[k] || c.perQuery && c.dropped == "") {
				s.Volatile = append(s.Volatile, l)
				delete(volatile, k)
			}
		}
	}
	titled := false
	for _, c := range cands {
		if c.dropped == "merged" {
			continue
		}
		counts := map[string]int{}
		spelling := map[string]map[string]int{}
		first := map[string]int{}
		pages := map[string]bool{}
		for ri, v := range c.vals {
			if len(v) > 0 {
				pages[rs[ri].page] = true
			}
			for _, x := range v {
				k := norm(x)
				if k == "" {
					k = x
				}
				if _, ok := first[k]; !ok {
					first[k] = len(first)
				}
				counts[k]++
				if spelling[k] == nil {
					spelling[k] = map[string]int{}
				}
				spelling[k][x]++
			}
		}
		keys := make([]string, 0, len(counts))
		for k := range counts {
			keys = append(keys, k)
		}
		slices.SortFunc(keys, func(a, b string) int {
			if counts[a] != counts[b] {
				return counts[b] - counts[a]
			}
			return first[a] - first[b]
		})
		nSamples := o.Samples
		if c.dropped != "" {
			nSamples = min(nSamples, 3)
		}
		samples := []string{}
		for _, k := range keys[:min(nSamples, len(keys))] {
			samples = append(samples, sortedCounts(spelling[k])[0].key)
		}
		if c.dropped != "" {
			s.Dropped = append(s.Dropped, Dropped{Key: c.key(), Reason: c.dropped, Records: c.records(), Samples: samples})
			continue
		}
		kind := KindText
		if a := c.locs[0].Attr; a == "href" || a == "src" {
			kind = KindLink
		}
		if d := s.derivedLabel(c, kind, rs, &titled); d != "" {
			c.labels = append(c.labels, Label{Text: d, Source: LabelDerived})
		}
		s.Features = append(s.Features, Feature{
			Kind:      kind,
			Key:       c.key(),
			Labels:    c.labels,
			Locations: c.locs,
			Split:     c.split,
			Type:      c.typ,
			TypeShare: round3(c.tshare),
			Currency:  c.cur,
			DateOrder: c.dord,
			Multi:     c.multi,
			PerQuery:  c.perQuery,
			Records:   c.records(),
			Distinct:  len(counts),
			Pages:     len(pages),
			Samples:   samples,
			Position:  round3(c.pos),
		})
	}
}

func round3(x float64) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', 3, 64), 64)
	return v
}

// labelRank orders label sources: a table header is the page's own name for a column,
// a prefix is the record's own, a form field's label is an inference, and a derived
// label (from the values' type and the feature's place in the record) a description
// made when the page and the form give none.
var labelRank = map[string]int{"header": 0, "prefix": 1, "field": 2, LabelSort: 3, LabelDerived: 4}

// LabelDerived is the source of a label derived from a feature's values and place.
const LabelDerived = "derived"

// finalize chooses each feature's label and gives every feature a unique name.
func (s *Schema) finalize() {
	s.deriveLabels()
	used := map[string]int{}
	names := map[string]string{} // key → name
	for i := range s.Features {
		f := &s.Features[i]
		f.Labels = mergeLabels(f.Labels)
		f.Label, f.LabelSource = "", ""
		if len(f.Labels) > 0 {
			f.Label, f.LabelSource = f.Labels[0].Text, f.Labels[0].Source
		}
		name := ""
		if f.LabelSource != LabelDerived {
			name = slug(f.Label)
		}
		if name == "" && f.Locations[0].Attr != "" {
			// A link or image of a labelled text leaf: "title-href", "Title link".
			if base, label := s.textName(f.Locations[0]); base != "" {
				name = base + "-" + f.Locations[0].Attr
				if f.LabelSource == LabelDerived {
					f.Label = label + " " + strings.ToLower(f.Label)
					f.Labels[0].Text = f.Label
				}
			}
		}
		if name == "" {
			name = pathName(f.Locations[0], f.Split)
		}
		used[name]++
		if used[name] > 1 {
			name = fmt.Sprintf("%s-%d", name, used[name])
		}
		f.Name = name
		names[f.Key] = name
	}
	// Mappings and trials are recorded with feature keys; they name features by name.
	for i := range s.Mapping {
		if n, ok := names[s.Mapping[i].Feature]; ok {
			s.Mapping[i].Feature = n
		}
	}
	for i := range s.Trials {
		t := &s.Trials[i]
		if n, ok := names[t.Feature]; ok {
			t.Feature = n
		}
		t.Holding, t.Having = renameKeys(t.Holding, names), renameKeys(t.Having, names)
	}
}

// derivedLabel describes a kept feature from its values and its place in the record,
// for when the page and the form name it not: the text of the record's first link
// whose values tell the records apart (or its first segment) is its "Title"; text read whole around
// highlighted query terms a "Snippet"; otherwise the value type ("Date", "Year",
// "Number", "Price", "ISBN", "Code", "URL") or "Text". The URL of a link is a
// "Link", of an image an "Image". deriveLabels numbers equal descriptions by position.
func (s *Schema) derivedLabel(c *cand, kind string, rs []rec, titled *bool) string {
	if c.dropped != "" {
		return ""
	}
	l := c.locs[0]
	switch l.Attr {
	case "href":
		return "Link"
	case "src":
		return "Image"
	case "alt":
		return "Image text"
	}
	for _, j := range s.Joins {
		if l.Path == j.Path {
			return "Snippet"
		}
	}
	switch c.typ {
	case TypeDate:
		return "Date"
	case TypeYear:
		return "Year"
	case TypeInteger, TypeDecimal:
		return "Number"
	case TypePrice:
		return "Price"
	case TypeISBN:
		return "ISBN"
	case TypeIdentifier:
		return "Code"
	case TypeURL:
		return "URL"
	}
	if !*titled && !prose(c.vals) && (len(c.split) == 0 || c.split[len(c.split)-1].Segment == "^") && linked(c, rs) {
		*titled = true
		return "Title"
	}
	return "Text"
}

// linked reports whether the candidate's text sits in a link in (almost) every record
// that has it, and its values mostly differ between the records of a page: the
// headline of a result.
func linked(c *cand, rs []rec) bool {
	n, inLink := 0, 0
	perPage := map[string]map[string]int{}
	for ri := range rs {
		if len(c.vals[ri]) == 0 {
			continue
		}
		n++
		if perPage[rs[ri].page] == nil {
			perPage[rs[ri].page] = map[string]int{}
		}
		perPage[rs[ri].page][norm(c.vals[ri][0])]++
		for _, lc := range c.locs {
			found := false
			for li := range rs[ri].leaves {
				lf := &rs[ri].leaves[li]
				if lf.path == lc.Path && (lc.Nth == 0 || lf.nth == lc.Nth) && lf.text != "" {
					found = lf.href != ""
					break
				}
			}
			if found {
				inLink++
				break
			}
		}
	}
	unique := 0
	for _, vals := range perPage {
		for _, k := range vals {
			if k == 1 {
				unique++
			}
		}
	}
	return n > 0 && float64(inLink) >= 0.9*float64(n) && float64(unique) >= 0.5*float64(n)
}

// deriveLabels numbers the derived labels that several features share, in the order
// of the features ("Text 1", "Text 2"), so that each description names one feature.
func (s *Schema) deriveLabels() {
	chosen := func(f *Feature) (string, bool) {
		ls := mergeLabels(f.Labels)
		if len(ls) == 0 || ls[0].Source != LabelDerived {
			return "", false
		}
		if l := f.Locations[0]; l.Attr != "" && s.hasText(l) {
			return "", false // named after its text by finalize: "Title link"
		}
		return ls[0].Text, true
	}
	count := map[string]int{}
	for i := range s.Features {
		if d, ok := chosen(&s.Features[i]); ok {
			count[d]++
		}
	}
	seen := map[string]int{}
	for i := range s.Features {
		f := &s.Features[i]
		d, ok := chosen(f)
		if !ok || count[d] < 2 {
			continue
		}
		seen[d]++
		for k := range f.Labels {
			if f.Labels[k].Source == LabelDerived {
				f.Labels[k].Text = fmt.Sprintf("%s %d", d, seen[d])
			}
		}
	}
}

// hasText reports whether a text feature reads the leaf of the attribute location l.
func (s *Schema) hasText(l Location) bool {
	for _, f := range s.Features {
		for _, fl := range f.Locations {
			if fl.Path == l.Path && fl.Nth == l.Nth && fl.Attr == "" {
				return true
			}
		}
	}
	return false
}

// renameKeys returns m with its feature keys replaced by the features' names.
func renameKeys(m map[string]int, names map[string]string) map[string]int {
	if len(m) == 0 {
		return m
	}
	out := make(map[string]int, len(m))
	for k, v := range m {
		if n, ok := names[k]; ok {
			k = n
		}
		out[k] = v
	}
	return out
}

// textName returns the label-based name and the label of the first labelled text
// feature read from the same leaf as the attribute location l.
func (s *Schema) textName(l Location) (string, string) {
	for _, f := range s.Features {
		for _, fl := range f.Locations {
			if fl.Path == l.Path && fl.Nth == l.Nth && fl.Attr == "" {
				ls := mergeLabels(f.Labels)
				switch {
				case len(ls) == 0:
				case ls[0].Source != LabelDerived:
					return slug(ls[0].Text), ls[0].Text
				default:
					return f.Name, ls[0].Text
				}
			}
		}
	}
	return "", ""
}

// mergeLabels sums the support of equal labels from one source and orders them: by
// source rank, then support, then text.
func mergeLabels(ls []Label) []Label {
	type k struct{ text, src string }
	sum := map[k]int{}
	for _, l := range ls {
		t := CleanLabel(l.Text)
		if t == "" {
			continue
		}
		sum[k{t, l.Source}] += l.Support
	}
	out := make([]Label, 0, len(sum))
	for key, n := range sum {
		out = append(out, Label{Text: key.text, Source: key.src, Support: n})
	}
	slices.SortFunc(out, func(a, b Label) int {
		if c := cmp.Compare(labelRank[a.Source], labelRank[b.Source]); c != 0 {
			return c
		}
		if a.Support != b.Support {
			return b.Support - a.Support
		}
		return strings.Compare(a.Text, b.Text)
	})
	return out
}

// slug turns a label into a name: folded, runs of anything but letters and digits
// turned into '-', at most 48 bytes.
func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range textnorm.Fold(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
			continue
		}
		dash = true
	}
	out := b.String()
	if len(out) > 48 {
		out = strings.TrimRight(out[:48], "-")
	}
	return out
}

// pathName names a feature from its location: the class of the deepest step that has
// one ("span.first-line" → "first-line"), else the last two element names, plus the
// occurrence, the attribute and the split segments.
func pathName(l Location, split []SplitStep) string {
	steps := strings.Split(l.Path, "/")
	base := ""
	for i := len(steps) - 1; i >= 0 && base == ""; i-- {
		if j := strings.IndexByte(steps[i], '.'); j >= 0 {
			cls := steps[i][j+1:]
			if k := strings.IndexAny(cls, "[.#"); k >= 0 {
				cls = cls[:k]
			}
			base = slug(cls)
		}
	}
	if base == "" {
		from := max(0, len(steps)-2)
		base = slug(strings.Join(steps[from:], " "))
	}
	if base == "" {
		base = "value"
	}
	parts := []string{base}
	if l.Nth > 1 {
		parts = append(parts, strconv.Itoa(l.Nth))
	}
	if l.Attr != "" {
		parts = append(parts, l.Attr)
	}
	for k, st := range split {
		switch {
		case st.Segment == "^", st.Segment == SegmentList:
		case strings.HasPrefix(st.Segment, "sep:"):
			p := slug(strings.TrimPrefix(st.Segment, "sep:"))
			if p == "" {
				p = fmt.Sprintf("part%d", markerIndex(st)+2)
			}
			parts = append(parts, p)
		case strings.HasPrefix(st.Segment, "atom:"):
			parts = append(parts, strings.TrimPrefix(st.Segment, "atom:"))
		case strings.HasPrefix(st.Segment, "post:"):
			parts = append(parts, "after-"+strings.TrimPrefix(st.Segment, "post:"))
		default:
			parts = append(parts, fmt.Sprintf("seg%d", k+1))
		}
	}
	return strings.Join(parts, "-")
}

func markerIndex(st SplitStep) int {
	for i, m := range st.Markers {
		if "sep:"+m.Sep == st.Segment {
			return i
		}
	}
	return 0
}

// sourceOf describes the source: the form and a summary of the probes.
func sourceOf(form *rundir.Form, probes []rundir.Probe, rs []rec) Source {
	var src Source
	if form != nil {
		src.PageURL, src.Action, src.Method = form.PageURL, form.Action, strings.ToUpper(form.Method)
		for _, f := range form.Fields {
			if f.Submit || f.Name == "" {
				continue
			}
			lbl, _ := Clean(f.Label)
			src.Fields = append(src.Fields, FieldInfo{Name: f.Name, Type: f.Type, Label: lbl})
		}
	}
	perProbe := map[int]int{}
	for i := range rs {
		if rs[i].probe != 0 {
			perProbe[rs[i].probe]++
		}
	}
	for _, p := range probes {
		pi := ProbeInfo{N: p.N, Kind: p.Kind, Assignment: p.Assignment, URL: p.URL, Started: p.Started.UTC(), Duration: p.Duration, Records: perProbe[p.N]}
		for _, pg := range p.Pages {
			if pg.URL != "" {
				pi.Pages = append(pi.Pages, pg.URL)
			}
			if pg.File != "" {
				pi.Files = append(pi.Files, pg.File)
			}
		}
		src.Probes = append(src.Probes, pi)
	}
	slices.SortStableFunc(src.Probes, func(a, b ProbeInfo) int { return cmp.Compare(a.N, b.N) })
	src.ID = SourceID(src.Method, src.Action, src.PageURL)
	if src.ID == "" && len(probes) > 0 {
		src.ID = SourceID("GET", probes[0].URL, "")
	}
	return src
}

// SourceID derives a stable identifier of a source from its form: the host (with the
// port), the path of the action URL and the first 8 hex digits of SHA-256 over the
// method and the action URL without query and fragment. Two runs over the same form
// get the same ID; forms that submit to the same backend URL share it. It returns ""
// when neither action nor page URL is a usable URL.
func SourceID(method, action, pageURL string) string {
	raw := action
	if raw == "" {
		raw = pageURL
	}
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" {
		return ""
	}
	u.RawQuery, u.Fragment, u.RawFragment = "", "", ""
	if method == "" {
		method = "GET"
	}
	sum := sha256.Sum256([]byte(strings.ToUpper(method) + " " + u.String()))
	name := slug(u.Host + " " + u.Path)
	if len(name) > 40 {
		name = strings.TrimRight(name[:40], "-")
	}
	return name + "-" + hex.EncodeToString(sum[:4])
}
