package graph

import "strings"

// ResolveIRI resolves a reference against a base IRI (RFC 3986 §5.2.2, on strings, so
// that non-ASCII characters stay as they are). An absolute reference, or any reference
// when base is "", is returned as is.
func ResolveIRI(base, ref string) string {
	if HasScheme(ref) || base == "" {
		return ref
	}
	// Fast path for the common YAGO case: @base ends with '/', the reference is a name.
	if strings.HasSuffix(base, "/") && ref != "" && ref[0] != '/' && ref[0] != '?' && ref[0] != '#' && ref[0] != '.' &&
		!strings.ContainsAny(base, "?#") && strings.Contains(base, "://") {
		return base + ref
	}
	b, r := splitIRI(base), splitIRI(ref)
	var t iriParts
	switch {
	case r.hasAuth:
		t = r
		t.path = removeDots(r.path)
	case r.path == "":
		t = b
		if r.hasQuery {
			t.query, t.hasQuery = r.query, true
		}
	default:
		t.auth, t.hasAuth = b.auth, b.hasAuth
		t.query, t.hasQuery = r.query, r.hasQuery
		if strings.HasPrefix(r.path, "/") {
			t.path = removeDots(r.path)
		} else {
			t.path = removeDots(mergePaths(b.hasAuth, b.path, r.path))
		}
	}
	t.scheme = b.scheme
	t.frag, t.hasFrag = r.frag, r.hasFrag
	var sb strings.Builder
	sb.WriteString(t.scheme)
	sb.WriteByte(':')
	if t.hasAuth {
		sb.WriteString("//")
		sb.WriteString(t.auth)
	}
	sb.WriteString(t.path)
	if t.hasQuery {
		sb.WriteByte('?')
		sb.WriteString(t.query)
	}
	if t.hasFrag {
		sb.WriteByte('#')
		sb.WriteString(t.frag)
	}
	return sb.String()
}

type iriParts struct {
	scheme, auth, path, query, frag string
	hasAuth, hasQuery, hasFrag      bool
}

// splitIRI splits an IRI reference into its five components (RFC 3986 appendix B).
func splitIRI(s string) iriParts {
	var p iriParts
	if i := strings.IndexByte(s, '#'); i >= 0 {
		s, p.frag, p.hasFrag = s[:i], s[i+1:], true
	}
	if i := strings.IndexByte(s, '?'); i >= 0 {
		s, p.query, p.hasQuery = s[:i], s[i+1:], true
	}
	if HasScheme(s) {
		i := strings.IndexByte(s, ':')
		p.scheme, s = s[:i], s[i+1:]
	}
	if strings.HasPrefix(s, "//") {
		s = s[2:]
		i := strings.IndexByte(s, '/')
		if i < 0 {
			i = len(s)
		}
		p.auth, p.hasAuth, s = s[:i], true, s[i:]
	}
	p.path = s
	return p
}

func mergePaths(baseHasAuth bool, basePath, ref string) string {
	if baseHasAuth && basePath == "" {
		return "/" + ref
	}
	i := strings.LastIndexByte(basePath, '/')
	return basePath[:i+1] + ref
}

// removeDots removes "." and ".." segments (RFC 3986 §5.2.4).
func removeDots(in string) string {
	if !strings.Contains(in, ".") {
		return in
	}
	var out []string // output segments, each with its leading '/'
	for in != "" {
		switch {
		case strings.HasPrefix(in, "../"):
			in = in[3:]
		case strings.HasPrefix(in, "./"):
			in = in[2:]
		case strings.HasPrefix(in, "/./"):
			in = in[2:]
		case in == "/.":
			in = "/"
		case strings.HasPrefix(in, "/../"):
			in = in[3:]
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
		case in == "/..":
			in = "/"
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
		case in == "." || in == "..":
			in = ""
		default:
			i := strings.IndexByte(in[1:], '/')
			if i < 0 {
				out = append(out, in)
				in = ""
			} else {
				out = append(out, in[:i+1])
				in = in[i+1:]
			}
		}
	}
	return strings.Join(out, "")
}
