package records

import (
	"net/url"
	"strings"
)

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
	for _, i := range g {
		a := aps[i]
		out[i].Signifiers = ArticleSignifiersPage
		e := chooseBlock(a)
		if e < 0 {
			continue
		}
		out[i].XPath = absXPath(a.elems[e].n)
		out[i].Text = bodyText(a, bodyUnits(a, e))
	}
}
