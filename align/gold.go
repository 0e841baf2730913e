package align

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/trawl-dev/trawl/graph"
)

// Gold is a reference alignment: instance equalities, and relation and class
// correspondences (each scored in both subsumption directions).
type Gold struct {
	// Instances maps a KB1 entity (IRI or _:label) to its KB2 partner.
	Instances map[string]string
	// Relations are pairs of a KB1 path and a KB2 path.
	Relations []GoldRelation
	// Classes are pairs of a KB1 class and a KB2 class (IRIs).
	Classes [][2]string
	// Problems lists entries that name something neither KB has, one message each
	// (file:line: what). They stay in the gold: they count against recall.
	Problems []string
}

// Merge adds the entries of o to g (for example an instance gold and a schema gold).
// An instance of o that already has another partner in g is reported in Problems and
// the first partner kept.
func (g *Gold) Merge(o *Gold) {
	for l, r := range o.Instances {
		if prev, ok := g.Instances[l]; ok && prev != r {
			g.Problems = append(g.Problems, fmt.Sprintf("%s has the partners %s and %s in the gold files; keeping the first", l, prev, r))
			continue
		}
		g.Instances[l] = r
	}
	g.Relations = append(g.Relations, o.Relations...)
	g.Classes = append(g.Classes, o.Classes...)
	g.Problems = append(g.Problems, o.Problems...)
}

// GoldRelation is a relation correspondence of a gold file.
type GoldRelation struct {
	Left, Right Path // KB1 path, KB2 path
	Name        string
}

// ErrGold is returned for a gold file that cannot be used at all.
var ErrGold = errors.New("align: bad gold file")

// GoldKB is what LoadGold reads of a KB: its terms, relations and taxonomy.
type GoldKB interface {
	Dictionary
	Schema
	Taxonomy
}

// LoadGold reads a gold file. Three formats are accepted: the OAEI Alignment format
// (RDF/XML, as the OAEI 2010 gold), CSV with two IRIs per line (an "id1,id2" header is
// skipped), and TSV lines "kind TAB left TAB right [TAB confidence]" as in
// alignment.tsv, where kind is instance, relation or class and relation paths use the
// PathName notation. In the first two formats each cell's kind is inferred from KB1:
// a relation IRI of KB1 makes a relation cell, a class of KB1 a class cell, anything
// else an instance cell.
func LoadGold(ctx context.Context, path string, kb1, kb2 GoldKB) (*Gold, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ReadGold(ctx, bytes.NewReader(data), path, kb1, kb2)
}

// ReadGold reads a gold file from r; name is used in messages. See LoadGold.
func ReadGold(ctx context.Context, r io.Reader, name string, kb1, kb2 GoldKB) (*Gold, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	g := &Gold{Instances: map[string]string{}}
	b := goldBuilder{ctx: ctx, g: g, name: name, kb1: kb1, kb2: kb2}
	head := bytes.TrimSpace(data)
	switch {
	case bytes.HasPrefix(head, []byte("<?xml")) || bytes.HasPrefix(head, []byte("<rdf:RDF")):
		err = b.readXML(data)
	case bytes.ContainsRune(firstLine(data), '\t'):
		err = b.readTSV(data)
	default:
		err = b.readCSV(data)
	}
	if err != nil {
		return nil, err
	}
	if b.known+len(g.Relations)+len(g.Classes) == 0 {
		if len(g.Problems) > 0 {
			return nil, fmt.Errorf("%w: %s: no entry names something the two KBs have (wrong file for these KBs?); first: %s", ErrGold, name, g.Problems[0])
		}
		return nil, fmt.Errorf("%w: %s holds no correspondence", ErrGold, name)
	}
	return g, nil
}

func firstLine(data []byte) []byte {
	if i := bytes.IndexByte(data, '\n'); i >= 0 {
		return data[:i]
	}
	return data
}

type goldBuilder struct {
	ctx      context.Context
	g        *Gold
	name     string
	kb1, kb2 GoldKB
	known    int
}

func (b *goldBuilder) problem(line int, format string, args ...any) {
	b.g.Problems = append(b.g.Problems, fmt.Sprintf("%s:%d: %s", b.name, line, fmt.Sprintf(format, args...)))
}

// node reports whether kb has the node written s (an IRI, or _:label).
func (b *goldBuilder) node(kb GoldKB, s string) (graph.ID, bool) {
	t := graph.NewIRI(s)
	if strings.HasPrefix(s, "_:") {
		t = graph.NewBlank(s[2:])
	}
	id, ok, err := kb.Lookup(b.ctx, t)
	return id, ok && err == nil
}

func (b *goldBuilder) isClass(kb GoldKB, id graph.ID) bool {
	for _, err := range kb.Instances(b.ctx, id) {
		return err == nil
	}
	sup, err := kb.SuperClasses(b.ctx, id)
	return err == nil && len(sup) > 0
}

// addInferred adds a cell of the CSV or XML format, inferring its kind.
func (b *goldBuilder) addInferred(line int, left, right string) {
	if _, ok := b.kb1.RelationID(left); ok {
		b.addRelation(line, left, right)
		return
	}
	if id, ok := b.node(b.kb1, left); ok && b.isClass(b.kb1, id) {
		b.addClass(line, left, right)
		return
	}
	b.addInstance(line, left, right)
}

