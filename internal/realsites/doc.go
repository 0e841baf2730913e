// Package realsites holds the tests that run trawl, as a user would, on real and
// unmodified open-source web applications installed from Debian 12 with real data
// (scripts/sites: WordPress, DokuWiki, gitweb, Xapian Omega). Each test builds bin/trawl
// into a temporary directory, runs `trawl run` on the site as a process and checks,
// from the run directory and the process alone, that trawl chose the site's search
// form, that no result page it kept is empty or a stub, that the records of sampled
// result pages are the ones the application lists there (ground truth read from the
// application's own database or files through its site script's truth command, never
// from trawl), and that the exit status is true to what failed.
//
// The tests need the sites running (scripts/sites/<name>.sh) and Chromium; they skip
// with a message when a site is down, unless TRAWL_REQUIRE_SITES=1 (CI), which turns a
// missing site into a failure. TRAWL_BIN names a trawl binary built already (load tests run
// several test processes at once).
package realsites
