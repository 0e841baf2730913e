package report

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/trawl-dev/trawl/align"
	"github.com/trawl-dev/trawl/graph"
	"github.com/trawl-dev/trawl/internal/rundir"
)

// The alignment section: the record class, the relations, the instance links.

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
			v.Classes = append(v.Classes, b.classRow(c))
		}
		for _, ru := range u.Relations {
			v.Relations = append(v.Relations, b.relRow(ru))
		}
	} else if d.alignRun != nil || d.alignment != nil {
		v.FromRun = true
		b.relationsFromRun(&v)
	}
	if d.links != nil {
		v.LinksFile, v.LinksFileKnown = len(d.links), true
	}
	if d.alignment != nil {
		b.linkRows(&v)
	}
	return v
}

// classRow shows the record class and the KB classes it aligned to.
func (b *builder) classRow(c align.ClassUnderstanding) classRow {
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
	return r
}

// relRow shows a feature's predicate and the KB relation or join it aligned to, with the
// best super- and subrelations.
func (b *builder) relRow(ru align.RelationUnderstanding) relRow {
	name, label := b.featureOf(ru.Relation)
	r := relRow{Feature: name, Label: label, Predicate: b.nm.short(ru.Relation), Status: ru.Status,
		Matched: ru.Matched, LinkedRecords: ru.LinkedRecords}
	if ru.Label != "" && r.Label == "" {
		r.Label = ru.Label
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
	scores := func(ss []align.RelationScore) []kv {
		var out []kv
		for i, sc := range ss {
			if i == 4 {
				break
			}
			out = append(out, kv{b.nm.shortPath(sc.Relation), fmt.Sprintf("%s, n %.1f", conf(sc.Confidence), sc.N)})
		}
		return out
	}
	r.Super, r.Sub = scores(ru.Super), scores(ru.Sub)
	return r
}

// linkRows lists the instance pairs of alignment.tsv, best first, those in links.nt (or
// above the threshold) marked.
func (b *builder) linkRows(v *alignView) {
	d := b.d
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
