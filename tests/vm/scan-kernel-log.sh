#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# usage: scan-kernel-log.sh CONSOLE_LOG
# Print a FAIL line for every kernel splat in a guest's console log, charged
# to the test whose "kbinder-test: start NAME" marker came last before it (or
# to the runner phase named by the last "kbinder-runner:" marker). kbinder's
# own reports of a broken invariant count as splats too: no input from
# userspace may produce them (driver/transaction.c). Between a test's
# "kbinder-test: expect stack dump" and "kbinder-test: expect end" markers
# (kbt_expect_stack_dump()), a plain stack dump's "Call Trace" is expected;
# every other splat still fails.
set -u
tr -d '\r' <"$1" | awk '
	/kbinder-test: start / {
		sub(/.*kbinder-test: start /, ""); current = $1; dump_ok = 0; next
	}
	/kbinder-test: expect stack dump/ { dump_ok = 1; next }
	/kbinder-test: expect end/ { dump_ok = 0; next }
	dump_ok && /Call Trace/ { next }
	/kbinder-runner: / {
		s = $0; sub(/.*kbinder-runner: /, "", s); gsub(/ /, "_", s)
		current = "vm/" s; next
	}
	/BUG:|WARNING:|Oops|KASAN|UBSAN|possible circular locking|possible recursive locking|inconsistent lock state|hung task|blocked for more than|general protection|Call Trace|unreferenced object|Kernel panic|kbinder[_a-z]*: .*(corrupt transaction stack|not stacked above its own call)/ {
		line = $0; sub(/^\[[ 0-9.]*\] /, "", line)
		name = (current == "") ? "vm/boot" : current
		if (!(name in seen)) {
			print "FAIL " name ": kernel log: " line
			seen[name] = 1
		}
	}'
