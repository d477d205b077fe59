#!/usr/bin/env bash
# A real single-node Slurm on this machine, for testing the sweep's slurm backend (scripts/sweep --backend
# slurm) without a cluster. Debian 12 (slurm-wlm 22.05 + munge), as root, no systemd needed: the daemons
# are started directly and their process ids kept in /run.
#
#   scripts/slurm_local.sh start    install slurm-wlm and munge if missing, write /etc/slurm/slurm.conf, start
#                                   munged, slurmctld and slurmd, wait until the node is idle (idempotent:
#                                   running daemons are kept; a node left down or drained is resumed)
#   scripts/slurm_local.sh stop     stop the three daemons this script started (by their pid files)
#   scripts/slurm_local.sh status   the daemons and sinfo
#
# The configuration is the smallest that works in a container: proctrack/linuxproc and task/none (no cgroup
# plugins), select/cons_tres on CPUs, no accounting database: AccountingStorageType=accounting_storage/none,
# so plain `sacct` answers "accounting storage is disabled", but JobCompType=jobcomp/filetxt records every
# finished job (array tasks included) and `sacct -c` reads it; running and pending tasks come from squeue.
# A slurm.conf that this script did not write is never overwritten: the script stops with a message.
set -euo pipefail

CONF=/etc/slurm/slurm.conf
MARK="# written by gpumemsys scripts/slurm_local.sh"
LOGDIR=/var/log/slurm
STATE=/var/lib/slurm
RUN=/run
MUNGE_PID=/run/munge/munged.pid
CTLD_PID=$RUN/slurmctld.pid
SLURMD_PID=$RUN/slurmd.pid

die() { echo "slurm_local: $*" >&2; exit 1; }
# Exit status: 0 ok, 1 a daemon did not start or work, 2 usage, 3 not root, 4 slurm-wlm/munge missing and
# not installable, 5 a slurm.conf that this script did not write (scripts/test_slurm skips on 3, 4 and 5).
die_code() { local c=$1; shift; echo "slurm_local: $*" >&2; exit "$c"; }
say() { echo "slurm_local: $*" >&2; }

alive() { [[ -f "$1" ]] && kill -0 "$(cat "$1")" 2>/dev/null; }

need_root() { [[ $(id -u) -eq 0 ]] || die_code 3 "must run as root (it installs packages, writes $CONF and starts daemons)"; }

