// Package benchmark reads list pages in the NEXT-EVAL layout and scores predicted
// records with the benchmark's own measure, per page and as means; it also assigns
// pages to cross-validation folds.
//
// The layout (wordbricks/next-eval, WebDemo/public/synthetic): a folder with
// html/<n>.html.gz (or html/<n>.html) and groundTruth/<n>.json, the ground truth a JSON
// array of records, each an array of absolute XPaths from /body[1].
//
// The measure (Kim, Kim, Jeong, "NEXT-EVAL", arXiv 2505.17125; the authors'
// evaluate.ts, mapResponseToFullXPath.ts and getHTMLAndTextMapFromMHTML.ts):
//
//   - the unit is the page's flat text map: one key per element that directly holds a
//     non-blank text node (JavaScript trim), outside script and style; the key is the
//     element's XPath from body (/body[1]/div[2]/…, per-tag indices), so an element
//     with several text nodes is one unit;
//   - a record (a list of XPaths) is the set of keys that start with one of its XPaths,
//     as strings, after /html[1] is removed and [1] added to steps without an index;
//     since every step then ends with "]", that is the keys of the elements and their
//     descendants (…/li[1] does not take …/li[10]);
//   - predicted and true records are matched one to one maximising the total Jaccard
//     overlap (Hungarian algorithm); P = total / #predicted, R = total / #true, F1 from
//     P and R, per page; the figures are the unweighted means over pages (macro
//     average).
//
// The package does not import records, so that the records package's own tests can
// use it.
package benchmark
