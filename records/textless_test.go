package records

import (
	"slices"
	"strconv"
	"strings"
	"testing"
)

// textlessGrid is a product grid of cells: a cell is a product tile (a picture, a linked
// name, a price) for every name, and a picture alone (a promotional tile) where the name
// is "". A name that starts with "~" is a captioned picture: the name without a price.
func textlessGrid(names []string) []byte {
	var b strings.Builder
	b.WriteString(`<html><body><main><div class="grid">`)
	for i, n := range names {
		k := strconv.Itoa(i)
		if n == "" {
			b.WriteString(`<div class="cell"><div class="tile"><a href="/promo/` + k + `"><img src="/promo` + k + `.jpg" alt="Content block"><div class="caption"><div></div></div></a></div></div>`)
			continue
		}
		if c, ok := strings.CutPrefix(n, "~"); ok {
			b.WriteString(`<div class="cell"><div class="tile"><a href="/p/` + k + `"><img src="/p` + k + `.jpg" alt=""><div class="caption"><div>` + c + `</div></div></a></div></div>`)
			continue
		}
		b.WriteString(`<div class="cell"><div class="tile"><a href="/p/` + k + `"><img src="/p` + k + `.jpg" alt=""><div class="caption"><div>` + n + `</div></div></a><span class="price">$` + k + `9.00</span></div></div>`)
	}
	b.WriteString(`</div></main></body></html>`)
	return []byte(b.String())
}

// TestDropTextless checks dropTextless on the matches of one pattern.
func TestDropTextless(t *testing.T) {
	tests := []struct {
		name  string
		names []string
		want  int // matches kept
	}{
		{"a promotional picture among five products", []string{"Oak beads", "Glass beads", "", "Oak rings", "Silk cords", "Oak clasps"}, 5},
		{"a gallery of pictures alone", []string{"", "", "", ""}, 4},
		{"two products and a picture: too few with text", []string{"Oak beads", "", "Oak rings"}, 3},
		{"pictures alone are common (two of five)", []string{"Oak beads", "", "Oak rings", "", "Silk cords"}, 5},
		{"products only", []string{"Oak beads", "Glass beads", "Oak rings"}, 3},
		{"captioned pictures, one without a caption", []string{"~Oak beads", "~Glass beads", "", "~Oak rings", "~Silk cords", "~Oak clasps"}, 6},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := parsePage("grid", textlessGrid(tc.names), false)
			if err != nil {
				t.Fatal(err)
			}
			var cells []int32
			for i := range p.elems {
				if p.elems[i].tag == "div" && len(p.elems[i].n.Attr) > 0 && p.elems[i].n.Attr[0].Val == "cell" {
					cells = append(cells, int32(i))
				}
			}
			if len(cells) != len(tc.names) {
				t.Fatalf("%d cells, want %d", len(cells), len(tc.names))
			}
			if got := dropTextless(p, cells); len(got) != tc.want {
				t.Errorf("dropTextless kept %d of %d, want %d", len(got), len(cells), tc.want)
			}
		})
	}
}

// TestTextlessNotRecord runs Extract on product grids holding a promotional picture in
// one cell: the products are the records, the template XPath selects them exactly, and
// the wrapper read back from JSON leaves the picture out on another page. A gallery of
// pictures alone keeps its pictures.
func TestTextlessNotRecord(t *testing.T) {
	pages := []Page{
		{Name: "a.html", HTML: textlessGrid([]string{"Oak beads", "Glass beads", "", "Oak rings", "Silk cords", "Oak clasps"}), Terms: []string{"oak"}},
		{Name: "b.html", HTML: textlessGrid([]string{"Oak hoops", "", "Oak pins", "Wire", "Oak nails"})},
	}
	for _, regions := range []RegionPolicy{RegionsBest, RegionsAll} {
		w, got := recordXPaths(t, pages[:1], regions, "")
		if len(got) != 5 || slices.Contains(got, "/html[1]/body[1]/main[1]/div[1]/div[3]") {
			t.Errorf("%s: records %q, want the five products", regions, got)
		}
		if len(w.Templates) == 0 || !w.Templates[0].XPathExact {
			t.Errorf("%s: the template XPath does not select the records exactly: %+v", regions, w.Templates)
		}
		if n := appliedCount(t, w, pages[1]); n != 4 {
			t.Errorf("%s: Apply found %d records on b.html, want the four products", regions, n)
		}
	}
}
