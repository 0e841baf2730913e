package records

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
	"golang.org/x/net/html/charset"
)

// FeedItem is one item of an RSS 2.0 or Atom feed: the page it links to and the
// signifiers of that page (SIGFEED, thesis ch. 2 §5).
type FeedItem struct {
	Title       string `json:"title"`
	Description string `json:"description,omitempty"` // HTML allowed
	Link        string `json:"link"`                  // absolute
	Published   string `json:"published,omitempty"`
}

// ErrBadFeed marks input that is not an RSS 2.0 or Atom feed.
var ErrBadFeed = errors.New("records: not an RSS or Atom feed")

type rssDoc struct {
	XMLName xml.Name `xml:"rss"`
	Channel struct {
		Items []struct {
			Title       string `xml:"title"`
			Description string `xml:"description"`
			Link        string `xml:"link"`
			GUID        string `xml:"guid"`
			PubDate     string `xml:"pubDate"`
		} `xml:"item"`
	} `xml:"channel"`
}

type atomDoc struct {
	XMLName xml.Name `xml:"http://www.w3.org/2005/Atom feed"`
	Entries []struct {
		Title   string `xml:"title"`
		Summary string `xml:"summary"`
		Content string `xml:"content"`
		Links   []struct {
			Rel  string `xml:"rel,attr"`
			Href string `xml:"href,attr"`
		} `xml:"link"`
		Published string `xml:"published"`
		Updated   string `xml:"updated"`
	} `xml:"entry"`
}

// ParseFeed reads an RSS 2.0 or Atom feed. name identifies it in errors (a file or a
// URL); relative links are resolved against base when it is an absolute URL. Items
// without a link are skipped; a feed with none is an error.
func ParseFeed(name string, data []byte, base string) ([]FeedItem, error) {
	root, err := rootElement(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w: %v", name, ErrBadFeed, err)
	}
	bu, _ := url.Parse(base)
	abs := func(l string) string {
		l = strings.TrimSpace(l)
		if bu == nil || !bu.IsAbs() {
			return l
		}
		if r, err := bu.Parse(l); err == nil {
			return r.String()
		}
		return l
	}
	var items []FeedItem
	switch root.Local {
	case "rss":
		var d rssDoc
		if err := decodeXML(data, &d); err != nil {
			return nil, fmt.Errorf("%s: %w: %v", name, ErrBadFeed, err)
		}
		for _, it := range d.Channel.Items {
			link := it.Link
			if strings.TrimSpace(link) == "" && strings.HasPrefix(strings.TrimSpace(it.GUID), "http") {
				link = it.GUID
			}
			if strings.TrimSpace(link) == "" {
				continue
			}
			items = append(items, FeedItem{Title: collapse(it.Title), Description: strings.TrimSpace(it.Description),
				Link: abs(link), Published: strings.TrimSpace(it.PubDate)})
		}
	case "feed":
		if root.Space != "http://www.w3.org/2005/Atom" {
			return nil, fmt.Errorf("%s: %w: <feed> in namespace %q, want Atom's", name, ErrBadFeed, root.Space)
		}
		var d atomDoc
		if err := decodeXML(data, &d); err != nil {
			return nil, fmt.Errorf("%s: %w: %v", name, ErrBadFeed, err)
		}
		for _, e := range d.Entries {
			link := ""
			for _, l := range e.Links {
				if l.Rel == "" || l.Rel == "alternate" {
					link = l.Href
					break
				}
			}
			if link == "" {
				continue
			}
			desc := e.Summary
			if strings.TrimSpace(desc) == "" {
				desc = e.Content
			}
			pub := e.Published
			if pub == "" {
				pub = e.Updated
			}
			items = append(items, FeedItem{Title: collapse(e.Title), Description: strings.TrimSpace(desc),
				Link: abs(link), Published: strings.TrimSpace(pub)})
		}
	default:
		return nil, fmt.Errorf("%s: %w: root element <%s>, want <rss> or Atom <feed>", name, ErrBadFeed, root.Local)
	}
	if len(items) == 0 {
		return nil, fmt.Errorf("%s: %w: no item with a link", name, ErrBadFeed)
	}
	return items, nil
}

func newXMLDecoder(data []byte) *xml.Decoder {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.CharsetReader = charset.NewReaderLabel
	d.Strict = false
	d.Entity = xml.HTMLEntity
	return d
}

func decodeXML(data []byte, v any) error {
	return newXMLDecoder(data).Decode(v)
}

// rootElement returns the name of the first element of an XML document.
func rootElement(data []byte) (xml.Name, error) {
	d := newXMLDecoder(data)
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return xml.Name{}, errors.New("no element")
		}
		if err != nil {
			return xml.Name{}, fmt.Errorf("line %d: %v", lineOf(d), err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			return se.Name, nil
		}
	}
}

func lineOf(d *xml.Decoder) int {
	l, _ := d.InputPos()
	return l
}

// MatchFeed gives each page the title and description of the feed item that links to
// it, as its signifiers: a page matches an item when its URL, or the canonical URL its
// HTML declares (<link rel="canonical">, og:url), equals the item's link up to the
// scheme, a "www." prefix, a trailing slash and the fragment. It returns the number of
// pages matched.
func MatchFeed(pages []ArticlePage, items []FeedItem) int {
	byLink := map[string]*FeedItem{}
	for i := range items {
		byLink[feedKey(items[i].Link)] = &items[i]
	}
	n := 0
	for i := range pages {
		cands := []string{pages[i].URL}
		cands = append(cands, declaredURLs(pages[i].HTML)...)
		for _, c := range cands {
			if it := byLink[feedKey(c)]; c != "" && it != nil {
				pages[i].FeedTitle, pages[i].FeedDescription = it.Title, it.Description
				n++
				break
			}
		}
	}
	return n
}

// feedKey normalises a URL for MatchFeed.
func feedKey(s string) string {
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil || u.Host == "" {
		return strings.TrimSpace(s)
	}
	h := strings.TrimPrefix(strings.ToLower(u.Host), "www.")
	k := h + strings.TrimSuffix(u.EscapedPath(), "/")
	if u.RawQuery != "" {
		k += "?" + u.RawQuery
	}
	return k
}

// declaredURLs returns the canonical and og:url addresses a page declares in its head.
func declaredURLs(raw []byte) []string {
	head := raw
	if i := bytes.Index(bytes.ToLower(head), []byte("</head")); i > 0 {
		head = head[:i]
	}
	doc, err := html.Parse(bytes.NewReader(head))
	if err != nil {
		return nil
	}
	var out []string
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			switch {
			case n.DataAtom == atom.Link && strings.EqualFold(attr(n, "rel"), "canonical"):
				out = append(out, attr(n, "href"))
			case n.DataAtom == atom.Meta && strings.EqualFold(attr(n, "property"), "og:url"):
				out = append(out, attr(n, "content"))
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return out
}
