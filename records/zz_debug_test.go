package records

import (
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestZZDebugArticle(t *testing.T) {
	id := os.Getenv("ZZID")
	if id == "" {
		t.Skip("ZZID not set")
	}
	m, _ := filepath.Glob("/work/shared/data/article-extraction/html/" + id + "*.html.gz")
	f, _ := os.Open(m[0])
	zr, _ := gzip.NewReader(f)
	raw, _ := io.ReadAll(zr)
	p, _ := parsePage(id, raw, true)
	a := newArticlePage(p)
	e := chooseBlock(a)
	fmt.Println("block", absXPath(a.elems[e].n), a.elems[e].n.Attr)
	for i := range a.units {
		u := &a.units[i]
		in := u.owner >= e && u.owner < a.elems[e].end
		txt := u.text
		if len(txt) > 90 {
			txt = txt[:90]
		}
		fmt.Printf("%5v in=%v w=%d l=%d boil=%v tpl=%v v=%.0f %s | %q\n", i, in, u.words, u.links, u.boil, u.template, unitValue(u), a.elems[u.owner].tag+fmt.Sprint(a.elems[u.owner].n.Attr), txt)
	}
}
