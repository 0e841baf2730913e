package report

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/trawl-dev/trawl/internal/rundir"
	"github.com/trawl-dev/trawl/probe"
)

// The page section: a result page with its records outlined.

func (b *builder) page() pageView {
	d := b.d
	v := pageView{Section: b.sectionOf(rundir.ProbesFile, rundir.RecordsFile)}
	if d.wrapper != nil {
		v.XPath = d.wrapper.XPath
		counts := map[string]int{}
		for _, pc := range d.wrapper.Pages {
			counts[pc.Class]++
		}
		var cs []string
		for _, c := range slices.Sorted(maps.Keys(counts)) {
			cs = append(cs, fmt.Sprintf("%d %s", counts[c], c))
		}
		v.Classes = strings.Join(cs, ", ")
	}
	v.Shot = b.image(rundir.RecordsPNG)
	if d.records == nil {
		return v
	}
	if len(d.records) == 0 {
		v.Note = "records.jsonl holds no record: FOREST found no record list on the pages."
		return v
	}
	// The page the records screenshot shows (recordsPages: the first page in probe order
	// with several records).
	var ref *probe.PageRef
	if pages := RecordsPages(d.probes, d.records); len(pages) > 0 {
		for _, p := range d.probes {
			for i := range p.Pages {
				if p.Pages[i].File == pages[0].File {
					ref, v.Probe, v.Terms = &p.Pages[i], p.N, strings.Join(p.Terms, " | ")
				}
			}
		}
	}
	if ref == nil {
		ref = &probe.PageRef{File: d.records[0].Page}
	}
	v.File, v.URL = ref.File, ref.URL
	if ref.Screenshot != "" {
		v.PageShot = b.image(ref.Screenshot)
	}
	var recs [][]string
	for _, r := range d.records {
		if r.Page != ref.File {
			continue
		}
		v.Records++
		recs = append(recs, append([]string{r.XPath}, r.Extra...))
		if len(v.Sample) < sampleRecords {
			rv := recordView{N: v.Records, XPath: r.XPath}
			for _, l := range r.Leaves {
				rv.Leaves = append(rv.Leaves, leafRow{Path: l.Path, Text: clip(l.Text), Href: l.Href, Src: l.Src, Alt: clip(l.Alt)})
			}
			v.Sample = append(v.Sample, rv)
		}
	}
	path, err := rundir.Path(b.d.dir, ref.File)
	if err != nil {
		v.Note = fmt.Sprintf("%v; not shown", err)
		return v
	}
	st, err := os.Stat(path)
	if err != nil {
		v.Note = fmt.Sprintf("the saved page is not available: %v (it is written by %s)", err, byProbe)
		return v
	}
	if st.Size() > b.o.MaxEmbedBytes {
		v.Note = fmt.Sprintf("%s is %s, more than the %s cap on embedded pages; it is not embedded (open it next to the report)", ref.File, SizeOf(st.Size()), SizeOf(b.o.MaxEmbedBytes))
		return v
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		v.Note = err.Error()
		return v
	}
	op, err := outlinePage(raw, recs)
	if err != nil {
		v.Note = fmt.Sprintf("%s: %v", ref.File, err)
		return v
	}
	v.Known = true
	v.Srcdoc, v.Found, v.Missed, v.Problems = op.Srcdoc, op.Found, op.Missed, clipAll(op.Problems, 10)
	return v
}
