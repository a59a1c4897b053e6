#!/usr/bin/env bash
# Starts a long job (data generation, a training) so that matches beside it keep their CPU:
# in a session of its own whose autogroup runs at nice 19, under SCHED_IDLE.
# Linux gives each session an autogroup and shares the CPU fairly between groups before a
# process's own nice or SCHED_IDLE counts, and fastchess makes a session of its own (setsid)
# for itself and its engines. A job under `chrt -i 0` or `nice -n 19` from a shell thus
# took about half the CPU of a gauntlet's engines; in a group at nice 19 it took 4 %
# (docs/STRENGTH.md, "SCHED_IDLE is not enough across sessions").
# Usage: bench/background.sh LOG COMMAND [ARGS...]   (output appended to LOG; prints the
#        job's PID, which bench/background.sh --check PID then verifies)
set -eu
usage="usage: bench/background.sh LOG COMMAND [ARGS...] | --check PID"
if [ "${1:-}" = "--check" ]; then
    pid=${2:?$usage}
    policy=$(chrt -p "$pid" | sed -n 's/.*scheduling policy: //p')
    group=$(cat "/proc/$pid/autogroup" 2>/dev/null || echo "no autogroup (kernel without it)")
    echo "pid $pid: $policy, $group"
    [ "$policy" = SCHED_IDLE ] || exit 1
    case $group in *"nice 19" | "no autogroup"*) ;; *) exit 1 ;; esac
    exit 0
fi
log=${1:?$usage}
shift
[ $# -gt 0 ] || { echo "$usage" >&2; exit 1; }
# setsid -f forks, so the job leads a new session (and autogroup); the inner shell sets the
# group's nice (without autogroups the file is absent and SCHED_IDLE alone applies), then
# becomes the job. It writes its PID to a temporary file for the caller to print.
pidfile=$(mktemp)
trap 'rm -f "$pidfile"' EXIT
# shellcheck disable=SC2016 # the inner shell expands $$ and "$@"
setsid -f sh -c 'echo $$ >"$0"
    [ ! -w /proc/self/autogroup ] || echo 19 >/proc/self/autogroup
    exec chrt -i 0 "$@"' "$pidfile" "$@" >>"$log" 2>&1 </dev/null
for _ in $(seq 50); do
    [ -s "$pidfile" ] && break
    sleep 0.1
done
cat "$pidfile"
