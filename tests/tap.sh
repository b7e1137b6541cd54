# tests/tap.sh — the TAP helpers the command-line test scripts share
# (cli.sh, hardening.sh, sweep.sh, calibrate_graph.sh).  Source it after
# setting $tmp and n=0 failed=0; each script prints "1..$n" and exits on
# $failed itself.

ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; shift; for l in "$@"; do echo "# $l"; done; }
# check DESC EXPECTED_STATUS CMD… : run, capture stdout/stderr in $tmp, compare status
check() {
    desc=$1 want=$2; shift 2
    "$@" >"$tmp/out" 2>"$tmp/err"
    got=$?
    if [ "$got" -eq "$want" ]; then ok "$desc"; else not_ok "$desc" "exit $got, wanted $want" "$(head -c 600 "$tmp/err")"; fi
}
# has DESC FILE PATTERN : grep -E in an output file
has() {
    if grep -Eq -- "$3" "$2"; then ok "$1"; else not_ok "$1" "no match for /$3/ in $2:" "$(head -c 600 "$2")"; fi
}
