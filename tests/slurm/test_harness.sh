#!/bin/bash
# The shared Slurm harness itself: a private cluster starts, runs a GPU job
# array within the node's GPUs, accounts for it in slurmdbd, and stops
# leaving none of its daemons or files behind.
. "$(dirname "$0")/harness.sh"
slurm_require || { echo "1..0 # SKIP $SLURM_SKIP_REASON"; exit 0; }
n=0
ok() { n=$((n + 1)); if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi; }
echo "1..7"

SLURM_GPUS=2 SLURM_NODE=gpu0001 slurm_start
ok $? "the cluster starts (munged, mariadbd, slurmdbd, slurmctld, slurmd)"
sacctmgr -i add account harness GrpTRES=gres/gpu=2 >/dev/null &&
    sacctmgr -i add user "$(id -un)" account=harness >/dev/null
ok $? "sacctmgr adds an account with a GPU limit"

jid=$(slurm_sbatch_wait -A harness --array=1-4 --gres=gpu:1 --wrap 'echo task $SLURM_ARRAY_TASK_ID gpus $SLURM_GPUS_ON_NODE')
ok $? "a 4-task GPU job array runs to completion (sbatch --wait)"
slurm_wait_accounted 4 -A harness
states=$(sacct -a -n -X -P -A harness -o State | sort | uniq -c | awk '{print $1, $2}')
[ "$states" = "4 COMPLETED" ]
ok $? "sacct records the four tasks COMPLETED (got: $states)"
grep -h '^task' "$SLURM_HARNESS_DIR"/out/*.out | grep -c 'gpus 1$' | grep -qx 4
ok $? "each task was given one of the node's fake GPUs"

pids=("${SLURM_HARNESS_PIDS[@]}")
dir=$SLURM_HARNESS_DIR
slurm_stop
alive=0
for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && alive=$((alive + 1)); done
[ "$alive" -eq 0 ] && [ "${#pids[@]}" -eq 5 ]
ok $? "slurm_stop stops the five daemons it started (left: $alive)"
[ ! -e "$dir" ]
ok $? "slurm_stop removes the private directory"
