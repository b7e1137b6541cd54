# tests/slurm/harness.sh — a private, throw-away Slurm cluster for tests.
#
# Source it from a bash test, then:
#   slurm_require || { echo "1..0 # SKIP $SLURM_SKIP_REASON"; exit 0; }   # TAP skip
#   slurm_start [CONFDIR]            # munged, mariadbd, slurmdbd, slurmctld, one slurmd
#                                    # SLURM_BEFORE_CTLD="cmd": run once slurmdbd is up and the
#                                    # cluster registered, before slurmctld (e.g. accounts.sh)
#   sbatch ... / squeue / sacct      # SLURM_CONF is exported; you are the cluster's user
#   slurm_wait_state JOBID STATE [SECS]   # wait until the job reaches STATE
#   slurm_reason JOBID               # pending reason (e.g. AssocGrpGRES)
#   slurm_sbatch_wait ARGS…          # sbatch --wait; prints the job id
#   slurm_stop                       # also run by the EXIT trap slurm_start installs
#
# Everything lives under one `mktemp -d` directory ($SLURM_HARNESS_DIR): the munge
# key and socket, the MariaDB datadir and socket (no TCP), the state, spool, log
# and pid files, and fake GPU device files (dev/nvidia0…) named by gres.conf.
# Slurm's own daemons listen on loopback ports picked at random and retried on
# collision.  Only the daemons this shell started are stopped, by PID.
#
# CONFDIR (optional) holds a `gpuplan export --format slurm -o DIR` bundle:
# slurm.conf (fragment), gres.conf, topology.conf.  The harness keeps its
# scheduling, node, partition and topology lines and adds the site lines
# (hosts, ports, paths, auth).  Debian's slurmd is built without
# --enable-multiple-slurmd, so one slurmd runs, as the bundle's first node
# (SLURM_NODE); the bundle's other nodes are State=FUTURE (not resolved, not used).  Node hardware is taken
# from the bundle (SlurmdParameters=config_overrides) and device files are
# redirected to fakes under the private directory.
#
# Without CONFDIR a default cluster is written: one node $SLURM_NODE (default
# gpu0001) with $SLURM_GPUS (default 8) GPUs of type $SLURM_GPU_TYPE (h100),
# $SLURM_CPUS CPUs (default 64), $SLURM_MEM MB (default 262144), in partition
# `gpu` (default), accounting through slurmdbd, backfill, cons_tres.
#
# SLURM_HARNESS_DB_TEMPLATE=DIR (optional, for a test that starts several
# clusters): the first start keeps its freshly initialised MariaDB datadir in
# DIR (before the server ever runs on it), later starts copy it instead of
# running mariadb-install-db again (~2 s instead of ~13 s at load 20).  The
# caller owns and removes DIR.
#
# Environment after slurm_start: SLURM_CONF, SLURM_HARNESS_DIR, SLURM_NODE,
# SLURM_CLUSTER.  Logs: $SLURM_HARNESS_DIR/log/*.log (slurm_dump_logs prints
# their tails).  Set SLURM_HARNESS_KEEP=1 to keep the directory after stop.

SLURM_HARNESS_PIDS=()

slurm_log() { echo "slurm-harness: $*" >&2; }

# slurm_require: 0 when every program is installed, else 1 with the reason in
# SLURM_SKIP_REASON (also printed on stderr).
slurm_require() {
    local missing=() p
    SLURM_SKIP_REASON=
    for p in munged mariadbd mariadb-install-db slurmdbd slurmctld slurmd sbatch sacctmgr sacct \
             squeue scontrol python3; do
        command -v "$p" >/dev/null 2>&1 || [ -x "/usr/sbin/$p" ] || missing+=("$p")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        SLURM_SKIP_REASON="missing ${missing[*]} (Debian: apt-get install slurm-wlm slurmdbd mariadb-server munge python3)"
        slurm_log "SKIP: $SLURM_SKIP_REASON"
        return 1
    fi
    if [ -n "${GPUPLAN_SKIP_SLURM:-}" ]; then
        SLURM_SKIP_REASON="GPUPLAN_SKIP_SLURM is set ($GPUPLAN_SKIP_SLURM)"
        slurm_log "SKIP: $SLURM_SKIP_REASON"
        return 1
    fi
    return 0
}

_slurm_bin() { command -v "$1" 2>/dev/null || echo "/usr/sbin/$1"; }

# A loopback TCP port free right now (the daemon start is retried if another
# process takes it first).
_slurm_free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

