package records

import (
	"strings"
	"testing"
	"unicode"

	"github.com/antchfx/htmlquery"
	"github.com/antchfx/xpath"
	"golang.org/x/net/html"
)

// TestTolerantASCII checks the fast path of tolerantForm against the general one.
func TestTolerantASCII(t *testing.T) {
	general := func(v string) string {
		v = strings.TrimLeftFunc(v, unicode.IsSpace)
		if i := strings.IndexFunc(v, unicode.IsSpace); i >= 0 {
			v = v[:i]
		}
		if strings.IndexFunc(v, unicode.IsDigit) >= 0 {
			return "" // not the fast path's
		}
		return strings.Trim(v, "-_")
	}
	for _, v := range []string{"", " ", "post", "  post wrapper-02", "\tcard\nitem", "-_x_-", "__",
		"a\vb", "a\fb", "\u00a0post", "café", "item-12", "post\u00a0x", "x\u0085y", "--"} {
		got, ok := tolerantASCII(v)
		want := general(v)
		slow := strings.IndexFunc(strings.Fields(v + " x")[0], func(r rune) bool { return unicode.IsDigit(r) || r >= 0x80 }) >= 0 ||
			strings.ContainsAny(v, "\u00a0\u0085")
		if ok == slow {
			t.Errorf("tolerantASCII(%q): ok %v", v, ok)
		}
		if ok && got != want {
			t.Errorf("tolerantASCII(%q) = %q, want %q", v, got, want)
		}
		if tolerantForm(v) != want && !slow {
			t.Errorf("tolerantForm(%q) = %q, want %q", v, tolerantForm(v), want)
		}
	}
}

// TestContentOK checks the native content test against the XPath engine's.
func TestContentOK(t *testing.T) {
	doc, err := html.Parse(strings.NewReader(`<body><div id=a> <!-- x --> </div><div id=b><span> </span><img></div>
<div id=c>` + "\u00a0\u2003" + `</div><div id=d><p><b>x</b></p></div><p id=e><script>var x</script></p>
<div id=f>` + "\xc2" + `<i></i>` + "\xa0" + `</div><div id=g>` + "\xff" + `</div><ul id=h><li><img></li></ul><img id=i></body>`))
	if err != nil {
		t.Fatal(err)
	}
	expr := xpath.MustCompile("self::*" + contentTest)
	n := 0
	var walk func(c *html.Node)
	walk = func(c *html.Node) {
		if c.Type == html.ElementNode {
			n++
			want := htmlquery.QuerySelector(c, expr) != nil
			if got := contentOK(c); got != want {
				t.Errorf("<%s id=%s>: contentOK %v, XPath %v", c.Data, attr(c, "id"), got, want)
			}
		}
		for d := c.FirstChild; d != nil; d = d.NextSibling {
			walk(d)
		}
	}
	walk(doc)
	if n < 12 {
		t.Fatalf("%d elements checked", n)
	}
}
