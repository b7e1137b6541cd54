#!/bin/sh
# tests/sweep.sh — `gpuplan sweep` as a user meets it: bad --vary, a grid
# stored and listed, shards (explicit, Slurm's and Kubernetes' variables)
# merged into exactly the rows of one process, re-merging and missing shards,
# the sbatch script and the Indexed Job manifest (checked against the
# Kubernetes Job schema, tests/k8s/), and the upgrade of a store written
# before sweeps.  TAP output for make check.
set -u
bin=${GPUPLAN_BUILDDIR:-.}/gpuplan
src=${GPUPLAN_SRCDIR:-.}
plan=$src/data/examples/frontier-2027.yaml
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpuplan-sweep.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
export XDG_DATA_HOME="$tmp/xdg" HOME="$tmp/home"
unset SLURM_ARRAY_TASK_ID SLURM_ARRAY_TASK_COUNT SLURM_ARRAY_TASK_MIN SLURM_ARRAY_TASK_STEP \
    JOB_COMPLETION_INDEX GPUPLAN_SHARDS
db="$tmp/plans.db"
n=0 failed=0

. "$src/tests/tap.sh"
same() {
    if cmp -s "$2" "$3"; then ok "$1"; else not_ok "$1" "$(diff "$2" "$3" | head -n 8)"; fi
}
g() { "$bin" --db "$db" "$@"; }

# ---- bad --vary: usage errors (2) name the nearest key; bad values are invalid plans (1)
check "an unknown key is a usage error (2)" 2 g sweep frontier-2027 --vary site.peu=1..2/3
has "an unknown key suggests the nearest one" "$tmp/err" "did you mean site.pue\\?"
check "a range backwards is a usage error (2)" 2 g sweep frontier-2027 --vary tenancy.gpus=8192..2048/4
has "a range backwards says A < B" "$tmp/err" "needs A < B"
check "a range of a choice is a usage error (2)" 2 g sweep frontier-2027 --vary site.cooling=1..2/2
check "a grid range without steps is a usage error (2)" 2 g sweep frontier-2027 --vary site.pue=1.1..1.3
has "a grid range without steps suggests /N or --samples" "$tmp/err" "--samples"
check "a value that makes the plan invalid exits 1" 1 g sweep frontier-2027 --vary site.pue=0.5,1.2
has "the invalid value is named" "$tmp/err" "site.pue = 0.5"
check "a bad shard is a usage error (2)" 2 g sweep frontier-2027 --vary site.pue=1.1,1.2 --shard 3/3 --out "$tmp/x"
check "--shard auto without Slurm or Kubernetes is a usage error (2)" 2 g sweep frontier-2027 --vary site.pue=1.1,1.2 --shard auto --out "$tmp/x"
check "sweep without keys is a usage error (2)" 2 g sweep frontier-2027

# ---- one process: stored under the plan, listed, exported
vary="--vary site.pue=1.1..1.4/4 --vary site.power_price_kwh=0.05,0.10"
# shellcheck disable=SC2086
check "a grid sweep exits 0" 0 g sweep frontier-2027 $vary --name one
has "the grid has 4 x 2 points" "$tmp/out" "8 points \\(grid\\)"
check "list exits 0" 0 g list
has "list shows the sweep under its plan" "$tmp/out" "^one +frontier-2027@v1 +8 "
check "export csv exits 0" 0 g sweep export frontier-2027 one --format csv -o "$tmp/one.csv"
has "the csv header has the keys and outputs" "$tmp/one.csv" "^idx,site.pue,site.power_price_kwh,fits,gpus,train_days,facility_mw,"
if [ "$(wc -l <"$tmp/one.csv")" -eq 9 ]; then ok "the csv has one row per point"; else not_ok "the csv has one row per point" "$(wc -l <"$tmp/one.csv") lines"; fi
has "point 7 is pue 1.4 at \$0.10" "$tmp/one.csv" "^7,1.4,0.1,true,"
check "export json exits 0" 0 g sweep export frontier-2027 one --format json -o "$tmp/one.json"
if command -v jq >/dev/null 2>&1; then
    if [ "$(jq '.rows | length' "$tmp/one.json")" = 8 ] && [ "$(jq -r '.rows[3].inputs["site.pue"]' "$tmp/one.json")" = 1.2 ]; then
        ok "the json has the rows with named inputs"
    else not_ok "the json has the rows with named inputs" "$(head -c 400 "$tmp/one.json")"; fi
