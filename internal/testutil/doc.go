// Package testutil holds helpers that tests of several packages need: locating the
// shared external test data (../shared/data), and golden-file comparison.
package testutil
