#!/usr/bin/env bash
# A single-node Slurm on this machine for tests/online_slurm.rs (issue #18's real engine):
# installs Debian's slurm-wlm and munge when missing, writes a minimal slurm.conf for this
# host (no cgroups, no accounting) and starts munged, slurmctld and slurmd directly (no
# systemd). Idempotent: a Slurm that already answers `srun hostname` is left alone, and a
# slurm.conf that this script did not write is never replaced.
#
# Exits 0 when Slurm runs jobs; otherwise prints why on stderr and exits 1 (scripts/test.sh
# goes on, and the test fails under THALIA_REQUIRE_TOOLS=1 naming this script).
#
# `bash scripts/slurm-setup.sh --stop` stops the three daemons it started (slurmctld, slurmd,
# munged) and leaves the packages and slurm.conf in place.
set -euo pipefail

MARK="# written by thalia scripts/slurm-setup.sh"
CONF_DIR=/etc/slurm
CONF=$CONF_DIR/slurm.conf
LOG_DIR=/var/log/slurm

say() { echo "slurm-setup: $*" >&2; }
fail() {
    say "$*"
    exit 1
}

# root, or sudo without a password
if [ "$(id -u)" -eq 0 ]; then
    as_root() { "$@"; }
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    as_root() { sudo -n "$@"; }
else
    fail "needs root (or sudo without a password) to install and start Slurm; not set up"
fi

# a working Slurm: the controller answers and a job step runs on a node within seconds (a
# check that times out is cancelled, so that it holds no CPU)
CHECK=thalia-setup-check
works() {
    command -v srun >/dev/null || return 1
    timeout 10 scontrol ping 2>/dev/null | grep -q ' is UP' || return 1
    timeout 20 srun --quiet -J "$CHECK" -N1 -n1 -t 1 hostname >/dev/null 2>&1 && return 0
    scancel -n "$CHECK" 2>/dev/null || true
    return 1
}

if [ "${1:-}" = "--stop" ]; then
    for pidfile in /run/slurmctld.pid /run/slurmd.pid /run/munge/munged.pid; do
        if [ -s "$pidfile" ]; then
            say "stopping $(basename "$pidfile" .pid)"
            as_root kill "$(cat "$pidfile")" 2>/dev/null || true
        fi
    done
    exit 0
fi

if works; then
    say "Slurm already runs jobs ($(sinfo -h -o '%P %D %t' 2>/dev/null | head -1))"
    exit 0
fi

# 1. the packages
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null ||
    ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
    command -v apt-get >/dev/null || fail "slurm-wlm and munge are missing and there is no apt-get"
    say "installing slurm-wlm and munge"
    export DEBIAN_FRONTEND=noninteractive
    as_root apt-get update -qq >/dev/null ||
        say "apt-get update failed; trying the install with the lists at hand"
    as_root apt-get install -y -qq --no-install-recommends slurm-wlm munge >/dev/null ||
        fail "apt-get install slurm-wlm munge failed"
fi

# 2. munge: a key, and the daemon running as its user
if [ ! -s /etc/munge/munge.key ]; then
    say "creating the munge key"
    as_root mkdir -p /etc/munge
    as_root dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
    as_root chown munge:munge /etc/munge/munge.key
    as_root chmod 400 /etc/munge/munge.key
fi
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
    say "starting munged"
    as_root mkdir -p /run/munge /var/log/munge /var/lib/munge
    as_root chown munge:munge /run/munge /var/log/munge /var/lib/munge
    as_root runuser -u munge -- /usr/sbin/munged ||
        fail "munged did not start (see /var/log/munge/munged.log)"
    for _ in $(seq 20); do
        munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && break
        sleep 0.5
    done
    munge -n | unmunge >/dev/null 2>&1 || fail "munge does not answer after starting munged"
fi

# 3. slurm.conf: this host alone, with its real CPUs and memory (slurmd -C)
host=$(hostname -s)
if [ -e "$CONF" ] && ! grep -qF "$MARK" "$CONF"; then
    fail "$CONF exists and was not written by this script: not replaced, and that Slurm does not run jobs (srun hostname failed)"
fi
node=$(slurmd -C | head -1)
cpus=$(sed -n 's/.* CPUs=\([0-9]*\).*/\1/p' <<<"$node")
mem=$(sed -n 's/.* RealMemory=\([0-9]*\).*/\1/p' <<<"$node")
conf=$(
    cat <<EOF
$MARK (a single-node Slurm for the tests)
ClusterName=thalia
SlurmctldHost=$host(127.0.0.1)
AuthType=auth/munge
SlurmUser=root
SlurmdUser=root
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SwitchType=switch/none
MpiDefault=none
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
ReturnToService=2
MinJobAge=600
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldLogFile=$LOG_DIR/slurmctld.log
SlurmdLogFile=$LOG_DIR/slurmd.log
NodeName=$host NodeAddr=127.0.0.1 CPUs=${cpus:-2} RealMemory=${mem:-1000} State=UNKNOWN
PartitionName=main Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
)
as_root mkdir -p "$CONF_DIR" /var/spool/slurmctld /var/spool/slurmd "$LOG_DIR"
if [ ! -e "$CONF" ] || [ "$(cat "$CONF")" != "$conf" ]; then
    say "writing $CONF (node $host, CPUs=${cpus:-2}, RealMemory=${mem:-1000})"
    printf '%s\n' "$conf" | as_root tee "$CONF" >/dev/null
    # daemons started with an older file restart below
    for d in slurmctld slurmd; do
        if [ -s "/run/$d.pid" ]; then as_root kill "$(cat "/run/$d.pid")" 2>/dev/null || true; fi
    done
    sleep 1
fi

# 4. the daemons
running() { [ -s "/run/$1.pid" ] && as_root kill -0 "$(cat "/run/$1.pid")" 2>/dev/null; }
if ! running slurmctld; then
    # -c: without the jobs of an earlier controller (killed with its jobs, they would hold
    # the node until their time limit)
    say "starting slurmctld"
    as_root slurmctld -c || fail "slurmctld did not start (see $LOG_DIR/slurmctld.log)"
fi
if ! running slurmd; then
    say "starting slurmd"
    as_root slurmd || fail "slurmd did not start (see $LOG_DIR/slurmd.log)"
fi

# 5. the node up and a job step through
for _ in $(seq 60); do
    state=$(sinfo -h -n "$host" -o '%t' 2>/dev/null | head -1 || true)
    case "$state" in
        idle* | mix* | alloc*) break ;;
        down* | drain*) as_root scontrol update nodename="$host" state=resume 2>/dev/null || true ;;
    esac
    sleep 1
done
works || fail "Slurm does not run jobs: node $host is '${state:-unknown}' (see $LOG_DIR/slurmctld.log and slurmd.log)"
say "Slurm runs jobs on $host ($(sinfo -h -o '%P %D %t %c CPUs' | head -1))"
