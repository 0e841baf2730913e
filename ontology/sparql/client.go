package sparql

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/trawl-dev/trawl/graph"
)

// ErrEndpoint is wrapped by every error about the endpoint: unreachable, refusing a
// query, or answering something that is not SPARQL JSON results.
var ErrEndpoint = errors.New("sparql: endpoint")

// client sends SELECT and ASK queries over the SPARQL 1.1 Protocol (POST, form-encoded).
type client struct {
	endpoint string
	http     *http.Client
	timeout  time.Duration
	retries  int
	queries  atomic.Int64
	retried  atomic.Int64
	busy     atomic.Int64 // nanoseconds spent in requests
}

// row is one solution: variable → term.
type row map[string]graph.Term

type jsonTerm struct {
	Type     string `json:"type"`
	Value    string `json:"value"`
	Lang     string `json:"xml:lang"`
	Datatype string `json:"datatype"`
}

type jsonResults struct {
	Boolean *bool `json:"boolean"`
	Results struct {
		Bindings []map[string]jsonTerm `json:"bindings"`
	} `json:"results"`
}

// term converts a SPARQL JSON term.
func (j jsonTerm) term() (graph.Term, error) {
	switch j.Type {
	case "uri":
		return graph.NewIRI(j.Value), nil
	case "bnode":
		return graph.NewBlank(j.Value), nil
	case "literal", "typed-literal": // typed-literal: SPARQL XML-era servers (Virtuoso)
		switch {
		case j.Lang != "":
			return graph.NewLangString(j.Value, j.Lang), nil
		case j.Datatype != "" && j.Datatype != graph.XSDString:
			return graph.NewTyped(j.Value, j.Datatype), nil
		}
		return graph.NewLiteral(j.Value), nil
	}
	return graph.Term{}, fmt.Errorf("term of unknown type %q", j.Type)
}

// selectRows runs a SELECT query and returns its solutions.
func (c *client) selectRows(ctx context.Context, query string) ([]row, error) {
	res, err := c.do(ctx, query)
	if err != nil {
		return nil, err
	}
	out := make([]row, 0, len(res.Results.Bindings))
	for _, b := range res.Results.Bindings {
		r := make(row, len(b))
		for v, jt := range b {
			t, err := jt.term()
			if err != nil {
				return nil, fmt.Errorf("%w %s: variable ?%s: %v", ErrEndpoint, c.endpoint, v, err)
			}
			r[v] = t
		}
		out = append(out, r)
	}
	return out, nil
}

// ask runs an ASK query.
func (c *client) ask(ctx context.Context, query string) (bool, error) {
	res, err := c.do(ctx, query)
	if err != nil {
		return false, err
	}
	if res.Boolean == nil {
		return false, fmt.Errorf("%w %s: an ASK query got no boolean answer", ErrEndpoint, c.endpoint)
	}
	return *res.Boolean, nil
}

// do sends query, retrying when the endpoint cannot be reached or answers 429 or 5xx.
func (c *client) do(ctx context.Context, query string) (*jsonResults, error) {
	c.queries.Add(1)
	var last error
	for attempt := 0; attempt <= c.retries; attempt++ {
		if attempt > 0 {
			c.retried.Add(1)
			pause := time.Duration(attempt*attempt) * 250 * time.Millisecond
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(pause):
			}
		}
		res, retry, err := c.once(ctx, query)
		if err == nil {
			return res, nil
		}
		if !retry || ctx.Err() != nil {
			return nil, err
		}
		last = err
	}
	return nil, fmt.Errorf("%w (after %d attempts)", last, c.retries+1)
}

func (c *client) once(ctx context.Context, query string) (_ *jsonResults, retry bool, _ error) {
	start := time.Now()
	defer func() { c.busy.Add(int64(time.Since(start))) }()
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.endpoint, strings.NewReader(url.Values{"query": {query}}.Encode()))
	if err != nil {
		return nil, false, fmt.Errorf("%w %s: %v", ErrEndpoint, c.endpoint, err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/sparql-results+json")
	resp, err := c.http.Do(req)
	if err != nil {
		if ctx.Err() == context.DeadlineExceeded {
			return nil, true, fmt.Errorf("%w %s: no answer within %v", ErrEndpoint, c.endpoint, c.timeout)
		}
		return nil, true, fmt.Errorf("%w %s is down or unreachable: %v", ErrEndpoint, c.endpoint, err)
	}
	defer func() { _ = resp.Body.Close() }()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, true, fmt.Errorf("%w %s: reading the answer: %v", ErrEndpoint, c.endpoint, err)
	}
	if resp.StatusCode != http.StatusOK {
		msg := strings.Join(strings.Fields(string(body)), " ")
		if len(msg) > 300 {
			msg = msg[:300] + "…"
		}
		// A 500 is how most stores refuse a query they cannot run: asking again gives
		// the same answer. Overload and gateway troubles pass.
		retry := resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusBadGateway ||
			resp.StatusCode == http.StatusServiceUnavailable || resp.StatusCode == http.StatusGatewayTimeout
		return nil, retry, fmt.Errorf("%w %s refused the query (HTTP %s): %s; query: %s", ErrEndpoint, c.endpoint, resp.Status, msg, shorten(query))
	}
	var res jsonResults
	if err := json.NewDecoder(bytes.NewReader(body)).Decode(&res); err != nil {
		return nil, false, fmt.Errorf("%w %s: the answer is not SPARQL JSON results (%s): %v", ErrEndpoint, c.endpoint, resp.Header.Get("Content-Type"), err)
	}
	return &res, false, nil
}

func shorten(q string) string {
	q = strings.Join(strings.Fields(q), " ")
	if len(q) > 200 {
		return q[:200] + "…"
	}
	return q
}
