// Package rundir owns the run directory of one form (design.md, "The run directory"):
// the names of its files, the data types the stages exchange through them (the form
// and its fields, the probe log and its page references), one atomic write, one JSON
// and JSON-lines reader whose errors name file:line, one rule for the paths of saved
// pages, and the directory's own name and identity.
//
// Every stage reads and writes the run directory through this package, so that a file
// has one format, one reader and one writer, and a killed run leaves every file either
// as it was or complete (renameio: a temporary file in the same directory, synced and
// renamed over the old one).
package rundir
