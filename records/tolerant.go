package records

import (
	"slices"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/net/html"
)

// tolerantForm reduces an attribute value to its tolerant form (thesis ch. 2 §6.2.1): the
// first white-space separated token, without digits, trimmed of '-' and '_' at both ends.
// "post wrapper-02" and "post wrapper-09" both become "post"; "12" becomes "".
// A part of the token (between '-', '_', ':' or '.') that is a hexadecimal number with
// a digit in it — a hash, a UUID part, a per-page or per-request id — goes whole:
// "results-8c1fa2" and "results-b7e0d3" both become "results", where dropping the
// digits alone would leave "results-cfa" and "results-bed", and a wrapper learnt on one
// page would find nothing on the next.
func tolerantForm(v string) string {
	if t, ok := tolerantASCII(v); ok {
		return t
	}
	v = strings.TrimLeftFunc(v, unicode.IsSpace)
	if i := strings.IndexFunc(v, unicode.IsSpace); i >= 0 {
		v = v[:i]
	}
	if strings.IndexFunc(v, unicode.IsDigit) >= 0 {
		v = dropHexParts(v)
		v = strings.Map(func(r rune) rune {
			if unicode.IsDigit(r) {
				return -1
			}
			return r
		}, v)
	}
	return strings.Trim(v, "-_")
}

// tolerantASCII is tolerantForm of a value whose first token is ASCII without digits
// (most class and id values), without the Unicode tables; ok is false for any other
// value, which tolerantForm then reduces the general way.
func tolerantASCII(v string) (string, bool) {
	i := 0
	for i < len(v) && asciiSpace(v[i]) {
		i++
	}
	j, digits := i, false
	for j < len(v) && !asciiSpace(v[j]) {
		c := v[j]
		if c >= 0x80 {
			return "", false
		}
		digits = digits || c >= '0' && c <= '9'
		j++
	}
	t := v[i:j]
	if digits {
		t = dropDigitsASCII(t)
	}
	for len(t) > 0 && (t[0] == '-' || t[0] == '_') {
		t = t[1:]
	}
	for len(t) > 0 && (t[len(t)-1] == '-' || t[len(t)-1] == '_') {
		t = t[:len(t)-1]
	}
	return t, true
}

// dropDigitsASCII is dropHexParts followed by the removal of the digits, for ASCII t.
func dropDigitsASCII(t string) string {
	var buf [64]byte
	out := buf[:0]
	start := 0
	for i := 0; i <= len(t); i++ {
		if i < len(t) && t[i] != '-' && t[i] != '_' && t[i] != ':' && t[i] != '.' {
			continue
		}
		if part := t[start:i]; !isHexID(part) {
			for k := 0; k < len(part); k++ {
				if c := part[k]; c < '0' || c > '9' {
					out = append(out, c)
				}
			}
		}
		if i < len(t) {
			out = append(out, t[i])
		}
		start = i + 1
	}
	return string(out)
}

// asciiSpace reports the ASCII white space of unicode.IsSpace.
func asciiSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// dropHexParts removes the parts of an identifier that are hexadecimal numbers with a
// digit in them, keeping the separators.
func dropHexParts(s string) string {
	var b strings.Builder
	start := 0
	flush := func(end int) {
		part := s[start:end]
		if !isHexID(part) {
			b.WriteString(part)
		}
	}
	for i, r := range s {
		if r == '-' || r == '_' || r == ':' || r == '.' {
			flush(i)
			b.WriteRune(r)
			start = i + 1
		}
	}
	flush(len(s))
	return b.String()
}

// isHexID reports whether part is made of hexadecimal digits only, at least one of
// them a decimal digit and one a letter (plain numbers lose their digits anyway).
func isHexID(part string) bool {
	digit, letter := false, false
	for _, r := range part {
		switch {
		case r >= '0' && r <= '9':
			digit = true
		case (r >= 'a' && r <= 'f') || (r >= 'A' && r <= 'F'):
			letter = true
		default:
			return false
		}
	}
	return digit && letter
}

// DefaultTypeAttributes are the attributes that take part in element types. The thesis
// uses "the collection of attribute key-value pairs"; href, src, data-* and event
// handlers would make every element unique, so trawl keeps the attributes that name a
// role in the template.
var DefaultTypeAttributes = []string{"id", "class", "role", "itemprop", "itemtype"}

// typeAttrs returns the tolerant attribute pairs of n among names, sorted by name, with
// empty tolerant values dropped.
func typeAttrs(n *html.Node, names []string) [][2]string {
	return appendTypeAttrs(nil, n, names)
}

