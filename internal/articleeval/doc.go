// Package articleeval scores main-article extraction on a folder in the layout of the
// Zyte/Scrapinghub article-extraction benchmark (github.com/scrapinghub/article-extraction-benchmark):
// html/<id>.html.gz holds one page per file, ground-truth.json maps each id to
// {"articleBody": text, "url": address}.
//
// The metric is the benchmark's own (../shared/data/article-extraction/SOURCE.md): word
// tokens (Unicode letters, numbers and '_'), multisets of 4-token shingles, per-page
// precision and recall, then the macro means P and R over the pages and F1 = 2PR/(P+R);
// accuracy is the share of pages whose token list equals the truth's. Pages are split by a
// fixed hash of their host into a "tune" half, on which extractors may be tuned, and a
// "report" half, which must only be measured (Half).
//
// The peers (go-trafilatura, go-readability) are run by the separate module in ./peers,
// so that the main module does not depend on them.
package articleeval
