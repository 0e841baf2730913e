package align

import (
	"errors"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl/graph"
)

func TestReadGold(t *testing.T) {
	ctx := t.Context()
	kb1, kb2 := booksKBs(t, 3, nil)
	tests := []struct {
		name, data                  string
		instances, relations, class int
		problems                    []string
	}{
		{"csv with header", "id1,id2\nhttp://shop.example/r0,http://kb.example/book0\n\nhttp://shop.example/r1,http://kb.example/book1\n", 2, 0, 0, nil},
		{"csv without header, angle brackets", "<http://shop.example/r0>,<http://kb.example/book0>\n", 1, 0, 0, nil},
		{"csv quoted comma", "id1,id2\nhttp://shop.example/r0,\"http://kb.example/book0\"\n\"http://shop.example/r,1\",http://kb.example/book1\n", 2, 0, 0,
			[]string{"gold.txt:3: instance http://shop.example/r,1 is not in KB1"}},
		{"csv relation cell inferred", "http://shop.example/title,http://kb.example/label\n", 0, 1, 0, nil},
		{"csv unknown entities", "id1,id2\nhttp://shop.example/r0,http://kb.example/nope\nhttp://shop.example/zz,http://kb.example/book1\n", 2, 0, 0,
			[]string{"gold.txt:2: instance http://kb.example/nope is not in KB2", "gold.txt:3: instance http://shop.example/zz is not in KB1"}},
		{"tsv", "kind\tleft\tright\tconfidence\ninstance\thttp://shop.example/r0\thttp://kb.example/book0\t1\nrelation\thttp://shop.example/writer\thttp://kb.example/author / http://kb.example/label\n", 1, 1, 0, nil},
		{"tsv unknown relation", "relation\thttp://shop.example/writer\thttp://kb.example/author / http://kb.example/nope\ninstance\thttp://shop.example/r0\thttp://kb.example/book0\n", 1, 0, 0,
			[]string{"gold.txt:1: relation http://kb.example/author / http://kb.example/nope is not in KB2"}},
		{"alignment rdf", `<?xml version='1.0' encoding='utf-8'?>
<rdf:RDF xmlns='http://knowledgeweb.semanticweb.org/heterogeneity/alignment#' xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'>
<Alignment><map><Cell>
  <entity1 rdf:resource='http://shop.example/r2'/>
  <entity2 rdf:resource='http://kb.example/book2'/>
  <relation>=</relation><measure>1.0</measure>
</Cell></map>
<map><Cell>
  <entity1 rdf:resource='http://shop.example/r1'/>
  <entity2 rdf:resource='http://kb.example/book9'/>
  <relation>=</relation>
</Cell></map></Alignment></rdf:RDF>`, 2, 0, 0, []string{"gold.txt:8: instance http://kb.example/book9 is not in KB2"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, err := ReadGold(ctx, strings.NewReader(tc.data), "gold.txt", kb1, kb2)
			if err != nil {
				t.Fatal(err)
			}
			if len(g.Instances) != tc.instances || len(g.Relations) != tc.relations || len(g.Classes) != tc.class {
				t.Errorf("%d instances, %d relations, %d classes; want %d, %d, %d", len(g.Instances), len(g.Relations), len(g.Classes), tc.instances, tc.relations, tc.class)
			}
			if strings.Join(g.Problems, "|") != strings.Join(tc.problems, "|") {
				t.Errorf("problems = %q, want %q", g.Problems, tc.problems)
			}
		})
	}
	bad := map[string]string{
		"empty":            "",
		"nothing known":    "http://x.example/a,http://x.example/b\n",
		"one column":       "id1,id2\nhttp://shop.example/r0\n",
		"unquoted comma":   "id1,id2\nhttp://shop.example/r0,http://kb.example/book,0\n",
		"bad kind":         "inst\thttp://shop.example/r0\thttp://kb.example/book0\n",
		"cell without ids": "<rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'><Cell><relation>=</relation></Cell></rdf:RDF>",
		"broken xml":       "<?xml version='1.0'?><rdf:RDF><Cell>",
	}
	for name, data := range bad {
		if _, err := ReadGold(ctx, strings.NewReader(data), "gold.txt", kb1, kb2); !errors.Is(err, ErrGold) || !strings.Contains(err.Error(), "gold.txt") {
			t.Errorf("%s: error = %v, want ErrGold naming the file", name, err)
		}
	}
}

func TestEvaluateConvention(t *testing.T) {
	kb1, kb2 := booksKBs(t, 3, nil)
	g, err := ReadGold(t.Context(), strings.NewReader("http://shop.example/r0,http://kb.example/book0\nhttp://shop.example/r1,http://kb.example/book2\n"), "g.csv", kb1, kb2)
	if err != nil {
		t.Fatal(err)
	}
	mk := func(l, r string) InstanceMatch {
		lt, _, _ := kb1.Lookup(t.Context(), iri(l))
		rt, _, _ := kb2.Lookup(t.Context(), iri(r))
		return InstanceMatch{Left: lt, Right: rt, LeftTerm: iri(l), RightTerm: iri(r), Confidence: 1}
	}
	res := &Result{Instances: []InstanceMatch{
		mk("http://shop.example/r0", "http://kb.example/book0"), // correct
		mk("http://shop.example/r1", "http://kb.example/book1"), // wrong: the gold says book2
		mk("http://shop.example/r2", "http://kb.example/book2"), // r2 is not in the gold, but book2 is r1's: WRONG
		mk("http://shop.example/r3", "http://kb.example/book3"), // neither is in the gold: DONTKNOW
	}}
	s := Evaluate(res, g)[0]
	if s.Correct != 1 || s.Wrong != 2 || s.DontKnow != 1 || s.Precision != 1.0/3 || s.Recall != 0.5 {
		t.Errorf("score = %+v", s)
	}
}

func iri(s string) graph.Term { return graph.NewIRI(s) }
