package records

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"unsafe"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// A tree builder of FOREST's own on golang.org/x/net/html's tokenizer, for the pages
// Extract keeps (parseKeptPage). It builds the tree html.Parse builds, straight into
// the blocks of compactTree (no parser tree to copy, no object per node), for the
// documents it handles: the insertion modes of an ordinary page (before and in head,
// in body, text, tables without misplaced content, after body), formatting elements
// whose end tags need no reparenting, and inline SVG. Anything else (frameset,
// template, caption and column groups, MathML, content foster-parented out of a table,
// the adoption agency's reparenting, tags that break out of SVG, an unusual doctype)
// makes it give up, and the page is parsed with html.Parse instead: it never guesses.
// It follows html.Parse's own behaviour where that departs from the specification
// (the sorted attributes of formatting elements, the Noah's Ark clause of three, no
// select insertion mode). What depends on tables of names inside html (SVG tag and
// attribute names, doctypes and quirks) is asked of html.Parse once per name, on a
// tiny document, and remembered. TestTreeBuilderSameTree checks it node by node
// against html.Parse on every NEXT-EVAL and record page.

// arena allocates the nodes, attributes and strings of a page in blocks (see
// compactTree for the sizes and the reason).
type arena struct {
	ns                        []html.Node
	as                        []html.Attribute
	buf                       []byte
	nodeCap, attrCap, byteCap int
}

func newArena(size int) *arena {
	return &arena{nodeCap: min(nodeBlock, max(size/50, 16)), attrCap: min(attrBlock, max(size/50, 16)),
		byteCap: min(byteBlock, max(size/4, 256))}
}

// node returns a new node in the current block.
func (m *arena) node(t html.NodeType, a atom.Atom, data, ns string) *html.Node {
	if len(m.ns) == cap(m.ns) {
		m.ns = make([]html.Node, 0, m.nodeCap)
	}
	m.ns = append(m.ns, html.Node{Type: t, DataAtom: a, Data: data, Namespace: ns})
	return &m.ns[len(m.ns)-1]
}

// attrs returns a copy of attr in the current block.
func (m *arena) attrs(attr []html.Attribute) []html.Attribute {
	k := len(attr)
	if k == 0 {
		return nil
	}
	if cap(m.as)-len(m.as) < k {
		m.as = make([]html.Attribute, 0, max(m.attrCap, k))
	}
	m.as = append(m.as, attr...)
	return m.as[len(m.as)-k : len(m.as) : len(m.as)]
}

// str returns s in the current byte block (long strings keep their own).
func (m *arena) str(s string) string {
	if len(s) == 0 || len(s) > longString {
		return s
	}
	return m.bytes(unsafe.Slice(unsafe.StringData(s), len(s)))
}

// bytes returns a string of b's bytes in the current byte block.
func (m *arena) bytes(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) > longString {
		return string(b)
	}
	if cap(m.buf)-len(m.buf) < len(b) {
		m.buf = make([]byte, 0, m.byteCap)
	}
	m.buf = append(m.buf, b...)
	s := m.buf[len(m.buf)-len(b):]
	return unsafe.String(unsafe.SliceData(s), len(s))
}

type tbMode uint8

const (
	tbInitial tbMode = iota
	tbBeforeHTML
	tbBeforeHead
	tbInHead
	tbAfterHead
	tbInBody
	tbText
	tbInTable
	tbInTableBody
	tbInRow
	tbInCell
	tbAfterBody
	tbAfterAfterBody
	tbInCaption
	tbInColumnGroup
	tbInTemplate
)

// tbToken is the token being processed. Its text aliases the tokenizer's buffer; its
// attribute values are already in the arena.
type tbToken struct {
	typ         html.TokenType
	atom        atom.Atom
	name        string
	text        []byte
	attr        []html.Attribute
	selfClosing bool
}

type treeBuilder struct {
	z                  tokenSource
	fast               *fastTokenizer // z when it is one
	m                  *arena
	tok                tbToken
	doc                *html.Node
	oe, afe            []*html.Node
	head, form         *html.Node
	mode, orig         tbMode
	templates          []tbMode // the stack of template insertion modes
	hasOrig            bool
	quirks, framesetOK bool
	fail               bool
	why                string // where it gave up (file:line), for the tests
	names              map[string]string
	merged             *html.Node // the text node mergeBuf holds the data of
	mergeBuf           []byte
	spans              [][2]int32 // attribute spans of scanTag
	low                []byte     // lower's buffer
	unesc              []byte     // unescapeCommon's buffer
}

// tbMarker is the scope marker of the list of active formatting elements.
var tbMarker = &html.Node{}

const tbWhitespace = " \t\r\n\f"

// buildTree parses raw into blocks as html.Parse would, with the number of elements
// and a bound of the leaves (as compactTree); ok is false when the page holds
// something the builder leaves to html.Parse.
func buildTree(raw []byte) (doc *html.Node, elems, leaves int, ok bool) {
	doc, elems, leaves, why := buildTreeWhy(raw)
	return doc, elems, leaves, why == ""
}

// buildTreeWhy is buildTree, saying where it gave up ("" when it built the tree).
func buildTreeWhy(raw []byte) (doc *html.Node, elems, leaves int, why string) {
	defer func() {
		if r := recover(); r != nil {
			doc, elems, leaves, why = nil, 0, 0, fmt.Sprintf("panic: %v", r) // a bug: html.Parse does it
		}
	}()
	fast := newFastTokenizer(raw)
	doc, elems, leaves, why = build(fast, fast, len(raw))
	if fast.Failed() {
		doc, elems, leaves, why = build(html.NewTokenizer(bytes.NewReader(raw)), nil, len(raw))
	}
	return doc, elems, leaves, why
}

// build builds the tree of the page of size bytes from the tokens of z (fast when it
// is the fast tokenizer).
func build(z tokenSource, fast *fastTokenizer, size int) (doc *html.Node, elems, leaves int, why string) {
	b := &treeBuilder{z: z, fast: fast, m: newArena(size), framesetOK: true, names: map[string]string{}}
	b.doc = b.m.node(html.DocumentNode, 0, "", "")
	for !b.fail {
		top := b.current()
		b.z.AllowCDATA(top != nil && top.Namespace != "")
		tt := b.z.Next()
		if tt == html.ErrorToken && b.z.Err() != io.EOF {
			return nil, 0, 0, b.z.Err().Error()
		}
		if fast != nil && fast.Failed() {
			return nil, 0, 0, "the fast tokenizer: html.Tokenizer reads the page"
		}
		b.read(tt)
		b.process()
		if tt == html.ErrorToken {
			break
		}
	}
	if b.fail {
		return nil, 0, 0, b.why
	}
	elems, leaves = countTree(b.doc)
	return b.doc, elems, leaves, ""
}

// giveUp stops the builder: the page is left to html.Parse.
func (b *treeBuilder) giveUp() {
	if !b.fail {
		_, file, line, _ := runtime.Caller(1)
		b.why = fmt.Sprintf("%s:%d (%s %q)", filepath.Base(file), line, b.tok.typ, b.tok.name)
	}
	b.fail = true
}

// read fills b.tok from the tokenizer's current token.
func (b *treeBuilder) read(tt html.TokenType) {
	t := &b.tok
	*t = tbToken{typ: tt, attr: t.attr[:0]}
	switch tt {
	case html.TextToken, html.CommentToken, html.DoctypeToken:
		t.text = b.z.Text()
	case html.StartTagToken, html.SelfClosingTagToken, html.EndTagToken:
		if tt == html.SelfClosingTagToken {
			t.typ, t.selfClosing = html.StartTagToken, true
		}
		if b.scanTag(b.z.Raw(), tt == html.EndTagToken) {
			return
		}
		if b.fast != nil {
			b.fast.failed = true // not a plain tag: html.Tokenizer reads the page
			b.giveUp()
			return
		}
		t.attr = t.attr[:0]
		name, more := b.z.TagName()
		for more {
			var k, v []byte
			k, v, more = b.z.TagAttr()
			t.attr = append(t.attr, html.Attribute{Key: b.name(k), Val: b.m.bytes(v)})
		}
		b.setName(t, name)
	}
}

