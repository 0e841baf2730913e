package testsites

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// newFilms: the form's submit handler fetches JSON from /api/films and renders the
// records as cards with JavaScript; nothing navigates. Pagination is a "Next →" button
// that fetches the next page. The no-result message echoes the query.
func newFilms() *Site {
	attrs := []string{"title", "year", "director", "country", "genre"}
	recs, _ := filmRecords(attrs)
	s := &Site{
		Name:        "films",
		Description: "Cinémathèque Online",
		Kind:        "film",
		FormPath:    "/",
		Method:      "GET",
		PageSize:    10,
		Attributes:  attrs,
		Fields: []Field{
			{Name: "q", Type: "text", Attributes: []string{"title", "director"}, Match: MatchWords, Keyword: true},
			{Name: "genre", Type: "select", Attributes: []string{"genre"}, Match: MatchExact},
			{Name: "decade", Type: "select", Attributes: []string{"year"}, Match: MatchDecade},
		},
		Features: []string{FeatureGET, FeatureJS, FeatureAJAX, FeatureList, FeatureNextLink, FeatureEchoError},
		Records:  recs,
	}
	s.search = func(v url.Values) ([]Record, string) {
		res := filter(s.Records, s.Fields, v)
		if len(res) == 0 {
			return nil, fmt.Sprintf("No films found for “%s”.", strings.TrimSpace(v.Get("q")))
		}
		return res, ""
	}
	genres := distinct(recs, "genre")
	ds := decades(recs, 0)
	dlabels := make([]string, len(ds))
	for i, d := range ds {
		dlabels[i] = d + "s"
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		body := fmt.Sprintf(`<h1>Explore the collection</h1>
<form id="film-search" action="/" method="get">
<input type="text" name="q" aria-label="Film title or director" placeholder="Title or director">
<select name="genre" aria-label="Genre"><option value="">Any genre</option>%s</select>
<select name="decade" aria-label="Decade"><option value="">Any decade</option>%s</select>
<button type="submit" class="btn">Search</button>
</form>
<div id="status" aria-live="polite"></div>
<div id="results" class="grid"></div>
<div id="pager"></div>
<script src="/static/app.js"></script>`, options(genres, genres, ""), options(ds, dlabels, ""))
		writeStyled(w, http.StatusOK, s.Description, "Films",
			`<style>.grid { display: grid; grid-template-columns: repeat(2, 1fr); gap: 1em; } .card { border: 1px solid #ccc; padding: 0.5em; }</style>`, body)
	})
	mux.HandleFunc("GET /static/app.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		fmt.Fprint(w, filmsJS)
	})
	mux.HandleFunc("GET /api/films", func(w http.ResponseWriter, r *http.Request) {
		v := r.URL.Query()
		res, msg := s.search(v)
		p, _ := strconv.Atoi(v.Get("page"))
		p = max(p, 1)
		page, pages := pageOf(res, p, s.PageSize)
		type item struct {
			ID       string `json:"id"`
			Title    string `json:"title"`
			Year     string `json:"year"`
			Director string `json:"director"`
			Country  string `json:"country"`
			Genre    string `json:"genre"`
		}
		out := struct {
			Total   int    `json:"total"`
			Page    int    `json:"page"`
			Pages   int    `json:"pages"`
			Message string `json:"message,omitempty"`
			Items   []item `json:"items"`
		}{Total: len(res), Page: p, Pages: pages, Message: msg, Items: []item{}}
		for _, rec := range page {
			out.Items = append(out.Items, item{rec.ID, rec.Values["title"], rec.Values["year"], rec.Values["director"], rec.Values["country"], rec.Values["genre"]})
		}
		w.Header().Set("Content-Type", "application/json")
		if err := json.NewEncoder(w).Encode(out); err != nil {
			return // the client went away
		}
	})
	staticPages(mux, s, "")
	s.Handler = s.serve(mux)
	return s
}

const filmsJS = `(function () {
  'use strict';
  var form = document.getElementById('film-search');
  var results = document.getElementById('results');
  var pager = document.getElementById('pager');
  var status = document.getElementById('status');
  var current = null;
  function el(tag, cls, text, field) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    if (field) e.setAttribute('data-field', field);
    return e;
  }
  function render(data, q) {
    results.textContent = '';
    pager.textContent = '';
    if (data.total === 0) {
      status.textContent = '';
      var p = el('p', 'empty', 'No films found for \u201c' + q + '\u201d.');
      results.appendChild(p);
      return;
    }
    status.textContent = data.total + ' films \u2014 page ' + data.page + ' of ' + data.pages;
    data.items.forEach(function (f) {
      var card = el('article', 'card');
      card.setAttribute('data-record', f.id);
      card.appendChild(el('h2', 'card-title', f.title, 'title'));
      var meta = el('p', 'card-meta');
      meta.appendChild(el('span', 'year', f.year, 'year'));
      meta.appendChild(document.createTextNode(' \u00b7 directed by '));
      meta.appendChild(el('span', 'director', f.director, 'director'));
      card.appendChild(meta);
      var tags = el('p', 'tags');
      tags.appendChild(el('span', 'tag', f.genre, 'genre'));
      tags.appendChild(document.createTextNode(' '));
      tags.appendChild(el('span', 'tag', f.country, 'country'));
      card.appendChild(tags);
      results.appendChild(card);
    });
    if (data.page > 1) {
      var prev = el('button', 'prev', '\u2190 Previous');
      prev.type = 'button';
      prev.addEventListener('click', function () { load(data.page - 1); });
      pager.appendChild(prev);
    }
    if (data.page < data.pages) {
      var next = el('button', 'next', 'Next \u2192');
      next.type = 'button';
      next.addEventListener('click', function () { load(data.page + 1); });
      pager.appendChild(next);
    }
  }
  function load(page) {
    var params = new URLSearchParams(current);
    params.set('page', String(page));
    status.textContent = 'Loading\u2026';
    fetch('/api/films?' + params.toString())
      .then(function (r) { return r.json(); })
      .then(function (data) { render(data, current.get('q') || ''); })
      .catch(function (e) { status.textContent = 'Error: ' + e; });
  }
  form.addEventListener('submit', function (ev) {
    ev.preventDefault();
    current = new URLSearchParams(new FormData(form));
    load(1);
  });
})();
`
