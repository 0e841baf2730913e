#!/usr/bin/env bash
# KB load benchmark of docs/benchmarks.md (issue 19): loads a generated YAGO-shaped
# N-Triples dump with `trawl kb load` and parses the same file with serdi (the C parser
# of Debian's serdi package, installed here through scripts/setup.sh if missing), in
# interleaved rounds, and prints wall time, CPU time and peak RSS of each run.
#
#   scripts/bench-kb-load.sh [-n TRIPLES] [-r ROUNDS] [-o OLD_TRAWL] [-m SORT_MEMORY_MB] [-k]
#
#   -n  size of the dump (default 5000000); it is generated once into
#       ${TRAWL_BENCH_DIR:-/tmp/trawl-bench}/yago-N.nt by ontology/internal/synth/yagosynth
#   -r  rounds (default 3)
#   -o  another trawl binary to load the same file in each round (e.g. the previous
#       commit's), for a before/after comparison on the same machine state
#   -m  --sort-memory of trawl kb load (default: trawl's)
#   -k  keep the loaded KBs (default: removed after each run)
#
# The machine may be shared: compare CPU seconds, and look at the load average printed
# before each run.
set -euo pipefail
n=5000000 rounds=3 old="" mem="" keep=0
while getopts "n:r:o:m:k" opt; do
  case $opt in
    n) n=$OPTARG ;; r) rounds=$OPTARG ;; o) old=$OPTARG ;; m) mem=$OPTARG ;; k) keep=1 ;;
    *) sed -n '2,20p' "$0" >&2; exit 2 ;;
  esac
done
cd "$(dirname "$0")/.."
command -v serdi >/dev/null 2>&1 || TRAWL_SETUP_EXTRA=serdi ./scripts/setup.sh
[ -x /usr/bin/time ] || TRAWL_SETUP_EXTRA=time ./scripts/setup.sh

dir=${TRAWL_BENCH_DIR:-/tmp/trawl-bench}
mkdir -p "$dir"
file="$dir/yago-$n.nt"
[ -f "$file" ] || go run ./ontology/internal/synth/yagosynth -n "$n" -o "$file"
bin="$dir/trawl-bench-$$"
go build -o "$bin" ./cmd/trawl
trap 'rm -rf "$bin" "$dir"/kb-run-$$-* "$dir/time-$$" "$dir/stderr-$$"' EXIT
triples=$(($(wc -l <"$file")))

# rss-MiB is the peak resident set (getrusage), which includes the table files Badger
# writes through memory maps (clean file pages, about the size of the KB);
# anon-MiB is the peak of RssAnon (heap, stacks, sort buffers), sampled every 0.2 s;
# kb-MiB is the size of the loaded KB.
printf '%-8s %5s %8s %8s %8s %9s %9s %7s %12s %14s %s\n' tool round wall-s user-s sys-s rss-MiB anon-MiB kb-MiB triples/s triples/cpu-s loadavg
run() { # name round kbdir cmd... (kbdir "-" for serdi)
  local name=$1 round=$2 kbdir=$3; shift 3
  local la peak=0 a cp tp kbm=0
  la=$(cut -d' ' -f1-3 /proc/loadavg)
  /usr/bin/time -o "$dir/time-$$" -f '%e %U %S %M' "$@" >/dev/null 2>"$dir/stderr-$$" &
  tp=$!
  while kill -0 "$tp" 2>/dev/null; do
    cp=$(pgrep -P "$tp" | head -1 || true)
    if [ -n "$cp" ]; then
      a=$(awk '/^RssAnon:/ {print $2}' "/proc/$cp/status" 2>/dev/null || true)
      if [ -n "$a" ] && [ "$a" -gt "$peak" ]; then peak=$a; fi
    fi
    sleep 0.2
  done
  wait "$tp" || { echo "$name failed:" >&2; cat "$dir/stderr-$$" >&2; exit 1; }
  read -r wall user sys rss <"$dir/time-$$"
  [ "$kbdir" = - ] || kbm=$(du -sm "$kbdir" | cut -f1)
  awk -v name="$name" -v r="$round" -v w="$wall" -v u="$user" -v s="$sys" -v m="$rss" -v pa="$peak" -v kb="$kbm" -v t="$triples" -v la="$la" \
    'BEGIN { printf "%-8s %5d %8.2f %8.2f %8.2f %9.0f %9.0f %7d %12.0f %14.0f %s\n", name, r, w, u, s, m/1024, pa/1024, kb, t/w, t/(u+s), la }'
}
memflag=()
[ -n "$mem" ] && memflag=(--sort-memory "$mem")
for r in $(seq 1 "$rounds"); do
  run serdi "$r" - serdi -b -i ntriples -o ntriples "$file"
  kb="$dir/kb-run-$$-new-$r"
  run trawl "$r" "$kb" "$bin" kb load "$file" --kb "$kb" --quiet "${memflag[@]}"
  [ "$keep" = 1 ] || rm -rf "$kb"
  if [ -n "$old" ]; then
    kb="$dir/kb-run-$$-old-$r"
    run old "$r" "$kb" "$old" kb load "$file" --kb "$kb" --quiet "${memflag[@]}"
    [ "$keep" = 1 ] || rm -rf "$kb"
  fi
done
