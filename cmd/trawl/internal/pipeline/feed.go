package pipeline

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"

	"github.com/trawl-dev/trawl/probe"
	"github.com/trawl-dev/trawl/records"
)

// ErrBadOptions marks options that cannot be used (a negative delay, …).
var ErrBadOptions = errors.New("invalid options")

// LoadFeed reads a feed from a URL (fetched politely) or a file. It returns its items,
// the base URL of relative links ("" for a file) and the fetcher for the pages, held to
// the feed's origin when sameOrigin is set and the feed is a URL.
func LoadFeed(ctx context.Context, src string, fo probe.FetchOptions, sameOrigin bool) ([]records.FeedItem, string, *probe.Fetcher, error) {
	var data []byte
	base := ""
	if u, err := url.Parse(src); err == nil && (u.Scheme == "http" || u.Scheme == "https") {
		if sameOrigin {
			fo.Origin = u.Scheme + "://" + u.Host
		}
		f, err := probe.NewFetcher(fo)
		if err != nil {
			return nil, "", nil, fmt.Errorf("%w: %w", ErrBadOptions, err)
		}
		body, final, err := f.Get(ctx, src)
		if err != nil {
			return nil, "", nil, fmt.Errorf("feed: %w", err)
		}
		items, err := records.ParseFeed(src, body, final)
		return items, final, f, err
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return nil, "", nil, fmt.Errorf("feed: %w", err)
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
		return nil, "", nil, fmt.Errorf("%w: %w", ErrBadOptions, err)
	}
	return items, base, f, nil
}

// FetchFeedPages fetches the pages the feed's items link to, as article pages whose
// signifiers are their item's title and description. base is the feed's URL ("" for a
// feed read from a file, whose relative links cannot be fetched). Pages that cannot be
// fetched are left out and named in failed.
func FetchFeedPages(ctx context.Context, feed string, items []records.FeedItem, base string, fetcher *probe.Fetcher) (pages []records.ArticlePage, failed []string, err error) {
	for _, it := range items {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		link := it.Link
		if base == "" {
			if u, err := url.Parse(link); err != nil || !u.IsAbs() {
				failed = append(failed, fmt.Sprintf("%s: item %q: link %q is relative and the feed is a file", feed, it.Title, link))
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
	return pages, failed, nil
}
