package records

import (
	"math"
	"slices"
	"strings"
)

// The seeds' baselines for article extraction, over the pages of one layout cluster of
// one site. Both use the text units of article mode as their blocks, and both need
// several pages: a page alone in its cluster gets no text (the methods compare pages;
// they have nothing to compare it with).
//
// Webstemmer (Y. Shinyama, "Webstemmer – How it works?", orangain/webstemmer v0.6.1;
// ../shared/notes/forest.md §10.1): a block's feature is the last three steps of its
// owner's path (tag and tolerant id and class); the blocks of one feature on a page are
// joined. For every feature, diffscore = Σ(len₀ + len₁ − 2·matched) / Σ(len₀ + len₁)
// over the pairs of pages of the cluster holding it (0 = the same text everywhere: the
// template); matched counts the characters of the words two texts share. mainscore =
// diffscore × the mean non-link characters. A feature whose diffscore ≥ 0.5 (-T) and
// mainscore ≥ 50 (-M), extract.py's defaults, is the article's. Simplifications: the
// blocks of a feature are aligned by feature, not by the layout LCS, and matched is a
// word-multiset overlap rather than a character diff.
//
// ContentExtractor (S. Debnath, P. Mitra, N. Pal, C. L. Giles, "Automatic
// Identification of Informative Sections of Web Pages", IEEE TKDE 17(9), 2005;
// forest.md §10.2): two blocks are the same when the cosine of their feature vectors (term
// counts, plus counts of link words) exceeds ε = 0.9; a block is content when the pages
// holding a block the same as it are at most θ = 10 % of the pages it was compared with
// (the inverse block document frequency is high). Each page is compared with at most
// ceSamplePages other pages of its cluster ("very few (5–10) pages from same class are
// enough", §5).

const (
	wsDiffMin     = 0.5
	wsMainMin     = 50
	ceEpsilon     = 0.9
	ceTheta       = 0.1
	ceSamplePages = 10
)

// unitFeature is Webstemmer's block feature of a unit: the last three steps of its
// owner's path, each the tag with the tolerant id and class.
func unitFeature(a *articlePage, u *unit) string {
	var steps []string
	for e, k := u.owner, 0; e >= 0 && k < 3; e, k = a.elems[e].parent, k+1 {
		n := a.elems[e].n
		s := n.Data
		for _, key := range []string{"id", "class"} {
			if v := tolerantForm(attr(n, key)); v != "" {
				s += ":" + key + "=" + strings.ToLower(v)
			}
		}
		steps = append(steps, s)
	}
	slices.Reverse(steps)
	return strings.Join(steps, "/")
}

// webstemmerArticles is the Webstemmer baseline on one cluster.
func webstemmerArticles(g []int, aps []*articlePage, out []Article) {
	if len(g) < 2 {
		return
	}
	type feat struct {
		text  map[string]int // word multiset
		chars int            // significant characters
		plain int            // non-link significant characters
	}
	perPage := make([]map[string]*feat, len(g))
	for k, i := range g {
		a := aps[i]
		perPage[k] = map[string]*feat{}
		for ui := range a.units {
			u := &a.units[ui]
			f := unitFeature(a, u)
			ft := perPage[k][f]
			if ft == nil {
				ft = &feat{text: map[string]int{}}
				perPage[k][f] = ft
			}
			c := 0
			for _, t := range a.unitTokens()[ui] {
				ft.text[t]++
				c += len(t)
			}
			ft.chars += c
			if u.words > 0 {
				ft.plain += c * (u.words - u.links) / u.words
			}
		}
	}
	diff := map[string]float64{}
	den := map[string]float64{}
	plain := map[string]float64{}
	pages := map[string]int{}
	for k := range perPage {
		for f, ft := range perPage[k] {
			plain[f] += float64(ft.plain)
			pages[f]++
			for k2 := k + 1; k2 < len(perPage); k2++ {
				o := perPage[k2][f]
				if o == nil {
					continue
				}
				m := 0
				for t, c := range ft.text {
					m += min(c, o.text[t]) * len(t)
				}
				diff[f] += float64(ft.chars + o.chars - 2*m)
				den[f] += float64(ft.chars + o.chars)
			}
		}
	}
	main := map[string]bool{}
	for f, d := range den {
		if d == 0 {
			continue
		}
		ds := diff[f] / d
		if ds >= wsDiffMin && ds*plain[f]/float64(pages[f]) >= wsMainMin {
			main[f] = true
		}
	}
	for _, i := range g {
		a := aps[i]
		var keep []int
		for ui := range a.units {
			if main[unitFeature(a, &a.units[ui])] {
				keep = append(keep, ui)
			}
		}
		setBaselineArticle(a, keep, &out[i])
	}
}

