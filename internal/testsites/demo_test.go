package testsites

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

func TestDemoSite(t *testing.T) {
	s := Demo()
	srv := s.NewServer()
	defer srv.Close()
	get := func(path string) string {
		t.Helper()
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	if home := get("/"); !strings.Contains(home, `id="login"`) || !strings.Contains(home, `name="author"`) {
		t.Fatal("the form page lacks the login form or the author field")
	}
	v := url.Values{"author": {"Orwell"}}
	want, _ := s.Search(v)
	if len(want) < 2 {
		t.Fatalf("Orwell: %d books", len(want))
	}
	page := get("/search?" + v.Encode())
	for _, r := range want {
		if !strings.Contains(page, `data-record="`+r.ID+`"`) {
			t.Errorf("result page lacks %s", r.ID)
		}
	}
	if !strings.Contains(page, `class="meta" data-book=`) {
		t.Error("the meta slots the script fills are missing")
	}
	// The script's endpoint gives the year, language and price of the listed books.
	id := strings.TrimPrefix(want[0].ID, "book-")
	var meta map[string]map[string]string
	if err := json.Unmarshal([]byte(get("/api/meta?ids="+id)), &meta); err != nil {
		t.Fatal(err)
	}
	if meta[id]["year"] != want[0].Values["year"] || meta[id]["price"] == "" {
		t.Errorf("meta of %s = %v, want year %s", id, meta[id], want[0].Values["year"])
	}
	if none := get("/search?q=xqzvkw"); !strings.Contains(none, "xqzvkw") || strings.Contains(none, "data-record") {
		t.Error("the no-result page must echo the query and list nothing")
	}
	// A long result list is paginated with numbered links and a next link.
	all, _ := s.Search(url.Values{"language": {"English"}})
	if len(all) <= s.PageSize || !strings.Contains(get("/search?language=English"), `rel="next"`) {
		t.Errorf("English: %d books and no next link", len(all))
	}
	if len(s.Violations()) != 0 {
		t.Fatalf("violations before any login: %v", s.Violations())
	}
	resp, err := http.PostForm(srv.URL+"/login", url.Values{"email": {"a@b.c"}})
	if err == nil {
		resp.Body.Close()
	}
	if len(s.Violations()) != 1 {
		t.Errorf("a submitted login form must be a violation, got %v", s.Violations())
	}
}

// A query word is matched against the words of a value, so a title with an
// apostrophe is found by itself.
func TestWordsMatchApostrophe(t *testing.T) {
	for _, s := range []*Site{Demo(), newLibrary()} {
		for _, f := range s.Fields {
			if f.Name != "title" && f.Name != "query" && f.Name != "q" {
				continue
			}
			got, _ := s.Search(url.Values{f.Name: {"Harry Potter and the Sorcerer's Stone"}})
			found := false
			for _, r := range got {
				if r.Values["title"] == "Harry Potter and the Sorcerer's Stone" {
					found = true
				}
			}
			if !found {
				t.Errorf("%s: field %s does not find its own title with an apostrophe (%d results)", s.Name, f.Name, len(got))
			}
		}
	}
}
