package probe

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestFetcherPoliteness(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprint(w, "User-agent: *\nDisallow: /private\n")
		case "/away":
			http.Redirect(w, r, "http://other.invalid/x", http.StatusFound)
		case "/gone":
			http.NotFound(w, r)
		default:
			if !strings.HasPrefix(r.UserAgent(), UserAgentToken+"/") {
				t.Errorf("User-Agent %q does not name trawl", r.UserAgent())
			}
			fmt.Fprint(w, "<p>hello</p>")
		}
	}))
	defer srv.Close()
	o := DefaultFetchOptions()
	o.Delay = time.Millisecond
	o.Origin = srv.URL
	f, err := NewFetcher(o)
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	body, final, err := f.Get(ctx, srv.URL+"/post/1")
	if err != nil || string(body) != "<p>hello</p>" || final != srv.URL+"/post/1" {
		t.Fatalf("Get = %q, %q, %v", body, final, err)
	}
	if _, _, err := f.Get(ctx, srv.URL+"/private/x"); !errors.Is(err, ErrFetchRefused) {
		t.Errorf("robots.txt Disallow: err = %v, want ErrFetchRefused", err)
	}
	if _, _, err := f.Get(ctx, "http://other.invalid/"); !errors.Is(err, ErrFetchRefused) {
		t.Errorf("other origin: err = %v, want ErrFetchRefused", err)
	}
	if _, _, err := f.Get(ctx, srv.URL+"/away"); !errors.Is(err, ErrFetchRefused) {
		t.Errorf("redirect to another origin: err = %v, want ErrFetchRefused", err)
	}
	if _, _, err := f.Get(ctx, srv.URL+"/gone"); err == nil || !strings.Contains(err.Error(), "404") {
		t.Errorf("404: err = %v, want the status named", err)
	}
	if _, _, err := f.Get(ctx, "file:///etc/passwd"); !errors.Is(err, ErrFetchRefused) {
		t.Errorf("file URL: err = %v, want ErrFetchRefused", err)
	}
	if _, err := NewFetcher(FetchOptions{Timeout: time.Second, MaxBytes: 10}); err == nil {
		t.Error("MaxBytes 10 accepted")
	}
}
