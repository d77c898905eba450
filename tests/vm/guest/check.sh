# SPDX-License-Identifier: Apache-2.0
#
# The guest half of `make check`: load the driver under test, run every test
# program in /tests whose name matches $KBT_TESTS, then check that kbinder
# returns to zero live objects and unloads.
. /scripts/lib.sh

# Each program's time limit; it must leave room for the longest test's own
# timeout (120 s) plus the harness's margin, so that a hanging test is
# reported by its own timeout, with its hang report (see run_program).
: "${KBT_TEST_TIMEOUT:=240}"

[ "$KBT_DRIVER" = kbinder ] && kbinder_selftest

kmsg_mark "load $KBT_DRIVER"
if ! out=$(load_driver 2>&1); then
	result FAIL "vm/load_$KBT_DRIVER" "$out"
	exit 1
fi
result PASS "vm/load_$KBT_DRIVER"
echo "devices: $(ls /dev | grep binder | tr '\n' ' ')"

export BINDER_DEVICE=${BINDER_DEVICE:-/dev/binder}
export KBINDER_DRIVER=$KBT_DRIVER

for prog in /tests/*; do
	[ -x "$prog" ] || continue
	name=${prog##*/}
	selected "$name" || continue
	echo "=== $name"
	kmsg_mark "program $name"
	run_program "$name" "$KBT_TEST_TIMEOUT" "$prog"
	# 0: all passed or skipped; 1: the harness reported its failures.
	# Anything else means the program itself died or hung.
	case $rc in
	0 | 1) ;;
	124) result FAIL "$name/(program)" "timed out after ${KBT_TEST_TIMEOUT}s (killed with its whole session)" ;;
	*) result FAIL "$name/(program)" "exited with status $rc" ;;
	esac
done

# Upstream's binderfs selftest, when built (binderfs_selftest.sh).
sh /scripts/binderfs_selftest.sh
sh /scripts/addrscan.sh # no kernel address in logs, debugfs, reports

# What the programs sent, summed over every world, gone ones included
# (docs/api-audit.md, "Measured"): "COUNT <item> <n>" lines in the log.
if [ "$KBT_DRIVER" = kbinder ] && [ -r /sys/kernel/debug/kbinder/counts ]; then
	echo "=== kbinder use counts, every world"
	awk '/^world /{exit} on{print "COUNT " $0} /^all$/{on=1}' /sys/kernel/debug/kbinder/counts
fi

kmsg_mark "tests done"
[ "$KBT_DRIVER" = kbinder ] && check_kbinder_teardown
# Module load and unload with binderfs (binderfs_module.sh), the module
# parameters, a load each (modparams.sh), and what needs the test build's
# knobs (testbuild.sh).
sh /scripts/binderfs_module.sh
sh /scripts/modparams.sh
sh /scripts/testbuild.sh
# A variant initramfs (e.g. the debug kernel's) may add its own checks.
[ -f /scripts/post-check.sh ] && sh /scripts/post-check.sh
exit 0
