#!/usr/bin/env bash
# The calibre test site: a real calibre content server (Debian 12's calibre package,
# unmodified) at 127.0.0.1 over a metadata-only library of 3,100 real book records
# (goodbooks-10k + the 100 best books), built by the shared site folder's own scripts
# (shared/sites/calibre: setup.sh installs calibre and imports the records with calibre's
# database API, start.sh starts calibre-server). trawl probes its /mobile search form.
#
#   scripts/sites/calibre.sh [start]    install what is missing, import, start
#   scripts/sites/calibre.sh packages   only install the Debian packages (apt-get)
#   scripts/sites/calibre.sh stop       stop calibre-server
#   scripts/sites/calibre.sh status     exit 0 when the site answers
#
# Idempotent. Port: $TRAWL_CALIBRE_PORT (18082, the port the calibre tests expect).
# State: $TRAWL_CALIBRE_STATE (/var/lib/trawl-sites/calibre). Needs root or sudo.
# Measured on the project's loaded 2-core machine: apt-get install calibre 0.5–2.5 min
# (~370 MB), the import 1.3–4 min, once; a start ~2 s.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/sites/lib.sh
PORT="${TRAWL_CALIBRE_PORT:-18082}"
STATE="${TRAWL_CALIBRE_STATE:-/var/lib/trawl-sites/calibre}"
URL="http://127.0.0.1:${PORT}/mobile"

shared() {
  local d="${TRAWL_SHARED:-}"
  if [ -z "$d" ]; then
    for d in ../shared ../../shared /work/shared; do
      [ -x "$d/sites/calibre/setup.sh" ] && break
    done
  fi
  [ -x "$d/sites/calibre/setup.sh" ] || { echo "calibre.sh: shared/sites/calibre/setup.sh not found (set TRAWL_SHARED)" >&2; exit 1; }
  (cd "$d/sites/calibre" && pwd)
}

answers() { curl -fsS -o /dev/null --max-time 10 "$URL" 2>/dev/null; }

case "${1:-start}" in
status)
  answers && echo "calibre: $URL" && exit 0
  echo "calibre: not answering on $URL" >&2
  exit 1
  ;;
stop)
  $SUDO env SITE_DIR="$STATE" "$(shared)/stop.sh"
  exit 0
  ;;
packages)
  need_packages calibre curl ca-certificates
  exit 0
  ;;
start) ;;
*)
  echo "usage: $0 [start|stop|status|packages]" >&2
  exit 2
  ;;
esac

if answers; then
  echo "calibre: $URL"
  exit 0
fi
dir="$(shared)"
need_packages calibre curl ca-certificates
$SUDO env SITE_DIR="$STATE" "$dir/setup.sh"
$SUDO env SITE_DIR="$STATE" PORT="$PORT" "$dir/start.sh"
answers || { echo "calibre.sh: $URL does not answer after start" >&2; exit 1; }
echo "calibre: $URL"
