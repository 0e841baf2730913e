// Package decisions holds trawl's decision records; its test keeps README.md, the index
// of the records, in step with the files.
package decisions

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var (
	// rowRe matches a row of the index: | [name](file) | decision | status |.
	rowRe = regexp.MustCompile(`^\| \[([^\]]+)\]\(([^)]+)\) \| (.+) \| (.+) \|$`)
	// statusRe finds a record's status: "Status: …" in its header, or the first
	// paragraph of a "## Status" section.
	statusRe = regexp.MustCompile(`(?m)(?:Status:[ \t]*|^## Status[ \t]*\n\s*)(\S[^\n]*)`)
)

// TestIndexListsEveryRecord fails when a record has no row in README.md, a row names a
// file that does not exist, or a row's status does not begin as the record's does.
func TestIndexListsEveryRecord(t *testing.T) {
	index, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]string{} // file → status in the index
	for i, line := range strings.Split(string(index), "\n") {
		m := rowRe.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		name, file, status := m[1], m[2], m[4]
		if file != name+".md" {
			t.Errorf("README.md:%d: the row of %s links to %s", i+1, name, file)
		}
		if _, err := os.Stat(file); err != nil {
			t.Errorf("README.md:%d: the row names %s, which does not exist", i+1, file)
		}
		if _, dup := rows[file]; dup {
			t.Errorf("README.md:%d: %s has two rows", i+1, file)
		}
		rows[file] = status
	}
	records, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, file := range records {
		if file == "README.md" {
			continue
		}
		n++
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		m := statusRe.FindSubmatch(b)
		if m == nil {
			t.Errorf("%s has no status (a \"Status:\" line or a \"## Status\" section)", file)
			continue
		}
		status, ok := rows[file]
		if !ok {
			t.Errorf("%s has no row in README.md", file)
			continue
		}
		if want := firstWord(string(m[1])); firstWord(status) != want {
			t.Errorf("README.md gives %s the status %q, the record says %q", file, status, want)
		}
	}
	if n == 0 {
		t.Fatal("no decision record found")
	}
}

// firstWord is the first word of a status, without punctuation: Accepted, Superseded….
func firstWord(s string) string {
	f := strings.Fields(s)
	if len(f) == 0 {
		return ""
	}
	return strings.TrimRight(f[0], ".,;:")
}