// setName sets the token's atom and name from the tag name's bytes.
func (b *treeBuilder) setName(t *tbToken, name []byte) {
	t.atom = atom.Lookup(name)
	if t.atom != 0 {
		t.name = t.atom.String()
	} else {
		t.name = b.name(name)
	}
}

// scanTag reads the name and attributes of a start or end tag from its markup raw
// when the tag has the plain form most tags have: a name and attributes of bytes
// that need no repair (no NUL, no upper case in a value, no character reference, no
// carriage return, no duplicate name, no quote or < in an unquoted value). That
// spares the tokenizer's TagName and TagAttr, which copy every name and value. For
// any other tag it returns false and leaves the token to them.
func (b *treeBuilder) scanTag(raw []byte, end bool) bool {
	n := len(raw)
	if n < 3 || raw[0] != '<' || raw[n-1] != '>' {
		return false
	}
	i := 1
	if end {
		if raw[1] != '/' {
			return false
		}
		i = 2
	}
	j := i
	for j < n && !tagSpace(raw[j]) && raw[j] != '/' && raw[j] != '>' {
		if c := raw[j]; c == 0 || c >= 0x80 {
			return false
		}
		j++
	}
	if j == i {
		return false
	}
	name := b.lower(raw[i:j])
	spans := b.spans[:0]
	selfClosing := false
	for {
		for j < n && tagSpace(raw[j]) {
			j++
		}
		if j == n-1 {
			break // the closing >
		}
		if end {
			return false // an end tag with attributes
		}
		if raw[j] == '/' {
			if j == n-2 {
				selfClosing = true
				break
			}
			return false
		}
		k := j
		for j < n && !tagSpace(raw[j]) && !tagKeyStop[raw[j]] {
			j++
		}
		if j == k || j == n {
			return false
		}
		key := [2]int32{int32(k), int32(j)}
		for j < n && tagSpace(raw[j]) {
			j++
		}
		val := [2]int32{int32(j), int32(j)}
		if raw[j] == '=' {
			j++
			for j < n && tagSpace(raw[j]) {
				j++
			}
			switch q := raw[j]; q {
			case '"', '\'':
				v := j + 1
				e := bytes.IndexByte(raw[v:], q)
				if e < 0 {
					return false
				}
				val = [2]int32{int32(v), int32(v + e)}
				j = v + e + 1
				if j < n && !tagSpace(raw[j]) && raw[j] != '/' && raw[j] != '>' {
					return false
				}
			default:
				v := j
				for j < n && !tagSpace(raw[j]) && raw[j] != '>' {
					if tagUnquotedStop[raw[j]] {
						return false
					}
					j++
				}
				if j == v {
					return false
				}
				val = [2]int32{int32(v), int32(j)}
			}
			for _, c := range raw[val[0]:val[1]] {
				if c == 0 || c == '\r' {
					return false
				}
			}
		}
		spans = append(spans, key, val)
	}
	b.spans = spans
	t := &b.tok
	b.setName(t, name)
	for a := 0; a < len(spans); a += 2 {
		k := raw[spans[a][0]:spans[a][1]]
		for c := 0; c < a; c += 2 {
			if bytes.EqualFold(raw[spans[c][0]:spans[c][1]], k) {
				t.attr, t.atom, t.name = t.attr[:0], 0, ""
				return false // a duplicate: the tokenizer keeps the first
			}
		}
		v := raw[spans[a+1][0]:spans[a+1][1]]
		if bytes.IndexByte(v, '&') >= 0 {
			var ok bool
			if v, ok = b.unescapeCommon(v); !ok {
				t.attr, t.atom, t.name = t.attr[:0], 0, ""
				return false
			}
		}
		t.attr = append(t.attr, html.Attribute{Key: b.name(b.lower(k)), Val: b.m.bytes(v)})
	}
	if selfClosing {
		t.selfClosing = true
	}
	return true
}

// commonRefs are the character references unescapeCommon replaces: with their
// semicolon, they mean the same in an attribute value and in text.
var commonRefs = [...]struct{ ref, char string }{
	{"&quot;", `"`}, {"&amp;", "&"}, {"&lt;", "<"}, {"&gt;", ">"}, {"&#39;", "'"}, {"&#34;", `"`}, {"&apos;", "'"},
	{"&nbsp;", "\u00a0"},
}

// numericRefs reports whether every & in v starts a numeric character reference
// ended by a semicolon or one of commonRefs.
func numericRefs(v []byte) bool {
	for {
		i := bytes.IndexByte(v, '&')
		if i < 0 {
			return true
		}
		v = v[i:]
		n := 0
		for _, r := range commonRefs {
			if len(v) >= len(r.ref) && string(v[:len(r.ref)]) == r.ref {
				n = len(r.ref)
				break
			}
		}
		if n == 0 {
			if len(v) < 4 || v[1] != '#' {
				return false
			}
			j, hex := 2, false
			if v[2] == 'x' || v[2] == 'X' {
				j, hex = 3, true
			}
			k := j
			for k < len(v) && k-j < 6 && ('0' <= v[k] && v[k] <= '9' || hex && ('a' <= v[k]|0x20 && v[k]|0x20 <= 'f')) {
				k++
			}
			if k == j || k >= len(v) || v[k] != ';' {
				return false
			}
			n = k + 1
		}
		v = v[n:]
	}
}

// unescapeCommon replaces the common character references in v (in a reused buffer);
// ok is false when v holds any other &.
func (b *treeBuilder) unescapeCommon(v []byte) ([]byte, bool) {
	out := b.unesc[:0]
	for {
		i := bytes.IndexByte(v, '&')
		if i < 0 {
			break
		}
		out = append(out, v[:i]...)
		v = v[i:]
		found := false
		for _, r := range commonRefs {
			if len(v) >= len(r.ref) && string(v[:len(r.ref)]) == r.ref {
				out = append(out, r.char...)
				v = v[len(r.ref):]
				found = true
				break
			}
		}
		if !found {
			if !numericRefs(v) {
				return nil, false
			}
			// numeric references decode alike in values and in text
			out = append(out, html.UnescapeString(string(v))...)
			v = nil
			break
		}
	}
	out = append(out, v...)
	b.unesc = out
	return out, true
}

func tagSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

// Bytes that end an attribute name (or make the tag not plain), and bytes not taken
// in an unquoted value.
var tagKeyStop, tagUnquotedStop [256]bool

func init() {
	for _, c := range []byte("/>=\"'<\x00") {
		tagKeyStop[c] = true
	}
	for _, c := range []byte("\"'<=`\x00") {
		tagUnquotedStop[c] = true
	}
}

// lower returns s in lower case (ASCII): s itself when it has no upper case, else a
// copy in a buffer reused for the next call.
func (b *treeBuilder) lower(s []byte) []byte {
	i := 0
	for i < len(s) && (s[i] < 'A' || s[i] > 'Z') {
		i++
	}
	if i == len(s) {
		return s
	}
	b.low = b.low[:0]
	for _, c := range s {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b.low = append(b.low, c)
	}
	return b.low
}

// name returns the string of a tag or attribute name, interned per page.
func (b *treeBuilder) name(k []byte) string {
	if a := atom.Lookup(k); a != 0 {
		return a.String()
	}
	if s, ok := b.names[string(k)]; ok {
		return s
	}
	s := string(k)
	b.names[s] = s
	return s
}

func (b *treeBuilder) current() *html.Node {
	if len(b.oe) == 0 {
		return nil
	}
	return b.oe[len(b.oe)-1]
}

func (b *treeBuilder) top() *html.Node {
	if n := b.current(); n != nil {
		return n
	}
	return b.doc
}

// process runs the current token through the insertion modes until it is consumed.
func (b *treeBuilder) process() {
	for i := 0; !b.fail; i++ {
		if i > 16 {
			b.giveUp() // a loop the builder does not expect
			return
		}
		var done bool
		if b.inForeign() {
			done = b.foreign()
		} else {
			done = b.step()
		}
		if done {
			return
		}
	}
}

