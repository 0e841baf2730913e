package probe

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/unicode"
)

// Form discovery and the input schema (thesis ch. 3 §3.1: "the ordered list of labels
// corresponding to form elements, possibly together with constraints and possible
// values"). Labels follow the HTML association rules (label[for], wrapping label) and
// the accessible-name sources (aria-label, aria-labelledby, placeholder, title), then the
// nearest text in document order, as in HiWE's and OPAL's label assignment.

// MaxPageBytes is the largest page ReadHTML accepts (64 MiB, gzip-decompressed).
const MaxPageBytes = 64 << 20

// ErrPageTooLarge is returned by ReadHTML for pages above MaxPageBytes.
var ErrPageTooLarge = errors.New("probe: page larger than 64 MiB")

// ReadHTML reads and parses a page. Gzip-compressed input is recognised by its magic
// bytes and decompressed. The character encoding is decided in this order: a byte-order
// mark; the charset parameter of contentType (an HTTP Content-Type header, "" for a saved
// file); UTF-8 when the whole page is valid UTF-8; the <meta charset> prescan of the
// HTML standard; windows-1252. A DOM serialised by Chromium is always UTF-8.
func ReadHTML(r io.Reader, contentType string) (*html.Node, error) {
	raw, err := io.ReadAll(io.LimitReader(r, MaxPageBytes+1))
	if err != nil {
		return nil, fmt.Errorf("probe: read page: %w", err)
	}
	if len(raw) >= 2 && raw[0] == 0x1f && raw[1] == 0x8b {
		zr, err := gzip.NewReader(bytes.NewReader(raw))
		if err != nil {
			return nil, fmt.Errorf("probe: gunzip page: %w", err)
		}
		raw, err = io.ReadAll(io.LimitReader(zr, MaxPageBytes+1))
		if err != nil {
			return nil, fmt.Errorf("probe: gunzip page: %w", err)
		}
	}
	if len(raw) > MaxPageBytes {
		return nil, ErrPageTooLarge
	}
	text, err := decodePage(raw, contentType)
	if err != nil {
		return nil, err
	}
	doc, err := html.Parse(bytes.NewReader(text))
	if err != nil {
		// x/net/html rejects elements nested more than 512 deep (Chromium's parser
		// stops nesting at the same depth); that is its only error on HTML text.
		return nil, fmt.Errorf("probe: parse page (elements nested deeper than 512 are refused): %w", err)
	}
	return doc, nil
}

// decodePage converts raw to UTF-8 following ReadHTML's order of evidence.
func decodePage(raw []byte, contentType string) ([]byte, error) {
	var enc encoding.Encoding
	switch {
	case bytes.HasPrefix(raw, []byte{0xEF, 0xBB, 0xBF}):
		return raw[3:], nil
	case bytes.HasPrefix(raw, []byte{0xFE, 0xFF}):
		enc = unicode.UTF16(unicode.BigEndian, unicode.ExpectBOM)
	case bytes.HasPrefix(raw, []byte{0xFF, 0xFE}):
		enc = unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM)
	}
	if enc == nil && contentType != "" {
		if _, params, err := mime.ParseMediaType(contentType); err == nil && params["charset"] != "" {
			enc, _ = charset.Lookup(params["charset"])
		}
	}
	if enc == nil {
		if utf8.Valid(raw) {
			return raw, nil
		}
		enc, _, _ = charset.DetermineEncoding(raw, "")
	}
	out, err := enc.NewDecoder().Bytes(raw)
	if err != nil {
		return nil, fmt.Errorf("probe: decode page: %w", err)
	}
	return out, nil
}

