#!/usr/bin/env bash
# A real WordPress site with a feed, for the article tests (issue 18): Debian 12's
# wordpress package on MariaDB, served by PHP's built-in server on 127.0.0.1 only, with
# a few hundred real posts from open texts available offline:
#   - the true article bodies of ../shared/data/article-extraction (121 news and blog
#     texts; the headline is the page's <title>);
#   - the sections of the Debian Reference (package debian-reference-en, GPL-2+), one
#     post per section with at least 40 words of direct paragraphs.
# Its RSS feed (/?feed=rss2, every post, excerpts as descriptions) and the posts' bodies
# read from its database (written to $STATE/truth.json) are the tests' ground truth.
#
#   scripts/sites/wordpress.sh [start]   install what is missing, start, load the posts
#   scripts/sites/wordpress.sh stop      stop the PHP server (MariaDB keeps running)
#   scripts/sites/wordpress.sh status    exit 0 when the site answers
#   scripts/sites/wordpress.sh truth QUERY PAGE
#       the posts WordPress's own search (WP_Query with s=QUERY, paged=PAGE, 1-based)
#       lists on that result page, read from its database: one "ID<TAB>title<TAB>date"
#       line each (the date as YYYY-MM-DD)
#
# Idempotent: each step checks its own state first. Port: $TRAWL_WORDPRESS_PORT (18086).
# Needs root or sudo for apt-get and MariaDB.
set -euo pipefail
cd "$(dirname "$0")/../.."
PORT="${TRAWL_WORDPRESS_PORT:-18086}"
URL="http://127.0.0.1:${PORT}"
STATE="${TRAWL_WORDPRESS_STATE:-/var/lib/trawl-sites/wordpress}"
SHARED="${TRAWL_SHARED:-../shared}"
DB=trawl_wp
DBUSER=trawl_wp
DBPASS=trawl-wp-local
SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo

answers() { curl -fsS -o /dev/null --max-time 5 "$URL/?feed=rss2" 2>/dev/null; }

case "${1:-start}" in
status)
  answers && echo "wordpress: $URL" && exit 0
  echo "wordpress: not answering on $URL" >&2
  exit 1
  ;;
stop)
  if [ -f "$STATE/php.pid" ]; then
    $SUDO kill "$(cat "$STATE/php.pid")" 2>/dev/null || true
    $SUDO rm -f "$STATE/php.pid"
  fi
  exit 0
  ;;
truth)
  [ $# -eq 3 ] || { echo "usage: $0 truth QUERY PAGE" >&2; exit 2; }
  $SUDO env WP_HOST="127.0.0.1:${PORT}" Q="$2" PAGED="$3" php -d error_reporting=E_ALL\&~E_DEPRECATED -r '
    $_SERVER["HTTP_HOST"] = getenv("WP_HOST"); $_SERVER["REQUEST_URI"] = "/";
    require "/usr/share/wordpress/wp-load.php";
    $q = new WP_Query(["s" => getenv("Q"), "paged" => (int)getenv("PAGED"), "post_status" => "publish"]);
    foreach ($q->posts as $p) { echo $p->ID, "\t", $p->post_title, "\t", substr($p->post_date, 0, 10), "\n"; }'
  exit 0
  ;;
start) ;;
*)
  echo "usage: $0 [start|stop|status|truth QUERY PAGE]" >&2
  exit 2
  ;;
esac

# 1. Packages.
need=()
for p in wordpress wordpress-theme-twentytwentyone mariadb-server php-cli php-mysql php-xml debian-reference-en curl; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  echo "wordpress.sh: installing ${need[*]}" >&2
  $SUDO apt-get -o DPkg::Lock::Timeout=900 update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=900 install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
# The wordpress package pulls in apache2; this site is served by PHP's own server.
if pgrep -x apache2 >/dev/null 2>&1 && [ -x /etc/init.d/apache2 ]; then
  $SUDO /etc/init.d/apache2 stop >/dev/null 2>&1 || true
fi