# _slurm_spawn NAME CMD…: start a foreground daemon, remember its PID.
_slurm_spawn() {
    local name=$1; shift
    slurm_log "$(date +%T) starting $name"
    "$@" >>"$SLURM_HARNESS_DIR/log/$name.out" 2>&1 &
    local pid=$!
    SLURM_HARNESS_PIDS+=("$pid")
    echo "$pid" >"$SLURM_HARNESS_DIR/run/$name.harness-pid"
    eval "_SLURM_PID_$name=$pid"
}

_slurm_alive() { local v="_SLURM_PID_$1"; [ -n "${!v:-}" ] && kill -0 "${!v}" 2>/dev/null; }

# _slurm_wait SECS DAEMON CMD…: poll CMD every 0.1 s until it succeeds; give
# up at once if DAEMON (a name given to _slurm_spawn) has exited.
_slurm_wait() {
    local secs=$1 daemon=$2; shift 2
    local i n=$((secs * 10))
    for ((i = 0; i < n; i++)); do
        "$@" >/dev/null 2>&1 && return 0
        _slurm_alive "$daemon" || return 1
        sleep 0.1
    done
    return 1
}

slurm_dump_logs() {
    local f
    for f in "$SLURM_HARNESS_DIR"/log/*; do
        [ -f "$f" ] || continue
        echo "---- $f (tail)" >&2
        tail -n 25 "$f" >&2
    done
}

_slurm_fail() { slurm_log "FAIL: $*"; slurm_dump_logs; return 1; }

_slurm_start_munge() {
    local d=$SLURM_HARNESS_DIR
    head -c 1024 /dev/urandom >"$d/etc/munge.key"
    chmod 400 "$d/etc/munge.key"
    _slurm_spawn munged "$(_slurm_bin munged)" -F --force --socket="$d/run/munge.socket" \
        --key-file="$d/etc/munge.key" --log-file="$d/log/munged.log" \
        --pid-file="$d/run/munged.pid" --seed-file="$d/run/munged.seed"
    _slurm_wait 10 munged test -S "$d/run/munge.socket" || { _slurm_fail "munged did not start"; return 1; }
}

_slurm_start_mariadb() {
    local d=$SLURM_HARNESS_DIR user
    user=$(id -un)
    mkdir -p "$d/db"
    local tpl=${SLURM_HARNESS_DB_TEMPLATE:-}
    if [ -n "$tpl" ] && [ -d "$tpl/mysql" ]; then
        cp -a "$tpl/." "$d/db/" || { _slurm_fail "cannot copy the database template $tpl"; return 1; }
    else
        "$(_slurm_bin mariadb-install-db)" --no-defaults --datadir="$d/db" --user="$user" \
            --auth-root-authentication-method=socket --skip-test-db >"$d/log/mariadb-install.log" 2>&1 ||
            { _slurm_fail "mariadb-install-db failed"; return 1; }
        # the fresh datadir, before any server ran on it, for the next start
        if [ -n "$tpl" ]; then
            rm -rf "$tpl" && cp -a "$d/db" "$tpl" || slurm_log "cannot keep the database template $tpl"
        fi
    fi
    _slurm_spawn mariadbd "$(_slurm_bin mariadbd)" --no-defaults --datadir="$d/db" --user="$user" \
        --socket="$d/run/mysqld.sock" --skip-networking --pid-file="$d/run/mysqld.pid" \
        --log-error="$d/log/mariadb.log" --innodb-buffer-pool-size=16M --innodb-log-file-size=8M \
        --skip-name-resolve --performance-schema=OFF
    _slurm_wait 30 mariadbd test -S "$d/run/mysqld.sock" || { _slurm_fail "mariadbd did not start"; return 1; }
}

# The site half of slurm.conf: names, ports, paths, auth, plugins that a test
# host can run.  Bundle lines that the harness must own are filtered out of
# the bundle (see _slurm_bundle_conf).
_slurm_site_conf() {
    local d=$SLURM_HARNESS_DIR
    cat <<CONF
# site part written by tests/slurm/harness.sh
ClusterName=$SLURM_CLUSTER
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$_SLURM_CTLD_PORT
SlurmdPort=$_SLURM_SLURMD_PORT
SlurmUser=$(id -un)
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$d/run/munge.socket
CredType=cred/munge
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool/%n
SlurmctldPidFile=$d/run/slurmctld.pid
SlurmdPidFile=$d/run/slurmd-%n.pid
SlurmctldLogFile=$d/log/slurmctld.log
SlurmdLogFile=$d/log/slurmd-%n.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
SlurmdParameters=config_overrides
SlurmctldTimeout=30
SlurmdTimeout=30
MessageTimeout=20
InactiveLimit=0
MinJobAge=2
KillWait=2
SchedulerParameters=sched_interval=2,bf_interval=2
AccountingStorageHost=localhost
AccountingStoragePort=$_SLURM_DBD_PORT
# slurm.conf(5): for slurmdbd connections the munge socket is AccountingStoragePass
AccountingStoragePass=$d/run/munge.socket
JobCompType=jobcomp/none
CONF
}

# Keys the harness owns: dropped from a bundle's slurm.conf.
_SLURM_SITE_KEYS='ClusterName|SlurmctldHost|ControlMachine|SlurmctldPort|SlurmdPort|SlurmUser|SlurmdUser|AuthType|AuthInfo|CredType|StateSaveLocation|SlurmdSpoolDir|SlurmctldPidFile|SlurmdPidFile|SlurmctldLogFile|SlurmdLogFile|ProctrackType|TaskPlugin|JobAcctGatherType|MpiDefault|MailProg|ReturnToService|SlurmdParameters|SlurmctldTimeout|SlurmdTimeout|AccountingStorageHost|AccountingStoragePort|AccountingStoragePass|JobCompType|Include|SchedulerParameters'

_slurm_default_bundle() {
    local d=$1
    cat >"$d/slurm.conf" <<CONF
GresTypes=gpu
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
SchedulerType=sched/backfill
AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageTRES=gres/gpu
AccountingStorageEnforce=associations,limits,qos
PriorityType=priority/multifactor
NodeName=$SLURM_NODE CPUs=${SLURM_CPUS:-64} RealMemory=${SLURM_MEM:-262144} Gres=gpu:${SLURM_GPU_TYPE:-h100}:${SLURM_GPUS:-8} State=UNKNOWN
PartitionName=${SLURM_PARTITION:-gpu} Nodes=$SLURM_NODE Default=YES MaxTime=INFINITE State=UP
CONF
    cat >"$d/gres.conf" <<CONF
NodeName=$SLURM_NODE Name=gpu Type=${SLURM_GPU_TYPE:-h100} File=/dev/nvidia[0-$((${SLURM_GPUS:-8} - 1))]
CONF
}

# Slurm hostlists without a running controller (scontrol needs a config):
# _slurm_hostnames "gpu[0001-0003]" → one name a line; _slurm_hostlist a,b,c
# → "gpu[0001-0003]"-style ranges (numeric suffixes of equal width).
_slurm_hostnames() {
    python3 - "$1" <<'PY'
import re, sys
for part in re.findall(r"[^,\[]+(?:\[[^\]]*\])?[^,]*", sys.argv[1]):
    m = re.fullmatch(r"(.*)\[([^\]]+)\](.*)", part)
    if not m:
        print(part); continue
    for r in m.group(2).split(","):
        lo, _, hi = r.partition("-")
        for i in range(int(lo), int(hi or lo) + 1):
            print("%s%0*d%s" % (m.group(1), len(lo), i, m.group(3)))
PY
}
_slurm_hostlist() {
    python3 - "$1" <<'PY'
import re, sys
names = [n for n in sys.argv[1].split(",") if n]
out, i = [], 0
while i < len(names):
    m = re.fullmatch(r"(.*?)(\d+)", names[i])
    if not m:
        out.append(names[i]); i += 1; continue
    pre, num = m.group(1), m.group(2)
    j = i
    while j + 1 < len(names):
        n = re.fullmatch(r"(.*?)(\d+)", names[j + 1])
        if not n or n.group(1) != pre or len(n.group(2)) != len(num) or \
                int(n.group(2)) != int(num) + (j + 1 - i):
            break
        j += 1
    last = re.fullmatch(r"(.*?)(\d+)", names[j]).group(2)
    out.append(names[i] if i == j else "%s[%s-%s]" % (pre, num, last))
    i = j + 1
print(",".join(out))
PY
}

# Copy a bundle into etc/: site keys removed, first node bound to loopback,
# device files redirected to fakes, NVML/RSMI autodetection off (no driver).
_slurm_install_bundle() {
    local src=$1 d=$SLURM_HARNESS_DIR
    grep -v -E "^[[:space:]]*($_SLURM_SITE_KEYS)[[:space:]]*=" "$src/slurm.conf" >"$d/etc/bundle.conf" ||
        true
    if [ -z "${SLURM_NODE:-}" ]; then
        SLURM_NODE=$(sed -n -E 's/^[[:space:]]*NodeName=([^[:space:]]+).*/\1/p' "$d/etc/bundle.conf" |
                     head -n 1)
        SLURM_NODE=$(_slurm_hostnames "$SLURM_NODE" | head -n 1)
        [ -n "$SLURM_NODE" ] || { _slurm_fail "no NodeName line in $src/slurm.conf"; return 1; }
    fi
    if [ -f "$src/gres.conf" ]; then
        sed -E -e "s#File=/dev/#File=$d/dev/#g" -e 's/^[[:space:]]*AutoDetect=.*/AutoDetect=off/' \
            "$src/gres.conf" >"$d/etc/gres.conf"
    fi
    if [ -f "$src/topology.conf" ]; then cp "$src/topology.conf" "$d/etc/topology.conf"; fi
    # fake device files for every File= name or range (nvidia[0-7]) in gres.conf
    if [ -f "$d/etc/gres.conf" ]; then
        python3 - "$d" "$d/etc/gres.conf" <<'PY' || { _slurm_fail "cannot create fake devices"; return 1; }