func (b *treeBuilder) step() bool {
	switch b.mode {
	case tbInitial:
		return b.initial()
	case tbBeforeHTML:
		return b.beforeHTML()
	case tbBeforeHead:
		return b.beforeHead()
	case tbInHead:
		return b.inHead()
	case tbAfterHead:
		return b.afterHead()
	case tbInBody:
		return b.inBody()
	case tbText:
		return b.text()
	case tbInTable:
		return b.inTable()
	case tbInTableBody:
		return b.inTableBody()
	case tbInRow:
		return b.inRow()
	case tbInCell:
		return b.inCell()
	case tbAfterBody:
		return b.afterBody()
	case tbAfterAfterBody:
		return b.afterAfterBody()
	case tbInCaption:
		return b.inCaption()
	case tbInColumnGroup:
		return b.inColumnGroup()
	case tbInTemplate:
		return b.inTemplate()
	}
	b.giveUp()
	return true
}

// implied processes a start or end tag the markup implies, then restores the token.
func (b *treeBuilder) implied(tt html.TokenType, a atom.Atom) {
	saved := b.tok
	b.tok = tbToken{typ: tt, atom: a, name: a.String(), attr: saved.attr[len(saved.attr):]}
	b.process()
	b.tok = saved
}

func trimLeftSpace(s []byte) []byte {
	return bytes.TrimLeft(s, tbWhitespace)
}

// appendChild appends n to parent.
func appendChild(parent, n *html.Node) {
	n.Parent = parent
	if last := parent.LastChild; last != nil {
		last.NextSibling, n.PrevSibling = n, last
	} else {
		parent.FirstChild = n
	}
	parent.LastChild = n
}

// addChild appends n to the current node and opens it if it is an element.
func (b *treeBuilder) addChild(n *html.Node) {
	appendChild(b.top(), n)
	if n.Type == html.ElementNode {
		b.push(n)
	}
}

func (b *treeBuilder) push(n *html.Node) {
	b.oe = append(b.oe, n)
	if len(b.oe) > 512 {
		b.giveUp() // html.Parse rejects the page; let it say so
	}
}

func (b *treeBuilder) pop() *html.Node {
	n := b.oe[len(b.oe)-1]
	b.oe = b.oe[:len(b.oe)-1]
	return n
}

func (b *treeBuilder) comment(parent *html.Node) {
	n := b.m.node(html.CommentNode, 0, b.m.bytes(b.tok.text), "")
	if parent == nil {
		b.addChild(n)
	} else {
		appendChild(parent, n)
	}
}

// addText appends text to the current node, to its last child if that is text.
func (b *treeBuilder) addText(text []byte) {
	if len(text) == 0 {
		return
	}
	t := b.top()
	if n := t.LastChild; n != nil && n.Type == html.TextNode {
		// text after text (around an ignored tag): appended in a buffer of the node's
		// own that grows by doubling, so that a run of pieces costs linear time
		if n != b.merged {
			b.merged = n
			b.mergeBuf = append(make([]byte, 0, 2*(len(n.Data)+len(text))), n.Data...)
		}
		b.mergeBuf = append(b.mergeBuf, text...)
		n.Data = unsafe.String(unsafe.SliceData(b.mergeBuf), len(b.mergeBuf))
		return
	}
	var s string
	if t.DataAtom == atom.Script || t.DataAtom == atom.Style {
		s = string(text) // code, never read: not worth a place in the blocks
	} else {
		s = b.m.bytes(text)
	}
	b.addChild(b.m.node(html.TextNode, 0, s, ""))
}

// addElement opens an element for the current start tag.
func (b *treeBuilder) addElement() *html.Node {
	n := b.m.node(html.ElementNode, b.tok.atom, b.tok.name, "")
	n.Attr = b.m.attrs(b.tok.attr)
	b.addChild(n)
	return n
}

// addVoid adds an element for the current start tag and closes it at once.
func (b *treeBuilder) addVoid() {
	b.addElement()
	b.pop()
	b.tok.selfClosing = false
}

func attrCmp(x, y html.Attribute) int {
	if c := strings.Compare(x.Namespace, y.Namespace); c != 0 {
		return c
	}
	if c := strings.Compare(x.Key, y.Key); c != 0 {
		return c
	}
	return strings.Compare(x.Val, y.Val)
}

// addFormatting opens a formatting element (html.Parse sorts its attributes and keeps
// at most three identical ones in the list of active formatting elements).
func (b *treeBuilder) addFormatting() {
	n := b.addElement()
	slices.SortFunc(n.Attr, attrCmp)
	same := 0
	for i := len(b.afe) - 1; i >= 0; i-- {
		e := b.afe[i]
		if e == tbMarker {
			break
		}
		if e.Namespace != "" || e.DataAtom != n.DataAtom || !slices.Equal(e.Attr, n.Attr) {
			continue
		}
		same++
		if same >= 3 {
			b.afe = slices.Delete(b.afe, i, i+1)
		}
	}
	b.afe = append(b.afe, n)
}

func (b *treeBuilder) clearFormattingToMarker() {
	for len(b.afe) > 0 {
		n := b.afe[len(b.afe)-1]
		b.afe = b.afe[:len(b.afe)-1]
		if n == tbMarker {
			return
		}
	}
}

func indexOf(s []*html.Node, n *html.Node) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == n {
			return i
		}
	}
	return -1
}

func removeNode(s []*html.Node, n *html.Node) []*html.Node {
	if i := indexOf(s, n); i >= 0 {
		return slices.Delete(s, i, i+1)
	}
	return s
}

func (b *treeBuilder) reconstruct() {
	if len(b.afe) == 0 {
		return
	}
	i := len(b.afe) - 1
	if n := b.afe[i]; n == tbMarker || indexOf(b.oe, n) >= 0 {
		return
	}
	for i > 0 {
		n := b.afe[i-1]
		if n == tbMarker || indexOf(b.oe, n) >= 0 {
			break
		}
		i--
	}
	for ; i < len(b.afe); i++ {
		e := b.afe[i]
		c := b.m.node(e.Type, e.DataAtom, e.Data, "")
		c.Attr = b.m.attrs(e.Attr)
		b.addChild(c)
		b.afe[i] = c
	}
}

func (b *treeBuilder) containsTag(a atom.Atom) bool {
	for _, n := range b.oe {
		if n.DataAtom == a {
			return true
		}
	}
	return false
}

type tbScope uint8

const (
	tbDefaultScope tbScope = iota
	tbListItemScope
	tbButtonScope
	tbTableScope
)

// inScope returns the index in the stack of open elements of the highest element
// whose tag is one of tags and that is in scope s, or -1.
func (b *treeBuilder) inScope(s tbScope, tags ...atom.Atom) int {
	for i := len(b.oe) - 1; i >= 0; i-- {
		n := b.oe[i]
		t := n.DataAtom
		if n.Namespace == "" {
			if slices.Contains(tags, t) {
				return i
			}
			switch s {
			case tbListItemScope:
				if t == atom.Ol || t == atom.Ul {
					return -1
				}
			case tbButtonScope:
				if t == atom.Button {
					return -1
				}
			case tbTableScope:
				if t == atom.Html || t == atom.Table || t == atom.Template {
					return -1
				}
			}
		}
		if s != tbTableScope {
			switch n.Namespace {
			case "":
				switch t {
				case atom.Applet, atom.Caption, atom.Html, atom.Table, atom.Td, atom.Th, atom.Marquee, atom.Object, atom.Template, atom.Select:
					return -1
				}
			case "svg":
				switch t {
				case atom.Desc, atom.ForeignObject, atom.Title:
					return -1
				}
			default:
				b.giveUp()
				return -1
			}
		}
	}
	return -1
}

func (b *treeBuilder) popUntil(s tbScope, tags ...atom.Atom) bool {
	if i := b.inScope(s, tags...); i >= 0 {
		b.oe = b.oe[:i]
		return true
	}
	return false
}

