package textnorm

import (
	"embed"
	"slices"
	"strings"
)

//go:embed stopwords/*.txt
var stopFS embed.FS

// stopLists maps a language code to its stop words, folded, in file order.
var stopLists = func() map[string][]string {
	m := map[string][]string{}
	entries, err := stopFS.ReadDir("stopwords")
	if err != nil {
		panic("textnorm: embedded stop words missing: " + err.Error()) // build defect, not input
	}
	for _, e := range entries {
		data, err := stopFS.ReadFile("stopwords/" + e.Name())
		if err != nil {
			panic("textnorm: " + err.Error())
		}
		lang := strings.TrimSuffix(e.Name(), ".txt")
		for line := range strings.Lines(string(data)) {
			if w := Fold(strings.TrimSpace(line)); w != "" {
				m[lang] = append(m[lang], w)
			}
		}
	}
	return m
}()

var englishStop = func() map[string]bool {
	m := make(map[string]bool, len(stopLists["en"]))
	for _, w := range stopLists["en"] {
		m[w] = true
	}
	return m
}()

// IsStopWord reports whether the folded token w is an English stop word. Literal
// normalisation uses English only: removing articles of every language would merge
// unrelated titles ("Die Hard" and "Hard").
func IsStopWord(w string) bool { return englishStop[w] }

// StopWords returns the stop words of a language ("en", "fr", "de", "es"), most
// frequent words first, or nil for an unknown language. The
// prober uses them as domain-agnostic query terms.
func StopWords(lang string) []string { return slices.Clone(stopLists[lang]) }

// Languages returns the codes of the languages that have a stop-word list, sorted.
func Languages() []string {
	var ls []string
	for l := range stopLists {
		ls = append(ls, l)
	}
	slices.Sort(ls)
	return ls
}