else ok "the json has the rows with named inputs # SKIP jq not installed"; fi
check "show exits 0" 0 g sweep show frontier-2027 one
has "show prints a row per point" "$tmp/out" "^ +7 +1.4 +0.1 "
# shellcheck disable=SC2086
check "the same sweep again adds nothing" 0 g sweep frontier-2027 $vary --name one
has "the same sweep again says so" "$tmp/out" "0 stored \\(the rest were already stored\\)"
check "another spec under a taken name is refused" 3 g sweep frontier-2027 --vary site.pue=1.1,1.2 --name one
has "the refusal names the sweep" "$tmp/err" "already has a sweep named 'one'"

# ---- shards: explicit, Slurm's variables (with an offset array), Kubernetes' index
for i in 0 1 2; do
    # shellcheck disable=SC2086
    g sweep "$plan" $vary --name sharded --shard $i/3 --out "$tmp/shards" >/dev/null 2>"$tmp/err" ||
        not_ok "shard $i/3" "$(cat "$tmp/err")"
done
check "merge of three shards exits 0" 0 g sweep merge "$tmp/shards"
has "merge reports every shard and row" "$tmp/out" "3 of 3 shards in 3 files: 8 rows added, 0 already merged"
g sweep export frontier-2027 sharded --format csv -o "$tmp/sharded.csv" 2>/dev/null
same "shards give exactly the rows of one process" "$tmp/one.csv" "$tmp/sharded.csv"
check "merging again exits 0" 0 g sweep merge "$tmp/shards"
has "merging again counts nothing twice" "$tmp/out" "0 rows added, 8 already merged \\(not counted twice\\); 8 of 8 points"

for id in 5 6 7 8; do  # sbatch --array=5-8: four tasks, ids offset by SLURM_ARRAY_TASK_MIN
    # shellcheck disable=SC2086
    SLURM_ARRAY_TASK_ID=$id SLURM_ARRAY_TASK_MIN=5 SLURM_ARRAY_TASK_COUNT=4 \
        g sweep "$plan" $vary --name slurm --shard auto --out "$tmp/slurm" >/dev/null 2>"$tmp/err" ||
        not_ok "Slurm task $id" "$(cat "$tmp/err")"
done
if ls "$tmp/slurm" | grep -q 'shard-3-of-4'; then ok "Slurm's task ids map to shards 0-3"; else not_ok "Slurm's task ids map to shards 0-3" "$(ls "$tmp/slurm")"; fi
for i in 0 1 2 3; do
    # shellcheck disable=SC2086
    JOB_COMPLETION_INDEX=$i g sweep "$plan" $vary --name k8s --shard auto/4 --out "$tmp/k8s" >/dev/null 2>"$tmp/err" ||
        not_ok "Kubernetes index $i" "$(cat "$tmp/err")"