# 2. MariaDB.
if ! $SUDO mysqladmin ping >/dev/null 2>&1; then
  $SUDO service mariadb start >/dev/null 2>&1 || $SUDO /etc/init.d/mariadb start >/dev/null
  for _ in $(seq 1 30); do $SUDO mysqladmin ping >/dev/null 2>&1 && break; sleep 1; done
fi
$SUDO mysql -e "CREATE DATABASE IF NOT EXISTS ${DB} CHARACTER SET utf8mb4;
CREATE USER IF NOT EXISTS '${DBUSER}'@'localhost' IDENTIFIED BY '${DBPASS}';
GRANT ALL ON ${DB}.* TO '${DBUSER}'@'localhost';"

# 3. WordPress configuration for the host 127.0.0.1 (Debian's wp-config.php reads
# /etc/wordpress/config-<host>.php).
CONF=/etc/wordpress/config-127.0.0.1.php
$SUDO tee "$CONF" >/dev/null <<EOF
<?php
define('DB_NAME', '${DB}');
define('DB_USER', '${DBUSER}');
define('DB_PASSWORD', '${DBPASS}');
define('DB_HOST', 'localhost');
define('WP_CONTENT_DIR', '/var/lib/wordpress/wp-content');
define('WP_HOME', '${URL}');
define('WP_SITEURL', '${URL}');
define('DISABLE_WP_CRON', true);
define('AUTOMATIC_UPDATER_DISABLED', true);
EOF
$SUDO mkdir -p "$STATE"

# 4. Install, posts, truth (PHP against the database).
$SUDO tee "$STATE/load.php" >/dev/null <<'PHP'
<?php
// Installs the blog once, loads the posts once, and writes the posts' bodies as read
// from the database to truth.json every time.
$_SERVER['HTTP_HOST'] = getenv('WP_HOST');
$_SERVER['REQUEST_URI'] = '/';
define('WP_INSTALLING', true);
require '/usr/share/wordpress/wp-load.php';
require_once ABSPATH . 'wp-admin/includes/upgrade.php';
if (!is_blog_installed()) {
    wp_install('Trawl test blog', 'admin', 'admin@example.invalid', true, '', 'trawl-admin-' . getenv('WP_HOST'));
}
update_option('posts_per_rss', 1000);
update_option('rss_use_excerpt', 1);
update_option('permalink_structure', '');
update_option('blogdescription', 'Real texts for trawl\'s article tests');
switch_theme('twentytwentyone');

function paras_html(array $paras) {
    $out = [];
    foreach ($paras as $p) {
        $p = trim(preg_replace('/[ \t]+/', ' ', $p));
        if ($p !== '') {
            $out[] = '<p>' . nl2br(htmlspecialchars($p, ENT_QUOTES | ENT_SUBSTITUTE, 'UTF-8'), false) . '</p>';
        }
    }
    return implode("\n\n", $out);
}

$posts = [];
// (a) the article benchmark's true bodies, titled with their page's <title>.
$dir = getenv('BENCH_DIR');
$gt = json_decode(file_get_contents("$dir/ground-truth.json"), true);
ksort($gt);
foreach ($gt as $id => $e) {
    $html = gzdecode(file_get_contents("$dir/html/$id.html.gz"));
    $title = preg_match('#<title[^>]*>(.*?)</title>#si', $html, $m) ? html_entity_decode(trim(preg_replace('/\s+/', ' ', $m[1])), ENT_QUOTES | ENT_HTML5, 'UTF-8') : '';
    if ($title === '') { $title = implode(' ', array_slice(preg_split('/\s+/', $e['articleBody']), 0, 8)); }
    $posts[] = ['key' => "bench-$id", 'title' => $title, 'content' => paras_html(explode("\n\n", $e['articleBody']))];
}
// (b) the sections of the Debian Reference: title and direct paragraphs.
libxml_use_internal_errors(true);
foreach (glob('/usr/share/debian-reference/*.en.html') as $f) {
    $doc = new DOMDocument();
    $doc->loadHTML('<?xml encoding="UTF-8">' . file_get_contents($f));
    $xp = new DOMXPath($doc);
    foreach ($xp->query("//div[@class='section']") as $k => $sec) {
        $t = $xp->query(".//*[contains(@class,'title')]", $sec)->item(0);
        $paras = [];
        $words = 0;
        foreach ($xp->query("./p", $sec) as $p) {
            $s = trim(preg_replace('/\s+/u', ' ', $p->textContent));
            if ($s !== '') { $paras[] = $s; $words += str_word_count($s); }
        }
        if ($t === null || $words < 40) { continue; }
        $title = trim(preg_replace('/\s+/u', ' ', $t->textContent));
        $posts[] = ['key' => 'debref-' . basename($f) . "-$k", 'title' => $title, 'content' => paras_html($paras)];
    }
}

