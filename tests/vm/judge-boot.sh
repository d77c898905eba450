#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# usage: judge-boot.sh LOGDIR QEMU_RC TIMEOUT [SCRIPT]
# Judge one boot from its logs in LOGDIR (tests/vm/run.sh writes them:
# console.log the kernel console, output.log what the guest printed,
# results.log its result lines and verdict; qemu.err QEMU's complaints)
# into LOGDIR/judged.log: the guest's result lines, then a FAIL for
#  - a missing verdict ("KBT-VERDICT: done N", which init writes when the
#    guest script SCRIPT ended; QEMU_RC 124: the run hit TIMEOUT seconds);
#  - a verdict whose status N is not 0: the guest script itself failed;
#  - every kernel splat in the console log, and in the kernel log a guest
#    handed over on ttyS1 between "KBT-KMSG: begin" and "KBT-KMSG: end"
#    (lib.sh's kmsg_handover, for a guest that kept kernel messages off the
#    console): each test charged once, the last line of a handover kept
#    even when its end marker never came (a panic's line would be there),
#    and such a handover, cut short, fails too.
# Exit status 0 if nothing failed.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 3 ] || { sed -n '3,18p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
logdir=$1 qemu_rc=$2 timeout=$3 script=${4:-the guest script}
console=$logdir/console.log output=$logdir/output.log results=$logdir/results.log
judged=$logdir/judged.log qerr=$logdir/qemu.err kmsg=$logdir/kmsg.log

touch "$console" "$output" "$results"
tr -d '\r' <"$results" | grep -E '^(PASS|FAIL|SKIP) ' >"$judged"
verdict=$(tr -d '\r' <"$results" | grep '^KBT-VERDICT: done' | tail -n 1)
status=${verdict#KBT-VERDICT: done}
status=${status# }
if [ -z "$verdict" ]; then
	if [ "$qemu_rc" -eq 124 ]; then
		why="no verdict: the guest did not finish within ${timeout}s"
	else
		why="no verdict: the guest stopped early (qemu exit $qemu_rc)"
	fi
	# What the guest said last, and QEMU's first complaint: the cause,
	# readable where only the tail of a run's output is kept (CI).
	last=$(tr -d '\r' <"$console" | grep -v '^[[:space:]]*$' | tail -n 1 | cut -c1-200)
	[ -n "$last" ] && why="$why; console's last line: $last"
	[ -s "$qerr" ] && why="$why; qemu: $(head -n 1 "$qerr" | cut -c1-200)"
	echo "FAIL vm/verdict: $why" >>"$judged"
elif [ "$status" != 0 ]; then
	echo "FAIL vm/verdict: $script ended with status ${status:-(none)}: '$verdict'" >>"$judged"
fi

# The kernel log handed over on ttyS1: every line between the markers,
# the last one too when the end marker is missing.
: >"$kmsg"
tr -d '\r' <"$output" | awk -v out="$kmsg" '
	/^KBT-KMSG: begin$/ { inside = 1; begun++; next }
	/^KBT-KMSG: end$/ { if (inside) ended++; inside = 0; next }
	inside { print > out }
	END {
		close(out)
		if (begun > ended)
			print "FAIL vm/kmsg_handover: the kernel log handed over on ttyS1 has no end marker: it was cut short"
	}' >>"$judged"
{
	"$here/scan-kernel-log.sh" "$console"
	[ -s "$kmsg" ] && "$here/scan-kernel-log.sh" "$kmsg"
} | awk '{ name = $2; sub(/:$/, "", name) } !seen[name]++' >>"$judged"
! grep -q '^FAIL ' "$judged"
