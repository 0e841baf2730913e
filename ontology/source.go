package ontology

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/klauspost/compress/gzip"
	"github.com/trawl-dev/trawl/graph"
)

// Format is the syntax of an RDF dump.
type Format int

// The formats the loader reads. Each may be gzip-compressed (detected from the content).
const (
	FormatAuto     Format = iota // detect from the file name and the first lines
	FormatNTriples               // N-Triples (RDF 1.1, with RDF 1.2 triple terms)
	FormatTurtle                 // Turtle, including YAGO 4.5's one-statement-per-line TSV form
	FormatTSV                    // YAGO3 TSV (factId, s, p, o [, value]) or bare YAGO3-10 TSV (s, p, o)
	FormatRDFXML                 // RDF/XML (.rdf, .owl; read whole, graph.ReadRDFXML)
)

func (f Format) String() string {
	switch f {
	case FormatNTriples:
		return "ntriples"
	case FormatTurtle:
		return "turtle"
	case FormatTSV:
		return "tsv"
	case FormatRDFXML:
		return "rdfxml"
	}
	return "auto"
}

// ParseFormat reads a format name: auto, ntriples (nt), turtle (ttl), tsv or rdfxml
// (rdf, owl, xml).
func ParseFormat(s string) (Format, error) {
	switch strings.ToLower(s) {
	case "", "auto":
		return FormatAuto, nil
	case "nt", "ntriples", "n-triples":
		return FormatNTriples, nil
	case "ttl", "turtle":
		return FormatTurtle, nil
	case "tsv", "yago3", "yago-tsv":
		return FormatTSV, nil
	case "rdfxml", "rdf", "owl", "xml", "rdf/xml":
		return FormatRDFXML, nil
	}
	return FormatAuto, fmt.Errorf("ontology: unknown format %q (want auto, ntriples, turtle, tsv or rdfxml)", s)
}

// Source is one dump to load.
type Source struct {
	// Name identifies the source in messages (file:line); usually the path.
	Name string
	// Format is the syntax; FormatAuto detects it.
	Format Format
	// Open returns the raw bytes, gzip-compressed or not.
	Open func() (io.ReadCloser, error)
	// Size is the number of raw bytes, for progress (0 if unknown).
	Size int64
	// Base is the base IRI against which Turtle resolves relative IRIs until an @base
	// directive; FileSource sets it to the file's file:// URL.
	Base string
}

// FileSource returns the Source of a file.
func FileSource(path string) Source {
	var size int64
	if st, err := os.Stat(path); err == nil {
		size = st.Size()
	}
	base := ""
	if abs, err := filepath.Abs(path); err == nil {
		base = (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
	}
	return Source{Name: path, Size: size, Base: base, Open: func() (io.ReadCloser, error) { return os.Open(path) }}
}

// BytesSource returns a Source over bytes in memory.
func BytesSource(name string, data []byte, f Format) Source {
	return Source{Name: name, Format: f, Size: int64(len(data)),
		Open: func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }}
}

// countingReader counts the bytes read (for progress).
type countingReader struct {
	r io.Reader
	n *atomic.Int64
}

func (c countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// openedSource is a source ready to parse: decompressed, format known.
type openedSource struct {
	r      *bufio.Reader
	format Format
	close  func() error
}

// openSource opens src, undoes gzip, and detects the format.
func openSource(src Source, counter *atomic.Int64) (*openedSource, error) {
	raw, err := src.Open()
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", src.Name, err)
	}
	br := bufio.NewReaderSize(countingReader{raw, counter}, 1<<20)
	closeFn := raw.Close
	name := src.Name
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			_ = raw.Close()
			return nil, fmt.Errorf("open %s: gzip: %w", src.Name, err)
		}
		br = bufio.NewReaderSize(zr, 1<<20)
		closeFn = func() error { _ = zr.Close(); return raw.Close() }
		name = strings.TrimSuffix(strings.TrimSuffix(name, ".gz"), ".gzip")
	}
	if bom, _ := br.Peek(3); len(bom) == 3 && bom[0] == 0xEF && bom[1] == 0xBB && bom[2] == 0xBF {
		_, _ = br.Discard(3) // a UTF-8 byte order mark is not part of the data
	}
	f := src.Format
	if f == FormatAuto {
		head, _ := br.Peek(64 << 10)
		f = detectFormat(name, head)
	}
	return &openedSource{r: br, format: f, close: closeFn}, nil
}

// detectFormat chooses a format from the file extension, or for .tsv, .txt and unknown
// extensions from the first statement.
func detectFormat(name string, head []byte) Format {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".nt", ".ntriples":
		return FormatNTriples
	case ".ttl", ".turtle", ".n3":
		return FormatTurtle
	case ".rdf", ".owl", ".xml":
		return FormatRDFXML
	}
	if t := bytes.TrimSpace(head); bytes.HasPrefix(t, []byte("<?xml")) || bytes.HasPrefix(t, []byte("<rdf:RDF")) {
		return FormatRDFXML
	}
	for len(head) > 0 {
		line := head
		if i := bytes.IndexByte(head, '\n'); i >= 0 {
			line, head = head[:i], head[i+1:]
		} else {
			head = nil
		}
		t := bytes.TrimSpace(line)
		if len(t) == 0 || t[0] == '#' || bytes.HasPrefix(t, []byte("//")) {
			continue
		}
		lower := bytes.ToLower(t)
		if bytes.HasPrefix(lower, []byte("@prefix")) || bytes.HasPrefix(lower, []byte("@base")) ||
			bytes.HasPrefix(lower, []byte("prefix ")) || bytes.HasPrefix(lower, []byte("base ")) {
			return FormatTurtle
		}
		if bytes.HasSuffix(t, []byte(".")) {
			if _, ok, err := graph.ParseLine(t); ok && err == nil {
				return FormatNTriples
			}
			if bytes.Count(line, []byte{'\t'}) >= 3 && !bytes.HasPrefix(t, []byte("<")) && !bytes.HasPrefix(t, []byte("_:")) {
				return FormatTSV
			}
			return FormatTurtle
		}
		return FormatTSV
	}
	return FormatNTriples
}