$have = [];
foreach (get_posts(['numberposts' => -1, 'post_status' => 'publish', 'meta_key' => 'trawl_key']) as $p) {
    $have[get_post_meta($p->ID, 'trawl_key', true)] = true;
}
$t0 = strtotime('2019-01-01 08:00:00');
foreach ($posts as $i => $p) {
    if (isset($have[$p['key']])) { continue; }
    $id = wp_insert_post(['post_title' => wp_slash($p['title']), 'post_content' => wp_slash($p['content']),
        'post_status' => 'publish', 'post_author' => 1, 'post_date' => date('Y-m-d H:i:s', $t0 + 3600 * $i)], true);
    if (is_wp_error($id)) { fwrite(STDERR, "post {$p['key']}: " . $id->get_error_message() . "\n"); exit(1); }
    add_post_meta($id, 'trawl_key', $p['key'], true);
}
wp_delete_post(1, true); // "Hello world!"

// truth.json: every published post as stored in the database.
global $wpdb;
$rows = $wpdb->get_results("SELECT ID, post_title, post_content FROM {$wpdb->posts} WHERE post_type = 'post' AND post_status = 'publish' ORDER BY ID");
$truth = [];
foreach ($rows as $r) {
    $text = preg_replace('#<br\s*/?>#i', "\n", $r->post_content);
    $paras = preg_split('#</p>\s*#i', $text);
    $out = [];
    foreach ($paras as $para) {
        $s = trim(html_entity_decode(wp_strip_all_tags($para, false), ENT_QUOTES | ENT_HTML5, 'UTF-8'));
        if ($s !== '') { $out[] = $s; }
    }
    $truth[] = ['id' => (int)$r->ID, 'link' => get_permalink($r->ID), 'title' => $r->post_title, 'body' => implode("\n\n", $out)];
}
file_put_contents(getenv('TRUTH'), json_encode($truth, JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES | JSON_PRETTY_PRINT));
fwrite(STDERR, count($truth) . " posts\n");
PHP
BENCH="$(cd "$SHARED/data/article-extraction" 2>/dev/null && pwd)" || { echo "wordpress.sh: $SHARED/data/article-extraction not found (set TRAWL_SHARED)" >&2; exit 1; }
$SUDO env WP_HOST="127.0.0.1:${PORT}" BENCH_DIR="$BENCH" TRUTH="$STATE/truth.json" php "$STATE/load.php" 2>&1 | grep -v "^PHP Deprecated\|^Deprecated" >&2 || true
[ -s "$STATE/truth.json" ] || { echo "wordpress.sh: loading the posts failed (no $STATE/truth.json)" >&2; exit 1; }

# 5. The PHP server.
if ! answers; then
  $SUDO sh -c "cd /usr/share/wordpress && nohup php -S 127.0.0.1:${PORT} -t /usr/share/wordpress >'$STATE/php.log' 2>&1 & echo \$! >'$STATE/php.pid'"
  for _ in $(seq 1 30); do answers && break; sleep 0.5; done
  answers || { echo "wordpress.sh: the PHP server does not answer on $URL (see $STATE/php.log)" >&2; exit 1; }
fi
echo "wordpress: $URL (feed $URL/?feed=rss2, truth $STATE/truth.json)"