// ParseForms returns the forms of a page in document order: every <form> element, then
// the groups of controls outside any <form> that a search button (or a search box) ties
// together, which get a nil Index, the XPath of their smallest common container, method
// GET and an empty Action (their scripts decide where they go).
//
// doc is the page's DOM: the outerHTML of a page after its scripts ran, or a saved page
// read with ReadHTML. pageURL is the page's address; actions are resolved against it and
// the page's <base href>. With pageURL "" relative actions stay relative.
//
// Controls are assigned to forms as browsers do: the form attribute first, then the
// nearest <form> ancestor, then — for the controls that the HTML parser moved out of a
// <form> opened inside a table — the empty form that precedes them in the same table.
// Radio buttons and checkboxes that share a name become one Field whose Options are
// the members.
//
// ParseForms sets no classification; call Classify on each form. It fails only when
// doc is nil or pageURL is not a URL.
func ParseForms(doc *html.Node, pageURL string) ([]Form, error) {
	if doc == nil {
		return nil, errors.New("probe: ParseForms: nil document")
	}
	var page *url.URL
	if pageURL != "" {
		u, err := url.Parse(pageURL)
		if err != nil {
			return nil, fmt.Errorf("probe: page URL %q: %w", pageURL, err)
		}
		page = u
	}
	p := indexPage(doc)
	p.base = page
	if p.baseHref != "" {
		if b, err := url.Parse(strings.TrimSpace(p.baseHref)); err == nil {
			if page != nil {
				p.base = page.ResolveReference(b)
			} else if b.IsAbs() {
				p.base = b
			}
		}
	}
	p.assignOwners()

	var forms []Form
	for i, fn := range p.forms {
		f := p.buildForm(fn, fn, p.owned[fn])
		idx := i
		f.Index = &idx
		f.PageURL = pageURL
		forms = append(forms, f)
	}
	for _, g := range p.formlessGroups() {
		f := p.buildForm(nil, g.root, g.controls)
		f.XPath = p.xp.xpath(g.root)
		f.Text = joinText(f.TextBefore, renderedText(g.root, textOptions{skipControls: true, limit: maxFormText}))
		f.PageURL = pageURL
		forms = append(forms, f)
	}
	return forms, nil
}

// control is a form control found in the page.
type control struct {
	n     *html.Node
	pos   int        // position of n in page.nodes
	owner *html.Node // the form it belongs to; nil when none
}

// page indexes a document for form extraction.
type page struct {
	nodes    []*html.Node            // every node in document order
	unseen   []bool                  // nodes[i] is inside a subtree that is not rendered
	byID     map[string]*html.Node   // first element with each id
	labelFor map[string][]*html.Node // label elements by their for attribute
	forms    []*html.Node            // <form> elements, document order
	formPos  map[*html.Node]int      // position of each form in nodes
	controls []control               // input, select, textarea, button, document order
	owned    map[*html.Node][]control
	baseHref string
	base     *url.URL
	xp       xpather
	tableOf  map[*html.Node]*html.Node // emptied form → its table
}

// indexPage walks doc once, in document order, without recursion.
func indexPage(doc *html.Node) *page {
	p := &page{
		byID:     map[string]*html.Node{},
		labelFor: map[string][]*html.Node{},
		formPos:  map[*html.Node]int{},
		owned:    map[*html.Node][]control{},
	}
	type item struct {
		n      *html.Node
		unseen bool
	}
	stack := []item{{doc, false}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n := it.n
		if n.Type == html.ElementNode && n.Data == "template" && n.Namespace == "" {
			continue // inert content: its controls and forms are not part of the page
		}
		unseen := it.unseen || notRendered(n)
		pos := len(p.nodes)
		p.nodes = append(p.nodes, n)
		p.unseen = append(p.unseen, unseen)
		if n.Type == html.ElementNode && n.Namespace == "" {
			if id := attr(n, "id"); id != "" {
				if _, dup := p.byID[id]; !dup {
					p.byID[id] = n
				}
			}
			switch n.Data {
			case "form":
				p.forms = append(p.forms, n)
				p.formPos[n] = pos
			case "input", "select", "textarea", "button":
				p.controls = append(p.controls, control{n: n, pos: pos})
			case "label":
				if f := attr(n, "for"); f != "" {
					p.labelFor[f] = append(p.labelFor[f], n)
				}
			case "base":
				if p.baseHref == "" && hasAttr(n, "href") {
					p.baseHref = attr(n, "href")
				}
			}
		}
		// push children in reverse so that the first child is visited next
		var last *html.Node
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			last = c
		}
		for c := last; c != nil; c = c.PrevSibling {
			stack = append(stack, item{c, unseen})
		}
	}
	return p
}

// assignOwners sets the form owner of every control and fills p.owned.
func (p *page) assignOwners() {
	inTable := p.tableForms()
	p.tableOf = inTable.tableOf
	for i := range p.controls {
		c := &p.controls[i]
		if ref := attr(c.n, "form"); hasAttr(c.n, "form") {
			// The form attribute overrides the tree, even when it names no form.
			if f, ok := p.byID[ref]; ok && isElement(f, "form") {
				c.owner = f
			}
		} else {
			for a := c.n.Parent; a != nil; a = a.Parent {
				if isElement(a, "form") {
					c.owner = a
					break
				}
			}
			if c.owner == nil {
				c.owner = inTable.ownerOf(c)
			}
		}
		if c.owner != nil {
			p.owned[c.owner] = append(p.owned[c.owner], *c)
		}
	}
}

