// Package schematest provides realistic fixtures for tests of the output schema and the
// labeled graph: small deep-web book sites with known attributes (a table layout with a
// header, a list layout with "Label:" prefixes and composite leaves, and a layout that
// reproduces the calibre content server's /mobile page), a record isolator that emits
// records.Record the way FOREST does (record-internal paths of tag and tolerant class),
// a run-directory writer, and a fake Submitter that serves the same site.
//
// It is test support: no production code imports it.
package schematest

// Book is one record of the fixture catalogue. The data are public bibliographic facts
// (title, authors, first publication year, series); ISBNs are valid ISBN-13s of real
// editions where given, prices and formats are invented.
type Book struct {
	ID          int
	Title       string
	Authors     []string
	Year        int
	Series      string
	SeriesIndex float64
	ISBN        string
	Price       float64
	Format      string
	Tags        []string
}

// Catalogue returns the fixture catalogue (48 books).
func Catalogue() []Book {
	return []Book{
		{1, "Great Expectations", []string{"Charles Dickens"}, 1861, "", 0, "9780141439563", 8.99, "Paperback", []string{"classics", "england"}},
		{2, "David Copperfield", []string{"Charles Dickens"}, 1850, "", 0, "9780140439441", 10.99, "Paperback", []string{"classics"}},
		{3, "Bleak House", []string{"Charles Dickens"}, 1853, "", 0, "9780141439723", 12.50, "Hardcover", []string{"classics", "law"}},
		{4, "Oliver Twist", []string{"Charles Dickens"}, 1838, "", 0, "9780141439747", 7.99, "Paperback", []string{"classics", "london"}},
		{5, "Pride and Prejudice", []string{"Jane Austen"}, 1813, "", 0, "9780141439518", 6.99, "Paperback", []string{"classics", "romance"}},
		{6, "Emma", []string{"Jane Austen"}, 1815, "", 0, "9780141439587", 7.50, "Paperback", []string{"classics", "romance"}},
		{7, "Persuasion", []string{"Jane Austen"}, 1817, "", 0, "9780141439686", 6.50, "Hardcover", []string{"romance"}},
		{8, "Crime and Punishment", []string{"Fyodor Dostoevsky", "David McDuff"}, 1866, "", 0, "9780140449136", 11.99, "Paperback", []string{"russia", "classics"}},
		{9, "The Brothers Karamazov", []string{"Fyodor Dostoevsky"}, 1880, "", 0, "9780374528379", 15.00, "Paperback", []string{"russia", "philosophy"}},
		{10, "The Idiot", []string{"Fyodor Dostoevsky"}, 1869, "", 0, "9780375702242", 14.00, "Hardcover", []string{"russia"}},
		{11, "Anna Karenina", []string{"Leo Tolstoy"}, 1878, "", 0, "9780143035008", 13.00, "Paperback", []string{"russia", "romance"}},
		{12, "War and Peace", []string{"Leo Tolstoy"}, 1869, "", 0, "9781400079988", 20.00, "Hardcover", []string{"russia", "history"}},
		{13, "Moby-Dick", []string{"Herman Melville"}, 1851, "", 0, "9780142437247", 9.99, "Paperback", []string{"sea", "classics"}},
		{14, "The Hunger Games", []string{"Suzanne Collins"}, 2008, "The Hunger Games", 1, "9780439023481", 8.99, "Paperback", []string{"dystopia", "young adult"}},
		{15, "Catching Fire", []string{"Suzanne Collins"}, 2009, "The Hunger Games", 2, "9780439023498", 9.99, "Paperback", []string{"dystopia", "young adult"}},
		{16, "Mockingjay", []string{"Suzanne Collins"}, 2010, "The Hunger Games", 3, "9780439023511", 10.99, "Hardcover", []string{"dystopia", "young adult"}},
		{17, "Harry Potter and the Philosopher's Stone", []string{"J. K. Rowling"}, 1997, "Harry Potter", 1, "9780747532699", 7.99, "Paperback", []string{"fantasy", "young adult"}},
		{18, "Harry Potter and the Chamber of Secrets", []string{"J. K. Rowling"}, 1998, "Harry Potter", 2, "9780747538493", 8.99, "Paperback", []string{"fantasy", "young adult"}},
		{19, "Harry Potter and the Prisoner of Azkaban", []string{"J. K. Rowling"}, 1999, "Harry Potter", 3, "9780747542155", 8.99, "Hardcover", []string{"fantasy", "young adult"}},
		{20, "The Hobbit", []string{"J. R. R. Tolkien"}, 1937, "Middle-earth", 0.5, "9780261102217", 9.50, "Paperback", []string{"fantasy"}},
		{21, "The Fellowship of the Ring", []string{"J. R. R. Tolkien"}, 1954, "The Lord of the Rings", 1, "9780261103573", 11.50, "Paperback", []string{"fantasy"}},
		{22, "The Two Towers", []string{"J. R. R. Tolkien"}, 1954, "The Lord of the Rings", 2, "9780261103580", 11.50, "Paperback", []string{"fantasy"}},
		{23, "The Return of the King", []string{"J. R. R. Tolkien"}, 1955, "The Lord of the Rings", 3, "9780261103597", 11.50, "Hardcover", []string{"fantasy"}},
		{24, "Nineteen Eighty-Four", []string{"George Orwell"}, 1949, "", 0, "9780451524935", 9.99, "Paperback", []string{"dystopia", "politics"}},
		{25, "Animal Farm", []string{"George Orwell"}, 1945, "", 0, "9780451526342", 7.99, "Paperback", []string{"politics", "satire"}},
		{26, "Brave New World", []string{"Aldous Huxley"}, 1932, "", 0, "9780060850524", 10.50, "Paperback", []string{"dystopia"}},
		{27, "Fahrenheit 451", []string{"Ray Bradbury"}, 1953, "", 0, "9781451673319", 9.00, "Paperback", []string{"dystopia"}},
		{28, "The Great Gatsby", []string{"F. Scott Fitzgerald"}, 1925, "", 0, "9780743273565", 10.00, "Paperback", []string{"classics", "america"}},
		{29, "To Kill a Mockingbird", []string{"Harper Lee"}, 1960, "", 0, "9780061120084", 8.50, "Paperback", []string{"classics", "america"}},
		{30, "The Catcher in the Rye", []string{"J. D. Salinger"}, 1951, "", 0, "9780316769488", 8.99, "Paperback", []string{"classics", "america"}},
		{31, "Jane Eyre", []string{"Charlotte Brontë"}, 1847, "", 0, "9780141441146", 6.99, "Paperback", []string{"classics", "romance"}},
		{32, "Wuthering Heights", []string{"Emily Brontë"}, 1847, "", 0, "9780141439556", 6.99, "Hardcover", []string{"classics", "romance"}},
		{33, "Frankenstein", []string{"Mary Shelley"}, 1818, "", 0, "9780141439471", 5.99, "Paperback", []string{"horror", "classics"}},
		{34, "Dracula", []string{"Bram Stoker"}, 1897, "", 0, "9780141439846", 6.50, "Paperback", []string{"horror"}},
		{35, "The Picture of Dorian Gray", []string{"Oscar Wilde"}, 1890, "", 0, "9780141439570", 5.99, "Paperback", []string{"classics"}},
		{36, "Don Quixote", []string{"Miguel de Cervantes", "Edith Grossman"}, 1605, "", 0, "9780060934347", 16.99, "Hardcover", []string{"classics", "spain"}},
		{37, "One Hundred Years of Solitude", []string{"Gabriel García Márquez", "Gregory Rabassa"}, 1967, "", 0, "9780060883287", 12.99, "Paperback", []string{"magic realism"}},
		{38, "The Name of the Rose", []string{"Umberto Eco", "William Weaver"}, 1980, "", 0, "9780156001311", 13.50, "Paperback", []string{"mystery", "history"}},
		{39, "Les Misérables", []string{"Victor Hugo"}, 1862, "", 0, "9780451419439", 14.99, "Paperback", []string{"france", "classics"}},
		{40, "The Count of Monte Cristo", []string{"Alexandre Dumas"}, 1844, "", 0, "9780140449266", 13.99, "Paperback", []string{"france", "adventure"}},
		{41, "Madame Bovary", []string{"Gustave Flaubert", "Lydia Davis"}, 1857, "", 0, "9780143106494", 12.00, "Paperback", []string{"france"}},
		{42, "The Trial", []string{"Franz Kafka"}, 1925, "", 0, "9780805209990", 11.00, "Paperback", []string{"philosophy"}},
		{43, "The Stranger", []string{"Albert Camus", "Matthew Ward"}, 1942, "", 0, "9780679720201", 9.50, "Paperback", []string{"philosophy", "france"}},
		{44, "A Game of Thrones", []string{"George R. R. Martin"}, 1996, "A Song of Ice and Fire", 1, "9780553573404", 9.99, "Paperback", []string{"fantasy"}},
		{45, "A Clash of Kings", []string{"George R. R. Martin"}, 1998, "A Song of Ice and Fire", 2, "9780553579901", 9.99, "Paperback", []string{"fantasy"}},
		{46, "Dune", []string{"Frank Herbert"}, 1965, "Dune", 1, "9780441013593", 10.99, "Paperback", []string{"science fiction"}},
		{47, "The Left Hand of Darkness", []string{"Ursula K. Le Guin"}, 1969, "Hainish Cycle", 4, "9780441478125", 9.99, "Paperback", []string{"science fiction"}},
		{48, "Foundation", []string{"Isaac Asimov"}, 1951, "Foundation", 1, "9780553293357", 8.99, "Paperback", []string{"science fiction"}},
	}
}