done
rm -f "$tmp/k8s"/*shard-2-of-4*
check "a merge with a missing shard exits 0" 0 g sweep merge "$tmp/k8s"
has "the missing shard is reported with its points" "$tmp/out" "missing shards: 2/4 \\(points 4-5\\)"
check "--strict makes a missing shard an error (1)" 1 g sweep merge "$tmp/k8s" --strict
check "list exits 0" 0 g list
has "list shows the incomplete sweep as stored/points" "$tmp/out" "^k8s +frontier-2027@v1 +6/8 "
check "merge of the Slurm shards exits 0" 0 g sweep merge "$tmp/slurm"
g sweep export frontier-2027 slurm --format csv -o "$tmp/slurm.csv" 2>/dev/null
same "Slurm-variable shards give exactly the rows of one process" "$tmp/one.csv" "$tmp/slurm.csv"

f=$(ls "$tmp/slurm"/*shard-1-of-4.json)
head -c 200 "$f" >"$tmp/trunc.json"
mkdir "$tmp/bad" && cp "$tmp/trunc.json" "$tmp/bad/x.sweep.shard-1-of-4.json"
check "a truncated shard file is refused (1)" 1 g sweep merge "$tmp/bad"
has "the truncated file is named" "$tmp/err" "x.sweep.shard-1-of-4.json"

# ---- Monte Carlo: seeded, reproducible
check "a Monte Carlo sweep exits 0" 0 g sweep "$plan" --vary site.pue=1.1..1.5 --vary site.cooling=air,liquid --samples 6 --seed 7 --name mc
g sweep export frontier-2027 mc --format csv -o "$tmp/mc1.csv" 2>/dev/null
for i in 0 1; do
    g sweep "$plan" --vary site.pue=1.1..1.5 --vary site.cooling=air,liquid --samples 6 --seed 7 --name mc2 \
        --shard $i/2 --out "$tmp/mc" >/dev/null 2>&1
done
g sweep merge "$tmp/mc" >/dev/null 2>&1
g sweep export frontier-2027 mc2 --format csv -o "$tmp/mc2.csv" 2>/dev/null
same "a seeded Monte Carlo is the same in shards" "$tmp/mc1.csv" "$tmp/mc2.csv"

# ---- --emit slurm: a runnable array script; --emit k8s: a valid Indexed Job
# shellcheck disable=SC2086
check "--emit slurm exits 0" 0 g sweep frontier-2027 $vary --name emitted --emit slurm --tasks 4 --dir "$tmp/emit"
has "the script is an array of 4 tasks" "$tmp/emit/sweep.sbatch" "^#SBATCH --array=0-3$"
has "each task takes its shard from Slurm" "$tmp/emit/sweep.sbatch" "'--shard' 'auto/4' --stages '.*/stages.bin' --out '.*/shards'$"
if [ -s "$tmp/emit/stages.bin" ]; then ok "the shared stages are written beside the script"; else not_ok "the shared stages are written beside the script"; fi
if bash -n "$tmp/emit/sweep.sbatch"; then ok "the script is valid shell"; else not_ok "the script is valid shell"; fi
(cd "$tmp/emit" && for i in 0 1 2 3; do SLURM_ARRAY_TASK_ID=$i SLURM_ARRAY_TASK_COUNT=4 bash ./sweep.sbatch >/dev/null 2>>"$tmp/tasks.err"; done)
if [ ! -s "$tmp/tasks.err" ]; then ok "the tasks use the shared stages (nothing on stderr)"; else not_ok "the tasks use the shared stages (nothing on stderr)" "$(head -c 600 "$tmp/tasks.err")"; fi
check "the script's shards merge" 0 g sweep merge "$tmp/emit/shards"
g sweep export frontier-2027 emitted --format csv -o "$tmp/emitted.csv" 2>/dev/null
same "the script's shards give the rows of one process" "$tmp/one.csv" "$tmp/emitted.csv"
# a damaged, truncated or missing stage file: every task says so and computes the stages
cp "$tmp/emit/stages.bin" "$tmp/stages.good"
sz=$(wc -c <"$tmp/stages.good")
for damage in flip truncate missing text; do
    case $damage in
    flip) cp "$tmp/stages.good" "$tmp/emit/stages.bin"
          printf '\377' | dd of="$tmp/emit/stages.bin" bs=1 seek=$((sz / 2)) conv=notrunc 2>/dev/null ;;
    truncate) head -c $((sz - 9)) "$tmp/stages.good" >"$tmp/emit/stages.bin" ;;
    missing) rm -f "$tmp/emit/stages.bin" ;;
    text) cp "$plan" "$tmp/emit/stages.bin" ;;
    esac
    rm -rf "$tmp/emit/shards"/*
    : >"$tmp/tasks.err"
    (cd "$tmp/emit" && for i in 0 1 2 3; do SLURM_ARRAY_TASK_ID=$i SLURM_ARRAY_TASK_COUNT=4 bash ./sweep.sbatch >/dev/null 2>>"$tmp/tasks.err" || echo "task $i failed" >>"$tmp/tasks.err"; done)
    if [ "$(grep -c 'not used, this task computes the stages itself' "$tmp/tasks.err")" = 4 ] && ! grep -q failed "$tmp/tasks.err"; then
        ok "a $damage stage file: every task says so on stderr and runs"
    else
        not_ok "a $damage stage file: every task says so on stderr and runs" "$(head -c 600 "$tmp/tasks.err")"
    fi
    g sweep merge "$tmp/emit/shards" >/dev/null 2>&1
    g sweep export frontier-2027 emitted --format csv -o "$tmp/emitted.csv" 2>/dev/null
    same "a $damage stage file: the rows of one process" "$tmp/one.csv" "$tmp/emitted.csv"
done
has "a damaged stage file is named as corrupt" "$tmp/tasks.err" "not a gpuplan stage file"
check "another plan's stage file is no error (0)" 0 g sweep "$src/data/examples/startup-h200.yaml" --vary site.pue=1.1,1.2 --shard 0/1 --out "$tmp/other" --stages "$tmp/stages.good"
has "another plan's stage file: the task says it computed the stages" "$tmp/err" "no point of this task has the stage inputs of the file's"
check "--stages without --shard is a usage error (2)" 2 g sweep frontier-2027 --vary site.pue=1.1,1.2 --stages "$tmp/stages.good"
# shellcheck disable=SC2086
check "--emit k8s exits 0" 0 g sweep frontier-2027 $vary --name "k8s job" --emit k8s --tasks 3 --dir "$tmp/emit"
if command -v python3 >/dev/null 2>&1 && python3 -c 'import yaml' 2>/dev/null; then
    check "the manifest passes the Kubernetes Job schema" 0 python3 "$src/tests/k8s/check_manifest.py" "$tmp/emit/sweep-job.yaml" --completions 3
    if python3 - "$tmp/emit/sweep-job.yaml" "$tmp/emit/stages.bin" <<'PY'
import base64, sys, yaml
docs = list(yaml.safe_load_all(open(sys.argv[1])))
cm = [d for d in docs if d["kind"] == "ConfigMap"][0]
job = [d for d in docs if d["kind"] == "Job"][0]
args = job["spec"]["template"]["spec"]["containers"][0]["command"]
assert base64.b64decode(cm["binaryData"]["stages.bin"]) == open(sys.argv[2], "rb").read()
assert args[args.index("--stages") + 1] == "/sweep/plan/stages.bin"
PY
    then ok "the manifest ships the stage file in the plan's ConfigMap and passes it"; else not_ok "the manifest ships the stage file in the plan's ConfigMap and passes it"; fi
    sed 's/completionMode: Indexed/completionMode: NonIndexed/; s/  parallelism: 3/  parallelsm: 3/' \
        "$tmp/emit/sweep-job.yaml" >"$tmp/broken-job.yaml"
    check "the schema check fails a broken manifest" 1 python3 "$src/tests/k8s/check_manifest.py" "$tmp/broken-job.yaml"
    has "the schema check names the unknown field" "$tmp/out" "unknown property 'parallelsm'"
else
    ok "the manifest passes the Kubernetes Job schema # SKIP python3-yaml not installed"
fi

# ---- a store written before sweeps (schema 1) is upgraded in place
if command -v sqlite3 >/dev/null 2>&1; then
    sqlite3 "$tmp/v1.db" "CREATE TABLE plans (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, created INTEGER NOT NULL, deleted INTEGER NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1)), deleted_at INTEGER);
CREATE TABLE versions (plan_id INTEGER NOT NULL REFERENCES plans(id) ON DELETE CASCADE, version INTEGER NOT NULL CHECK (version >= 1), created INTEGER NOT NULL, note TEXT NOT NULL DEFAULT '', yaml TEXT NOT NULL, PRIMARY KEY (plan_id, version));
CREATE TABLE prefs (key TEXT PRIMARY KEY, value TEXT NOT NULL);
PRAGMA application_id = 1196444750; PRAGMA user_version = 1;"
    "$bin" --db "$tmp/v1.db" save "$plan" >/dev/null 2>&1
    check "a version-1 store sweeps after the upgrade" 0 "$bin" --db "$tmp/v1.db" sweep frontier-2027 --vary site.pue=1.1,1.2 --name up
    if [ "$(sqlite3 "$tmp/v1.db" 'PRAGMA user_version')" = 3 ]; then ok "the store is at schema 3"; else not_ok "the store is at schema 3"; fi
else
    ok "a version-1 store sweeps after the upgrade # SKIP sqlite3 not installed"
fi

echo "1..$n"
[ "$failed" -eq 0 ]