// tableFormSet finds the controls of forms that the HTML parser emptied: a <form> start
// tag inside a table (between rows or cells) yields an empty form element, and the rows
// that followed it in the source become its siblings, yet browsers still submit their
// controls with that form (the parser's form element pointer). The DOM keeps no trace of
// the form's end tag, so the form is taken to own the controls that follow it inside the
// same table, up to the next form.
type tableFormSet struct {
	p       *page
	tableOf map[*html.Node]*html.Node // emptied form → the table it sits in
}

func (p *page) tableForms() tableFormSet {
	s := tableFormSet{p: p, tableOf: map[*html.Node]*html.Node{}}
	for _, f := range p.forms {
		if f.Parent == nil {
			continue
		}
		switch f.Parent.Data {
		case "table", "tbody", "thead", "tfoot", "tr":
		default:
			continue
		}
		if hasControlDescendant(f) {
			continue
		}
		t := f.Parent
		for t != nil && !isElement(t, "table") {
			t = t.Parent
		}
		if t == nil {
			continue
		}
		s.tableOf[f] = t
	}
	return s
}

func hasControlDescendant(n *html.Node) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode {
			switch c.Data {
			case "input", "select", "textarea", "button":
				return true
			}
			if hasControlDescendant(c) {
				return true
			}
		}
	}
	return false
}

// ownerOf returns the emptied table form that owns c, or nil.
func (s tableFormSet) ownerOf(c *control) *html.Node {
	if len(s.tableOf) == 0 {
		return nil
	}
	// the last form of the whole page that starts before c
	forms := s.p.forms
	i, _ := slices.BinarySearchFunc(forms, c.pos, func(f *html.Node, pos int) int {
		return cmp.Compare(s.p.formPos[f], pos)
	})
	if i == 0 {
		return nil
	}
	prev := forms[i-1]
	if t, ok := s.tableOf[prev]; ok && isAncestor(t, c.n) {
		return prev
	}
	return nil
}

// maxFormText caps Form.Text; maxLinks caps Form.Links.
const (
	maxFormText = 2000
	maxLinks    = 30
)

// buildForm makes the Form of the form element fn (nil for a formless group) with its
// controls in document order. scope bounds the search for label text: the form
// element, or the container of a formless group.
func (p *page) buildForm(fn, scope *html.Node, controls []control) Form {
	f := Form{Method: "GET", Fields: []Field{}, KeywordFields: []string{}}
	if fn != nil {
		f.XPath = p.xp.xpath(fn)
		f.ID = attr(fn, "id")
		f.Name = attr(fn, "name")
		f.CSSClass = collapse(attr(fn, "class"))
		switch strings.ToLower(strings.TrimSpace(attr(fn, "method"))) {
		case "post":
			f.Method = "POST"
		case "dialog":
			f.Method = "DIALOG"
		}
		f.Action = p.resolve(attr(fn, "action"))
		f.Enctype = "application/x-www-form-urlencoded"
		switch e := strings.ToLower(strings.TrimSpace(attr(fn, "enctype"))); e {
		case "multipart/form-data", "text/plain":
			f.Enctype = e
		}
		f.TextBefore = p.textBefore(p.formPos[fn], fn)
		// A form that the parser emptied has its text and controls in its table.
		body := fn
		if t, ok := p.tableOf[fn]; ok {
			body = t
		}
		inner := renderedText(body, textOptions{skipControls: true, limit: maxFormText})
		f.Text = joinText(f.TextBefore, inner)
		f.Links = links(body)
		f.Landmark = landmark(fn)
	} else if len(controls) > 0 {
		f.TextBefore = p.textBefore(controls[0].pos, nil)
		f.Landmark = landmark(controls[0].n)
	}
	// Owned controls outside the form element (form attribute, emptied table forms)
	// may add link texts only through their container; that is left out.
	f.Fields = p.fields(scope, controls)
	return f
}