// ceVector is a block's feature vector: sorted term ids with counts, and its norm.
type ceVector struct {
	ids    []int32
	counts []float64
	norm   float64
}

// contentExtractorArticles is Debnath et al.'s ContentExtractor on one cluster.
func contentExtractorArticles(g []int, aps []*articlePage, out []Article) {
	if len(g) < 2 {
		return
	}
	dict := map[string]int32{}
	const linkID = 0
	dict["\x00links"] = linkID
	vecs := make([][]ceVector, len(g))
	for k, i := range g {
		a := aps[i]
		vecs[k] = make([]ceVector, len(a.units))
		for ui, toks := range a.unitTokens() {
			m := map[int32]float64{}
			for _, t := range toks {
				id, ok := dict[t]
				if !ok {
					id = int32(len(dict))
					dict[t] = id
				}
				m[id]++
			}
			if l := a.units[ui].links; l > 0 {
				m[linkID] = float64(l)
			}
			v := ceVector{}
			for id := range m {
				v.ids = append(v.ids, id)
			}
			slices.Sort(v.ids)
			for _, id := range v.ids {
				v.counts = append(v.counts, m[id])
				v.norm += m[id] * m[id]
			}
			v.norm = math.Sqrt(v.norm)
			vecs[k][ui] = v
		}
	}
	for k, i := range g {
		a := aps[i]
		// the other pages compared: the nearest ones in input order
		var others []int
		for d := 1; len(others) < ceSamplePages && (k-d >= 0 || k+d < len(g)); d++ {
			if k-d >= 0 {
				others = append(others, k-d)
			}
			if k+d < len(g) && len(others) < ceSamplePages {
				others = append(others, k+d)
			}
		}
		limit := int(math.Floor(ceTheta * float64(len(others))))
		var keep []int
		for ui := range a.units {
			v := &vecs[k][ui]
			if v.norm == 0 {
				continue
			}
			same := 0
			for _, o := range others {
				for oi := range vecs[o] {
					if cosine(v, &vecs[o][oi]) > ceEpsilon {
						same++
						break
					}
				}
				if same > limit {
					break
				}
			}
			if same <= limit {
				keep = append(keep, ui)
			}
		}
		setBaselineArticle(a, keep, &out[i])
	}
}

// cosine returns the cosine of two sparse vectors.
func cosine(a, b *ceVector) float64 {
	if a.norm == 0 || b.norm == 0 {
		return 0
	}
	var dot float64
	for i, j := 0, 0; i < len(a.ids) && j < len(b.ids); {
		switch {
		case a.ids[i] == b.ids[j]:
			dot += a.counts[i] * b.counts[j]
			i++
			j++
		case a.ids[i] < b.ids[j]:
			i++
		default:
			j++
		}
	}
	return dot / (a.norm * b.norm)
}

// setBaselineArticle writes the kept units of a baseline as the article, with the
// lowest common ancestor of their owners as its block.
func setBaselineArticle(a *articlePage, keep []int, art *Article) {
	if len(keep) == 0 {
		return
	}
	lca := a.units[keep[0]].owner
	for _, ui := range keep[1:] {
		o := a.units[ui].owner
		for lca >= 0 && lca != o && !a.isAncestor(lca, o) {
			lca = a.elems[lca].parent
		}
	}
	if lca >= 0 {
		art.XPath = absXPath(a.elems[lca].n)
	}
	art.Text = bodyText(a, keep)
}
