package report

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"html/template"
	"image/png"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/trawl-dev/trawl/internal/rundir"
)

// The form section: its screenshot and its input schema.

func (b *builder) form() formView {
	d := b.d
	v := formView{Section: b.sectionOf(rundir.FormFile)}
	shot := rundir.FormPNG
	if d.probeRun != nil && d.probeRun.Shot != "" {
		shot = d.probeRun.Shot
	}
	v.Shot = b.image(shot)
	if d.probeRun != nil {
		for i, f := range d.probeRun.Forms {
			k := fmt.Sprintf("form %d", i+1)
			if i == d.probeRun.Chosen {
				k += " (probed)"
			}
			v.Found = append(v.Found, kv{k, fmt.Sprintf("%s (%.2f), %s %s, %s", f.Class, f.Confidence, f.Method, f.Action, f.XPath)})
		}
	}
	f := d.form
	if f == nil {
		if d.schema != nil && len(d.schema.Source.Fields) > 0 {
			v.FromSchema = true
			for _, fi := range d.schema.Source.Fields {
				v.Fields = append(v.Fields, fieldRow{Name: fi.Name, Type: fi.Type, Label: fi.Label})
			}
		}
		return v
	}
	v.Known = true
	v.Class, v.Confidence = string(f.Class), conf(f.Confidence)
	v.Method, v.Action, v.PageURL, v.XPath = f.Method, f.Action, f.PageURL, f.XPath
	v.TextBefore = clip(f.TextBefore)
	v.Keyword = strings.Join(f.KeywordFields, ", ")
	for _, fd := range f.Fields {
		r := fieldRow{Name: fd.Name, Type: fd.Type, Label: fd.Label, LabelSource: fd.LabelSource,
			Role: fd.Role, Keyword: slices.Contains(f.KeywordFields, fd.Name), Submit: fd.Submit}
		if fd.Value != "" {
			r.Default = clip(fd.Value)
		}
		if fd.Type == "" {
			r.Type = fd.Tag
		}
		var opts []string
		for _, o := range fd.Options {
			t := o.Text
			if t == "" {
				t = o.Value
			}
			if t == "" {
				t = "(empty)"
			}
			if o.Selected {
				t += " ✓"
			}
			opts = append(opts, t)
		}
		if len(opts) > 0 {
			r.Options = strings.Join(clipAll(opts, 6), " · ")
			r.OptionsAll = clip(strings.Join(opts, " · "))
			if len(opts) > 6 {
				r.OptionsAll = fmt.Sprintf("%d options", len(opts))
			}
		}
		var c []string
		if fd.Required {
			c = append(c, "required")
		}
		if fd.Disabled {
			c = append(c, "disabled")
		}
		if fd.ReadOnly {
			c = append(c, "read-only")
		}
		if fd.Multiple {
			c = append(c, "multiple")
		}
		if fd.MinLength > 0 {
			c = append(c, fmt.Sprintf("minlength %d", fd.MinLength))
		}
		if fd.MaxLength > 0 {
			c = append(c, fmt.Sprintf("maxlength %d", fd.MaxLength))
		}
		if fd.Pattern != "" {
			c = append(c, "pattern "+clip(fd.Pattern))
		}
		if fd.Min != "" {
			c = append(c, "min "+fd.Min)
		}
		if fd.Max != "" {
			c = append(c, "max "+fd.Max)
		}
		if fd.Step != "" {
			c = append(c, "step "+fd.Step)
		}
		r.Constraints = strings.Join(c, ", ")
		v.Fields = append(v.Fields, r)
	}
	return v
}

// image reads a PNG of the run directory into a data: URI. The bytes must decode as a
// PNG header (nothing else is ever put into the report as an image) and fit the cap.
func (b *builder) image(rel string) imageView {
	v := imageView{File: rel}
	path, err := rundir.Path(b.d.dir, rel)
	if err != nil {
		v.Note = fmt.Sprintf("%v; not shown", err)
		return v
	}
	st, err := os.Stat(path)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			v.Note = err.Error()
		}
		return v
	}
	if st.Size() > b.o.MaxEmbedBytes {
		v.Note = fmt.Sprintf("%s is %s, more than the %s cap on embedded files; open it next to the report", rel, SizeOf(st.Size()), SizeOf(b.o.MaxEmbedBytes))
		return v
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		v.Note = err.Error()
		return v
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(raw))
	if err != nil {
		v.Note = fmt.Sprintf("%s is not a PNG image (%v); not shown", rel, err)
		return v
	}
	v.Width, v.Height = cfg.Width, cfg.Height
	v.Src = template.URL("data:image/png;base64," + base64.StdEncoding.EncodeToString(raw))
	return v
}

// SizeOf formats a file size for people.
func SizeOf(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.0f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