// inForm reports whether n lies inside a form element (looking at most 64 levels up).
func inForm(n *html.Node) bool {
	for a, l := n.Parent, 0; a != nil && l < 64; a, l = a.Parent, l+1 {
		if isElement(a, "form") {
			return true
		}
	}
	return false
}

// joinText joins two texts with a space.
func joinText(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + " " + b
}

// resolve returns the absolute URL of a form action. An empty action submits to the
// page itself (HTML standard, form submission algorithm).
func (p *page) resolve(action string) string {
	action = strings.TrimSpace(action)
	if p.base == nil {
		return action
	}
	if action == "" {
		return p.base.String()
	}
	u, err := url.Parse(action)
	if err != nil {
		return action // kept verbatim: the browser would fail to submit it too
	}
	return p.base.ResolveReference(u).String()
}

// links returns the texts of the links inside n, without duplicates.
func links(n *html.Node) []string {
	var out []string
	seen := map[string]bool{}
	var walk func(*html.Node, int) bool
	visited := 0
	walk = func(c *html.Node, depth int) bool {
		visited++
		if visited > maxTextWalk || len(out) >= maxLinks {
			return false
		}
		if c.Type == html.ElementNode {
			if notRendered(c) {
				return true
			}
			if c.Data == "a" {
				t := cut(renderedText(c, textOptions{limit: 100}), 100)
				if t == "" {
					t = cut(collapse(attr(c, "title")), 100)
				}
				if t != "" && !seen[t] {
					seen[t] = true
					out = append(out, t)
				}
				return true
			}
		}
		for k := c.FirstChild; k != nil; k = k.NextSibling {
			if !walk(k, depth+1) {
				return false
			}
		}
		return true
	}
	walk(n, 0)
	return out
}

// landmark returns "search" when n is or sits in a search landmark (role=search or the
// <search> element), else the role of its nearest landmark ancestor among navigation,
// banner, main, contentinfo, complementary, dialog, or the tag of a <nav>, <header>,
// <footer> or <aside> ancestor; "" when none.
func landmark(n *html.Node) string {
	for a := n; a != nil; a = a.Parent {
		if a.Type != html.ElementNode {
			continue
		}
		role := strings.ToLower(strings.TrimSpace(attr(a, "role")))
		if role == "search" || a.Data == "search" {
			return "search"
		}
		switch role {
		case "navigation", "banner", "main", "contentinfo", "complementary", "dialog":
			return role
		}
		switch a.Data {
		case "nav":
			return "navigation"
		case "header":
			return "banner"
		case "footer":
			return "contentinfo"
		case "aside":
			return "complementary"
		case "dialog":
			return "dialog"
		case "main":
			return "main"
		}
	}
	return ""
}

// textBefore returns the visible text right before position pos in document order:
// the nearest text chunks, at most maxBefore bytes, stopping at a control or form. A
// preceding sibling subtree is read whole (a heading, a paragraph).
func (p *page) textBefore(pos int, self *html.Node) string {
	const maxBefore = 200
	var parts []string
	size := 0
walk:
	for i, steps := pos-1, 0; i >= 0 && steps < 400; i, steps = i-1, steps+1 {
		n := p.nodes[i]
		if n.Type == html.ElementNode {
			if self != nil && isAncestor(n, self) {
				continue // an ancestor of the form: its own text lies after its start
			}
			switch n.Data {
			case "form", "select", "textarea", "button":
				break walk
			case "input":
				if !strings.EqualFold(strings.TrimSpace(attr(n, "type")), "hidden") {
					break walk
				}
			case "h1", "h2", "h3", "h4", "h5", "h6", "legend", "caption":
				if len(parts) > 0 {
					break walk // a heading titles what follows it
				}
			}
			continue
		}
		if n.Type != html.TextNode || p.unseen[i] {
			continue
		}
		if inForm(n) {
			break // the text of another form
		}
		t := collapse(n.Data)
		if t == "" {
			continue
		}
		parts = append(parts, t)
		size += len(t)
		if size >= maxBefore {
			break
		}
	}
	// parts are in reverse order
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	s := strings.Join(parts, " ")
	if len(s) > maxBefore {
		s = s[len(s)-maxBefore:]
		for len(s) > 0 && !utf8.RuneStart(s[0]) {
			s = s[1:]
		}
		if i := strings.IndexByte(s, ' '); i >= 0 && i < 30 {
			s = s[i+1:] // start at a word
		}
	}
	return strings.TrimSpace(s)
}
