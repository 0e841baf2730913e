package schematest

import (
	"fmt"
	"strings"

	"github.com/trawl-dev/trawl/records"
)

// Bulk returns n records of the site's layout, spread over pages of perPage records,
// for benchmarks: the catalogue cycled, each copy with its own identifier and a volume
// number in the title so that the records stay distinct.
func (s *Site) Bulk(n, perPage int) ([]records.Record, error) {
	var out []records.Record
	cat := s.Books
	for page := 0; len(out) < n; page++ {
		site := &Site{Layout: s.Layout, Base: s.Base, PerPage: perPage}
		for k := 0; k < perPage && len(out)+len(site.Books) < n; k++ {
			i := len(out) + k
			b := cat[i%len(cat)]
			b.ID = i + 1
			if i >= len(cat) {
				b.Title = fmt.Sprintf("%s, Volume %d", b.Title, i/len(cat)+1)
			}
			site.Books = append(site.Books, b)
		}
		name := fmt.Sprintf("pages/%04d-1.html", page+1)
		rs, err := Records(site.Page(map[string]string{}), name, s.Base+"/"+strings.TrimPrefix(name, "pages/"), s.RecordXPath(), true)
		if err != nil {
			return nil, err
		}
		out = append(out, rs...)
	}
	return out[:n], nil
}