// clearToContext pops elements until one of stop (or html) is the current node.
func (b *treeBuilder) clearToContext(stop ...atom.Atom) {
	for i := len(b.oe) - 1; i >= 0; i-- {
		if t := b.oe[i].DataAtom; t == atom.Html || t == atom.Template || slices.Contains(stop, t) {
			b.oe = b.oe[:i+1]
			return
		}
	}
}

// impliedEnd pops dd, dt, li, optgroup, option, p, rb, rp, rt and rtc, but for except.
func (b *treeBuilder) impliedEnd(except atom.Atom) {
	i := len(b.oe) - 1
	for ; i >= 0; i-- {
		n := b.oe[i]
		switch n.DataAtom {
		case atom.Dd, atom.Dt, atom.Li, atom.Optgroup, atom.Option, atom.P, atom.Rb, atom.Rp, atom.Rt, atom.Rtc:
			if except != 0 && n.DataAtom == except {
				break
			}
			continue
		}
		break
	}
	b.oe = b.oe[:i+1]
}

// special reports the special elements of the tree construction.
func special(n *html.Node) bool {
	switch n.Namespace {
	case "", "html":
		if n.DataAtom == 0 {
			return false
		}
		return specialTags[n.DataAtom]
	case "svg":
		return n.Data == "foreignObject" || n.Data == "desc" || n.Data == "title"
	case "math":
		switch n.Data {
		case "mi", "mo", "mn", "ms", "mtext", "annotation-xml":
			return true
		}
	}
	return false
}

var specialTags = func() map[atom.Atom]bool {
	m := map[atom.Atom]bool{}
	for _, t := range strings.Fields(`address applet area article aside base basefont bgsound
		blockquote body br button caption center col colgroup dd details dir div dl dt embed
		fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header
		hgroup hr html iframe img input keygen li link listing main marquee menu meta nav
		noembed noframes noscript object ol p param plaintext pre script section select
		source style summary table tbody td template textarea tfoot th thead title tr track
		ul wbr xmp`) {
		m[atom.Lookup([]byte(t))] = true
	}
	return m
}()

func (b *treeBuilder) initial() bool {
	switch b.tok.typ {
	case html.TextToken:
		b.tok.text = trimLeftSpace(b.tok.text)
		if len(b.tok.text) == 0 {
			return true
		}
	case html.CommentToken:
		b.comment(b.doc)
		return true
	case html.DoctypeToken:
		d, ok := probeDoctype(string(b.tok.text))
		if !ok {
			b.giveUp()
			return true
		}
		n := b.m.node(html.DoctypeNode, 0, d.name, "")
		n.Attr = b.m.attrs(d.attr)
		appendChild(b.doc, n)
		b.quirks = d.quirks
		b.mode = tbBeforeHTML
		return true
	}
	b.quirks = true
	b.mode = tbBeforeHTML
	return false
}

func (b *treeBuilder) beforeHTML() bool {
	switch b.tok.typ {
	case html.DoctypeToken:
		return true
	case html.TextToken:
		b.tok.text = trimLeftSpace(b.tok.text)
		if len(b.tok.text) == 0 {
			return true
		}
	case html.StartTagToken:
		if b.tok.atom == atom.Html {
			b.addElement()
			b.mode = tbBeforeHead
			return true
		}
	case html.EndTagToken:
		switch b.tok.atom {
		case atom.Head, atom.Body, atom.Html, atom.Br:
			b.implied(html.StartTagToken, atom.Html)
			return false
		}
		return true
	case html.CommentToken:
		b.comment(b.doc)
		return true
	}
	b.implied(html.StartTagToken, atom.Html)
	return false
}

func (b *treeBuilder) beforeHead() bool {
	switch b.tok.typ {
	case html.TextToken:
		b.tok.text = trimLeftSpace(b.tok.text)
		if len(b.tok.text) == 0 {
			return true
		}
	case html.StartTagToken:
		switch b.tok.atom {
		case atom.Head:
			b.head = b.addElement()
			b.mode = tbInHead
			return true
		case atom.Html:
			return b.inBody()
		}
	case html.EndTagToken:
		switch b.tok.atom {
		case atom.Head, atom.Body, atom.Html, atom.Br:
			b.implied(html.StartTagToken, atom.Head)
			return false
		}
		return true
	case html.CommentToken:
		b.comment(nil)
		return true
	case html.DoctypeToken:
		return true
	}
	b.implied(html.StartTagToken, atom.Head)
	return false
}

// rawText opens an element whose content the tokenizer reads as text.
func (b *treeBuilder) rawText() {
	b.addElement()
	b.orig, b.hasOrig = b.mode, true
	b.mode = tbText
}

func (b *treeBuilder) inHead() bool {
	switch b.tok.typ {
	case html.TextToken:
		s := trimLeftSpace(b.tok.text)
		if len(s) < len(b.tok.text) {
			b.addText(b.tok.text[:len(b.tok.text)-len(s)])
			if len(s) == 0 {
				return true
			}
			b.tok.text = s
		}
	case html.StartTagToken:
		switch b.tok.atom {
		case atom.Html:
			return b.inBody()
		case atom.Base, atom.Basefont, atom.Bgsound, atom.Link, atom.Meta:
			b.addVoid()
			return true
		case atom.Noscript, atom.Script, atom.Title, atom.Noframes, atom.Style:
			if b.hasOrig {
				b.giveUp()
				return true
			}
			b.rawText()
			return true
		case atom.Head:
			return true
		case atom.Template:
			for _, e := range b.oe {
				if e.Namespace != "" {
					b.giveUp() // html.Parse ignores the rest of the page
					return true
				}
			}
			b.addElement()
			b.afe = append(b.afe, tbMarker)
			b.framesetOK = false
			b.mode = tbInTemplate
			b.templates = append(b.templates, tbInTemplate)
			return true
		}
	case html.EndTagToken:
		switch b.tok.atom {
		case atom.Head:
			b.pop()
			b.mode = tbAfterHead
			return true
		case atom.Body, atom.Html, atom.Br:
			b.implied(html.EndTagToken, atom.Head)
			return false
		case atom.Template:
			if b.containsTag(atom.Template) {
				b.closeTemplate()
			}
			return true
		}
		return true
	case html.CommentToken:
		b.comment(nil)
		return true
	case html.DoctypeToken:
		return true
	}
	b.implied(html.EndTagToken, atom.Head)
	return false
}

func (b *treeBuilder) afterHead() bool {
	switch b.tok.typ {
	case html.TextToken:
		s := trimLeftSpace(b.tok.text)
		if len(s) < len(b.tok.text) {
			b.addText(b.tok.text[:len(b.tok.text)-len(s)])
			if len(s) == 0 {
				return true
			}
			b.tok.text = s
		}
	case html.StartTagToken:
		switch b.tok.atom {
		case atom.Html:
			return b.inBody()
		case atom.Body:
			b.addElement()
			b.framesetOK = false
			b.mode = tbInBody
			return true
		case atom.Frameset:
			b.giveUp()
			return true
		case atom.Base, atom.Basefont, atom.Bgsound, atom.Link, atom.Meta, atom.Noframes, atom.Script, atom.Style, atom.Template, atom.Title:
			if b.head == nil {
				b.giveUp()
				return true
			}
			b.push(b.head)
			done := b.inHead()
			b.oe = removeNode(b.oe, b.head)
			return done
		case atom.Head:
			return true
		}
	case html.EndTagToken:
		switch b.tok.atom {
		case atom.Body, atom.Html, atom.Br:
		case atom.Template:
			return b.inHead()
		default:
			return true
		}
	case html.CommentToken:
		b.comment(nil)
		return true
	case html.DoctypeToken:
		return true
	}
	b.implied(html.StartTagToken, atom.Body)
	b.framesetOK = true
	return b.tok.typ == html.ErrorToken
}

// copyAttrs adds the current token's attributes that n lacks to n.
func (b *treeBuilder) copyAttrs(n *html.Node) {
	if len(b.tok.attr) == 0 {
		return
	}
	attr := slices.Clone(n.Attr)
	for _, t := range b.tok.attr {
		if !slices.ContainsFunc(attr, func(x html.Attribute) bool { return x.Key == t.Key }) {
			attr = append(attr, t)
		}
	}
	n.Attr = b.m.attrs(attr)
}