import os, re, sys
top, conf = sys.argv[1], sys.argv[2]
for spec in re.findall(r"File=(\S+)", open(conf).read()):
    m = re.fullmatch(r"(.*)\[([0-9,-]+)\](.*)", spec)
    names = [spec]
    if m:
        names = []
        for part in m.group(2).split(","):
            lo, _, hi = part.partition("-")
            names += [m.group(1) + str(i) + m.group(3) for i in range(int(lo), int(hi or lo) + 1)]
    for n in names:
        if n.startswith(top + "/dev/"):
            os.makedirs(os.path.dirname(n), exist_ok=True)
            open(n, "a").close()
PY
    fi
}

# The node line naming $SLURM_NODE is split: that node gets NodeHostname/
# NodeAddr on loopback (it is the slurmd started here).  Every other node is
# State=FUTURE: slurmctld neither resolves (their names are not in DNS here)
# nor schedules them.
_slurm_bind_first_node() {
    local f=$SLURM_HARNESS_DIR/etc/bundle.conf line names rest others out=() done=0
    while IFS= read -r line || [ -n "$line" ]; do
        if [[ $line =~ ^[[:space:]]*NodeName=([^[:space:]]+)(.*)$ ]]; then
            names=${BASH_REMATCH[1]} rest=${BASH_REMATCH[2]}
            local future
            future=$(sed -E 's/[[:space:]]State=[^[:space:]]+//g' <<<"$rest")" State=FUTURE"
            if [ $done -eq 0 ] && _slurm_hostnames "$names" | grep -qx "$SLURM_NODE"; then
                out+=("NodeName=$SLURM_NODE NodeHostname=localhost NodeAddr=127.0.0.1$rest")
                others=$(_slurm_hostnames "$names" | grep -vx "$SLURM_NODE" | paste -sd, -)
                [ -z "$others" ] || out+=("NodeName=$(_slurm_hostlist "$others")$future")
                done=1
                continue
            fi
            out+=("NodeName=$names$future")
            continue
        fi
        out+=("$line")
    done <"$f"
    [ $done -eq 1 ] || { _slurm_fail "node $SLURM_NODE is not in the bundle's NodeName lines"; return 1; }
    printf '%s\n' "${out[@]}" >"$f"
}

