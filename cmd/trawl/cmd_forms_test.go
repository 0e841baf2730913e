package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const formsPage = `<html><body>
<form action="/login" method="post"><input name="user"><input type="password" name="pw"><input type="submit" value="Log in"></form>
<form action="search"><label for="q">Search the site</label><input id="q" name="q"><input type="submit" value="Search"></form>
</body></html>`

func TestRunForms(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "page.html")
	if err := os.WriteFile(plain, []byte(formsPage), 0o644); err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(formsPage))
	zw.Close()
	zipped := filepath.Join(dir, "page.html.gz")
	if err := os.WriteFile(zipped, gz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, file := range []string{plain, zipped} {
		t.Run(filepath.Base(file), func(t *testing.T) {
			var out bytes.Buffer
			o := formsOptions{Page: file, BaseURL: "https://example.org/dir/page.html"}
			if err := runForms(t.Context(), globalOptions{stderr: &bytes.Buffer{}}, o, &out); err != nil {
				t.Fatal(err)
			}
			var doc struct {
				Forms []struct {
					Index         *int     `json:"index"`
					Class         string   `json:"class"`
					KeywordFields []string `json:"keyword_fields"`
					Action        string   `json:"action"`
					Fields        []any    `json:"fields"`
				} `json:"forms"`
			}
			if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
				t.Fatalf("output is not JSON: %v\n%s", err, out.String())
			}
			if len(doc.Forms) != 2 {
				t.Fatalf("got %d forms, want 2", len(doc.Forms))
			}
			login, search := doc.Forms[0], doc.Forms[1]
			if *login.Index != 0 || login.Class != "login" || len(login.KeywordFields) != 0 || login.Action != "https://example.org/login" {
				t.Errorf("login form: %+v", login)
			}
			if *search.Index != 1 || search.Class != "search" || strings.Join(search.KeywordFields, ",") != "q" || search.Action != "https://example.org/dir/search" {
				t.Errorf("search form: %+v", search)
			}
		})
	}
}

func TestRunFormsErrors(t *testing.T) {
	g := globalOptions{stderr: &bytes.Buffer{}}
	tests := []struct {
		name, page string
		is         error
		mention    string
	}{
		{"missing file", filepath.Join(t.TempDir(), "nope.html"), nil, "nope.html"},
		{"file URL", "file:///etc/passwd", errUsage, "only http and https"},
		{"live page that cannot be rendered", "http://127.0.0.1:1/", nil, "127.0.0.1:1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			fail := func(context.Context, string) (string, string, error) {
				return "", "", errors.New("connection refused")
			}
			err := runForms(t.Context(), g, formsOptions{Page: tc.page, render: fail}, &out)
			if err == nil || !strings.Contains(err.Error(), tc.mention) || (tc.is != nil && !errors.Is(err, tc.is)) {
				t.Fatalf("err = %v, want one mentioning %q (%v)", err, tc.mention, tc.is)
			}
			if out.Len() != 0 {
				t.Errorf("wrote %q to stdout on error", out.String())
			}
		})
	}
}

func TestRunFormsRendered(t *testing.T) {
	var out bytes.Buffer
	o := formsOptions{Page: "https://example.org/start", render: func(_ context.Context, u string) (string, string, error) {
		return formsPage, "https://example.org/final/", nil
	}}
	if err := runForms(t.Context(), globalOptions{stderr: &bytes.Buffer{}}, o, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `"action": "https://example.org/final/search"`) {
		t.Errorf("actions not resolved against the final URL:\n%s", out.String())
	}
}

func TestRunFormsNoForms(t *testing.T) {
	file := filepath.Join(t.TempDir(), "empty.html")
	if err := os.WriteFile(file, []byte("<p>nothing here"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := runForms(t.Context(), globalOptions{stderr: &bytes.Buffer{}}, formsOptions{Page: file, Compact: true}, &out); err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(out.String()); got != `{"forms":[]}` {
		t.Errorf("got %s", got)
	}
}