func (b *treeBuilder) inBody() bool {
	t := &b.tok
	switch t.typ {
	case html.TextToken:
		d := t.text
		if n := b.current(); n != nil && (n.DataAtom == atom.Pre || n.DataAtom == atom.Listing) && n.FirstChild == nil {
			d = trimLeadingNewline(d)
		}
		if bytes.IndexByte(d, 0) >= 0 {
			d = bytes.ReplaceAll(d, []byte{0}, nil)
		}
		if len(d) == 0 {
			return true
		}
		b.reconstruct()
		b.addText(d)
		if b.framesetOK && len(trimLeftSpace(d)) > 0 {
			b.framesetOK = false
		}
	case html.StartTagToken:
		switch t.atom {
		case atom.Html:
			if b.containsTag(atom.Template) {
				return true
			}
			b.copyAttrs(b.oe[0])
		case atom.Base, atom.Basefont, atom.Bgsound, atom.Link, atom.Meta, atom.Noframes, atom.Script, atom.Style, atom.Template, atom.Title:
			return b.inHead()
		case atom.Body:
			if b.containsTag(atom.Template) {
				return true
			}
			if len(b.oe) >= 2 {
				if body := b.oe[1]; body.Type == html.ElementNode && body.DataAtom == atom.Body {
					b.framesetOK = false
					b.copyAttrs(body)
				}
			}
		case atom.Frameset, atom.Plaintext, atom.Math, atom.Nobr:
			b.giveUp() // left to html.Parse
		case atom.Caption, atom.Col, atom.Colgroup, atom.Frame, atom.Head, atom.Tbody, atom.Td, atom.Tfoot, atom.Th, atom.Thead, atom.Tr:
			// ignored
		case atom.Address, atom.Article, atom.Aside, atom.Blockquote, atom.Center, atom.Details, atom.Dialog, atom.Dir, atom.Div, atom.Dl, atom.Fieldset, atom.Figcaption, atom.Figure, atom.Footer, atom.Header, atom.Hgroup, atom.Main, atom.Menu, atom.Nav, atom.Ol, atom.P, atom.Search, atom.Section, atom.Summary, atom.Ul:
			b.popUntil(tbButtonScope, atom.P)
			b.addElement()
		case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
			b.popUntil(tbButtonScope, atom.P)
			switch b.top().DataAtom {
			case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
				b.pop()
			}
			b.addElement()
		case atom.Pre, atom.Listing:
			b.popUntil(tbButtonScope, atom.P)
			b.addElement()
			b.framesetOK = false
		case atom.Form:
			if b.form != nil && !b.containsTag(atom.Template) {
				return true
			}
			b.popUntil(tbButtonScope, atom.P)
			n := b.addElement()
			if !b.containsTag(atom.Template) {
				b.form = n
			}
		case atom.Li, atom.Dd, atom.Dt:
			b.framesetOK = false
			for i := len(b.oe) - 1; i >= 0; i-- {
				n := b.oe[i]
				if t.atom == atom.Li && n.DataAtom == atom.Li || t.atom != atom.Li && (n.DataAtom == atom.Dd || n.DataAtom == atom.Dt) {
					b.oe = b.oe[:i]
					break
				}
				if n.DataAtom == atom.Address || n.DataAtom == atom.Div || n.DataAtom == atom.P || !special(n) {
					continue
				}
				break
			}
			b.popUntil(tbButtonScope, atom.P)
			b.addElement()
		case atom.Button:
			if b.inScope(tbDefaultScope, atom.Button) >= 0 {
				b.impliedEnd(0)
				b.popUntil(tbDefaultScope, atom.Button)
			}
			b.reconstruct()
			b.addElement()
			b.framesetOK = false
		case atom.A:
			for i := len(b.afe) - 1; i >= 0 && b.afe[i] != tbMarker; i-- {
				if n := b.afe[i]; n.Type == html.ElementNode && n.DataAtom == atom.A {
					b.endFormatting(atom.A, "a")
					b.oe = removeNode(b.oe, n)
					b.afe = removeNode(b.afe, n)
					break
				}
			}
			b.reconstruct()
			b.addFormatting()
		case atom.B, atom.Big, atom.Code, atom.Em, atom.Font, atom.I, atom.S, atom.Small, atom.Strike, atom.Strong, atom.Tt, atom.U:
			b.reconstruct()
			b.addFormatting()
		case atom.Applet, atom.Marquee, atom.Object:
			b.reconstruct()
			b.addElement()
			b.afe = append(b.afe, tbMarker)
			b.framesetOK = false
		case atom.Table:
			if !b.quirks {
				b.popUntil(tbButtonScope, atom.P)
			}
			b.addElement()
			b.framesetOK = false
			b.mode = tbInTable
			return true
		case atom.Area, atom.Br, atom.Embed, atom.Img, atom.Keygen, atom.Wbr:
			b.reconstruct()
			b.addVoid()
			b.framesetOK = false
		case atom.Input:
			b.popUntil(tbDefaultScope, atom.Select)
			b.reconstruct()
			b.addVoid()
			for _, a := range t.attr {
				if a.Key == "type" && strings.EqualFold(a.Val, "hidden") {
					return true
				}
			}
			b.framesetOK = false
		case atom.Param, atom.Source, atom.Track:
			b.addVoid()
		case atom.Hr:
			if b.inScope(tbButtonScope, atom.P) >= 0 {
				b.impliedEnd(atom.P)
				b.popUntil(tbDefaultScope, atom.P)
			}
			if b.inScope(tbDefaultScope, atom.Select) >= 0 {
				b.impliedEnd(0)
			}
			b.addVoid()
			b.framesetOK = false
		case atom.Image:
			t.atom, t.name = atom.Img, atom.Img.String()
			return false
		case atom.Textarea:
			if b.hasOrig {
				b.giveUp()
				return true
			}
			b.rawText()
			b.framesetOK = false
		case atom.Xmp:
			if b.hasOrig {
				b.giveUp()
				return true
			}
			b.popUntil(tbButtonScope, atom.P)
			b.reconstruct()
			b.framesetOK = false
			b.rawText()
		case atom.Iframe, atom.Noembed, atom.Noscript:
			if b.hasOrig {
				b.giveUp()
				return true
			}
			if t.atom == atom.Iframe {
				b.framesetOK = false
			}
			b.rawText()
		case atom.Select:
			if b.popUntil(tbDefaultScope, atom.Select) {
				return true
			}
			b.reconstruct()
			b.addElement()
			b.framesetOK = false
			return true
		case atom.Option:
			if b.inScope(tbDefaultScope, atom.Select) >= 0 {
				b.impliedEnd(atom.Optgroup)
			} else if b.top().DataAtom == atom.Option {
				b.pop()
			}
			b.reconstruct()
			b.addElement()
		case atom.Optgroup:
			if b.inScope(tbDefaultScope, atom.Select) >= 0 {
				b.impliedEnd(0)
			} else if b.top().DataAtom == atom.Option {
				b.pop()
			}
			b.reconstruct()
			b.addElement()
		case atom.Rb, atom.Rtc:
			if b.inScope(tbDefaultScope, atom.Ruby) >= 0 {
				b.impliedEnd(0)
			}
			b.addElement()
		case atom.Rp, atom.Rt:
			if b.inScope(tbDefaultScope, atom.Ruby) >= 0 {
				b.impliedEnd(atom.Rtc)
			}
			b.addElement()
		case atom.Svg:
			b.reconstruct()
			if !b.foreignAttrs() {
				return true
			}
			n := b.addElement()
			n.Namespace = "svg"
			if t.selfClosing {
				b.pop()
				t.selfClosing = false
			}
			return true
		default:
			b.reconstruct()
			b.addElement()
		}
	case html.EndTagToken:
		switch t.atom {
		case atom.Body:
			if b.inScope(tbDefaultScope, atom.Body) >= 0 {
				b.mode = tbAfterBody
			}
		case atom.Html:
			if b.inScope(tbDefaultScope, atom.Body) >= 0 {
				b.implied(html.EndTagToken, atom.Body)
				return false
			}
			return true
		case atom.Address, atom.Article, atom.Aside, atom.Blockquote, atom.Button, atom.Center, atom.Details, atom.Dialog, atom.Dir, atom.Div, atom.Dl, atom.Fieldset, atom.Figcaption, atom.Figure, atom.Footer, atom.Header, atom.Hgroup, atom.Listing, atom.Main, atom.Menu, atom.Nav, atom.Ol, atom.Pre, atom.Search, atom.Section, atom.Select, atom.Summary, atom.Ul:
			if b.inScope(tbDefaultScope, t.atom) < 0 {
				return true
			}
			b.impliedEnd(0)
			b.popUntil(tbDefaultScope, t.atom)
		case atom.Form:
			if b.containsTag(atom.Template) {
				i := b.inScope(tbDefaultScope, atom.Form)
				if i < 0 {
					return true
				}
				b.impliedEnd(0)
				if b.oe[i].DataAtom != atom.Form {
					return true
				}
				b.popUntil(tbDefaultScope, atom.Form)
				return true
			}
			node := b.form
			b.form = nil
			i := b.inScope(tbDefaultScope, atom.Form)
			if node == nil || i < 0 || b.oe[i] != node {
				return true
			}
			b.impliedEnd(0)
			b.oe = removeNode(b.oe, node)
		case atom.P:
			if b.inScope(tbButtonScope, atom.P) < 0 {
				b.implied(html.StartTagToken, atom.P)
			}
			b.popUntil(tbButtonScope, atom.P)
		case atom.Li:
			b.popUntil(tbListItemScope, atom.Li)
		case atom.Dd, atom.Dt:
			b.popUntil(tbDefaultScope, t.atom)
		case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
			b.popUntil(tbDefaultScope, atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6)
		case atom.A, atom.B, atom.Big, atom.Code, atom.Em, atom.Font, atom.I, atom.Nobr, atom.S, atom.Small, atom.Strike, atom.Strong, atom.Tt, atom.U:
			b.endFormatting(t.atom, t.name)
		case atom.Applet, atom.Marquee, atom.Object:
			if b.popUntil(tbDefaultScope, t.atom) {
				b.clearFormattingToMarker()
			}
		case atom.Br:
			t.typ = html.StartTagToken
			return false
		case atom.Template:
			return b.inHead()
		default:
			b.endOther(t.atom, t.name)
		}
	case html.CommentToken:
		b.comment(nil)
	case html.ErrorToken:
		if len(b.templates) > 0 {
			b.mode = tbInTemplate
			return false
		}
	}
	return true
}

