// Package rusage reads the CPU time and peak memory of the process, for the reports
// of long commands (trawl kb load). Where the system has no getrusage they are 0.
package rusage
