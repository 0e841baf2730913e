package records

import (
	"net/url"
	"slices"
	"strings"

	"github.com/trawl-dev/trawl/internal/textnorm"
)

// strongTerms returns the distinct tokens that are not weak, in order.
func strongTerms(toks []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, t := range toks {
		if !weakToken(t) && !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}

// sortedKeys returns the keys of m, sorted.
func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// siteGroups groups the readable pages by host, then by layout within a host
// (Webstemmer's clustering, layout.go), and numbers the clusters in out.
func siteGroups(pages []ArticlePage, aps []*articlePage, o ArticleOptions) [][]int {
	byHost := map[string][]int{}
	var hosts []string
	for i, pg := range pages {
		if aps[i] == nil {
			continue
		}
		h := hostOf(pg.URL)
		if _, ok := byHost[h]; !ok {
			hosts = append(hosts, h)
		}
		byHost[h] = append(byHost[h], i)
	}
	var groups [][]int
	for _, h := range hosts {
		idx := byHost[h]
		if len(idx) == 1 {
			groups = append(groups, idx)
			continue
		}
		seqs := make([][]block, len(idx))
		for k, i := range idx {
			seqs[k] = layoutBlocks(aps[i].page)
		}
		cl := clusterLayouts(seqs, o.LayoutThreshold)
		first := len(groups)
		for k, c := range cl {
			for len(groups) <= first+c {
				groups = append(groups, nil)
			}
			groups[first+c] = append(groups[first+c], idx[k])
		}
	}
	return groups
}

// hostOf returns the host of a URL without "www.", or "" when it has none.
func hostOf(u string) string {
	pu, err := url.Parse(u)
	if err != nil {
		return ""
	}
	return strings.TrimPrefix(strings.ToLower(pu.Hostname()), "www.")
}

// forestArticles extracts the articles of one layout cluster with trawl's extractor.
func forestArticles(g []int, pages []ArticlePage, aps []*articlePage, out []Article, o ArticleOptions) {
	multi := len(g) >= 2 && (o.Signifiers == ArticleSignifiersAuto || o.Signifiers == ArticleSignifiersTFIDF)
	var tfidf [][]string
	if multi {
		cl := make([]*articlePage, len(g))
		for k, i := range g {
			cl[k] = aps[i]
		}
		markTemplate(cl)
		tfidf = tfidfSignifiers(cl, o.TopK)
	}
	for k, i := range g {
		a := aps[i]
		feed := pages[i].FeedTitle != "" || pages[i].FeedDescription != ""
		switch {
		case feed && (o.Signifiers == ArticleSignifiersAuto || o.Signifiers == ArticleSignifiersFeed):
			out[i].Signifiers = ArticleSignifiersFeed
			grams := feedGrams(pages[i].FeedTitle, pages[i].FeedDescription)
			if a.weighGrams(grams) == 0 {
				// SIGFEED's fallback: keywords instead of 3-grams
				kw := append(textnorm.Tokens(pages[i].FeedTitle), textnorm.Tokens(stripHTML(pages[i].FeedDescription))...)
				a.weighTerms(strongTerms(kw))
			}
			out[i].Terms = sortedKeys(grams)
		case multi:
			out[i].Signifiers = ArticleSignifiersTFIDF
			out[i].Terms = tfidf[k]
			a.weighTerms(tfidf[k])
		default:
			out[i].Signifiers = ArticleSignifiersPage
			out[i].Terms = a.pageSignifiers()
			a.weighTerms(out[i].Terms)
		}
		e := chooseBlock(a)
		if e < 0 {
			continue
		}
		out[i].XPath = absXPath(a.elems[e].n)
		out[i].Text = bodyText(a, bodyUnits(a, e))
	}
}