// endFormatting is the adoption agency for the simple cases: a formatting element
// closed with no special element opened inside it. The reparenting of the other
// cases is left to html.Parse.
func (b *treeBuilder) endFormatting(a atom.Atom, name string) {
	if cur := b.current(); cur != nil && cur.Data == name && indexOf(b.afe, cur) < 0 {
		b.pop()
		return
	}
	var fe *html.Node
	for j := len(b.afe) - 1; j >= 0; j-- {
		if b.afe[j] == tbMarker {
			break
		}
		if b.afe[j].DataAtom == a {
			fe = b.afe[j]
			break
		}
	}
	if fe == nil {
		b.endOther(a, name)
		return
	}
	i := indexOf(b.oe, fe)
	if i < 0 {
		b.afe = removeNode(b.afe, fe)
		return
	}
	if b.inScope(tbDefaultScope, a) < 0 {
		return
	}
	for _, e := range b.oe[i:] {
		if special(e) {
			b.giveUp()
			return
		}
	}
	b.oe = b.oe[:i]
	b.afe = removeNode(b.afe, fe)
}

// endOther is the end tag of any other element in body.
func (b *treeBuilder) endOther(a atom.Atom, name string) {
	for i := len(b.oe) - 1; i >= 0; i-- {
		n := b.oe[i]
		if n.Namespace == "" && n.DataAtom == a && (a != 0 || n.Data == name) {
			b.oe = b.oe[:i]
			return
		}
		if special(n) {
			return
		}
	}
}

func (b *treeBuilder) text() bool {
	switch b.tok.typ {
	case html.ErrorToken:
		b.pop()
	case html.TextToken:
		d := b.tok.text
		if n := b.current(); n.DataAtom == atom.Textarea && n.FirstChild == nil {
			d = trimLeadingNewline(d)
		}
		b.addText(d)
		return true
	case html.EndTagToken:
		b.pop()
	}
	b.mode, b.hasOrig = b.orig, false
	return b.tok.typ == html.EndTagToken
}

// resetMode is the specification's "reset the insertion mode".
func (b *treeBuilder) resetMode() {
	for i := len(b.oe) - 1; i >= 0; i-- {
		n := b.oe[i]
		switch n.DataAtom {
		case atom.Td, atom.Th:
			b.mode = tbInCell
		case atom.Tr:
			b.mode = tbInRow
		case atom.Tbody, atom.Thead, atom.Tfoot:
			b.mode = tbInTableBody
		case atom.Table:
			b.mode = tbInTable
		case atom.Head:
			b.mode = tbInHead
		case atom.Body:
			b.mode = tbInBody
		case atom.Html:
			if b.head == nil {
				b.mode = tbBeforeHead
			} else {
				b.mode = tbAfterHead
			}
		case atom.Caption:
			b.mode = tbInCaption
		case atom.Colgroup:
			b.mode = tbInColumnGroup
		case atom.Template:
			if n.Namespace != "" {
				continue
			}
			if len(b.templates) == 0 {
				b.giveUp()
				return
			}
			b.mode = b.templates[len(b.templates)-1]
		case atom.Frameset:
			b.giveUp()
		default:
			if i == 0 {
				b.mode = tbInBody
				return
			}
			continue
		}
		return
	}
}

func (b *treeBuilder) inTable() bool {
	t := &b.tok
	switch t.typ {
	case html.TextToken:
		if bytes.IndexByte(t.text, 0) >= 0 {
			t.text = bytes.ReplaceAll(t.text, []byte{0}, nil)
		}
		switch b.top().DataAtom {
		case atom.Table, atom.Tbody, atom.Tfoot, atom.Thead, atom.Tr:
			if len(bytes.Trim(t.text, tbWhitespace)) == 0 {
				b.addText(t.text)
				return true
			}
		}
	case html.StartTagToken:
		switch t.atom {
		case atom.Caption:
			b.clearToContext(atom.Table)
			b.afe = append(b.afe, tbMarker)
			b.addElement()
			b.mode = tbInCaption
			return true
		case atom.Colgroup:
			b.clearToContext(atom.Table)
			b.addElement()
			b.mode = tbInColumnGroup
			return true
		case atom.Col:
			b.implied(html.StartTagToken, atom.Colgroup)
			return false
		case atom.Tbody, atom.Tfoot, atom.Thead:
			b.clearToContext(atom.Table)
			b.addElement()
			b.mode = tbInTableBody
			return true
		case atom.Td, atom.Th, atom.Tr:
			b.implied(html.StartTagToken, atom.Tbody)
			return false
		case atom.Table:
			if b.popUntil(tbTableScope, atom.Table) {
				b.resetMode()
				return false
			}
			return true
		case atom.Style, atom.Script, atom.Template:
			return b.inHead()
		case atom.Input:
			for _, a := range t.attr {
				if a.Key == "type" && strings.EqualFold(a.Val, "hidden") {
					b.addElement()
					b.pop()
					return true
				}
			}
		case atom.Form:
			if b.containsTag(atom.Template) || b.form != nil {
				return true
			}
			b.addElement()
			b.form = b.pop()
			return true
		}
	case html.EndTagToken:
		switch t.atom {
		case atom.Table:
			if b.popUntil(tbTableScope, atom.Table) {
				b.resetMode()
			}
			return true
		case atom.Body, atom.Caption, atom.Col, atom.Colgroup, atom.Html, atom.Tbody, atom.Td, atom.Tfoot, atom.Th, atom.Thead, atom.Tr:
			return true
		case atom.Template:
			return b.inHead()
		}
	case html.CommentToken:
		b.comment(nil)
		return true
	case html.DoctypeToken:
		return true
	case html.ErrorToken:
		return b.inBody()
	}
	// misplaced content: foster parenting, left to html.Parse
	b.giveUp()
	return true
}

