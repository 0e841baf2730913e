package records

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"
)

// Article extraction: the main block of news and blog pages (thesis ch. 2: FOREST for
// articles, with signifiers from the page, from tf-idf over the pages of one site, or
// from the page's feed item as in SIGFEED), and the seeds' baselines for comparison
// (Webstemmer's layout clustering with template removal, Debnath et al.'s
// ContentExtractor). See article_*.go and docs/decisions/2026-11-25-articles-*.md.

// ArticlePage is one page given to ExtractArticles.
type ArticlePage struct {
	// Name identifies the page in the output (a file name or the URL).
	Name string
	// URL is the page's address; pages of one host form a site for the multi-page
	// methods. Optional.
	URL string
	// HTML is the page.
	HTML []byte
	// FeedTitle and FeedDescription are the title and description (HTML allowed) of the
	// feed item that links to the page, the signifiers of SignifiersFeed. Optional.
	FeedTitle, FeedDescription string
}

// ArticleSignifiers says where the signifiers of article mode come from.
type ArticleSignifiers string

const (
	// ArticleSignifiersAuto uses the feed item when the page has one, tf-idf over the
	// pages of the page's layout cluster when it has at least two, and the page itself
	// otherwise.
	ArticleSignifiersAuto ArticleSignifiers = "auto"
	// ArticleSignifiersPage takes the signifiers from the page alone: its title, meta
	// descriptions and h1 headings.
	ArticleSignifiersPage ArticleSignifiers = "page"
	// ArticleSignifiersTFIDF takes the top-k tf-idf terms of each page over the pages
	// of its layout cluster (FOREST's default), and removes the text blocks the pages of
	// the cluster share (the template).
	ArticleSignifiersTFIDF ArticleSignifiers = "tfidf"
	// ArticleSignifiersFeed takes the 3-grams of the feed item's title and description
	// (SIGFEED).
	ArticleSignifiersFeed ArticleSignifiers = "feed"
)

// ArticleMethod selects the extractor.
type ArticleMethod string

const (
	// ArticleFOREST is trawl's extractor: the block holding the body text and the
	// signifiers, with the boilerplate inside it removed.
	ArticleFOREST ArticleMethod = "forest"
	// ArticleWebstemmer is the Webstemmer baseline: layout clusters over the pages of a
	// site, blocks that vary between the pages of a cluster (diffscore) with enough
	// non-link text (mainscore) are the article.
	ArticleWebstemmer ArticleMethod = "webstemmer"
	// ArticleContentExtractor is Debnath et al.'s ContentExtractor: blocks that are
	// rare across the pages of a site (inverse block document frequency) are content.
	ArticleContentExtractor ArticleMethod = "contentextractor"
)

// ArticleOptions configures ExtractArticles. Start from DefaultArticleOptions.
type ArticleOptions struct {
	// Method is the extractor (ArticleFOREST by default).
	Method ArticleMethod
	// Signifiers is the signifier source of ArticleFOREST.
	Signifiers ArticleSignifiers
	// TopK is the number of tf-idf signifiers per page (10 in the thesis).
	TopK int
	// LayoutThreshold is the layout similarity at which a page joins a cluster of the
	// same site, in (0, 1].
	LayoutThreshold float64
	// MaxPageBytes bounds the size of one page; larger pages get an error.
	MaxPageBytes int
	// Logger receives diagnostics. Nil discards them.
	Logger *slog.Logger
}

// DefaultArticleOptions returns ArticleFOREST with automatic signifiers, k = 10.
func DefaultArticleOptions() ArticleOptions {
	return ArticleOptions{
		Method:          ArticleFOREST,
		Signifiers:      ArticleSignifiersAuto,
		TopK:            10,
		LayoutThreshold: 0.75,
		MaxPageBytes:    64 << 20,
	}
}

