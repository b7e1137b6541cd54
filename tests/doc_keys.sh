#!/bin/sh
# tests/doc_keys.sh — keeps doc/plan-format.md honest: every name the code
# accepts or writes must be documented there, so adding a key to the code
# without documenting it fails `make check`.  Checked, each as `name`
# (backticked) in the doc:
#   - plan keys: the key strings of the schema tables in plans/yaml_plan.c
#     (`static const Field x_fields[] = { F_I(Type, member, "key", …), {"key", T_…}, … };`),
#     each in a table row of its own (| `key` | …);
#   - the enum value names of plans/yaml_plan.c (`static const char *const x_names[]`);
#   - preset names (model/presets.c);
#   - JSON keys written by plans/export_json.c (string literals passed to
#     sets/seti/setn/setb/json_object_set_new), each in a table row;
#   - CSV/compare metrics (model/headline.c add() calls);
#   - commands and options (cli/main.c, cli/*.c), export formats (plans/export.c),
#     `catalog --json` keys (cli/cmd_catalog.c).
# TAP output.  POSIX sh + grep/sed/awk/sort.
set -u
src=${GPUPLAN_SRCDIR:-$(dirname "$0")/..}
doc=$src/doc/plan-format.md
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpuplan-doc.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
out=$tmp/tap
: >"$out"
n=0

ok() { n=$((n + 1)); echo "ok $n - $1" >>"$out"; }
not_ok() {
    n=$((n + 1)); echo "not ok $n - $1" >>"$out"; shift
    for l in "$@"; do echo "# $l" >>"$out"; done
}
finish() { echo "1..$n"; cat "$out"; exit 0; }

for f in "$doc" "$src/plans/yaml_plan.c" "$src/plans/export_json.c" "$src/model/presets.c" \
    "$src/model/headline.c" "$src/cli/main.c" "$src/cli/cmd_catalog.c" "$src/plans/export.c"; do
    if [ -r "$f" ]; then ok "$f is readable"; else not_ok "$f is readable" "missing"; fi
done
[ -r "$doc" ] || finish

