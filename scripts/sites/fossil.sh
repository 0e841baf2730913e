#!/usr/bin/env bash
# A real Fossil SCM server (Debian 12's fossil package, unmodified: `fossil server`) at
# 127.0.0.1 over a real repository: this repository's git history (up to a fixed
# commit) imported with `fossil import --git`, and tickets made with `fossil ticket
# add` from the Debian packages installed on the machine (dpkg's database: summary, long
# description, section, version, priority). Its timeline has a filter form (event type,
# tag filter with a match style, row count, view style): what trawl probes (issue 14,
# filter forms).
#
#   scripts/sites/fossil.sh [start]     install what is missing, load the data, start
#   scripts/sites/fossil.sh stop        stop the server
#   scripts/sites/fossil.sh status      exit 0 when the site answers
#   scripts/sites/fossil.sh truth TYPE N [TAG]
#       the events the timeline lists for event type TYPE (all, ci, t, w, e, g), at most
#       N of them, newest first, with the tag TAG when given (exact match), read from the
#       repository's event table: one line per event, "<hash prefix>\t<comment>"
#
# Idempotent. Port: $TRAWL_FOSSIL_PORT (18104). Needs root or sudo.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/sites/lib.sh
PORT="${TRAWL_FOSSIL_PORT:-18104}"
URL="http://127.0.0.1:${PORT}"
STATE="${TRAWL_FOSSIL_STATE:-/var/lib/trawl-sites/fossil}"
REPO="$STATE/trawl.fossil"
TICKETS="${TRAWL_FOSSIL_TICKETS:-300}"

answers() { curl -fsS -o /dev/null --max-time 5 "$URL/timeline" 2>/dev/null; }

case "${1:-start}" in
status)
  answers && echo "fossil: $URL/timeline" && exit 0
  echo "fossil: not answering on $URL" >&2
  exit 1
  ;;
stop)
  stop_bg "$STATE/server.pid"
  exit 0
  ;;
truth)
  [ $# -ge 3 ] || { echo "usage: $0 truth TYPE N [TAG]" >&2; exit 2; }
  type=$2 n=$3 tag=${4:-}
  case "$type" in all | ci | t | w | e | g) ;; *) echo "fossil.sh truth: event type $type is not one the truth reads" >&2; exit 2 ;; esac
  [[ "$n" =~ ^[0-9]+$ ]] || { echo "fossil.sh truth: N must be a number, got $n" >&2; exit 2; }
  where="1"
  [ "$type" = all ] || where="event.type='$type'"
  if [ -n "$tag" ]; then
    q=${tag//\'/\'\'}
    where="$where AND event.objid IN (SELECT rid FROM tagxref JOIN tag USING(tagid) WHERE tagxref.tagtype>0 AND tag.tagname IN ('sym-$q','$q'))"
  fi
  fossil sql -R "$REPO" --readonly \
    "SELECT substr(blob.uuid,1,16) || char(9) || replace(coalesce(event.ecomment,event.comment,''),char(10),' ') FROM event JOIN blob ON blob.rid=event.objid WHERE $where ORDER BY event.mtime DESC LIMIT $n" |
    sed -e "s/^'//" -e "s/'$//"
  exit 0
  ;;
start) ;;
*)
  echo "usage: $0 [start|stop|status|truth TYPE N [TAG]]" >&2
  exit 2
  ;;
esac

need_packages fossil git curl
$SUDO mkdir -p "$STATE"
export USER="${USER:-trawl}"

if [ ! -f "$STATE/loaded" ]; then
  $SUDO rm -f "$REPO"
  # The repository: this checkout's history up to a fixed commit (history_rev in
  # lib.sh), through Fossil's own git importer.
  rev="$(history_rev)"
  git fast-export "$rev" 2>/dev/null | $SUDO env USER=trawl fossil import --git --quiet --admin-user trawl "$REPO" >/dev/null
  $SUDO fossil user default trawl -R "$REPO"
  # Visitors read everything (check-ins, tickets, wiki) and follow links.
  for u in nobody anonymous; do $SUDO fossil user capabilities "$u" ghjortz -R "$REPO" >/dev/null; done
  # Tickets: one per installed Debian package, through `fossil ticket add`.
  dpkg-query -W -f='${Package}\t${Version}\t${Section}\t${Priority}\t${Description}\n@@END@@\n' >"$STATE/packages.txt"
  python3 - "$STATE/packages.txt" "$TICKETS" >"$STATE/tickets.tsv" <<'PY'
import sys
raw = open(sys.argv[1], encoding="utf-8", errors="replace").read()
severity = {"required": "Critical", "important": "Severe", "standard": "Important", "optional": "Minor", "extra": "Cosmetic"}
n = 0
for rec in raw.split("\n@@END@@\n"):
    lines = rec.split("\n")
    head = lines[0].split("\t", 4)
    if len(head) < 5 or not head[0]:
        continue
    name, version, section, priority, summary = head
    body = " ".join(l.strip() for l in lines[1:] if l.strip() and l.strip() != ".")
    print("\t".join(x.replace("\t", " ") for x in [name + ": " + summary, section or "misc", version, severity.get(priority, "Minor"), body or summary]))
    n += 1
    if n >= int(sys.argv[2]):
        break
PY
  while IFS=$'\t' read -r title subsystem foundin severity comment; do
    $SUDO fossil ticket add -R "$REPO" title "$title" status Open type Feature_Request subsystem "$subsystem" \
      foundin "$foundin" severity "$severity" priority Medium comment "$comment" >/dev/null
  done <"$STATE/tickets.tsv"
  $SUDO touch "$STATE/loaded"
fi

if ! answers; then
  start_bg "$STATE/server.pid" "$STATE/server.log" fossil server --localhost --port "$PORT" "$REPO"
  wait_for answers || { echo "fossil.sh: fossil does not answer on $URL (see $STATE/server.log)" >&2; exit 1; }
fi
echo "fossil: $URL/timeline"
