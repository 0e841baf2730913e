package schema

import (
	"bytes"
	"cmp"
	"context"
	"log/slog"
	"slices"
	"strconv"
	"strings"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
	"golang.org/x/net/html/charset"

	"github.com/trawl-dev/trawl/records"
)

// Table headers. Records isolated from a table are its rows; the header row is not part
// of any record, so its cells are read from the page: the record's XPath locates its row,
// the row's table gives the header (the first row of <thead>, or the first row of <th>
// cells above the record), and each leaf is traced to the column of the cell holding it.
// This is the "table header" annotator of Lu et al., TKDE 2013.

// maxHeaderRecords bounds the records looked up per page.
const maxHeaderRecords = 200

// headerLabels labels candidates with the header of the column their leaves sit in.
func headerLabels(ctx context.Context, cands []*cand, recs []records.Record, rs []rec, page func(string) ([]byte, error), log *slog.Logger) error {
	byPage := map[string][]int{}
	var pages []string
	for i := range recs {
		p := recs[i].Page
		if p == "" {
			continue
		}
		if _, ok := byPage[p]; !ok {
			pages = append(pages, p)
		}
		byPage[p] = append(byPage[p], i)
	}
	slices.Sort(pages)
	votes := headerVotes{}
	for _, p := range pages {
		if err := ctx.Err(); err != nil {
			return err
		}
		raw, err := page(p)
		if err != nil {
			log.Warn("page not readable: no table headers from it", "page", p, "err", err)
			continue
		}
		doc, err := parseHTML(raw)
		if err != nil {
			log.Warn("page not parsable: no table headers from it", "page", p, "err", err)
			continue
		}
		idx := byPage[p]
		if len(idx) > maxHeaderRecords {
			idx = idx[:maxHeaderRecords]
		}
		for _, ri := range idx {
			votes.add(doc, recs[ri], rs[ri])
		}
	}
	if len(votes) > 0 {
		votes.label(cands)
	}
	return nil
}

// leafAt is a leaf location: its record-internal path and occurrence.
type leafAt struct {
	path string
	nth  int
}

// headerVotes counts, per leaf location, the header texts of the columns its leaves sit in.
type headerVotes map[leafAt]map[string]int

// add votes for the headers of the leaves of one record, a row of a table of doc.
func (votes headerVotes) add(doc *html.Node, r records.Record, rc rec) {
	row := resolveXPath(doc, r.XPath)
	if row == nil || row.DataAtom != atom.Tr {
		return
	}
	header := headerRow(row)
	if header == nil {
		return
	}
	cols := textColumns(row)
	// Trace the leaves to the text nodes, in order.
	k := 0
	for li := range rc.leaves {
		lf := &rc.leaves[li]
		if lf.text == "" {
			continue
		}
		for j := k; j < len(cols); j++ {
			if cols[j].text == lf.text || strings.Contains(cols[j].text, lf.text) || strings.HasPrefix(lf.text, cols[j].text) {
				k = j + 1
				if c := cols[j].col; c >= 0 && c < len(header) && header[c] != "" && norm(header[c]) != norm(lf.text) {
					key := leafAt{lf.path, lf.nth}
					if votes[key] == nil {
						votes[key] = map[string]int{}
					}
					votes[key][header[c]]++
				}
				break
			}
		}
	}
}

// label gives the candidates their headers: the first kept candidate (in order) reading
// a leaf location takes its most voted header, when at least half its records vote.
func (votes headerVotes) label(cands []*cand) {
	taken := map[leafAt]bool{}
	sorted := slices.Clone(cands)
	slices.SortStableFunc(sorted, func(a, b *cand) int { return cmp.Compare(a.pos, b.pos) })
	for _, c := range sorted {
		if c.dropped != "" || c.locs[0].Attr != "" {
			continue
		}
		for _, l := range c.locs {
			key := leafAt{l.Path, max(l.Nth, 1)}
			if taken[key] || votes[key] == nil {
				continue
			}
			taken[key] = true
			best := sortedCounts(votes[key])[0]
			if float64(best.n) >= 0.5*float64(c.records()) {
				c.labels = append(c.labels, Label{Text: best.key, Source: "header", Support: best.n})
			}
		}
	}
}

