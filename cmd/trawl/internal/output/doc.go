// Package output formats what trawl's commands print: the tables and JSON summaries
// of batches, KB loads, KB statistics and look-ups, and extracted articles. Its
// functions write to the io.Writer they are given and never exit.
package output
