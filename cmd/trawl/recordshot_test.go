package main

import (
	"bytes"
	"errors"
	"image/png"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html/atom"

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
			got := recordsPages(tc.probes, tc.recs)
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
	got := recordsPages(probes, []records.Record{rec("pages/0002-2.html", "/dt[1]", "/dd[1]"), rec("pages/0002-2.html", "/dt[2]", "/dd[2]")})
	if len(got) != 1 || got[0].URL != "http://s/2?p=2" || got[0].Probe != 2 ||
		strings.Join(got[0].Records[1], " ") != "/dt[2] /dd[2]" {
		t.Errorf("page %+v", got)
	}
}

// TestWriteRecordsScreenshotNoRecords: a run without records gives errNoRecords (no
// browser is needed to find that out) and drops a screenshot of an earlier run.
func TestWriteRecordsScreenshotNoRecords(t *testing.T) {
	tests := []struct {
		name    string
		records *string // nil: no records.jsonl
		want    string
	}{
		{"no records.jsonl", nil, "records.jsonl does not exist (it is written by trawl extract RUN_DIR)"},
		{"empty records.jsonl", new(""), "records.jsonl holds no record"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			old := filepath.Join(dir, fileRecordsPNG)
			if err := writeFileAtomic(old, testPNG(t, 10, 10)); err != nil {
				t.Fatal(err)
			}
			if tc.records != nil {
				if err := os.WriteFile(filepath.Join(dir, records.RecordsFile), []byte(*tc.records), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			err := writeRecordsScreenshot(t.Context(), nil, dir, nil)
			if !errors.Is(err, errNoRecords) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want errNoRecords saying %q", err, tc.want)
			}
			if _, err := os.Stat(old); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the earlier screenshot is still there (%v)", err)
			}
		})
	}
	// A bad records.jsonl names its line.
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, records.RecordsFile), []byte("{\"page\":\"p\",\"xpath\":\"/a\"}\n{oops\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := writeRecordsScreenshot(t.Context(), nil, dir, nil); err == nil || errors.Is(err, errNoRecords) || !strings.Contains(err.Error(), "records.jsonl:2") {
		t.Errorf("bad line: err = %v, want one naming records.jsonl:2", err)
	}
}

// TestWriteRecordsScreenshotBrowser writes screenshots/records.png for a run of the
// bookshop test site (pages fetched over HTTP, records by FOREST), and the report embeds
// it.
func TestWriteRecordsScreenshotBrowser(t *testing.T) {
	needBrowser(t)
	dir := t.TempDir()
	writeRunDir(t, dir, map[string]string{"life": "term", "love": "term", "dead": "term", "the": "stopword", "qzxwvkjptr": "nonsense"})
	var out, errOut bytes.Buffer
	if err := runExtract(t.Context(), globalOptions{stderr: &errOut}, extractOptions{RunDir: dir, Mode: "records", Regions: "best", Signifiers: "auto", TopK: 10}, &out); err != nil {
		t.Fatalf("runExtract: %v\n%s", err, errOut.String())
	}
	f, err := os.Open(filepath.Join(dir, records.RecordsFile))
	if err != nil {
		t.Fatal(err)
	}
	recs, err := records.ReadRecords(f, records.RecordsFile)
	_ = f.Close()
	if err != nil {
		t.Fatal(err)
	}
	probes, err := probe.ReadProbes(dir)
	if err != nil {
		t.Fatal(err)
	}
	best := recordsPages(probes, recs)[0]

	o := probe.DefaultOptions()
	o.Delay, o.StepTimeout, o.SettleTimeout, o.Tabs = 0, 15*time.Second, 3*time.Second, 1
	b, err := probe.Start(t.Context(), o)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	pr, err := probe.NewProber(b, o)
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	if err := writeRecordsScreenshot(t.Context(), pr, dir, log); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(dir, fileRecordsPNG))
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("screenshots/records.png: %v", err)
	}
	if w, h := img.Bounds().Dx(), img.Bounds().Dy(); w != 1280 || h < 300 || h > 4000 {
		t.Errorf("screenshot %d×%d", w, h)
	}
	if !strings.Contains(logs.String(), "page="+best.File) || !strings.Contains(logs.String(), "outlined="+strconv.Itoa(len(best.Records))) {
		t.Errorf("log does not tell that %s was shown with %d records outlined:\n%s", best.File, len(best.Records), logs.String())
	}
	t.Log(strings.TrimSpace(logs.String()))
	if strings.Contains(logs.String(), "level=WARN") {
		t.Errorf("warnings:\n%s", logs.String())
	}

	res, err := writeReportResult(t.Context(), dir, reportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	page, _ := os.ReadFile(res.Path)
	found := false
	for _, n := range findAll(checkHTML(t, page), atom.Img) {
		if attr(n, "alt") == "result page with the records outlined (screenshots/records.png)" {
			found = true
		}
	}
	if !found {
		t.Error("the report does not show screenshots/records.png")
	}
}