_slurm_write_dbd_conf() {
    local d=$SLURM_HARNESS_DIR
    cat >"$d/etc/slurmdbd.conf" <<CONF
AuthType=auth/munge
AuthInfo=socket=$d/run/munge.socket
DbdHost=localhost
DbdAddr=127.0.0.1
DbdPort=$_SLURM_DBD_PORT
SlurmUser=$(id -un)
PidFile=$d/run/slurmdbd.pid
LogFile=$d/log/slurmdbd.log
DebugLevel=info
StorageType=accounting_storage/mysql
StorageHost=localhost
StorageLoc=slurm_acct_db
StorageUser=$(id -un)
CONF
    chmod 600 "$d/etc/slurmdbd.conf"
}

_slurm_start_dbd() {
    local d=$SLURM_HARNESS_DIR try
    for try in 1 2 3; do
        _SLURM_DBD_PORT=$(_slurm_free_port)
        _slurm_write_dbd_conf
        # slurmdbd reads slurmdbd.conf next to $SLURM_CONF; libmariadb honours
        # MYSQL_UNIX_PORT for "localhost": the private socket, no TCP
        MYSQL_UNIX_PORT="$d/run/mysqld.sock" SLURM_CONF="$d/etc/slurm.conf" \
            _slurm_spawn slurmdbd "$(_slurm_bin slurmdbd)" -D
        if _slurm_wait 30 slurmdbd _slurm_dbd_ready; then return 0; fi
        _slurm_alive slurmdbd || continue
        break
    done
    _slurm_fail "slurmdbd did not start"
}