func (b *treeBuilder) inTableBody() bool {
	t := &b.tok
	switch t.typ {
	case html.StartTagToken:
		switch t.atom {
		case atom.Tr:
			b.clearToContext(atom.Tbody, atom.Tfoot, atom.Thead)
			b.addElement()
			b.mode = tbInRow
			return true
		case atom.Td, atom.Th:
			b.implied(html.StartTagToken, atom.Tr)
			return false
		case atom.Caption, atom.Col, atom.Colgroup, atom.Tbody, atom.Tfoot, atom.Thead:
			if b.popUntil(tbTableScope, atom.Tbody, atom.Thead, atom.Tfoot) {
				b.mode = tbInTable
				return false
			}
			return true
		}
	case html.EndTagToken:
		switch t.atom {
		case atom.Tbody, atom.Tfoot, atom.Thead:
			if b.inScope(tbTableScope, t.atom) >= 0 {
				b.clearToContext(atom.Tbody, atom.Tfoot, atom.Thead)
				b.pop()
				b.mode = tbInTable
			}
			return true
		case atom.Table:
			if b.popUntil(tbTableScope, atom.Tbody, atom.Thead, atom.Tfoot) {
				b.mode = tbInTable
				return false
			}
			return true
		case atom.Body, atom.Caption, atom.Col, atom.Colgroup, atom.Html, atom.Td, atom.Th, atom.Tr:
			return true
		}
	case html.CommentToken:
		b.comment(nil)
		return true
	}
	return b.inTable()
}

func (b *treeBuilder) inRow() bool {
	t := &b.tok
	switch t.typ {
	case html.StartTagToken:
		switch t.atom {
		case atom.Td, atom.Th:
			b.clearToContext(atom.Tr)
			b.addElement()
			b.afe = append(b.afe, tbMarker)
			b.mode = tbInCell
			return true
		case atom.Caption, atom.Col, atom.Colgroup, atom.Tbody, atom.Tfoot, atom.Thead, atom.Tr:
			if b.inScope(tbTableScope, atom.Tr) >= 0 {
				b.clearToContext(atom.Tr)
				b.pop()
				b.mode = tbInTableBody
				return false
			}
			return true
		}
	case html.EndTagToken:
		switch t.atom {
		case atom.Tr, atom.Table:
			if b.inScope(tbTableScope, atom.Tr) >= 0 {
				b.clearToContext(atom.Tr)
				b.pop()
				b.mode = tbInTableBody
				return t.atom == atom.Tr
			}
			return true
		case atom.Tbody, atom.Tfoot, atom.Thead:
			if b.inScope(tbTableScope, t.atom) >= 0 && b.inScope(tbTableScope, atom.Tr) >= 0 {
				b.clearToContext(atom.Tr)
				b.pop()
				b.mode = tbInTableBody
				return false
			}
			return true
		case atom.Body, atom.Caption, atom.Col, atom.Colgroup, atom.Html, atom.Td, atom.Th:
			return true
		}
	}
	return b.inTable()
}

func (b *treeBuilder) inCell() bool {
	t := &b.tok
	switch t.typ {
	case html.StartTagToken:
		switch t.atom {
		case atom.Caption, atom.Col, atom.Colgroup, atom.Tbody, atom.Td, atom.Tfoot, atom.Th, atom.Thead, atom.Tr:
			if b.popUntil(tbTableScope, atom.Td, atom.Th) {
				b.clearFormattingToMarker()
				b.mode = tbInRow
				return false
			}
			return true
		}
	case html.EndTagToken:
		switch t.atom {
		case atom.Td, atom.Th:
			if !b.popUntil(tbTableScope, t.atom) {
				return true
			}
			b.clearFormattingToMarker()
			b.mode = tbInRow
			return true
		case atom.Body, atom.Caption, atom.Col, atom.Colgroup, atom.Html:
			return true
		case atom.Table, atom.Tbody, atom.Tfoot, atom.Thead, atom.Tr:
			if b.inScope(tbTableScope, t.atom) < 0 {
				return true
			}
			if b.popUntil(tbTableScope, atom.Td, atom.Th) {
				b.clearFormattingToMarker()
			}
			b.mode = tbInRow
			return false
		}
	}
	return b.inBody()
}

func (b *treeBuilder) inCaption() bool {
	t := &b.tok
	switch t.typ {
	case html.StartTagToken:
		switch t.atom {
		case atom.Caption, atom.Col, atom.Colgroup, atom.Tbody, atom.Td, atom.Tfoot, atom.Thead, atom.Tr:
			if !b.popUntil(tbTableScope, atom.Caption) {
				return true
			}
			b.clearFormattingToMarker()
			b.mode = tbInTable
			return false
		}
	case html.EndTagToken:
		switch t.atom {
		case atom.Caption, atom.Table:
			if !b.popUntil(tbTableScope, atom.Caption) {
				return true
			}
			b.clearFormattingToMarker()
			b.mode = tbInTable
			return t.atom == atom.Caption
		case atom.Body, atom.Col, atom.Colgroup, atom.Html, atom.Tbody, atom.Td, atom.Tfoot, atom.Th, atom.Thead, atom.Tr:
			return true
		}
	}
	return b.inBody()
}

func (b *treeBuilder) inColumnGroup() bool {
	t := &b.tok
	switch t.typ {
	case html.TextToken:
		s := trimLeftSpace(t.text)
		if len(s) < len(t.text) {
			b.addText(t.text[:len(t.text)-len(s)])
			if len(s) == 0 {
				return true
			}
			t.text = s
		}
	case html.CommentToken:
		b.comment(nil)
		return true
	case html.DoctypeToken:
		return true
	case html.StartTagToken:
		switch t.atom {
		case atom.Html:
			return b.inBody()
		case atom.Col:
			b.addVoid()
			return true
		case atom.Template:
			return b.inHead()
		}
	case html.EndTagToken:
		switch t.atom {
		case atom.Colgroup:
			if b.top().DataAtom == atom.Colgroup {
				b.pop()
				b.mode = tbInTable
			}
			return true
		case atom.Col:
			return true
		case atom.Template:
			return b.inHead()
		}
	case html.ErrorToken:
		return b.inBody()
	}
	if b.top().DataAtom != atom.Colgroup {
		return true
	}
	b.pop()
	b.mode = tbInTable
	return false
}

// closeTemplate closes the innermost template element.
func (b *treeBuilder) closeTemplate() {
	b.impliedEnd(0)
	for i := len(b.oe) - 1; i >= 0; i-- {
		if n := b.oe[i]; n.Namespace == "" && n.DataAtom == atom.Template {
			b.oe = b.oe[:i]
			break
		}
	}
	b.clearFormattingToMarker()
	if len(b.templates) > 0 {
		b.templates = b.templates[:len(b.templates)-1]
	}
	b.resetMode()
}

func (b *treeBuilder) inTemplate() bool {
	t := &b.tok
	switch t.typ {
	case html.TextToken, html.CommentToken, html.DoctypeToken:
		return b.inBody()
	case html.StartTagToken:
		m := tbInBody
		switch t.atom {
		case atom.Base, atom.Basefont, atom.Bgsound, atom.Link, atom.Meta, atom.Noframes, atom.Script, atom.Style, atom.Template, atom.Title:
			return b.inHead()
		case atom.Caption, atom.Colgroup, atom.Tbody, atom.Tfoot, atom.Thead:
			m = tbInTable
		case atom.Col:
			m = tbInColumnGroup
		case atom.Tr:
			m = tbInTableBody
		case atom.Td, atom.Th:
			m = tbInRow
		}
		if len(b.templates) == 0 {
			b.giveUp()
			return true
		}
		b.templates[len(b.templates)-1] = m
		b.mode = m
		return false
	case html.EndTagToken:
		if t.atom == atom.Template {
			return b.inHead()
		}
		return true
	case html.ErrorToken:
		if !b.containsTag(atom.Template) {
			return true
		}
		b.closeTemplate()
		return false
	}
	return false
}

