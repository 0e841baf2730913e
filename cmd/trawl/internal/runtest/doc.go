// Package runtest builds run directories for the tests of cmd/trawl and its internal
// packages without a browser (the bookshop test site renders its pages on the server),
// and checks the HTML of reports.
package runtest
