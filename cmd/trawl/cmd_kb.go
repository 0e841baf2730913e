package main

import "github.com/spf13/cobra"

func newKBCommand(g *globalOptions) *cobra.Command {
	kb := &cobra.Command{
		Use:   "kb",
		Short: "Load and inspect reference knowledge bases (YAGO in Badger)",
	}
	for _, c := range []struct{ use, short, ex string }{
		{"load DUMP... --kb DIR", "Load RDF dumps (N-Triples, Turtle, YAGO3 TSV, .gz) into a Badger KB", "trawl kb load yago-facts.ttl.gz --kb /data/yago"},
		{"stats [--kb DIR]", "Print the counts and top relations of a KB", "trawl kb stats --kb /data/yago"},
		{"lookup TEXT [--kb DIR]", "Find the entities whose literals match a text", "trawl kb lookup 'Hamlet (French Edition)'"},
	} {
		name := c.use[:len(c.use)-len(c.use)+indexSpace(c.use)]
		kb.AddCommand(&cobra.Command{
			Use:     c.use,
			Short:   c.short,
			Example: example(c.ex),
			RunE: func(cmd *cobra.Command, args []string) error {
				return notBuilt("kb "+name, 2)
			},
		})
	}
	return kb
}

func indexSpace(s string) int {
	for i := range s {
		if s[i] == ' ' {
			return i
		}
	}
	return len(s)
}
