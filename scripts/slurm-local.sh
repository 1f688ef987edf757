#!/usr/bin/env bash
# Installs and starts a one-node Slurm on this machine, for `make test-slurm` and for trying
# `hcreplay sweep --slurm` without a cluster. Run as root on Debian or Ubuntu (apt-get). It is
# idempotent: a second run finds the packages, the munge key, the configuration and the daemons
# in place, and only waits for the node.
#
# The configuration is the least Slurm runs with: no cgroups (ProctrackType=proctrack/linuxproc,
# TaskPlugin=task/none, which also work in containers), no accounting database (sacct then says
# accounting is disabled; hcreplay's --status does without it), one node with all of this
# machine's CPUs and 90% of its memory, one partition "debug".
set -euo pipefail

if [ "$(id -u)" != 0 ]; then
	echo "slurm-local.sh: run as root (it installs packages and starts daemons)" >&2
	exit 2
fi
if ! command -v apt-get >/dev/null; then
	echo "slurm-local.sh: needs apt-get (Debian or Ubuntu)" >&2
	exit 2
fi

log() { echo "slurm-local: $*" >&2; }

if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null; then
	log "installing slurm-wlm and munge"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends slurm-wlm munge >/dev/null
fi

# munge: one key, readable by munge only.
if [ ! -s /etc/munge/munge.key ]; then
	log "creating the munge key"
	mkdir -p /etc/munge
	dd if=/dev/urandom of=/etc/munge/munge.key bs=1 count=1024 status=none
fi
chown munge:munge /etc/munge/munge.key 2>/dev/null || true
chmod 400 /etc/munge/munge.key
mkdir -p /run/munge /var/log/munge /var/lib/munge
chown munge:munge /run/munge /var/log/munge /var/lib/munge 2>/dev/null || true
if ! pgrep -x munged >/dev/null; then
	log "starting munged"
	if id munge >/dev/null 2>&1; then
		su -s /bin/sh munge -c munged || munged --force
	else
		munged --force
	fi
fi
for _ in $(seq 50); do munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && break; sleep 0.2; done
munge -n | unmunge >/dev/null

node=$(hostname -s)
cpus=$(nproc)
mem=$(awk '/MemTotal/ { printf "%d", $2 / 1024 * 0.9 }' /proc/meminfo)
conf=/etc/slurm/slurm.conf
want=$(cat <<EOF
# Written by hcreplay's scripts/slurm-local.sh: a one-node Slurm for tests.
ClusterName=hcreplay-local
SlurmctldHost=$node
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
MinJobAge=600
SchedulerParameters=sched_interval=2
NodeName=$node CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
)
mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm
restart=0
if [ ! -f $conf ] || [ "$(cat $conf)" != "$want" ]; then
	log "writing $conf"
	printf '%s\n' "$want" >$conf.tmp && mv $conf.tmp $conf
	restart=1
fi
if [ $restart = 1 ]; then
	for d in slurmctld slurmd; do
		if pid=$(pgrep -x $d); then
			log "stopping $d ($pid) for the new configuration"
			kill $pid
			for _ in $(seq 50); do kill -0 $pid 2>/dev/null || break; sleep 0.2; done
		fi
	done
fi
if ! pgrep -x slurmctld >/dev/null; then
	log "starting slurmctld"
	slurmctld
fi
if ! pgrep -x slurmd >/dev/null; then
	log "starting slurmd"
	slurmd
fi

# Wait until the node is idle (or busy with jobs: mixed, allocated).
for i in $(seq 120); do
	state=$(sinfo -h -N -n "$node" -o %T 2>/dev/null | head -1 || true)
	case $state in
	idle | mixed | allocated)
		log "node $node is $state ($cpus CPUs)"
		exit 0
		;;
	down* | drain*)
		scontrol update nodename="$node" state=resume 2>/dev/null || true
		;;
	esac
	sleep 1
done
echo "slurm-local.sh: node $node did not become idle in 2 minutes (state: ${state:-none}); see /var/log/slurm/" >&2
exit 1