_slurm_dbd_ready() {
    _slurm_alive slurmdbd || return 1
    python3 - "$_SLURM_DBD_PORT" <<'PY'
import socket, sys
s = socket.socket(); s.settimeout(0.2)
sys.exit(0 if s.connect_ex(("127.0.0.1", int(sys.argv[1]))) == 0 else 1)
PY
}

_slurm_ctld_ready() { _slurm_alive slurmctld && scontrol ping 2>/dev/null | grep -q 'is UP'; }
_slurm_node_ready() {
    _slurm_alive slurmd || return 1
    local st
    st=$(sinfo -h -n "$SLURM_NODE" -o '%T' 2>/dev/null | head -n 1)
    case $st in idle*|mixed*|allocated*) [[ $st != *'*' ]] ;; *) return 1 ;; esac
}

# slurm_start [CONFDIR]
slurm_start() {
    local src=${1:-}
    SLURM_HARNESS_DIR=$(mktemp -d "${TMPDIR:-/tmp}/gpuplan-slurm.XXXXXX") || return 1
    export SLURM_HARNESS_DIR
    if [ -z "${SLURM_HARNESS_NO_TRAP:-}" ]; then  # set it when your own trap calls slurm_stop
        trap 'slurm_stop' EXIT
        trap 'slurm_stop; exit 130' INT TERM
    fi
    local d=$SLURM_HARNESS_DIR
    chmod 700 "$d"
    mkdir -p "$d/etc" "$d/run" "$d/log" "$d/state" "$d/spool" "$d/dev" "$d/out"
    SLURM_CLUSTER=$(basename "$d" | tr 'A-Z' 'a-z' | tr -dc 'a-z0-9' | tail -c 10)
    SLURM_CLUSTER="t$SLURM_CLUSTER"
    export SLURM_CLUSTER
    export SLURM_CONF="$d/etc/slurm.conf"

    if [ -z "$src" ]; then
        SLURM_NODE=${SLURM_NODE:-gpu0001}
        mkdir -p "$d/default"
        _slurm_default_bundle "$d/default"
        src=$d/default
    fi
    _slurm_install_bundle "$src" || return 1
    export SLURM_NODE

    _slurm_start_munge || return 1
    _slurm_start_mariadb || return 1

    _SLURM_CTLD_PORT=$(_slurm_free_port)
    _SLURM_SLURMD_PORT=$(_slurm_free_port)
    _SLURM_DBD_PORT=0
    # slurmdbd first: slurmctld registers the cluster with it.
    { _slurm_site_conf; echo "Include $d/etc/bundle.conf"; } >"$d/etc/slurm.conf"
    _slurm_start_dbd || return 1
    { _slurm_site_conf; echo "Include $d/etc/bundle.conf"; } >"$d/etc/slurm.conf"
    sacctmgr -i add cluster "$SLURM_CLUSTER" >"$d/log/sacctmgr.log" 2>&1 ||
        { _slurm_fail "sacctmgr add cluster failed"; return 1; }
    # accounts and QOS that slurm.conf names (a partition's QOS=) must exist
    # before slurmctld starts: the hook runs with slurmdbd up, slurmctld not yet
    if [ -n "${SLURM_BEFORE_CTLD:-}" ]; then
        eval "$SLURM_BEFORE_CTLD" >"$d/log/before-ctld.log" 2>&1 ||
            { _slurm_fail "SLURM_BEFORE_CTLD failed: $SLURM_BEFORE_CTLD"; return 1; }
    fi

    _slurm_bind_first_node || return 1
    _slurm_spawn slurmctld "$(_slurm_bin slurmctld)" -D -i -f "$d/etc/slurm.conf"
    _slurm_wait 90 slurmctld _slurm_ctld_ready || { _slurm_fail "slurmctld did not start"; return 1; }
    mkdir -p "$d/spool/$SLURM_NODE"
    _slurm_spawn slurmd "$(_slurm_bin slurmd)" -D -N "$SLURM_NODE" -f "$d/etc/slurm.conf"
    _slurm_wait 60 slurmd _slurm_node_ready || { _slurm_fail "slurmd ($SLURM_NODE) did not come up"; return 1; }
    slurm_log "cluster $SLURM_CLUSTER up in $d (node $SLURM_NODE)"
}

