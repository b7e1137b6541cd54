#!/bin/bash
# `gpuplan sweep --emit slurm` on a real Slurm (the shared harness,
# tests/slurm/harness.sh): the script is submitted as written as a 4-task
# array, the shards are merged, and the merged sweep equals the sweep one
# process computes, row for row.  Skipped where Slurm's packages are absent.
. "$(dirname "$0")/harness.sh"
slurm_require || { echo "1..0 # SKIP $SLURM_SKIP_REASON"; exit 0; }
bin=${GPUPLAN_BUILDDIR:-.}/gpuplan
src=${GPUPLAN_SRCDIR:-.}
n=0
ok() { n=$((n + 1)); if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi; }
echo "1..8"

SLURM_NODE=gpu0001 slurm_start
ok $? "the cluster starts"
sacctmgr -i add account sweep >/dev/null && sacctmgr -i add user "$(id -un)" account=sweep >/dev/null
work=$SLURM_HARNESS_DIR/sweep
mkdir -p "$work"
db=$work/plans.db
vary=(--vary site.pue=1.1..1.4/4 --vary site.power_price_kwh=0.05,0.08,0.10
      --vary workloads.chat-70b.requests_per_s=20,40)
"$bin" --db "$db" sweep frontier-2027 "${vary[@]}" --name local >"$work/local.out" 2>&1
ok $? "the sweep runs in one process (24 points)"
"$bin" --db "$db" sweep frontier-2027 "${vary[@]}" --name array --emit slurm --tasks 4 \
    --dir "$work/array" >"$work/emit.out" 2>&1
ok $? "--emit slurm writes the array script"
jid=$(slurm_sbatch_wait -A sweep "$work/array/sweep.sbatch")
rc=$?
ok $rc "sbatch runs the script as written as a 4-task array (job $jid)"
[ $rc -eq 0 ] || { slurm_dump_logs; cat "$SLURM_HARNESS_DIR"/out/*.out 2>/dev/null | tail -n 20; }
[ "$(ls "$work/array/shards" | grep -c 'shard-[0-3]-of-4\.json$')" -eq 4 ]
ok $? "each array task wrote its shard file"
# the harness sends each task's output to $SLURM_HARNESS_DIR/out/JOBID.out
[ -s "$work/array/stages.bin" ] && [ "$(cat "$SLURM_HARNESS_DIR"/out/*.out | grep -c '^shard [0-3]/4 ')" -eq 4 ] &&
    ! grep -q 'stages itself' "$SLURM_HARNESS_DIR"/out/*.out
ok $? "the tasks read the stages --emit computed once (stages.bin), none computed them"
"$bin" --db "$db" sweep merge "$work/array/shards" --strict >"$work/merge.out" 2>&1 &&
    grep -q '4 of 4 shards in 4 files: 24 rows added' "$work/merge.out"
ok $? "merge folds the four shards into the store ($(head -c 160 "$work/merge.out"))"
"$bin" --db "$db" sweep export frontier-2027 local --format csv -o "$work/local.csv" 2>/dev/null
"$bin" --db "$db" sweep export frontier-2027 array --format csv -o "$work/array.csv" 2>/dev/null
cmp -s "$work/local.csv" "$work/array.csv" && [ "$(wc -l <"$work/local.csv")" -eq 25 ]
ok $? "the merged sweep equals the one-process sweep row for row"
slurm_stop
