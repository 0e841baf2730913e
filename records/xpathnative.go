package records

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// A native evaluator for the XPaths that FOREST writes itself (genericSteps): a path
// of child steps from the root (/) or from anywhere (//), each a tag with predicates
// that test tolerant attribute tokens or a child tag. The wrapper's self-check
// (xpathSelects) evaluates its candidate XPaths with it; an XPath of any other form
// (the disclosure-toggle test, literals that need concat) goes to the XPath engine,
// as does a page whose tested attributes are not valid UTF-8, so the elements
// selected are always the engine's.

// nativeXPath is a parsed XPath of the native form.
type nativeXPath struct {
	anywhere bool // starts with //
	steps    []nativeStep
}

type nativeStep struct {
	tag   string
	conds []nativeCond
}

// nativeCond is one test of a step: child (a child element with tag lit), or an
// attribute test on the normalised value v of attribute attr: contains(' '+v+' ',
// lit), contains(' '+v, lit) (open) or starts-with(v, lit) (prefix).
type nativeCond struct {
	kind int
	attr string
	lit  string
}

const (
	condChild = iota
	condToken
	condOpen
	condPrefix
)

// parseNativeXPath parses xp, or reports false when it is not of the native form.
func parseNativeXPath(xp string) (*nativeXPath, bool) {
	out := &nativeXPath{}
	switch {
	case strings.HasPrefix(xp, "//"):
		out.anywhere, xp = true, xp[2:]
	case strings.HasPrefix(xp, "/"):
		xp = xp[1:]
	default:
		return nil, false
	}
	for {
		n := nameLen(xp)
		if n == 0 {
			return nil, false
		}
		st := nativeStep{tag: xp[:n]}
		xp = xp[n:]
		for strings.HasPrefix(xp, "[") {
			xp = xp[1:]
			if n := nameLen(xp); n > 0 && strings.HasPrefix(xp[n:], "]") {
				st.conds = append(st.conds, nativeCond{kind: condChild, lit: xp[:n]})
				xp = xp[n+1:]
				continue
			}
			for {
				c, rest, ok := parseNativeCond(xp)
				if !ok {
					return nil, false
				}
				st.conds = append(st.conds, c)
				if r, ok := strings.CutPrefix(rest, " and "); ok {
					xp = r
					continue
				}
				if r, ok := strings.CutPrefix(rest, "]"); ok {
					xp = r
					break
				}
				return nil, false
			}
		}
		out.steps = append(out.steps, st)
		if xp == "" {
			return out, true
		}
		if !strings.HasPrefix(xp, "/") || strings.HasPrefix(xp, "//") {
			return nil, false
		}
		xp = xp[1:]
	}
}

// parseNativeCond parses one attribute test at the start of s.
func parseNativeCond(s string) (nativeCond, string, bool) {
	var c nativeCond
	var ok bool
	forms := []struct {
		kind      int
		pre, post string
	}{
		{condToken, "contains(concat(' ',normalize-space(@", "),' '),"},
		{condOpen, "contains(concat(' ',normalize-space(@", ")),"},
		{condPrefix, "starts-with(normalize-space(@", "),"},
	}
	for _, f := range forms {
		rest, found := strings.CutPrefix(s, f.pre)
		if !found {
			continue
		}
		n := nameLen(rest)
		if n == 0 {
			continue
		}
		after, found := strings.CutPrefix(rest[n:], f.post)
		if !found {
			continue
		}
		c.kind, c.attr = f.kind, rest[:n]
		s, ok = after, true
		break
	}
	if !ok || s == "" {
		return c, "", false
	}
	q := s[0]
	if q != '\'' && q != '"' {
		return c, "", false
	}
	end := strings.IndexByte(s[1:], q)
	if end < 0 {
		return c, "", false
	}
	c.lit = s[1 : 1+end]
	rest, found := strings.CutPrefix(s[2+end:], ")")
	return c, rest, found
}

// nameLen is the length of the tag or attribute name at the start of s.
func nameLen(s string) int {
	i := 0
	for i < len(s) {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && (c >= '0' && c <= '9' || c == '-' || c == '_') {
			i++
			continue
		}
		break
	}
	return i
}

// selectAll returns the elements of page p that x selects, in document order, or
// false when an attribute it tests is not valid UTF-8 (the engine's normalisation then
// differs from strings.Fields). The page's element table holds every element of its
// document.
func (x *nativeXPath) selectAll(p *page) ([]*html.Node, bool) {
	var out []*html.Node
	ok := true
	last := len(x.steps) - 1
	tag := x.steps[last].tag
	for i := range p.elems {
		if e := &p.elems[i]; e.tag == tag && x.matches(e.n, last, &ok) {
			out = append(out, e.n)
		}
		if !ok {
			return nil, false
		}
	}
	return out, true
}

// matches reports whether element n matches step k and its ancestors the steps
// before it.
func (x *nativeXPath) matches(n *html.Node, k int, ok *bool) bool {
	for ; k >= 0; k-- {
		if n == nil || n.Type != html.ElementNode || n.Data != x.steps[k].tag {
			return false
		}
		for _, c := range x.steps[k].conds {
			if !c.holds(n, ok) {
				return false
			}
		}
		n = n.Parent
	}
	return x.anywhere || (n != nil && n.Type == html.DocumentNode)
}

func (c *nativeCond) holds(n *html.Node, ok *bool) bool {
	if c.kind == condChild {
		for d := n.FirstChild; d != nil; d = d.NextSibling {
			if d.Type == html.ElementNode && d.Data == c.lit {
				return true
			}
		}
		return false
	}
	v := ""
	for _, a := range n.Attr {
		if a.Key == c.attr {
			v = a.Val
			break
		}
	}
	if !utf8.ValidString(v) {
		*ok = false
		return false
	}
	if !plainSpaced(v) {
		v = strings.Join(strings.Fields(v), " ")
	}
	switch c.kind {
	case condToken:
		return strings.Contains(" "+v+" ", c.lit)
	case condOpen:
		return strings.Contains(" "+v, c.lit)
	}
	return strings.HasPrefix(v, c.lit)
}