# slurm_stop: stop the daemons this shell started, newest first, by PID.
slurm_stop() {
    local i pid
    [ ${#SLURM_HARNESS_PIDS[@]} -gt 0 ] || { _slurm_cleanup_dir; return 0; }
    if [ -n "${SLURM_CONF:-}" ] && _slurm_alive slurmctld; then
        scancel --full -u "$(id -un)" >/dev/null 2>&1 || true
    fi
    for ((i = ${#SLURM_HARNESS_PIDS[@]} - 1; i >= 0; i--)); do
        pid=${SLURM_HARNESS_PIDS[$i]}
        kill -TERM "$pid" 2>/dev/null || true
    done
    for ((i = ${#SLURM_HARNESS_PIDS[@]} - 1; i >= 0; i--)); do
        pid=${SLURM_HARNESS_PIDS[$i]}
        local n
        for ((n = 0; n < 100; n++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    SLURM_HARNESS_PIDS=()
    _slurm_cleanup_dir
}

_slurm_cleanup_dir() {
    if [ -n "${SLURM_HARNESS_DIR:-}" ] && [ -d "$SLURM_HARNESS_DIR" ] && [ -z "${SLURM_HARNESS_KEEP:-}" ]; then
        rm -rf "$SLURM_HARNESS_DIR"
    fi
}

# slurm_state JOBID: the job's state (PENDING, RUNNING, COMPLETED…)
slurm_state() {
    local s
    s=$(squeue -h -j "$1" -o '%T' 2>/dev/null | head -n 1)
    [ -n "$s" ] || s=$(sacct -n -X -P -j "$1" -o State 2>/dev/null | head -n 1 | cut -d' ' -f1)
    echo "$s"
}

# slurm_reason JOBID: the pending reason squeue reports
slurm_reason() { squeue -h -j "$1" -o '%r' 2>/dev/null | head -n 1; }

# slurm_wait_state JOBID STATE [SECS]: 0 once the job is in STATE
slurm_wait_state() {
    local i n=$(( ${3:-30} * 5 ))
    for ((i = 0; i < n; i++)); do
        [ "$(slurm_state "$1")" = "$2" ] && return 0
        sleep 0.2
    done
    return 1
}

# slurm_wait_reason JOBID REASON_REGEX [SECS]: 0 once the pending reason matches
slurm_wait_reason() {
    local i n=$(( ${3:-30} * 5 ))
    for ((i = 0; i < n; i++)); do
        [[ $(slurm_reason "$1") =~ $2 ]] && return 0
        sleep 0.2
    done
    return 1
}

# slurm_sbatch ARGS…: submit, print the job id (sbatch --parsable)
slurm_sbatch() { sbatch --parsable -o "$SLURM_HARNESS_DIR/out/%j.out" "$@" | cut -d';' -f1; }

# slurm_sbatch_wait ARGS…: submit and wait for the job to finish; prints the id,
# returns sbatch --wait's status (the job's exit code)
slurm_sbatch_wait() {
    local out rc=0
    out=$(sbatch --parsable --wait -o "$SLURM_HARNESS_DIR/out/%j.out" "$@") || rc=$?
    echo "${out%%;*}"
    return $rc
}

# slurm_wait_accounted N SACCT_ARGS… [SECS via SLURM_WAIT_SECS]: wait until
# slurmdbd holds N finished allocations matching SACCT_ARGS (e.g. -A team);
# accounting records reach slurmdbd a moment after the job ends.
slurm_wait_accounted() {
    local want=$1; shift
    local i n=$(( ${SLURM_WAIT_SECS:-30} * 5 )) states
    for ((i = 0; i < n; i++)); do
        states=$(sacct -a -n -X -P "$@" -o State 2>/dev/null)
        if [ "$(printf '%s\n' "$states" | grep -c .)" -eq "$want" ] &&
           ! printf '%s\n' "$states" | grep -q -E '^(PENDING|RUNNING|COMPLETING|REQUEUED|RESIZING|SUSPENDED)'; then
            return 0
        fi
        sleep 0.2
    done
    return 1
}
