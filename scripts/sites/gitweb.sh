#!/usr/bin/env bash
# A real gitweb (Debian 12's gitweb package, unmodified, run as CGI by lighttpd) at
# 127.0.0.1 over a real git repository: a bare clone of this repository (trawl's own
# history up to a fixed commit). trawl probes the commit search form of the project's
# summary page (?p=trawl.git;a=summary: search type select, text, regular-expression
# checkbox).
#
#   scripts/sites/gitweb.sh [start]     install what is missing, clone, start
#   scripts/sites/gitweb.sh stop        stop lighttpd
#   scripts/sites/gitweb.sh status      exit 0 when the site answers
#   scripts/sites/gitweb.sh truth TYPE TEXT PAGE
#       the commits gitweb's search lists on result page PAGE (0-based) for search type
#       TYPE (commit, author, committer) and TEXT, read from the repository with the
#       same git rev-list gitweb runs: one line per commit, "<hash> <subject>"
#
# Idempotent. Port: $TRAWL_GITWEB_PORT (18102). Needs root or sudo.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/sites/lib.sh
PORT="${TRAWL_GITWEB_PORT:-18102}"
URL="http://127.0.0.1:${PORT}"
STATE="${TRAWL_GITWEB_STATE:-/var/lib/trawl-sites/gitweb}"
REPO="$STATE/repos/trawl.git"

answers() { curl -fsS -o /dev/null --max-time 5 "$URL/gitweb.cgi?p=trawl.git;a=summary" 2>/dev/null; }

case "${1:-start}" in
status)
  answers && echo "gitweb: $URL" && exit 0
  echo "gitweb: not answering on $URL" >&2
  exit 1
  ;;
stop)
  stop_bg "$STATE/lighttpd.pid"
  exit 0
  ;;
truth)
  [ $# -eq 4 ] || { echo "usage: $0 truth TYPE TEXT PAGE" >&2; exit 2; }
  case "$2" in
  commit) grep="--grep=$3" ;;
  author) grep="--author=$3" ;;
  committer) grep="--committer=$3" ;;
  *) echo "gitweb.sh truth: search type $2 is not a commit-message search" >&2; exit 2 ;;
  esac
  git --git-dir="$REPO" rev-list --format='%H %s' --no-commit-header "$grep" --regexp-ignore-case --fixed-strings \
    --max-count=100 --skip=$((100 * $4)) HEAD --
  exit 0
  ;;
start) ;;
*)
  echo "usage: $0 [start|stop|status|truth TYPE TEXT PAGE]" >&2
  exit 2
  ;;
esac

need_packages gitweb git lighttpd curl
$SUDO mkdir -p "$STATE/repos"

# The repository: this checkout's history up to a fixed commit (history_rev in lib.sh)
# in a bare repository, refreshed on each start, so that the truth and the site read the
# same commits.
REV="$(history_rev)"
[ -d "$REPO" ] || $SUDO git init -q --bare "$REPO"
$SUDO git --git-dir="$REPO" fetch -q --no-tags "$PWD" "+$REV:refs/heads/main"
$SUDO git --git-dir="$REPO" symbolic-ref HEAD refs/heads/main
echo "trawl: deep-web probing, record extraction and alignment (its own history)" | $SUDO tee "$REPO/description" >/dev/null

$SUDO tee "$STATE/gitweb.conf" >/dev/null <<CONF
\$projectroot = "$STATE/repos";
\$site_name = "trawl git";
@stylesheets = ("static/gitweb.css");
\$javascript = "static/gitweb.js";
\$logo = "static/git-logo.png";
\$favicon = "static/git-favicon.png";
\$feature{'search'}{'default'} = [1];
\$feature{'grep'}{'default'} = [1];
\$feature{'pickaxe'}{'default'} = [1];
CONF
lighttpd_conf "$STATE/lighttpd.conf" "$PORT" /usr/share/gitweb "$STATE" "
index-file.names = (\"gitweb.cgi\")
cgi.assign = (\".cgi\" => \"/usr/bin/perl\")
setenv.add-environment = (\"GITWEB_CONFIG\" => \"$STATE/gitweb.conf\")"
if ! answers; then
  lighttpd_start "$STATE/lighttpd.conf" "$STATE"
  wait_for answers || { echo "gitweb.sh: gitweb does not answer on $URL (see $STATE/lighttpd.error.log)" >&2; exit 1; }
fi
echo "gitweb: $URL/gitweb.cgi?p=trawl.git;a=summary"
