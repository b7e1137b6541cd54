#!/bin/bash
# The Slurm export on a real Slurm cluster (tests/slurm/harness.sh): for every
# demo plan and the hostile-name plans, slurmctld/slurmd start from the
# exported slurm.conf, gres.conf and topology.conf in the documented order
# (slurmdbd; accounts.sh --before-slurmctld creates the QOS the partitions
# name; slurmctld; accounts.sh sets the limits, accounts and users), and each
# team's GPU ceiling is ENFORCED by its partition QOS: a job filling the
# team's whole-GPU ceiling runs, one GPU more pends with reason QOSGrpGRES,
# a team cannot submit to another team's partition.
# Then the cluster's own `sacct --parsable2` output replays through
# `gpuplan simulate` (plan → Slurm → sacct → simulation).
#
# Debian's slurmd runs one node per host (no --enable-multiple-slurmd), so
# the bundle's first node is given as many (fake) GPUs as the largest team
# ceiling + 1 — it stands in for the pool; the limits, partitions, QOS and
# accounts under test are the exported ones, unchanged.  TAP.
. "$(dirname "$0")/harness.sh"
slurm_require || { echo "1..0 # SKIP $SLURM_SKIP_REASON"; exit 0; }
src=${GPUPLAN_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
bin=${GPUPLAN_BUILDDIR:-.}/gpuplan
[ -x "$bin" ] || bin=$src/build/gpuplan
work=$(mktemp -d "${TMPDIR:-/tmp}/gpuplan-slurmx.XXXXXX")
tn=0  # (not "n": harness functions have locals of that name)
ok() { tn=$((tn + 1)); if [ "$1" -eq 0 ]; then echo "ok $tn - $2"; else echo "not ok $tn - $2"; fi; }
note() { echo "# $*"; }
finish() { slurm_stop; rm -rf "$work"; echo "1..$tn"; }
trap finish EXIT
trap 'exit 130' INT TERM
export SLURM_HARNESS_NO_TRAP=1
# one mariadb-install-db for all the plans' clusters (harness.sh)
export SLURM_HARNESS_DB_TEMPLATE=$work/db-template
since=$(date +%Y-%m-%dT%H:%M:%S)
# every demo plan and both hostile-name plans (names that collide in case or
# in their first 42 bytes — slurmdbd's key length —, shell metacharacters)
plans=${GPUPLAN_SLURM_PLANS:-"$src/data/examples/*.yaml $src/tests/data/hostile/*.yaml"}

# grow_first_node BUNDLE GPUS: the first node gets GPUS GPUs (and at least
# GPUS CPUs); its gres.conf line is split off with File=/dev/nvidia[0-GPUS-1].
grow_first_node() {
    /usr/bin/python3 - "$1" "$2" <<'PY'
import re, sys
d, gpus = sys.argv[1], int(sys.argv[2])
def split(line, key):
    m = re.match(r"^NodeName=(\S+)(.*)$", line)
    if not m:
        return None
    names, rest = m.group(1), m.group(2)
    r = re.fullmatch(r"gpu\[(\d+)-(\d+)\]", names)
    if r:
        w = len(r.group(1)); a, b = int(r.group(1)), int(r.group(2))
        first = "gpu%0*d" % (w, a)
        others = ("gpu%0*d" % (w, b)) if a + 1 == b else ("gpu[%0*d-%0*d]" % (w, a + 1, w, b))
        return first, others, rest
    return names, None, rest
conf = open(d + "/slurm.conf").read().split("\n")
out, done = [], False
for ln in conf:
    s = split(ln, "NodeName") if not done else None
    if s:
        first, others, rest = s
        cpus = re.search(r"CPUs=(\d+)", rest)
        mine = re.sub(r"Gres=gpu:([^:\s]+):\d+", r"Gres=gpu:\g<1>:%d" % gpus, rest)
        if cpus and int(cpus.group(1)) < gpus:
            mine = mine.replace(cpus.group(0), "CPUs=%d" % gpus)
        out.append("NodeName=%s%s" % (first, mine))
        if others:
            out.append("NodeName=%s%s" % (others, rest))
        done = True
        continue
    out.append(ln)
open(d + "/slurm.conf", "w").write("\n".join(out))
gres = open(d + "/gres.conf").read().split("\n")
out, done = [], False
for ln in gres:
    s = split(ln, "NodeName") if not done and "Name=gpu " in ln else None
    if s:
        first, others, rest = s
        out.append("NodeName=%s%s" % (first, re.sub(r"File=/dev/nvidia\[0-\d+\]",
                                                    "File=/dev/nvidia[0-%d]" % (gpus - 1), rest)))
        if others:
            out.append("NodeName=%s%s" % (others, rest))
        done = True
        continue
    out.append(ln)
open(d + "/gres.conf", "w").write("\n".join(out))
PY
}

# whole-GPU ceiling per team from its partition QOS in accounts.sh: "QOS TYPE N" lines
# (team, partition, QOS and account share one name)
ceilings() {
    sed -n -E "s/^run modify qos where name='([^']+)' set GrpTRES=gres\/gpu:([^=,]+)=([0-9]+),.*/\1 \2 \3/p" "$1"
}

replay_done=0
t_all=$(date +%s)
for plan in $plans; do
    name=$(basename "$plan" .yaml)
    t_plan=$(date +%s)
    b=$work/$name
    "$bin" --catalog "$src/data/catalog" export "$plan" --format slurm -o "$b" 2>/dev/null
    ok $? "$name: export --format slurm -o DIR writes the bundle"
    [ -f "$b/slurm.conf" ] && [ -f "$b/gres.conf" ] && [ -f "$b/topology.conf" ] && [ -x "$b/accounts.sh" ]
    ok $? "$name: slurm.conf, gres.conf, topology.conf and an executable accounts.sh"
    max=0
    while read -r acct type w; do [ "$w" -gt "$max" ] && max=$w; done < <(ceilings "$b/accounts.sh")
    gpus=$((max + 1))
    [ "$gpus" -ge 8 ] || gpus=8
    grow_first_node "$b" "$gpus"
    unset SLURM_NODE
    accts=$(sed -n -E "s/^run add account '([^']+)'.*/\1/p" "$b/accounts.sh")
    for a in $accts; do echo "$a $(id -un)"; done >"$work/users"
    # with slurmdbd up and slurmctld not yet: a plain run refuses (no GRES TRES yet, exit 3),
    # --before-slurmctld creates the QOS slurm.conf's partitions name
    SLURM_BEFORE_CTLD="sh '$b/accounts.sh' '$work/users' >'$work/acct0.log' 2>&1; echo \$? >'$work/acct0.rc';
                       sh '$b/accounts.sh' --before-slurmctld"
    export SLURM_BEFORE_CTLD
    if ! slurm_start "$b" 2>"$work/start.err"; then
        ok 1 "$name: slurmctld and slurmd start from the bundle"
        grep -v -E "^(20[0-9][0-9]-|munged:|slurmdbd:|Version:)" "$work/start.err" | sed 's/^/# /' | head -n 40
        slurm_stop
        continue
    fi
    ok 0 "$name: slurmctld and slurmd start from the bundle (topology/tree, gres, slurmdbd, partition QOS)"
    note "$name: cluster up in $(($(date +%s) - t_plan)) s ($(sed -n -E 's/^slurm-harness: ([0-9:]+) starting (.*)/\2 \1/p' "$work/start.err" | paste -sd, -))"
    if [ -n "$(ceilings "$b/accounts.sh")" ]; then
        [ "$(cat "$work/acct0.rc")" = 3 ] && grep -q "has no TRES gres/gpu" "$work/acct0.log"
        ok $? "$name: accounts.sh before slurmctld refuses the GPU limits with a clear message"
    fi

    # the order a site follows: slurmdbd, slurmctld (registers the GRES TRES), accounts.sh
    sh "$b/accounts.sh" "$work/users" >"$work/acct.log" 2>&1
    r=$?; [ $r -eq 0 ] || sed 's/^/# /' "$work/acct.log" | tail -n 20
    ok $r "$name: accounts.sh creates the accounts, limits and users"
    have=$(sacctmgr -n -P show assoc format=account where user="$(id -un)" | sort -u)
    r=0; for a in $accts; do printf '%s\n' "$have" | grep -qx "$a" || { r=1; note "no association for $a"; }; done
    [ $r -eq 0 ]
    ok $? "$name: accounts.sh created every team's account with its user"
    sh "$b/accounts.sh" "$work/users" >"$work/acct2.log" 2>&1
    ok $? "$name: accounts.sh runs again without error"
    qos_args=()
    grep -q "^run add qos 'high'" "$b/accounts.sh" && qos_args=(--qos=normal)

    r=0
    for a in $accts; do
        q=$(scontrol -o show partition "$a" | sed -n -E 's/.* QoS=([^ ]+).*/\1/p')
        l=$(sacctmgr -n -P show qos where name="$a" format=GrpTRES)
        grep -q "^run modify qos where name='$a' set GrpTRES=" "$b/accounts.sh" || l=unlimited
        [ "$q" = "$a" ] && [ -n "$l" ] || { r=1; note "partition $a: QoS=$q GrpTRES=$l"; }
    done
    ok $r "$name: each team's partition runs under its own QOS carrying the GPU limits"

    mapfile -t lims < <(ceilings "$b/accounts.sh")
    for lim in "${lims[@]}"; do
        read -r acct type w <<<"$lim"
        jobs=()
        if [ "$w" -gt 0 ]; then
            a=$(slurm_sbatch -p "$acct" -A "$acct" "${qos_args[@]}" --gres="gpu:$type:$w" \
                --cpus-per-gpu=1 --mem-per-gpu=16 --wrap 'sleep 300' 2>"$work/sb.err")
            jobs+=("$a")
            slurm_wait_state "$a" RUNNING 30
            r=$?; [ $r -eq 0 ] || { note "job $a: $(slurm_state "$a") $(slurm_reason "$a") $(cat "$work/sb.err")"; }
            ok $r "$name: team $acct runs a job on its whole ceiling of $w GPUs"
        fi
        c=$(slurm_sbatch -p "$acct" -A "$acct" "${qos_args[@]}" --gres="gpu:$type:1" \
            --cpus-per-gpu=1 --mem-per-gpu=16 --wrap 'sleep 300' 2>"$work/sb.err")
        jobs+=("$c")
        slurm_wait_reason "$c" '^QOSGrpGRES$' 30
        r=$?; [ $r -eq 0 ] || note "job $c: $(slurm_state "$c") reason $(slurm_reason "$c") $(cat "$work/sb.err")"
        ok $r "$name: team $acct's next GPU pends on its partition QOS ($(slurm_reason "$c"))"
        scancel "${jobs[@]}" 2>/dev/null
        for j in "${jobs[@]}"; do
            for _ in $(seq 50); do [ -z "$(squeue -h -j "$j" 2>/dev/null)" ] && break; sleep 0.2; done
        done
    done

    set -- $accts
    if [ $# -ge 2 ]; then
        ! sbatch -o /dev/null -p "$1" -A "$2" "${qos_args[@]}" --gres=gpu:1 --wrap true >/dev/null 2>&1
        ok $? "$name: team $2 cannot submit to team $1's partition"
    fi

    # plan → Slurm → sacct → simulate, once (the first plan with teams)
    if [ $replay_done -eq 0 ] && [ -n "$accts" ]; then
        replay_done=1
        for a in $accts; do
            for _ in 1 2; do
                slurm_sbatch -J replay -p "$a" -A "$a" "${qos_args[@]}" --gres=gpu:1 --cpus-per-gpu=1 \
                    --mem-per-gpu=16 --wrap 'sleep 1' >/dev/null
            done
        done
        want=$((2 * $(echo $accts | wc -w)))
        SLURM_WAIT_SECS=90 slurm_wait_accounted "$want" --name=replay -S "$since"
        ok $? "$name: $want short jobs complete and reach slurmdbd"
        sacct -a -X --parsable2 --name=replay -S "$since" -o JobID,JobName,Account,Partition,Submit,Start,End,State,AllocTRES \
            >"$work/trace.txt"
        rows=$(($(wc -l <"$work/trace.txt") - 1))
        [ "$rows" -eq "$want" ]
        ok $? "$name: sacct --parsable2 lists them ($rows rows)"
        {
            echo "format: 1"
            echo "name: slurm-replay"
            echo "accelerator: $(sed -n -E 's/^accelerator: *//p' "$plan" | head -n 1)"
            echo "tenancy:"
            echo "  gpus: 16"
            echo "  trace: trace.txt"
            echo "  teams:"
            for a in $accts; do echo "    - {name: $a, quota_gpus: 1}"; done
        } >"$work/replay.yaml"
        "$bin" --catalog "$src/data/catalog" simulate "$work/replay.yaml" --json >"$work/sim.json" 2>"$work/sim.err"
        r=$?; [ $r -eq 0 ] || sed 's/^/# /' "$work/sim.err"
        ok $r "gpuplan simulate replays the cluster's sacct trace"
        got=$(/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); s=d.get("schedule", d); print(s["jobs_submitted"], sum(t["jobs"] for t in s["teams"] if t["name"] in sys.argv[2:]))' "$work/sim.json" $accts 2>/dev/null)
        [ "$got" = "$want $want" ]
        ok $? "the replay submits the $want jobs, each to its team (got: $got)"
    fi
    slurm_stop
    note "$name: $(($(date +%s) - t_plan)) s in all"
done
note "all plans: $(($(date +%s) - t_all)) s"
