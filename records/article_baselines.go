package records

func webstemmerArticles(g []int, aps []*articlePage, out []Article)       {}
func contentExtractorArticles(g []int, aps []*articlePage, out []Article) {}
