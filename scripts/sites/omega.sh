#!/usr/bin/env bash
# A real Xapian Omega search (Debian 12's xapian-omega package, unmodified: the omega
# CGI run by lighttpd, its stock "query" template) at 127.0.0.1, over a real document
# collection: git's HTML documentation (Debian's git-doc, ~600 manual pages and guides),
# indexed by omega's own omindex and served beside the search under /git-doc/.
#
#   scripts/sites/omega.sh [start]       install what is missing, index, start
#   scripts/sites/omega.sh stop          stop lighttpd
#   scripts/sites/omega.sh status        exit 0 when the site answers
#   scripts/sites/omega.sh truth QUERY
#       every document that matches QUERY, read from the Xapian database with Xapian's
#       quest (omega's query syntax and stemming): a first line "matches N", then one
#       "url<TAB>caption" line per document
#
# Idempotent. Port: $TRAWL_OMEGA_PORT (18103). Needs root or sudo.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/sites/lib.sh
PORT="${TRAWL_OMEGA_PORT:-18103}"
URL="http://127.0.0.1:${PORT}"
STATE="${TRAWL_OMEGA_STATE:-/var/lib/trawl-sites/omega}"
DB="$STATE/data/default"

answers() { curl -fsS -o /dev/null --max-time 5 "$URL/cgi-bin/omega" 2>/dev/null; }

case "${1:-start}" in
status)
  answers && echo "omega: $URL" && exit 0
  echo "omega: not answering on $URL" >&2
  exit 1
  ;;
stop)
  stop_bg "$STATE/lighttpd.pid"
  exit 0
  ;;
truth)
  [ $# -eq 2 ] || { echo "usage: $0 truth QUERY" >&2; exit 2; }
  # quest prints "Exactly N matches", then the MSet as "docid: [weight]" lines, each
  # followed by the document data (url=, caption=, sample=, …).
  quest -d "$DB" -m 100000 -s english "$2" |
    awk '
      /^Exactly [0-9]+ matches/ { print "matches " $2; next }
      /^[0-9]+: \[/ { url = ""; next }
      /^url=/ { url = substr($0, 5) }
      /^caption=/ { print url "\t" substr($0, 9) }'
  exit 0
  ;;
start) ;;
*)
  echo "usage: $0 [start|stop|status|truth QUERY]" >&2
  exit 2
  ;;
esac

need_packages xapian-omega xapian-tools git-doc lighttpd curl
$SUDO mkdir -p "$STATE/data" "$STATE/log" "$STATE/cdb"

# The index, once (omindex skips unchanged files anyway): the HTML pages of git-doc.
if [ ! -f "$STATE/indexed" ]; then
  $SUDO omindex --db "$DB" --url /git-doc/ -M txt:ignore -M gz:ignore /usr/share/doc/git-doc >/dev/null
  $SUDO touch "$STATE/indexed"
fi

$SUDO tee "$STATE/omega.conf" >/dev/null <<CONF
database_dir $STATE/data
template_dir /usr/share/xapian-omega/templates
log_dir $STATE/log
cdb_dir $STATE/cdb
CONF
lighttpd_conf "$STATE/lighttpd.conf" "$PORT" "$STATE/www" "$STATE" "
alias.url = (\"/cgi-bin/omega\" => \"/usr/lib/cgi-bin/omega/omega\", \"/git-doc/\" => \"/usr/share/doc/git-doc/\")
\$HTTP[\"url\"] =~ \"^/cgi-bin/\" { cgi.assign = (\"\" => \"\") }
setenv.add-environment = (\"OMEGA_CONFIG_FILE\" => \"$STATE/omega.conf\")"
$SUDO mkdir -p "$STATE/www"
echo '<!doctype html><title>git documentation</title><a href="/cgi-bin/omega">Search</a>' | $SUDO tee "$STATE/www/index.html" >/dev/null
if ! answers; then
  lighttpd_start "$STATE/lighttpd.conf" "$STATE"
  wait_for answers || { echo "omega.sh: omega does not answer on $URL (see $STATE/lighttpd.error.log)" >&2; exit 1; }
fi
echo "omega: $URL/cgi-bin/omega"
