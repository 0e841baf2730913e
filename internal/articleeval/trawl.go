package articleeval

import (
	"context"
	"fmt"
	"time"

	"github.com/trawl-dev/trawl/records"
)

// TrawlSingle is trawl's article extractor run page by page, with signifiers from the
// page alone (title, meta descriptions, h1).
func TrawlSingle(failures *[]string) Extractor {
	single := func(c Case) (string, error) {
		o := records.DefaultArticleOptions()
		o.Signifiers = records.ArticleSignifiersPage
		arts, err := records.ExtractArticles(context.Background(), []records.ArticlePage{{Name: c.ID, URL: c.URL, HTML: c.HTML}}, o)
		if err != nil {
			return "", err
		}
		if arts[0].Error != "" {
			return arts[0].Text, fmt.Errorf("%s", arts[0].Error)
		}
		return arts[0].Text, nil
	}
	return Extractor{Name: "trawl forest", Settings: "single page, page signifiers", Run: PerPage(single, failures)}
}

// TrawlSite runs one of trawl's article methods over all pages at once, so that the
// pages of one site (host) are clustered by layout and compared: tf-idf signifiers and
// template removal for ArticleFOREST, or a baseline.
func TrawlSite(method records.ArticleMethod, sig records.ArticleSignifiers, settings string) Extractor {
	return Extractor{Name: "trawl " + string(method), Settings: settings,
		Run: func(ctx context.Context, cases []Case) ([]string, []time.Duration, error) {
			pages := make([]records.ArticlePage, len(cases))
			for i, c := range cases {
				pages[i] = records.ArticlePage{Name: c.ID, URL: c.URL, HTML: c.HTML}
			}
			o := records.DefaultArticleOptions()
			o.Method, o.Signifiers = method, sig
			arts, err := records.ExtractArticles(ctx, pages, o)
			if err != nil {
				return nil, nil, err
			}
			texts := make([]string, len(arts))
			for i, a := range arts {
				texts[i] = a.Text
			}
			return texts, nil, nil
		}}
}

// TrawlExtractors are trawl's methods as the benchmark compares them.
func TrawlExtractors(failures *[]string) []Extractor {
	return []Extractor{
		TrawlSingle(failures),
		TrawlSite(records.ArticleFOREST, records.ArticleSignifiersTFIDF, "pages of a site, tf-idf signifiers"),
		TrawlSite(records.ArticleWebstemmer, records.ArticleSignifiersAuto, "baseline: layout clusters, diffscore"),
		TrawlSite(records.ArticleContentExtractor, records.ArticleSignifiersAuto, "baseline: block IBDF over a site"),
	}
}