install_packages() {
  local missing=()
  for p in slurm-wlm munge; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  ((${#missing[@]} == 0)) && return 0
  command -v apt-get >/dev/null || die_code 4 "missing ${missing[*]} and no apt-get to install them (Debian/Ubuntu only)"
  say "installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  { apt-get update -qq >&2 && apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2; } ||
    die_code 4 "could not install ${missing[*]} (apt-get failed, above)"
}

start_munge() {
  mkdir -p /etc/munge /run/munge /var/lib/munge /var/log/munge
  if [[ ! -s /etc/munge/munge.key ]]; then
    say "creating /etc/munge/munge.key"
    if command -v mungekey >/dev/null; then mungekey --create --keyfile=/etc/munge/munge.key --force
    else dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none; fi
  fi
  chown -R munge:munge /etc/munge /run/munge /var/lib/munge /var/log/munge
  chmod 0700 /etc/munge
  chmod 0400 /etc/munge/munge.key
  if alive "$MUNGE_PID"; then
    say "munged already running (pid $(cat "$MUNGE_PID"))"
  else
    rm -f /run/munge/munge.socket.2 /run/munge/munge.socket.2.lock "$MUNGE_PID"
    runuser -u munge -- /usr/sbin/munged --pid-file="$MUNGE_PID"
    say "munged started (pid $(cat "$MUNGE_PID"))"
  fi
  munge -n | unmunge >/dev/null || die "munge does not work (munge -n | unmunge failed; see /var/log/munge/munged.log)"
}

write_conf() {
  local host node_line
  host=$(hostname -s)
  # slurmd -C prints this node's real CPUs, sockets, cores and memory: the node line must not claim more.
  node_line=$(slurmd -C | head -n1)
  [[ "$node_line" == NodeName=* ]] || die "slurmd -C printed no node line: '$node_line'"
  if [[ -f "$CONF" ]] && ! head -n1 "$CONF" | grep -qF "$MARK"; then
    die_code 5 "$CONF exists and was not written by this script; not touching it (move it away to use this script)"
  fi
  mkdir -p /etc/slurm "$LOGDIR" "$STATE/slurmctld" "$STATE/slurmd"
  chown slurm:slurm "$LOGDIR" "$STATE/slurmctld"
  local new
  new=$(cat <<EOF
$MARK
ClusterName=gmslocal
SlurmctldHost=$host(127.0.0.1)
SlurmUser=slurm
AuthType=auth/munge
StateSaveLocation=$STATE/slurmctld
SlurmdSpoolDir=$STATE/slurmd
SlurmctldPidFile=$CTLD_PID
SlurmdPidFile=$SLURMD_PID
SlurmctldLogFile=$LOGDIR/slurmctld.log
SlurmdLogFile=$LOGDIR/slurmd.log
# no cgroups in a container: track processes through /proc, no task binding
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
# start the next array tasks at once when one ends (the default batch_sched_delay=3 halves the throughput
# of a sweep's short runs on one node)
SchedulerParameters=batch_sched_delay=0
# no slurmdbd: sacct -c reads the job completion log instead of the accounting database
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$LOGDIR/jobcomp.log
ReturnToService=2
SlurmdTimeout=300
MinJobAge=300
$node_line NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
)
  if [[ -f "$CONF" ]] && [[ "$(cat "$CONF")" == "$new" ]]; then
    CONF_CHANGED=0
  else
    printf '%s\n' "$new" >"$CONF"
    chmod 0644 "$CONF"
    CONF_CHANGED=1
    say "wrote $CONF"
  fi
}

wait_idle() {
  local host state i
  host=$(hostname -s)
  for ((i = 0; i < 60; i++)); do
    state=$(sinfo -h -n "$host" -o %T 2>/dev/null | head -n1 || true)
    case "$state" in
      idle|mixed|allocated) say "node $host is $state"; return 0 ;;
      down*|drain*|drained*) scontrol update nodename="$host" state=resume 2>/dev/null || true ;;
    esac
    sleep 1
  done
  sinfo >&2 || true
  die "node $host not idle after 60 s (state '${state:-none}'; see $LOGDIR/slurmctld.log and slurmd.log)"
}

start() {
  need_root
  install_packages
  start_munge
  CONF_CHANGED=0
  write_conf
  if alive "$CTLD_PID" && alive "$SLURMD_PID" && ((CONF_CHANGED)); then
    say "configuration changed: scontrol reconfigure"
    scontrol reconfigure
  fi
  if alive "$CTLD_PID"; then
    say "slurmctld already running (pid $(cat "$CTLD_PID"))"
  else
    /usr/sbin/slurmctld
    for ((i = 0; i < 30; i++)); do alive "$CTLD_PID" && scontrol ping >/dev/null 2>&1 && break; sleep 0.5; done
    alive "$CTLD_PID" || die "slurmctld did not start (see $LOGDIR/slurmctld.log)"
    say "slurmctld started (pid $(cat "$CTLD_PID"))"
  fi
  if alive "$SLURMD_PID"; then
    say "slurmd already running (pid $(cat "$SLURMD_PID"))"
  else
    /usr/sbin/slurmd
    for ((i = 0; i < 30; i++)); do alive "$SLURMD_PID" && break; sleep 0.5; done
    alive "$SLURMD_PID" || die "slurmd did not start (see $LOGDIR/slurmd.log)"
    say "slurmd started (pid $(cat "$SLURMD_PID"))"
  fi
  wait_idle
}

stop_one() {  # stop_one NAME PIDFILE
  if alive "$2"; then
    local pid
    pid=$(cat "$2")
    kill "$pid"
    for ((i = 0; i < 40; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
    kill -0 "$pid" 2>/dev/null && die "$1 (pid $pid) did not stop"
    say "$1 stopped (pid $pid)"
  else
    say "$1 not running"
  fi
  rm -f "$2"
}

stop() {
  need_root
  stop_one slurmd "$SLURMD_PID"
  stop_one slurmctld "$CTLD_PID"
  stop_one munged "$MUNGE_PID"
}

status() {
  local name pidfile
  for name in munged:$MUNGE_PID slurmctld:$CTLD_PID slurmd:$SLURMD_PID; do
    pidfile=${name#*:}
    if alive "$pidfile"; then echo "${name%%:*}: running (pid $(cat "$pidfile"))"; else echo "${name%%:*}: stopped"; fi
  done
  alive "$CTLD_PID" && sinfo
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