func (b *goldBuilder) addInstance(line int, left, right string) {
	_, ok1 := b.node(b.kb1, left)
	_, ok2 := b.node(b.kb2, right)
	if !ok1 {
		b.problem(line, "instance %s is not in KB1", left)
	}
	if !ok2 {
		b.problem(line, "instance %s is not in KB2", right)
	}
	if ok1 || ok2 {
		b.known++
	}
	if prev, dup := b.g.Instances[left]; dup && prev != right {
		b.problem(line, "%s already has the partner %s in the gold (PARIS scores 1:1 alignments); keeping the first", left, prev)
		return
	}
	b.g.Instances[left] = right
}

func (b *goldBuilder) addRelation(line int, left, right string) {
	l, ok1 := ParsePathName(b.kb1, left)
	r, ok2 := ParsePathName(b.kb2, right)
	if !ok1 {
		b.problem(line, "relation %s is not in KB1", left)
	}
	if !ok2 {
		b.problem(line, "relation %s is not in KB2", right)
	}
	if ok1 && ok2 {
		b.g.Relations = append(b.g.Relations, GoldRelation{Left: l, Right: r, Name: left + " ≙ " + right})
	}
}

func (b *goldBuilder) addClass(line int, left, right string) {
	_, ok1 := b.node(b.kb1, left)
	_, ok2 := b.node(b.kb2, right)
	if !ok1 {
		b.problem(line, "class %s is not in KB1", left)
	}
	if !ok2 {
		b.problem(line, "class %s is not in KB2", right)
	}
	if !ok1 && !ok2 {
		return
	}
	b.g.Classes = append(b.g.Classes, [2]string{left, right})
}

func (b *goldBuilder) readCSV(data []byte) error {
	cr := csv.NewReader(bytes.NewReader(data))
	cr.FieldsPerRecord = -1
	cr.TrimLeadingSpace = true
	for line := 1; ; line++ {
		rec, err := cr.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%w: %s: %v", ErrGold, b.name, err)
		}
		l, _ := cr.FieldPos(0)
		if len(rec) < 2 {
			if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
				continue
			}
			return fmt.Errorf("%w: %s:%d: want two columns (KB1 IRI, KB2 IRI), got %d", ErrGold, b.name, l, len(rec))
		}
		if len(rec) > 2 {
			// An IRI with a comma that is not quoted splits into two columns, and the
			// pair would be wrong; quoting is what RFC 4180 asks for.
			return fmt.Errorf("%w: %s:%d: want two columns (KB1 IRI, KB2 IRI), got %d: quote an IRI that holds a comma (\"http://x/a,b\")", ErrGold, b.name, l, len(rec))
		}
		left, right := strings.Trim(strings.TrimSpace(rec[0]), "<>"), strings.Trim(strings.TrimSpace(rec[1]), "<>")
		if l == 1 && !strings.Contains(left, ":") {
			continue // header
		}
		b.addInferred(l, left, right)
	}
}

func (b *goldBuilder) readTSV(data []byte) error {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(text) == "" || strings.HasPrefix(text, "#") {
			continue
		}
		f := strings.Split(text, "\t")
		if line == 1 && f[0] == "kind" {
			continue
		}
		if len(f) < 3 {
			return fmt.Errorf("%w: %s:%d: want kind TAB left TAB right, got %d columns", ErrGold, b.name, line, len(f))
		}
		switch f[0] {
		case "instance":
			b.addInstance(line, f[1], f[2])
		case "relation":
			b.addRelation(line, f[1], f[2])
		case "class":
			b.addClass(line, f[1], f[2])
		default:
			return fmt.Errorf("%w: %s:%d: kind %q is not instance, relation or class", ErrGold, b.name, line, f[0])
		}
	}
	return sc.Err()
}

func (b *goldBuilder) readXML(data []byte) error {
	dec := xml.NewDecoder(bytes.NewReader(data))
	const rdfNS = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
	var e1, e2, rel string
	var inRel bool
	cellLine := 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%w: %s: %v", ErrGold, b.name, err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "Cell":
				e1, e2, rel = "", "", "="
				cellLine, _ = dec.InputPos()
			case "entity1", "entity2":
				for _, at := range t.Attr {
					if at.Name.Local == "resource" && (at.Name.Space == rdfNS || at.Name.Space == "rdf") {
						if t.Name.Local == "entity1" {
							e1 = at.Value
						} else {
							e2 = at.Value
						}
					}
				}
			case "relation":
				inRel = true
				rel = ""
			}
		case xml.CharData:
			if inRel {
				rel += strings.TrimSpace(string(t))
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "relation":
				inRel = false
			case "Cell":
				if e1 == "" || e2 == "" {
					return fmt.Errorf("%w: %s:%d: Cell without entity1 and entity2 rdf:resource", ErrGold, b.name, cellLine)
				}
				if rel == "=" || rel == "<" || rel == ">" {
					b.addInferred(cellLine, e1, e2)
				} else {
					b.problem(cellLine, "relation %q is not =, < or >; cell skipped", rel)
				}
			}
		}
	}
}