// Validate reports the first invalid field.
func (o ArticleOptions) Validate() error {
	bad := func(f string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrBadOptions, fmt.Sprintf(f, args...))
	}
	switch {
	case o.Method != ArticleFOREST && o.Method != ArticleWebstemmer && o.Method != ArticleContentExtractor:
		return bad("article Method must be forest, webstemmer or contentextractor, got %q", o.Method)
	case o.Signifiers != ArticleSignifiersAuto && o.Signifiers != ArticleSignifiersPage &&
		o.Signifiers != ArticleSignifiersTFIDF && o.Signifiers != ArticleSignifiersFeed:
		return bad("article Signifiers must be auto, page, tfidf or feed, got %q", o.Signifiers)
	case o.TopK < 1:
		return bad("TopK must be ≥ 1, got %d", o.TopK)
	case o.LayoutThreshold <= 0 || o.LayoutThreshold > 1:
		return bad("LayoutThreshold must be in (0,1], got %g", o.LayoutThreshold)
	case o.MaxPageBytes < 1:
		return bad("MaxPageBytes must be ≥ 1, got %d", o.MaxPageBytes)
	}
	return nil
}

// Article is the article found on one page.
type Article struct {
	// Page and URL are the page's name and address as given.
	Page string `json:"page"`
	URL  string `json:"url,omitempty"`
	// Title is the article's headline: the page's h1 that matches its title, else its
	// og:title or <title>.
	Title string `json:"title"`
	// Text is the article's body: paragraphs separated by a blank line.
	Text string `json:"text"`
	// XPath is the absolute XPath of the main block.
	XPath string `json:"xpath"`
	// Method and Signifiers say how the article was found; Terms are the signifiers
	// used (empty for the baselines).
	Method     ArticleMethod     `json:"method"`
	Signifiers ArticleSignifiers `json:"signifiers,omitempty"`
	Terms      []string          `json:"terms,omitempty"`
	// Cluster numbers the page's layout cluster among the pages given (multi-page
	// methods), from 0.
	Cluster int `json:"cluster"`
	// Error says why the page gave no article (unreadable, too large, no text).
	Error string `json:"error,omitempty"`
}

// ErrNoArticle marks a page with no text that could be an article.
var ErrNoArticle = errors.New("records: no article text found")

// ExtractArticles finds the article of every page. Pages of one host are a site: the
// multi-page signifiers and the baselines cluster them by layout and compare the pages
// of a cluster. A page that cannot be read or has no article gets an Article with Error
// set; the error returned is only for bad options or a cancelled context.
func ExtractArticles(ctx context.Context, pages []ArticlePage, o ArticleOptions) ([]Article, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	if len(pages) == 0 {
		return nil, ErrNoPages
	}
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	t0 := time.Now()
	out := make([]Article, len(pages))
	aps := make([]*articlePage, len(pages))
	for i, pg := range pages {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		out[i] = Article{Page: pg.Name, URL: pg.URL, Method: o.Method}
		if len(pg.HTML) > o.MaxPageBytes {
			out[i].Error = fmt.Sprintf("%s: page of %d bytes exceeds MaxPageBytes %d", pg.Name, len(pg.HTML), o.MaxPageBytes)
			continue
		}
		p, err := parsePage(pg.Name, pg.HTML, true)
		if err != nil {
			out[i].Error = err.Error()
			continue
		}
		aps[i] = newArticlePage(p)
		out[i].Title = aps[i].headline()
	}
	groups := siteGroups(pages, aps, o)
	for c, g := range groups {
		for _, i := range g {
			out[i].Cluster = c
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		switch o.Method {
		case ArticleWebstemmer:
			webstemmerArticles(g, aps, out)
		case ArticleContentExtractor:
			contentExtractorArticles(g, aps, out)
		default:
			forestArticles(g, pages, aps, out, o)
		}
	}
	for i := range out {
		if out[i].Error == "" && strings.TrimSpace(out[i].Text) == "" {
			out[i].Error = fmt.Sprintf("%s: %v", out[i].Page, ErrNoArticle)
		}
	}
	log.Debug("articles extracted", "pages", len(pages), "clusters", len(groups), "elapsed", time.Since(t0))
	return out, nil
}
