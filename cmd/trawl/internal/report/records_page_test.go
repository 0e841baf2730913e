package report_test

import (
	"strings"
	"testing"

	"github.com/trawl-dev/trawl/cmd/trawl/internal/report"
	"github.com/trawl-dev/trawl/probe"
	"github.com/trawl-dev/trawl/records"
)

func TestRecordsPages(t *testing.T) {
	rec := func(page, xp string, extra ...string) records.Record {
		return records.Record{Page: page, XPath: xp, Extra: extra}
	}
	probes := []probe.Probe{
		{N: 1, Pages: []probe.PageRef{{File: "pages/0001-1.html", URL: "http://s/1"}}},
		{N: 2, Pages: []probe.PageRef{{File: "pages/0002-1.html", URL: "http://s/2"}, {File: "pages/0002-2.html", URL: "http://s/2?p=2"}}},
		{N: 3, Pages: []probe.PageRef{{File: "pages/0003-1.html", URL: "http://s/3"}}},
	}
	tests := []struct {
		name   string
		probes []probe.Probe
		recs   []records.Record
		want   []string // files, best first
	}{
		{"first page with several records wins", probes, []records.Record{
			rec("pages/0002-2.html", "/a"), rec("pages/0002-2.html", "/b"), rec("pages/0002-2.html", "/c"),
			rec("pages/0001-1.html", "/a"),
			rec("pages/0003-1.html", "/a"), rec("pages/0003-1.html", "/b"), rec("pages/0003-1.html", "/c"), rec("pages/0003-1.html", "/d"),
		}, []string{"pages/0002-2.html", "pages/0003-1.html", "pages/0001-1.html"}},
		{"few records everywhere: most first", probes, []records.Record{
			rec("pages/0001-1.html", "/a"), rec("pages/0003-1.html", "/a"), rec("pages/0003-1.html", "/b"),
		}, []string{"pages/0003-1.html", "pages/0001-1.html"}},
		{"pages no probe lists come after", probes, []records.Record{
			rec("saved/x.html", "/a"), rec("saved/x.html", "/b"), rec("saved/x.html", "/c"),
			rec("pages/0003-1.html", "/a"), rec("pages/0003-1.html", "/b"), rec("pages/0003-1.html", "/c"),
		}, []string{"pages/0003-1.html", "saved/x.html"}},
		{"no probe log: records order", nil, []records.Record{
			rec("pages/0003-1.html", "/a"), rec("pages/0003-1.html", "/b"), rec("pages/0003-1.html", "/c"),
			rec("pages/0001-1.html", "/a"), rec("pages/0001-1.html", "/b"), rec("pages/0001-1.html", "/c"),
		}, []string{"pages/0003-1.html", "pages/0001-1.html"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := report.RecordsPages(tc.probes, tc.recs)
			var files []string
			for _, pg := range got {
				files = append(files, pg.File)
			}
			if strings.Join(files, " ") != strings.Join(tc.want, " ") {
				t.Errorf("pages %v, want %v", files, tc.want)
			}
		})
	}
	// URL, probe number and Extra XPaths travel with the page.
	got := report.RecordsPages(probes, []records.Record{rec("pages/0002-2.html", "/dt[1]", "/dd[1]"), rec("pages/0002-2.html", "/dt[2]", "/dd[2]")})
	if len(got) != 1 || got[0].URL != "http://s/2?p=2" || got[0].Probe != 2 ||
		strings.Join(got[0].Records[1], " ") != "/dt[2] /dd[2]" {
		t.Errorf("page %+v", got)
	}
}