// parseHTML decodes a page (its declared or sniffed charset, UTF-8 by default) and
// parses it as HTML5.
func parseHTML(raw []byte) (*html.Node, error) {
	enc, _, _ := charset.DetermineEncoding(raw, "text/html")
	if dec, err := enc.NewDecoder().Bytes(raw); err == nil {
		raw = dec
	}
	return html.Parse(bytes.NewReader(raw))
}

// resolveXPath follows an absolute, index-qualified XPath (/html[1]/body[1]/div[2]) from
// the document node. It returns nil when a step does not resolve or is not of that form.
func resolveXPath(doc *html.Node, xp string) *html.Node {
	if !strings.HasPrefix(xp, "/") {
		return nil
	}
	n := doc
	for _, step := range strings.Split(strings.TrimPrefix(xp, "/"), "/") {
		name, idx := step, 1
		if i := strings.IndexByte(step, '['); i >= 0 {
			if !strings.HasSuffix(step, "]") {
				return nil
			}
			v, err := strconv.Atoi(step[i+1 : len(step)-1])
			if err != nil || v < 1 {
				return nil
			}
			name, idx = step[:i], v
		}
		name = strings.ToLower(name)
		var next *html.Node
		k := 0
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && c.Data == name {
				k++
				if k == idx {
					next = c
					break
				}
			}
		}
		if next == nil {
			return nil
		}
		n = next
	}
	return n
}

// headerRow returns the header cell texts, by column, of the table holding row: the
// first row of its <thead>, or else the first row made only of <th> cells that comes
// before row. It returns nil when there is none. Rows of nested tables do not count.
func headerRow(row *html.Node) []string {
	r := goquery.NewDocumentFromNode(row).Selection
	table := r.Closest("table")
	if table.Length() == 0 {
		return nil
	}
	rows := table.Find("tr").FilterFunction(func(_ int, tr *goquery.Selection) bool {
		return tr.Closest("table").IsSelection(table)
	})
	hdr := rows.FilterFunction(func(_ int, tr *goquery.Selection) bool { return tr.Parent().Is("thead") }).First()
	if hdr.Length() == 0 {
		rows.EachWithBreak(func(_ int, tr *goquery.Selection) bool {
			if tr.IsSelection(r) {
				return false
			}
			if cells := tr.Children(); cells.Length() > 0 && cells.Not("th").Length() == 0 {
				hdr = tr
				return false
			}
			return true
		})
	}
	if hdr.Length() == 0 || hdr.IsSelection(r) {
		return nil
	}
	var out []string
	hdr.ChildrenFiltered("th, td").Each(func(_ int, cell *goquery.Selection) {
		t, _ := Clean(goquery.Text(cell, &cellText))
		for range colspan(cell) {
			out = append(out, t)
		}
	})
	return out
}

// cellText reads the text of a cell: its text nodes, separated, without scripts and
// styles.
var cellText = goquery.TextOptions{Separator: " ", Keep: func(n *html.Node) bool {
	return n.Parent == nil || (n.Parent.DataAtom != atom.Script && n.Parent.DataAtom != atom.Style)
}}

// colspan is the number of columns a cell spans (1 to 100).
func colspan(cell *goquery.Selection) int {
	if v, err := strconv.Atoi(strings.TrimSpace(cell.AttrOr("colspan", "1"))); err == nil && v >= 1 && v <= 100 {
		return v
	}
	return 1
}

type colText struct {
	text string
	col  int
}

// textColumns lists the text nodes under a row in document order, each with the column
// of its cell.
func textColumns(row *html.Node) []colText {
	var out []colText
	col := 0
	goquery.NewDocumentFromNode(row).ChildrenFiltered("td, th").Each(func(_ int, cell *goquery.Selection) {
		var walk func(n *html.Node)
		walk = func(n *html.Node) {
			switch {
			case n.Type == html.TextNode && cellText.Keep(n):
				if t, _ := Clean(n.Data); t != "" {
					out = append(out, colText{t, col})
				}
			case n.Type == html.ElementNode && (n.DataAtom == atom.Script || n.DataAtom == atom.Style):
				return
			}
			for k := n.FirstChild; k != nil; k = k.NextSibling {
				walk(k)
			}
		}
		walk(cell.Get(0))
		col += colspan(cell)
	})
	return out
}
