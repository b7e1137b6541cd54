#!/bin/sh
# tests/hardening.sh — hostile or unlucky input at the command line (issue 17):
# control characters in notes, names, keys and stored text are shown as
# visible escapes and never reach the terminal raw (D2, D3, D14); a FIFO
# named as a trace or catalog file is refused at once (D4); `export -o`
# never replaces the plan store (D15).  TAP output for make check.
set -u
bin=${GPUPLAN_BUILDDIR:-.}/gpuplan
src=${GPUPLAN_SRCDIR:-.}
ex=$src/data/examples
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpuplan-hard.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
export XDG_DATA_HOME="$tmp/xdg" HOME="$tmp/home"
db="$tmp/plans.db"
n=0 failed=0
esc=$(printf '\033')

. "$src/tests/tap.sh"
# no_raw DESC FILE… : no ESC/BEL/C1-CSI byte in the files
no_raw() {
    desc=$1; shift
    if LC_ALL=C grep -q "$(printf '[\033\007\233]')" "$@"; then
        not_ok "$desc" "raw control bytes in $*"
    else ok "$desc"; fi
}
demo=$ex/frontier-2027.yaml

check "list seeds a new store" 0 "$bin" --db "$db" list

# D2: a note with escape sequences (OSC 52 clipboard write, clear screen)
check "save --note with escape sequences is refused as invalid (1)" 1 \
    "$bin" --db "$db" save "$demo" --note "$(printf 'hi\033]52;c;cHduZWQ=\007\033[2J')"
has "the refusal shows the escape, not the sequence" "$tmp/err" 'control character \\x1b at byte 3'
no_raw "the refusal sends no control bytes" "$tmp/err"
check "nothing was saved" 0 "$bin" --db "$db" list
has "the plan still has one version" "$tmp/out" '^frontier-2027 +1 '

# D14: names, notes and YAML written straight into the store file
sqlite3 "$db" "UPDATE versions SET note = 'n' || char(27) || ']52;c;cHduZWQ=' || char(7) || char(27) || '[2J'
    WHERE plan_id = (SELECT id FROM plans WHERE name = 'frontier-2027');
  INSERT INTO plans (name, created) VALUES ('evil' || char(27) || '[2J', 0), ('evil-yaml', 0);
  INSERT INTO versions (plan_id, version, created, note, yaml)
    SELECT id, 1, 0, '', 'name: x' || char(27) || '[2J' || char(10) FROM plans WHERE name LIKE 'evil%';" \
    2>"$tmp/err" && ok "sqlite3 can plant hostile rows" || not_ok "sqlite3 can plant hostile rows" "$(cat "$tmp/err")"
check "list of a store with hostile rows works" 0 "$bin" --db "$db" list
no_raw "list prints no raw control bytes" "$tmp/out"
has "list shows the note's escapes" "$tmp/out" 'n\\x1b\]52;c;cHduZWQ=\\x07\\x1b\[2J'
has "list shows the name's escape" "$tmp/out" '^evil\\x1b\[2J'
check "show of a hostile stored YAML works" 0 "$bin" --db "$db" show evil-yaml
no_raw "show prints no raw control bytes" "$tmp/out" "$tmp/err"
has "show keeps line breaks and escapes the rest" "$tmp/out" '^name: x\\x1b\[2J$'

# D3: messages that quote a key, an enum value or a preset
printf 'format: 1\nname: k\n"\\e[2Jkey": 1\n' >"$tmp/key.yaml"
check "an unknown key with an escape is an invalid plan (1)" 1 "$bin" --db "$db" eval "$tmp/key.yaml"
no_raw "the unknown-key message sends no control bytes" "$tmp/err"
has "the unknown-key message shows the escape" "$tmp/err" '\\x1b\[2Jkey'
printf 'format: 1\nname: k\nworkloads:\n  - name: w\n    kind: "train\\e]0;pwned\\a"\n' >"$tmp/enum.yaml"
check "an enum value with an escape is an invalid plan (1)" 1 "$bin" --db "$db" eval "$tmp/enum.yaml"
no_raw "the enum message sends no control bytes" "$tmp/err"
printf 'format: 1\nname: k\nworkloads:\n  - name: w\n    kind: training\n    model: {preset: "\\e[2Jllama"}\n    tokens: 1T\n' >"$tmp/preset.yaml"
check "a preset name with an escape is an invalid plan (1)" 1 "$bin" --db "$db" eval "$tmp/preset.yaml"
no_raw "the preset message sends no control bytes" "$tmp/err"
check "an argument with an escape is a usage error (2)" 2 "$bin" --db "$db" "$(printf 'x\033[2J')"
no_raw "the usage message sends no control bytes" "$tmp/err"

