package report

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/PuerkitoBio/goquery"
	"github.com/antchfx/htmlquery"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// A saved result page is untrusted content. The report shows it with the records
// outlined inside <iframe sandbox srcdoc="…">: the sandbox (no allow-scripts, no
// allow-same-origin, no allow-forms) keeps it from running code or reaching the report;
// on top of that the page is made inert and self-contained here: scripts, frames,
// plugins and every attribute or style that would fetch something are removed, and a
// Content-Security-Policy that forbids every request but data: images and inline styles
// is put first in its <head>.

// pageCSP is the policy of the embedded page (and of the report itself).
const pageCSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; font-src data:"

// recordClass marks an outlined record element.
const recordClass = "trawl-record"

const outlineCSS = `.` + recordClass + `{outline:3px solid #d9480f !important;outline-offset:-2px;background-color:rgba(217,72,15,.10) !important}
tr.` + recordClass + `>td,tr.` + recordClass + `>th{box-shadow:inset 0 3px 0 #d9480f,inset 0 -3px 0 #d9480f;background-color:rgba(217,72,15,.10) !important}
tr.` + recordClass + `>td:first-child{box-shadow:inset 3px 3px 0 #d9480f,inset 0 -3px 0 #d9480f}
tr.` + recordClass + `>td:last-child{box-shadow:inset -3px 3px 0 #d9480f,inset 0 -3px 0 #d9480f}`

// dropElements are removed with their content: they run code, embed other documents,
// fetch resources, or (noscript) hold markup that a browser without scripts would parse
// and load.
var dropElements = map[atom.Atom]bool{
	atom.Script: true, atom.Noscript: true, atom.Iframe: true, atom.Frame: true, atom.Frameset: true,
	atom.Object: true, atom.Embed: true, atom.Applet: true, atom.Link: true, atom.Meta: true,
	atom.Base: true, atom.Audio: true, atom.Video: true, atom.Source: true, atom.Track: true,
	atom.Template: true, atom.Param: true,
}

// urlAttrs are attributes that make a browser fetch or navigate.
var urlAttrs = map[string]bool{
	"src": true, "srcset": true, "href": true, "xlink:href": true, "poster": true, "background": true,
	"action": true, "formaction": true, "data": true, "ping": true, "manifest": true, "lowsrc": true,
	"dynsrc": true, "longdesc": true, "codebase": true, "archive": true, "imagesrcset": true, "attributionsrc": true,
}

// cssURL matches what can load a resource from CSS.
var cssURL = regexp.MustCompile(`(?i)(url|image-set|image|cross-fade|element)\s*\(|@import|expression\s*\(|behavior\s*:|-moz-binding`)

// outlinedPage is a result page prepared for the report.
type outlinedPage struct {
	// Srcdoc is the sanitised page with the records outlined (to be escaped as an
	// attribute value).
	Srcdoc string
	// Found and Missed count the record XPaths that did and did not resolve.
	Found, Missed int
	// Problems lists the XPaths that could not be resolved, with the reason.
	Problems []string
}

// outlinePage parses a saved page, outlines the elements of the given record XPaths
// (each entry one record: its XPath and the XPaths of its other sibling elements) and
// returns the sanitised, self-contained document.
func outlinePage(raw []byte, recs [][]string) (*outlinedPage, error) {
	doc, err := goquery.NewDocumentFromReader(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("parse the page: %w", err)
	}
	out := &outlinedPage{}
	// Resolve every XPath before the tree changes.
	marks := make([]*goquery.Selection, len(recs))
	for k, xps := range recs {
		marks[k] = doc.FindNodes()
		for _, xp := range xps {
			n, err := queryXPath(doc.Nodes[0], xp)
			switch {
			case err != nil:
				out.Problems = append(out.Problems, fmt.Sprintf("record %d: %s: %v", k+1, xp, err))
			case n == nil:
				out.Problems = append(out.Problems, fmt.Sprintf("record %d: %s: no such element in the saved page", k+1, xp))
			case n.Type == html.ElementNode:
				marks[k] = marks[k].AddNodes(n)
			}
		}
		if marks[k].Length() > 0 {
			out.Found++
		} else {
			out.Missed++
		}
	}
	for k, m := range marks {
		m.AddClass(recordClass).SetAttr("data-trawl-record", strconv.Itoa(k+1)).SetAttr("title", fmt.Sprintf("record %d", k+1))
	}
	sanitize(doc.Nodes[0])
	// html.Parse always makes a head; the page's own charset and CSP declarations are
	// gone with the other meta elements.
	doc.Find("head").First().PrependHtml(`<meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="` +
		html.EscapeString(pageCSP) + `"><style>` + outlineCSS + `</style>`)
	srcdoc, err := doc.Html()
	if err != nil {
		return nil, fmt.Errorf("render the page: %w", err)
	}
	out.Srcdoc = srcdoc
	return out, nil
}

// queryXPath evaluates an XPath with htmlquery. An expression that the XPath engine
// rejects is an error; a panic of the engine on odd input is turned into one.
func queryXPath(doc *html.Node, xp string) (n *html.Node, err error) {
	defer func() {
		if r := recover(); r != nil {
			n, err = nil, fmt.Errorf("XPath engine failed: %v", r)
		}
	}()
	return htmlquery.Query(doc, xp)
}

// sanitize removes from the tree everything that runs code or fetches a resource.
func sanitize(n *html.Node) {
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		switch c.Type {
		case html.ElementNode:
			if dropElements[c.DataAtom] || (c.DataAtom == 0 && dropForeign(c.Data)) {
				n.RemoveChild(c)
			} else {
				cleanAttrs(c)
				if c.DataAtom == atom.Style {
					for t := c.FirstChild; t != nil; t = t.NextSibling {
						if t.Type == html.TextNode {
							t.Data = neutralCSS(t.Data)
						}
					}
				} else {
					sanitize(c)
				}
			}
		case html.CommentNode:
			n.RemoveChild(c) // conditional comments can hold markup for old browsers
		default:
			sanitize(c)
		}
		c = next
	}
}

// dropForeign reports whether an element unknown to the atom table (SVG or MathML
// names such as foreignObject, feImage) should go.
func dropForeign(name string) bool {
	switch strings.ToLower(name) {
	case "foreignobject", "feimage", "portal", "script", "use", "image", "animate", "set", "animatemotion", "animatetransform", "handler", "listener":
		return true
	}
	return false
}

// cleanAttrs drops event handlers, URL attributes and CSS that loads resources.
func cleanAttrs(n *html.Node) {
	kept := n.Attr[:0]
	for _, a := range n.Attr {
		key := strings.ToLower(a.Key)
		if a.Namespace != "" {
			key = strings.ToLower(a.Namespace) + ":" + key
		}
		switch {
		case strings.HasPrefix(key, "on"), urlAttrs[key], strings.HasSuffix(key, ":href"):
			continue
		case key == "style":
			a.Val = neutralCSS(a.Val)
		case key == "http-equiv", key == "srcdoc", key == "autofocus":
			continue
		}
		kept = append(kept, a)
	}
	n.Attr = kept
}

// neutralCSS breaks every construct that can load a resource or run code, so that the
// declaration holding it is dropped by the CSS parser.
func neutralCSS(s string) string {
	return cssURL.ReplaceAllStringFunc(s, func(m string) string {
		return "trawl-removed-" + strings.TrimRight(strings.TrimLeft(m, "@"), " (:")
	})
}
