package pipeline_test

import (
	"bytes"
	"image/png"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html/atom"

	"github.com/trawl-dev/trawl/cmd/trawl/internal/pipeline"
	"github.com/trawl-dev/trawl/cmd/trawl/internal/report"
	"github.com/trawl-dev/trawl/cmd/trawl/internal/runtest"
	"github.com/trawl-dev/trawl/internal/rundir"
	"github.com/trawl-dev/trawl/probe"
)

// TestWriteRecordsScreenshotBrowser writes screenshots/records.png for a run of the
// bookshop test site (pages fetched over HTTP, records by FOREST), and the report embeds
// it.
func TestWriteRecordsScreenshotBrowser(t *testing.T) {
	runtest.NeedBrowser(t)
	dir := t.TempDir()
	runtest.BookshopProbes(t, dir, map[string]string{"life": "term", "love": "term", "dead": "term", "the": "stopword", "qzxwvkjptr": "nonsense"})
	po := pipeline.DefaultOptions()
	po.Dir = dir
	po.Probe.Screenshots = false
	ex, err := pipeline.New(po, nil).Extract(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	probes, err := rundir.ReadProbes(dir)
	if err != nil {
		t.Fatal(err)
	}
	best := report.RecordsPages(probes, ex.Records)[0]

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
	if err := pipeline.WriteRecordsScreenshot(t.Context(), pr, dir, probes, ex.Records, log); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(dir, rundir.RecordsPNG))
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

	res, err := report.Write(t.Context(), dir, report.Options{})
	if err != nil {
		t.Fatal(err)
	}
	page, _ := os.ReadFile(res.Path)
	found := false
	for _, n := range runtest.FindAll(runtest.CheckHTML(t, page), atom.Img) {
		if runtest.Attr(n, "alt") == "result page with the records outlined (screenshots/records.png)" {
			found = true
		}
	}
	if !found {
		t.Error("the report does not show screenshots/records.png")
	}
}
