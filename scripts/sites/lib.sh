# Shared helpers of the site scripts (sourced, not run).

SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo

# history_rev: the commit up to which gitweb and Fossil serve this repository's history
# ($TRAWL_SITES_GIT_REV, by default a fixed commit): the sites' data must not change with
# every new commit (the sixth session's CI failed on subjects its own commits had added;
# docs/decisions/2026-11-22-composite-leaf-splitting.md). Fails, naming the commit, when
# the clone does not hold it (a shallow clone).
history_rev() {
  local rev="${TRAWL_SITES_GIT_REV:-3bbd6fba76284ddcdcc00af2b4305ddba05f7241}"
  if ! git cat-file -e "$rev^{commit}" 2>/dev/null; then
    echo "$(basename "$0"): commit $rev is not in this clone ($PWD): the site serves the history up to it; clone without --depth or set TRAWL_SITES_GIT_REV" >&2
    return 1
  fi
  echo "$rev"
}

# need_packages PKG...: installs the Debian packages that are missing, without the
# packages' own services starting (policy-rc.d refuses them: the site scripts start
# what they need themselves, on 127.0.0.1).
need_packages() {
  local need=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need+=("$p")
  done
  [ ${#need[@]} -eq 0 ] && return 0
  echo "$(basename "$0"): installing ${need[*]}" >&2
  local rc=/usr/sbin/policy-rc.d made=""
  if [ ! -e "$rc" ]; then
    printf '#!/bin/sh\nexit 101\n' | $SUDO tee "$rc" >/dev/null
    $SUDO chmod +x "$rc"
    made=1
  fi
  local status=0
  $SUDO apt-get -o DPkg::Lock::Timeout=900 update -qq &&
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=900 install -y -qq --no-install-recommends "${need[@]}" >/dev/null ||
    status=$?
  [ -n "$made" ] && $SUDO rm -f "$rc"
  if [ "$status" != 0 ]; then
    echo "$(basename "$0"): apt-get install ${need[*]} failed (status $status)" >&2
    return "$status"
  fi
  return 0
}

# wait_for CMD...: runs CMD every half second until it succeeds (15 s at most).
wait_for() {
  local i
  for i in $(seq 1 30); do "$@" && return 0; sleep 0.5; done
  return 1
}

# start_bg PIDFILE LOG CMD...: starts CMD in the background (detached) unless the
# process of PIDFILE still runs.
start_bg() {
  local pidfile=$1 log=$2
  shift 2
  if [ -f "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null; then
    return 0
  fi
  nohup setsid "$@" >"$log" 2>&1 </dev/null &
  echo $! >"$pidfile"
}

# stop_bg PIDFILE: stops the process of PIDFILE.
stop_bg() {
  local pidfile=$1
  if [ -f "$pidfile" ]; then
    kill "$(cat "$pidfile")" 2>/dev/null || true
    rm -f "$pidfile"
  fi
}

# lighttpd_conf FILE PORT DOCROOT STATE EXTRA: writes a lighttpd configuration that
# serves DOCROOT on 127.0.0.1:PORT with CGI, its pid and logs in STATE; EXTRA is added
# as it is (aliases, CGI assignments, environment).
lighttpd_conf() {
  local file=$1 port=$2 root=$3 state=$4 extra=$5
  $SUDO tee "$file" >/dev/null <<CONF
server.modules = ("mod_access", "mod_alias", "mod_cgi", "mod_setenv")
server.document-root = "$root"
server.bind = "127.0.0.1"
server.port = $port
server.pid-file = "$state/lighttpd.pid"
server.errorlog = "$state/lighttpd.error.log"
server.max-worker = 0
mimetype.assign = (".css" => "text/css", ".js" => "text/javascript", ".png" => "image/png",
  ".html" => "text/html; charset=utf-8", ".txt" => "text/plain; charset=utf-8")
$extra
CONF
}

# lighttpd_start CONF STATE: starts lighttpd (daemonised, as it does by itself) unless
# the pid file's process runs.
lighttpd_start() {
  local conf=$1 state=$2
  if [ -f "$state/lighttpd.pid" ] && kill -0 "$(cat "$state/lighttpd.pid")" 2>/dev/null; then
    return 0
  fi
  $SUDO lighttpd -f "$conf"
}
