#!/usr/bin/env bash
# A real DokuWiki (Debian 12's dokuwiki package, unmodified) on PHP's built-in server
# at 127.0.0.1, for the probe tests of real sites (issue 14). Its pages are the
# descriptions of the Debian packages installed on the machine (dpkg's database: name,
# summary, long description, section, version, homepage), one page per package in the
# namespace "packages", saved through DokuWiki's own saveWikiText and indexed by its own
# bin/indexer.php. The search form in its header (?do=search&q=) is what trawl probes.
#
#   scripts/sites/dokuwiki.sh [start]      install what is missing, load the pages, start
#   scripts/sites/dokuwiki.sh stop         stop the PHP server
#   scripts/sites/dokuwiki.sh status       exit 0 when the site answers
#   scripts/sites/dokuwiki.sh truth QUERY  the wiki's own full-text search for QUERY
#                                          (ft_pageSearch over its index), as JSON lines
#                                          {"id":…, "title":…}, best first
#
# Idempotent. Port: $TRAWL_DOKUWIKI_PORT (18101). Needs root or sudo.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/sites/lib.sh
PORT="${TRAWL_DOKUWIKI_PORT:-18101}"
URL="http://127.0.0.1:${PORT}"
STATE="${TRAWL_DOKUWIKI_STATE:-/var/lib/trawl-sites/dokuwiki}"
MAXPAGES="${TRAWL_DOKUWIKI_PAGES:-400}"

answers() { curl -fsS -o /dev/null --max-time 5 "$URL/doku.php?id=start" 2>/dev/null; }

# php_doku CODE: runs PHP code inside DokuWiki (its init.php loaded, as the CLI tools do).
php_doku() {
  $SUDO php -d error_reporting=E_ALL\&~E_DEPRECATED -r "
    \$_SERVER['HTTP_HOST'] = '127.0.0.1:${PORT}'; \$_SERVER['SERVER_PORT'] = '${PORT}';
    if (!defined('DOKU_INC')) define('DOKU_INC', '/usr/share/dokuwiki/');
    define('NOSESSION', 1);
    require_once DOKU_INC . 'inc/init.php';
    $1"
}

case "${1:-start}" in
status)
  answers && echo "dokuwiki: $URL" && exit 0
  echo "dokuwiki: not answering on $URL" >&2
  exit 1
  ;;
stop)
  stop_bg "$STATE/php.pid"
  exit 0
  ;;
truth)
  shift
  Q="$*" php_doku '
    $q = getenv("Q");
    $hl = [];
    foreach (ft_pageSearch($q, $hl) as $id => $hits) {
      echo json_encode(["id" => $id, "title" => p_get_first_heading($id), "hits" => $hits], JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES), "\n";
    }'
  exit 0
  ;;
start) ;;
*)
  echo "usage: $0 [start|stop|status|truth QUERY]" >&2
  exit 2
  ;;
esac

need_packages dokuwiki php-cli curl
$SUDO mkdir -p "$STATE"

# Settings of this site (the package's own files stay as they are): a title, no ACL (a
# public read-only wiki), the first heading as the page name.
$SUDO tee /etc/dokuwiki/local.protected.php >/dev/null <<'PHP'
<?php
$conf['title'] = 'Debian packages wiki';
$conf['useacl'] = 0;
$conf['useheading'] = 1;
$conf['start'] = 'start';
PHP

# The pages, once: one per installed package, written with DokuWiki's saveWikiText.
if [ ! -f "$STATE/loaded" ]; then
  dpkg-query -W -f='${Package}\t${Version}\t${Section}\t${Homepage}\t${Description}\n@@END@@\n' \
    | $SUDO tee "$STATE/packages.txt" >/dev/null
  MAXPAGES="$MAXPAGES" SRC="$STATE/packages.txt" php_doku '
    $raw = file_get_contents(getenv("SRC"));
    $n = 0; $max = (int)getenv("MAXPAGES"); $index = [];
    foreach (explode("\n@@END@@\n", $raw) as $rec) {
      $lines = explode("\n", $rec);
      $head = explode("\t", array_shift($lines), 5);
      if (count($head) < 5 || $head[0] === "") continue;
      [$name, $version, $section, $home, $summary] = $head;
      $paras = []; $cur = [];
      foreach ($lines as $l) {
        $l = trim($l);
        if ($l === ".") { if ($cur) { $paras[] = implode(" ", $cur); $cur = []; } continue; }
        if ($l !== "") $cur[] = $l;
      }
      if ($cur) $paras[] = implode(" ", $cur);
      if (!$paras) continue;
      $id = cleanID("packages:" . $name);
      $text = "====== $name ======\n\n" . ucfirst($summary) . ".\n\n" . implode("\n\n", $paras) . "\n\n" .
        "  * Section: $section\n  * Version: $version\n" . ($home !== "" ? "  * Homepage: $home\n" : "");
      if (!page_exists($id)) saveWikiText($id, $text, "package description from dpkg");
      $index[] = "  * [[$id|$name]] — $summary";
      if (++$n >= $max) break;
    }
    saveWikiText("start", "====== Debian packages wiki ======\n\nThe descriptions of $n Debian packages.\n\n" . implode("\n", $index) . "\n", "index");
    fwrite(STDERR, "$n package pages\n");'
  $SUDO php /usr/share/dokuwiki/bin/indexer.php -q
  $SUDO touch "$STATE/loaded"
fi

if ! answers; then
  start_bg "$STATE/php.pid" "$STATE/php.log" php -S "127.0.0.1:${PORT}" -t /usr/share/dokuwiki
  wait_for answers || { echo "dokuwiki.sh: the PHP server does not answer on $URL (see $STATE/php.log)" >&2; exit 1; }
fi
echo "dokuwiki: $URL/doku.php"