# ---- plan keys: the schema tables of plans/yaml_plan.c
# Lines inside `static const Field NAME[] = {` … `};` that start an entry
# (`F_X(` macro or `{"` raw initializer); the key is the entry's first
# string literal, which must be on that line.
awk '/^static const Field [A-Za-z_0-9]+\[\] = \{/ { t = 1; next }
     t && /^\};/ { t = 0 }
     t' "$src/plans/yaml_plan.c" | grep -E '^[[:space:]]*(F_[A-Z]+\(|\{")' >"$tmp/entries"
sed -n 's/^[^"]*"\([^"]*\)".*/\1/p' "$tmp/entries" >"$tmp/keys_all"
entries=$(wc -l <"$tmp/entries" | tr -d ' ')
named=$(wc -l <"$tmp/keys_all" | tr -d ' ')
if [ "$entries" -eq "$named" ] && [ "$entries" -ge 90 ]; then
    ok "every one of the $entries schema table entries names its key on its first line"
else
    not_ok "every schema table entry names its key on its first line" \
        "$entries entries, $named keys found (the pattern in tests/doc_keys.sh needs updating?)"
fi
sort -u "$tmp/keys_all" >"$tmp/keys"
for k in kind preset sp seed global_batch_tokens ttft_ms borrow_gpus trace; do
    if grep -qx -- "$k" "$tmp/keys"; then ok "schema extraction finds '$k'"; else
        not_ok "schema extraction finds '$k'" "extracted: $(tr '\n' ' ' <"$tmp/keys")"; fi
done
while read -r k; do
    if grep -qF -- "| \`$k\` |" "$doc"; then ok "plan key \`$k\` has a table row"; else
        not_ok "plan key \`$k\` has a table row" "no '| \`$k\` |' in doc/plan-format.md"; fi
done <"$tmp/keys"

# ---- enum values
grep -E '^static const char \*const [a-z_]+_names\[\] = \{' "$src/plans/yaml_plan.c" |
    sed 's/^[^{]*{//; s/}.*//' | tr ',' '\n' | sed -n 's/^[[:space:]]*"\([^"]*\)".*/\1/p' |
    sort -u >"$tmp/enums"
if [ "$(wc -l <"$tmp/enums")" -ge 25 ]; then ok "enum value extraction finds $(wc -l <"$tmp/enums" | tr -d ' ') names"; else
    not_ok "enum value extraction finds the enum names" "found: $(tr '\n' ' ' <"$tmp/enums")"; fi
while read -r v; do
    if grep -qF -- "\`$v\`" "$doc"; then ok "enum value \`$v\` is documented"; else
        not_ok "enum value \`$v\` is documented" "no \`$v\` in doc/plan-format.md"; fi
done <"$tmp/enums"

# ---- presets: `{"name",` opening each row of the presets[] table
awk '/^static const ModelPreset presets\[\] = \{/ { t = 1; next } t && /^\};/ { t = 0 } t' \
    "$src/model/presets.c" | sed -n 's/^[[:space:]]*{"\([^"]*\)",.*/\1/p' | sort -u >"$tmp/presets"
if [ "$(wc -l <"$tmp/presets")" -ge 10 ]; then ok "preset extraction finds $(wc -l <"$tmp/presets" | tr -d ' ') presets"; else
    not_ok "preset extraction finds the presets" "found: $(tr '\n' ' ' <"$tmp/presets")"; fi
while read -r v; do
    if grep -qF -- "| \`$v\` |" "$doc"; then ok "preset \`$v\` has a table row"; else
        not_ok "preset \`$v\` has a table row" "no '| \`$v\` |' in doc/plan-format.md"; fi
done <"$tmp/presets"

# ---- JSON keys of plans/export_json.c
# The key is the call's key argument (the 3rd of setn, the 2nd of the
# others), cut at the first nested parenthesis; every string literal in it
# counts (`cond ? "a" : "b"` names two keys); a variable names none.
awk '{
    s = $0
    while (match(s, /(sets|seti|setn|setb|json_object_set_new)\(/)) {
        fn = substr(s, RSTART, RLENGTH - 1)
        s = substr(s, RSTART + RLENGTH)
        args = s
        if (match(args, /[()]/))
            args = substr(args, 1, RSTART - 1)
        na = split(args, a, ",")
        k = fn == "setn" ? 3 : 2
        if (k > na)
            continue
        arg = a[k]
        while (match(arg, /"[^"]*"/)) {
            if (RLENGTH > 2)
                print substr(arg, RSTART + 1, RLENGTH - 2)
            arg = substr(arg, RSTART + RLENGTH)
        }
    }
}' "$src/plans/export_json.c" | sort -u >"$tmp/json"
for k in plan workloads dataset_read_gbps memory_gib_per_gpu weights deltas verdict; do
    if grep -qx -- "$k" "$tmp/json"; then ok "JSON key extraction finds '$k'"; else
        not_ok "JSON key extraction finds '$k'" "extracted: $(tr '\n' ' ' <"$tmp/json")"; fi
done
while read -r k; do
    if grep -E '^\|' "$doc" | grep -qF -- "\`$k\`"; then ok "JSON key \`$k\` is in a table"; else
        not_ok "JSON key \`$k\` is in a table" "no \`$k\` in a table row of doc/plan-format.md"; fi
done <"$tmp/json"

# ---- headline metrics (CSV, compare): add(c, "section", subject, "metric", …)
grep -oE 'add\(&?c, "[^"]*", [^,]*, "[^"]*"' "$src/model/headline.c" |
    sed 's/.*"\([^"]*\)"$/\1/' | sort -u >"$tmp/metrics"
if [ "$(wc -l <"$tmp/metrics")" -ge 20 ]; then ok "metric extraction finds $(wc -l <"$tmp/metrics" | tr -d ' ') metrics"; else
    not_ok "metric extraction finds the metrics" "found: $(tr '\n' ' ' <"$tmp/metrics")"; fi
while read -r k; do
    if grep -qF -- "\`$k\`" "$doc"; then ok "CSV metric \`$k\` is documented"; else
        not_ok "CSV metric \`$k\` is documented" "no \`$k\` in doc/plan-format.md"; fi
done <"$tmp/metrics"

# ---- commands, options, export formats, catalog --json keys
sed -n 's/^[[:space:]]*{"\([a-z]*\)", cmd_[a-z]*,.*/\1/p' "$src/cli/main.c" >"$tmp/cmds"
grep -ohE 'cli_is\([^,]*, "-[^"]*"\)' "$src"/cli/*.c | sed 's/.*"\(-[^"]*\)")$/\1/' >"$tmp/opts"
grep -oE '\[EXPORT_[A-Z]+\] = \{"[a-z]+"' "$src/plans/export.c" | sed 's/.*"\([a-z]*\)"$/\1/' \
    >"$tmp/fmts"
grep -oE 'json_object_set_new\([a-z]+, "[^"]*"' "$src/cli/cmd_catalog.c" |
    sed 's/.*"\([^"]*\)"$/\1/' >"$tmp/catalog"
for what in cmds:command:6 opts:option:10 fmts:"export format":8 catalog:"catalog --json key":25; do
    file=${what%%:*} rest=${what#*:} label=${rest%:*} min=${rest##*:}
    sort -u "$tmp/$file" >"$tmp/$file.u"
    if [ "$(wc -l <"$tmp/$file.u")" -ge "$min" ]; then ok "$label extraction finds $(wc -l <"$tmp/$file.u" | tr -d ' ')"; else
        not_ok "$label extraction finds at least $min" "found: $(tr '\n' ' ' <"$tmp/$file.u")"; fi
    while read -r k; do
        if grep -qF -- "\`$k\`" "$doc"; then ok "$label \`$k\` is documented"; else
            not_ok "$label \`$k\` is documented" "no \`$k\` in doc/plan-format.md"; fi
    done <"$tmp/$file.u"
done

finish
