package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/trawl-dev/trawl/probe"
	"github.com/trawl-dev/trawl/records"
)

type articlesOptions struct {
	Feed         string // URL or file
	Format       string // json or text
	Method       string
	Signifiers   string
	TopK         int
	Max          int // items fetched at most (0 = all)
	Delay        time.Duration
	IgnoreRobots bool
	AnyOrigin    bool
}

const articlesLong = `Read an RSS 2.0 or Atom feed, fetch the page of each item and print its article as
JSON lines on stdout, one object per page:

  {"page": "http://…/2019/11/post/", "title": "…", "text": "First paragraph.\n\nSecond…",
   "xpath": "/html[1]/body[1]/…/div[2]", "method": "forest", "signifiers": "feed", …}

Each item's title and description are the signifiers of the page it links to (SIGFEED,
thesis ch. 2 §5); the pages of the feed are also compared with each other, so that the
text they share (the site's template) is left out. Pages are fetched with plain HTTP GET
as politely as 'trawl probe': robots.txt is honoured (--ignore-robots for your own
sites), requests to a host are spaced by --delay, and only the feed's own origin is
fetched unless --any-origin. --format text prints the texts alone, separated by a line
with a form feed.`

func newArticlesCommand(g *globalOptions) *cobra.Command {
	var o articlesOptions
	cmd := &cobra.Command{
		Use:   "articles FEED_URL|FILE",
		Short: "Fetch the pages of a feed and extract their articles",
		Long:  articlesLong,
		Args:  cobra.ExactArgs(1),
		Example: example(
			"trawl articles http://127.0.0.1:18086/?feed=rss2 --ignore-robots",
			"trawl articles feed.xml --format text --max 5"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Feed = args[0]
			return runArticles(cmd.Context(), *g, o, cmd.OutOrStdout())
		},
	}
	f := cmd.Flags()
	d := probe.DefaultFetchOptions()
	f.StringVar(&o.Format, "format", "json", "json (one object per page) or text")
	f.StringVar(&o.Method, "method", string(records.ArticleFOREST), "forest, or a baseline: webstemmer, contentextractor")
	f.StringVar(&o.Signifiers, "signifiers", string(records.ArticleSignifiersAuto), "auto, feed, tfidf or page")
	f.IntVar(&o.TopK, "top-k", 10, "tf-idf signifiers per page")
	f.IntVar(&o.Max, "max", 0, "fetch at most this many items (0 = all)")
	f.DurationVar(&o.Delay, "delay", d.Delay, "least time between two requests to a host")
	f.BoolVar(&o.IgnoreRobots, "ignore-robots", false, "do not read robots.txt (only for your own sites)")
	f.BoolVar(&o.AnyOrigin, "any-origin", false, "fetch item links of other origins than the feed's")
	return cmd
}

func runArticles(ctx context.Context, g globalOptions, o articlesOptions, stdout io.Writer) error {
	log := g.logger()
	if o.Format != "json" && o.Format != "text" {
		return usageError("trawl articles: --format must be json or text, got %q", o.Format)
	}
	if o.Max < 0 {
		return usageError("trawl articles: --max must be ≥ 0, got %d", o.Max)
	}
	ao := records.DefaultArticleOptions()
	ao.Method, ao.Signifiers, ao.TopK, ao.Logger = records.ArticleMethod(o.Method), records.ArticleSignifiers(o.Signifiers), o.TopK, log
	if err := ao.Validate(); err != nil {
		return usageError("trawl articles: %v", err)
	}
	fo := probe.DefaultFetchOptions()
	fo.Delay, fo.IgnoreRobots, fo.Logger = o.Delay, o.IgnoreRobots, log
	items, base, fetcher, err := loadFeed(ctx, o.Feed, fo, !o.AnyOrigin)
	if err != nil {
		return err
	}
	if o.Max > 0 && len(items) > o.Max {
		items = items[:o.Max]
	}
	var pages []records.ArticlePage
	var failed []string
	for _, it := range items {
		if err := ctx.Err(); err != nil {
			return err
		}
		link := it.Link
		if base == "" {
			if u, err := url.Parse(link); err != nil || !u.IsAbs() {
				failed = append(failed, fmt.Sprintf("%s: item %q: link %q is relative and the feed is a file", o.Feed, it.Title, link))
				continue
			}
		}
		body, final, err := fetcher.Get(ctx, link)
		if err != nil {
			failed = append(failed, err.Error())
			continue
		}
		pages = append(pages, records.ArticlePage{Name: link, URL: final, HTML: body,
			FeedTitle: it.Title, FeedDescription: it.Description})
	}
	for _, f := range failed {
		log.Warn("page not fetched", "reason", f)
	}
	if len(pages) == 0 {
		return fmt.Errorf("trawl articles: %s: no page could be fetched (%d failed; first: %s)", o.Feed, len(failed), firstOr(failed, "none"))
	}
	arts, err := records.ExtractArticles(ctx, pages, ao)
	if err != nil {
		return fmt.Errorf("trawl articles: %w", err)
	}
	for _, a := range arts {
		if a.Error != "" {
			failed = append(failed, a.Error)
		}
	}
	if err := writeArticles(stdout, arts, o.Format); err != nil {
		return fmt.Errorf("trawl articles: %w", err)
	}
	if len(failed) > 0 {
		return fmt.Errorf("trawl articles: %w: %d of %d item(s) failed, first: %s", errPartial, len(failed), len(items), failed[0])
	}
	return nil
}

func firstOr(s []string, def string) string {
	if len(s) == 0 {
		return def
	}
	return s[0]
}

// loadFeed reads a feed from a URL (fetched politely) or a file. It returns its items,
// the base URL of relative links ("" for a file) and the fetcher for the pages, held to
// the feed's origin when sameOrigin is set and the feed is a URL.
func loadFeed(ctx context.Context, src string, fo probe.FetchOptions, sameOrigin bool) ([]records.FeedItem, string, *probe.Fetcher, error) {
	var data []byte
	base := ""
	if u, err := url.Parse(src); err == nil && (u.Scheme == "http" || u.Scheme == "https") {
		if sameOrigin {
			fo.Origin = u.Scheme + "://" + u.Host
		}
		f, err := probe.NewFetcher(fo)
		if err != nil {
			return nil, "", nil, usageError("trawl: %v", err)
		}
		body, final, err := f.Get(ctx, src)
		if err != nil {
			return nil, "", nil, fmt.Errorf("trawl: feed: %w", err)
		}
		items, err := records.ParseFeed(src, body, final)
		return items, final, f, err
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return nil, "", nil, fmt.Errorf("trawl: feed: %w", err)
	}
	items, err := records.ParseFeed(src, data, "")
	if err != nil {
		return nil, "", nil, err
	}
	if sameOrigin && len(items) > 0 {
		if u, err := url.Parse(items[0].Link); err == nil && u.IsAbs() {
			fo.Origin = u.Scheme + "://" + u.Host
		}
	}
	f, err := probe.NewFetcher(fo)
	if err != nil {
		return nil, "", nil, usageError("trawl: %v", err)
	}
	return items, base, f, nil
}

// writeArticles prints articles as JSON lines, or their texts separated by a form feed
// line.
func writeArticles(w io.Writer, arts []records.Article, format string) error {
	if format == "text" {
		var b strings.Builder
		for i, a := range arts {
			if i > 0 {
				b.WriteString("\f\n")
			}
			b.WriteString(a.Text)
			b.WriteByte('\n')
		}
		_, err := io.WriteString(w, b.String())
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, a := range arts {
		if err := enc.Encode(a); err != nil {
			return err
		}
	}
	return nil
}