# D4: a FIFO as the trace, or as a catalog file, never hangs
mkfifo "$tmp/fifo.csv"
printf 'format: 1\nname: tr\ntenancy:\n  trace: fifo.csv\n  teams:\n    - {name: a}\n' >"$tmp/trfifo.yaml"
check "a FIFO as tenancy.trace is an I/O error (3), at once" 3 timeout 20 "$bin" --db "$db" eval "$tmp/trfifo.yaml"
check "simulate with a FIFO trace is an I/O error (3), at once" 3 timeout 20 "$bin" --db "$db" simulate "$tmp/trfifo.yaml"
check "export with a FIFO trace is an I/O error (3), at once" 3 timeout 20 "$bin" --db "$db" export "$tmp/trfifo.yaml" --format md
mkdir "$tmp/cat"
mkfifo "$tmp/cat/x.yaml"
timeout 20 "$bin" --db "$db" --catalog "$tmp/cat" eval "$demo" >"$tmp/out" 2>"$tmp/err"
got=$?
if [ "$got" -ne 124 ] && grep -q "cat/x.yaml: cannot open: not a regular file" "$tmp/err"; then
    ok "a FIFO under --catalog is reported, not waited on"
else not_ok "a FIFO under --catalog is reported, not waited on" "exit $got" "$(head -c 300 "$tmp/err")"; fi

# D15: export -o onto the store itself (or its WAL) is refused
sum1=$(cksum <"$db")
check "export -o onto the store is an I/O error (3)" 3 "$bin" --db "$db" export frontier-2027 --format md -o "$db"
has "export -o onto the store says why" "$tmp/err" 'refusing to replace an SQLite database'
sum2=$(cksum <"$db")
if [ "$sum1" = "$sum2" ]; then ok "the store is byte-identical"; else not_ok "the store is byte-identical"; fi
check "export -o onto the store's WAL name is an I/O error (3)" 3 "$bin" --db "$db" export frontier-2027 --format md -o "$db-wal"
check "the store still lists" 0 "$bin" --db "$db" list
has "the store still has its plans" "$tmp/out" '^frontier-2027 '

# D10: under an EXCLUSIVE-mode lock holder a read waits one busy timeout
# (5 s), not two, and says how long it waited
mkfifo "$tmp/lock.fifo"
sqlite3 "$db" <"$tmp/lock.fifo" >/dev/null 2>&1 &
holder=$!
exec 9>"$tmp/lock.fifo"
echo "PRAGMA locking_mode=EXCLUSIVE; BEGIN EXCLUSIVE; UPDATE plans SET created = created; COMMIT;" >&9
sleep 1
t0=$(date +%s%N)
check "list under an EXCLUSIVE holder is a store error (3)" 3 "$bin" --db "$db" list
t1=$(date +%s%N)
exec 9>&- # end of input: the holder exits
wait "$holder"
waited=$(( (t1 - t0) / 1000000 ))
said=$(sed -n 's/.*gave up after \([0-9]*\) ms.*/\1/p' "$tmp/err")
if [ -n "$said" ] && [ "$waited" -lt 8000 ] && [ "$said" -le $((waited + 50)) ] && [ "$said" -ge 4900 ]; then
    ok "the lock message reports the real wait (said ${said} ms, waited ${waited} ms)"
else not_ok "the lock message reports the real wait" "said '${said}' ms, waited ${waited} ms" "$(cat "$tmp/err")"; fi

echo "1..$n"
[ "$failed" -eq 0 ]
