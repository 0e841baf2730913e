// Package bookkb builds a reference knowledge base in the YAGO 4.5 vocabulary for the
// calibre test site (shared/sites/calibre): the site's books, from the same data the
// site imports (goodbooks-10k's first 3,000 rows and the "100 best books"), and
// thousands of distractors that make linking hard, so that the alignment of the site's
// records with the KB can be measured against a known truth.
//
// What the KB holds, for a site whose works are a share of it (Options.InKB):
//
//   - the site's works (schema:Book) with rdfs:label (the title, and the original title
//     as a second label when goodbooks gives another one), schema:author (the first
//     author only, as YAGO does; translators and illustrators, which goodreads lists as
//     authors, are left out), schema:datePublished (the original publication year,
//     xsd:gYear), schema:isbn and schema:inLanguage. A work listed by both lists (42
//     of the 100 best books) is one KB entity;
//   - their authors (schema:Person) with rdfs:label, and schema:birthDate when YAGO3
//     knows the same name;
//   - real YAGO3 entities titled like a site work (films, series, bands, albums) and
//     real YAGO3 films (Options.Films), typed from their disambiguator, with their
//     creation year;
//   - real YAGO3 people who share an author's name (footballers, musicians: homonyms),
//     some with a book of their own;
//   - books with the title of a site work by someone else, books whose title differs
//     from a site work's by one small edit (a plural, an article), films titled like a
//     site work (Options.Films), further books of the site's authors that the site does
//     not have, and thousands of books the site does not have, by real YAGO3 people; the
//     titles of made-up books recombine the words of real titles.
//
// Every choice is drawn from a seeded generator, so the same options give the same KB.
// Book returns the site's records with their KB entity (the gold standard), and Match
// finds the site record a record of a trawl run stands for.
//
// The command in ./cmd writes kb.nt and gold.tsv: go run ./internal/bookkb/cmd -out DIR.
package bookkb