func (b *treeBuilder) afterBody() bool {
	switch b.tok.typ {
	case html.ErrorToken:
		return true
	case html.TextToken:
		if len(trimLeftSpace(b.tok.text)) == 0 {
			return b.inBody()
		}
	case html.StartTagToken:
		if b.tok.atom == atom.Html {
			return b.inBody()
		}
	case html.EndTagToken:
		if b.tok.atom == atom.Html {
			b.mode = tbAfterAfterBody
			return true
		}
	case html.CommentToken:
		if len(b.oe) < 1 || b.oe[0].DataAtom != atom.Html {
			b.giveUp()
			return true
		}
		b.comment(b.oe[0])
		return true
	}
	b.mode = tbInBody
	return false
}

func (b *treeBuilder) afterAfterBody() bool {
	switch b.tok.typ {
	case html.ErrorToken:
		return true
	case html.TextToken:
		if len(trimLeftSpace(b.tok.text)) == 0 {
			return b.inBody()
		}
	case html.StartTagToken:
		if b.tok.atom == atom.Html {
			return b.inBody()
		}
	case html.CommentToken:
		b.comment(b.doc)
		return true
	case html.DoctypeToken:
		return b.inBody()
	}
	b.mode = tbInBody
	return false
}

// inForeign reports whether the current token is processed as foreign content (SVG).
func (b *treeBuilder) inForeign() bool {
	n := b.current()
	if n == nil || n.Namespace == "" {
		return false
	}
	if n.Namespace != "svg" {
		b.giveUp()
		return false
	}
	if (n.Data == "foreignObject" || n.Data == "desc" || n.Data == "title") &&
		(b.tok.typ == html.StartTagToken || b.tok.typ == html.TextToken) {
		if b.tok.typ == html.StartTagToken {
			b.giveUp() // HTML inside SVG: left to html.Parse
		}
		return false
	}
	return b.tok.typ != html.ErrorToken
}

// foreign processes a token inside SVG.
func (b *treeBuilder) foreign() bool {
	t := &b.tok
	switch t.typ {
	case html.TextToken:
		if b.framesetOK {
			b.framesetOK = len(bytes.TrimLeft(t.text, tbWhitespace+"\x00")) == 0
		}
		if bytes.IndexByte(t.text, 0) >= 0 {
			t.text = bytes.ReplaceAll(t.text, []byte{0}, []byte("\ufffd"))
		}
		b.addText(t.text)
	case html.CommentToken:
		b.comment(nil)
	case html.StartTagToken:
		e, ok := probeSVGTag(t.name)
		if !ok || t.atom == atom.Font {
			b.giveUp() // breaks out of SVG: left to html.Parse
			return true
		}
		t.atom, t.name = e.atom, e.name
		if !b.foreignAttrs() {
			return true
		}
		n := b.addElement()
		n.Namespace = "svg"
		b.z.NextIsNotRawText()
		if t.selfClosing {
			b.pop()
			t.selfClosing = false
		}
	case html.EndTagToken:
		if strings.EqualFold(b.oe[len(b.oe)-1].Data, t.name) {
			b.pop()
			return true
		}
		for i := len(b.oe) - 1; i >= 0; i-- {
			if strings.EqualFold(b.oe[i].Data, t.name) {
				b.oe = b.oe[:i]
				return true
			}
			if i > 0 && b.oe[i-1].Namespace == "" {
				break
			}
		}
		return b.step()
	}
	return true
}

// foreignAttrs adjusts the names of the current token's attributes for SVG.
func (b *treeBuilder) foreignAttrs() bool {
	for i, a := range b.tok.attr {
		x, ok := probeSVGAttr(a.Key)
		if !ok {
			b.giveUp()
			return false
		}
		b.tok.attr[i].Namespace, b.tok.attr[i].Key = x.Namespace, x.Key
	}
	return true
}

// What the builder asks of html.Parse, remembered per name for the process.
type svgTag struct {
	atom atom.Atom
	name string
}

type doctypeInfo struct {
	name   string
	attr   []html.Attribute
	quirks bool
}

var (
	svgTags     sync.Map // lower-case name → svgTag, or nil when it breaks out
	svgAttrs    sync.Map // lower-case name → html.Attribute, or nil
	doctypeSeen sync.Map // doctype token → doctypeInfo, or nil
)

func probeParse(s string) *html.Node {
	doc, err := html.Parse(strings.NewReader(s))
	if err != nil {
		return nil
	}
	return doc
}

func findElem(n *html.Node, a atom.Atom) *html.Node {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.DataAtom == a {
			return c
		}
		if f := findElem(c, a); f != nil {
			return f
		}
	}
	return nil
}

// probeSVGTag returns the element html.Parse makes of the start tag name inside SVG;
// ok is false when the tag leaves SVG or the name cannot be probed.
func probeSVGTag(name string) (svgTag, bool) {
	if v, ok := svgTags.Load(name); ok {
		e, ok := v.(svgTag)
		return e, ok
	}
	var v any
	if name != "" && !strings.ContainsAny(name, "<>/\"'= \t\r\n\f\x00&") {
		if doc := probeParse("<body><svg><" + name + "></" + name + "></svg>"); doc != nil {
			if s := findElem(doc, atom.Svg); s != nil && s.Namespace == "svg" {
				if c := s.FirstChild; c != nil && c == s.LastChild && c.Type == html.ElementNode && c.Namespace == "svg" && strings.EqualFold(c.Data, name) {
					v = svgTag{atom: c.DataAtom, name: c.Data}
				}
			}
		}
	}
	svgTags.Store(name, v)
	e, ok := v.(svgTag)
	return e, ok
}

// probeSVGAttr returns the attribute name html.Parse makes of key on an SVG element.
func probeSVGAttr(key string) (html.Attribute, bool) {
	if v, ok := svgAttrs.Load(key); ok {
		a, ok := v.(html.Attribute)
		return a, ok
	}
	var v any
	if key != "" && !strings.ContainsAny(key, "<>/\"'= \t\r\n\f\x00&") {
		if doc := probeParse(`<body><svg ` + key + `="v"></svg>`); doc != nil {
			if g := findElem(doc, atom.Svg); g != nil && g.Namespace == "svg" && len(g.Attr) == 1 && g.Attr[0].Val == "v" {
				v = html.Attribute{Namespace: g.Attr[0].Namespace, Key: g.Attr[0].Key}
			}
		}
	}
	svgAttrs.Store(key, v)
	a, ok := v.(html.Attribute)
	return a, ok
}

// probeDoctype returns the doctype node html.Parse makes of the doctype token d and
// whether it puts the document in quirks mode (a table then stays inside a paragraph).
func probeDoctype(d string) (doctypeInfo, bool) {
	if v, ok := doctypeSeen.Load(d); ok {
		x, ok := v.(doctypeInfo)
		return x, ok
	}
	var v any
	if !strings.ContainsAny(d, "<>&\x00") {
		if doc := probeParse("<!DOCTYPE " + d + "><p><table>"); doc != nil {
			if dt := doc.FirstChild; dt != nil && dt.Type == html.DoctypeNode {
				if t := findElem(doc, atom.Table); t != nil && t.Parent != nil {
					v = doctypeInfo{name: dt.Data, attr: slices.Clone(dt.Attr), quirks: t.Parent.DataAtom == atom.P}
				}
			}
		}
	}
	doctypeSeen.Store(d, v)
	x, ok := v.(doctypeInfo)
	return x, ok
}

// trimLeadingNewline drops the line break right after a <pre>, <listing> or <textarea>
// start tag ("\r", "\n" or both), as HTML's tree construction does.
func trimLeadingNewline(d []byte) []byte {
	if len(d) > 0 && d[0] == '\r' {
		d = d[1:]
	}
	if len(d) > 0 && d[0] == '\n' {
		d = d[1:]
	}
	return d
}