// appendTypeAttrs appends typeAttrs(n, names) to out.
func appendTypeAttrs(out [][2]string, n *html.Node, names []string) [][2]string {
	start := len(out)
	for _, a := range n.Attr {
		if !slices.Contains(names, a.Key) {
			continue
		}
		if v := tolerantForm(a.Val); v != "" {
			out = append(out, [2]string{a.Key, v})
		}
	}
	if len(out)-start > 1 {
		slices.SortFunc(out[start:], func(a, b [2]string) int { return strings.Compare(a[0], b[0]) })
	}
	return out
}

// elementType is the element type of Def. 2 as an XPath step: the tag with its tolerant
// attributes, or, when it has none, the tag with its dfs number (rule ii).
// Examples: div[@id='container'], div[@class='post'], p[@dfs='24'].
func elementType(n *html.Node, dfs int, names []string) string {
	atts := typeAttrs(n, names)
	if len(atts) == 0 {
		return n.Data + "[@dfs='" + strconv.Itoa(dfs) + "']"
	}
	return n.Data + attrPredicate(atts)
}

// recordType is the element type without rule (ii): records of one list must share a
// type although their dfs numbers differ (forest.md §9.2, option a).
func recordType(n *html.Node, names []string) string {
	return n.Data + attrPredicate(typeAttrs(n, pathNames(n, names)))
}

// pathNames returns the type attributes of n as a step of a type path: names without
// the id for a table body section (tbody) of a table whose sections carry different
// ids (or some none). The sections of a table (HTML: "a block of rows that consist of
// a body of data for the parent table") share its columns; a comparison table that
// names each section (tbody#pricing, tbody#ratings) still holds one kind of row, so
// its rows sit at one generic location of the template. Ids of other elements keep
// typing them: sibling containers with ids are often distinct regions, and their
// inner lists are not one list.
func pathNames(n *html.Node, names []string) []string {
	if n.Data != "tbody" || n.Parent == nil || !slices.Contains(names, "id") {
		return names
	}
	id := tolerantForm(attr(n, "id"))
	if id == "" {
		return names
	}
	for s := n.Parent.FirstChild; s != nil; s = s.NextSibling {
		if s.Type == html.ElementNode && s.Data == "tbody" && tolerantForm(attr(s, "id")) != id {
			return slices.DeleteFunc(slices.Clone(names), func(a string) bool { return a == "id" })
		}
	}
	return names
}

func attrPredicate(atts [][2]string) string {
	if len(atts) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteByte('[')
	for i, a := range atts {
		if i > 0 {
			b.WriteString(" and ")
		}
		b.WriteString("@" + a[0] + "='" + a[1] + "'")
	}
	b.WriteByte(']')
	return b.String()
}

// xpathPredicate is the generic-XPath test of an element's tolerant attributes, built
// from the first tokens observed on the elements of a pattern (firsts maps attribute
// names to those tokens): a token test when they are all the same
// ([contains(concat(' ',normalize-space(@class),' '),' post ')]), a prefix test on
// their common prefix when they differ (item-12, item-13: starts-with(…,'item-')), and
// nothing when they share no prefix of two characters.
func xpathPredicate(names []string, firsts map[string][]string) string {
	var conds []string
	for _, name := range names {
		toks := firsts[name]
		if len(toks) == 0 {
			continue
		}
		pre := toks[0]
		same := true
		for _, t := range toks[1:] {
			if t != toks[0] {
				same = false
			}
			for !strings.HasPrefix(t, pre) {
				pre = pre[:len(pre)-1]
			}
		}
		switch {
		case same:
			conds = append(conds, "contains(concat(' ',normalize-space(@"+name+"),' '),"+xpathLiteral(" "+pre+" ")+")")
		case len(pre) >= 2:
			conds = append(conds, "starts-with(normalize-space(@"+name+"),"+xpathLiteral(pre)+")")
		}
	}
	if len(conds) == 0 {
		return ""
	}
	return "[" + strings.Join(conds, " and ") + "]"
}

// firstTokens collects, for each attribute of names that has a tolerant form on the
// element, the first token of its value.
func firstTokens(n *html.Node, names []string, into map[string][]string) {
	for _, a := range typeAttrs(n, names) {
		if f := strings.Fields(attr(n, a[0])); len(f) > 0 {
			into[a[0]] = append(into[a[0]], f[0])
		}
	}
}

// xpathLiteral quotes s as an XPath 1.0 string literal.
func xpathLiteral(s string) string {
	if !strings.Contains(s, "'") {
		return "'" + s + "'"
	}
	if !strings.Contains(s, `"`) {
		return `"` + s + `"`
	}
	parts := strings.Split(s, "'")
	return "concat('" + strings.Join(parts, `', "'", '`) + "')"
}
