#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# usage: scan-kernel-log.sh CONSOLE_LOG
#        scan-kernel-log.sh --patterns     (the splat patterns, one a line)
# Print a FAIL line for every kernel splat in a guest's console log, charged
# to the test whose "kbinder-test: start NAME" marker came last before it (or
# to the runner phase named by the last "kbinder-runner:" marker). kbinder's
# own reports of a broken invariant count as splats too: no input from
# userspace may produce them (driver/transaction.c). So do the soft lockup
# and RCU stall detectors, which run.sh arms with short thresholds
# ("watchdog: BUG: soft lockup", "rcu: INFO: rcu_sched self-detected stall
# on CPU", "rcu: INFO: ... detected stalls on CPUs/tasks"). Between a test's
# "kbinder-test: expect stack dump" and "kbinder-test: expect end" markers
# (kbt_expect_stack_dump()), the "Call Trace" of a plain stack dump (one that
# follows dump_stack()'s "CPU: N [UID: N ]PID: N Comm: ..." and "Hardware
# name:" lines) is expected; a trace without that header, and every other splat,
# still fails.
#
# A splat is any line matching one of the patterns of tests/vm/splats.list
# (awk regular expressions), the one list: the harness
# (tests/guest/harness/kmsg.c) and kbfuzz (fuzz/main.c) look for the same
# lines in /dev/kmsg, through the header the build makes of it. Each
# pattern has a crafted log in tests/check.sh's runner stage that must fail.
set -u
here=$(cd "$(dirname "$0")" && pwd)
if ! patterns_text=$("$here/splats.sh" --patterns); then
	# A scan that cannot tell what a splat is must not pass.
	echo "FAIL vm/splat_patterns: tests/vm/splats.sh cannot read the splat list"
	exit 1
fi
mapfile -t patterns <<<"$patterns_text"
if [ "${1:-}" = --patterns ]; then
	printf '%s\n' "${patterns[@]}"
	exit 0
fi
splat=$(IFS='|'; echo "${patterns[*]}")
# Through the environment: awk -v would take the backslashes as escapes.
tr -d '\r' <"$1" | SPLAT=$splat awk '
	BEGIN { splat = ENVIRON["SPLAT"] }
	/kbinder-test: start / {
		sub(/.*kbinder-test: start /, ""); current = $1; dump_ok = 0; next
	}
	/kbinder-test: expect stack dump/ { dump_ok = 1; header = 0; next }
	/kbinder-test: expect end/ { dump_ok = 0; next }
	# dump_stack() prints "CPU: 1 PID: 9 Comm: insmod ..." (6.12: "CPU: 1
	# UID: 0 PID: 9 Comm: ...", then on a tainted kernel "Tainted:
	# [O]=OOT_MODULE, ...") and "Hardware name: ..." before its trace (a
	# WARN or BUG prints its own line first, which fails anyway)
	/CPU: [0-9]+ (UID: [0-9]+ )?PID: [0-9]+ Comm: / && $0 !~ splat { header = 1; next }
	header && /Tainted: \[[A-Z]\]=/ { next }
	/Hardware name: / { next }
	dump_ok && header && /Call Trace/ { header = 0; next }
	{ header = 0 }
	/kbinder-runner: / {
		s = $0; sub(/.*kbinder-runner: /, "", s); gsub(/ /, "_", s)
		current = "vm/" s; next
	}
	$0 ~ splat {
		line = $0; sub(/^\[[ 0-9.]*\] /, "", line)
		name = (current == "") ? "vm/boot" : current
		if (!(name in seen)) {
			print "FAIL " name ": kernel log: " line
			seen[name] = 1
		}
	}'
