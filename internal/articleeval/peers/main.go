// Command peers scores trawl's article extractors and two peers, go-trafilatura and
// go-readability, on a folder in the layout of the article-extraction benchmark, in the
// same run and by the benchmark's metric (package articleeval). It is a module of its
// own so that trawl's main module does not depend on the peers.
//
//	cd internal/articleeval/peers
//	go run . -dir ../../../../shared/data/article-extraction
//
// Every page is decompressed and parsed with golang.org/x/net/html Parse before each
// peer runs, as the benchmark's Go runners do; trawl's extractors parse on their own.
// Speed is pages per CPU second of the process (parse and extraction).
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"net/url"
	"os"
	"strings"

	"codeberg.org/readeck/go-readability/v2"
	"github.com/markusmobius/go-trafilatura"
	"golang.org/x/net/html"

	"github.com/trawl-dev/trawl/internal/articleeval"
)

func main() {
	dir := flag.String("dir", "../../../../shared/data/article-extraction", "folder in the benchmark's layout (html/<id>.html.gz, ground-truth.json)")
	only := flag.String("only", "", "comma-separated extractor names to run (trawl, trafilatura, readability); empty = all")
	flag.Parse()
	if err := run(context.Background(), *dir, *only); err != nil {
		fmt.Fprintln(os.Stderr, "peers:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, dir, only string) error {
	cases, err := articleeval.Load(dir)
	if err != nil {
		return err
	}
	var failures []string
	var exs []articleeval.Extractor
	want := func(name string) bool { return only == "" || strings.Contains(","+only+",", ","+name+",") }
	if want("trawl") {
		exs = append(exs, articleeval.TrawlExtractors(&failures)...)
	}
	if want("trafilatura") {
		exs = append(exs, articleeval.Extractor{Name: "go-trafilatura v1.12.2", Settings: "ExtractDocument, EnableFallback, ContentText",
			Run: articleeval.PerPage(trafilaturaText, &failures)})
	}
	if want("readability") {
		exs = append(exs, articleeval.Extractor{Name: "go-readability v2.1.3", Settings: "ParseAndMutate, RenderText",
			Run: articleeval.PerPage(readabilityText, &failures)})
	}
	evs, err := articleeval.Evaluate(ctx, cases, exs)
	if err != nil {
		return err
	}
	fmt.Printf("%d pages of %s (tune = host hash even, report = odd)\n\n", len(cases), dir)
	if err := articleeval.WriteTable(os.Stdout, evs); err != nil {
		return err
	}
	for _, f := range failures {
		fmt.Println("failure:", f)
	}
	return nil
}

func trafilaturaText(c articleeval.Case) (string, error) {
	doc, err := html.Parse(bytes.NewReader(c.HTML))
	if err != nil {
		return "", err
	}
	u, _ := url.Parse(c.URL)
	res, err := trafilatura.ExtractDocument(doc, trafilatura.Options{EnableFallback: true, OriginalURL: u})
	if err != nil {
		return "", err
	}
	return res.ContentText, nil
}

func readabilityText(c articleeval.Case) (string, error) {
	doc, err := html.Parse(bytes.NewReader(c.HTML))
	if err != nil {
		return "", err
	}
	u, _ := url.Parse(c.URL)
	p := readability.NewParser()
	art, err := p.ParseAndMutate(doc, u)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	if err := art.RenderText(&b); err != nil {
		return "", err
	}
	return b.String(), nil
}
