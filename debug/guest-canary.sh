# SPDX-License-Identifier: Apache-2.0
#
# Guest script of `make check-debug-canary` (installed as /scripts/canary.sh):
# load debug/canary's deliberately buggy module with bug=$KBT_CANARY, then run
# the debug checks. The host expects every run but bug=none to FAIL, and to
# fail for the detector that bug is meant for. KBT_CANARY=fault instead shows
# that systematic fault injection works (that run must pass). A comma list
# (KBT_CANARY=abba,sleep,...) commits every bug in turn in this one boot,
# each after a "canary BUG" marker, so that the host can charge each
# report to its bug (make check's debug stage: debug/check-debug.sh
# canary-boot).
# shellcheck source=tests/vm/guest/lib.sh
. /scripts/lib.sh

bug=${KBT_CANARY:-none}
kmsg_mark "canary $bug"
if [ "$bug" = fault ]; then
	# shellcheck source=debug/guest-fault.sh
	. /scripts/fault.sh
	if fault_nth_setup; then
		kbinder-fault-demo
		fault_off
	else
		result FAIL debug/fault_nth_injects "no fault injection knobs"
	fi
else
	for one in $(echo "$bug" | tr ',' ' '); do
		kmsg_mark "canary $one"
		if out=$(insmod /lib/modules/kbinder_canary.ko "bug=$one" 2>&1); then
			result PASS "canary/load_$one"
			rmmod kbinder_canary
		else
			result FAIL "canary/load_$one" "$out"
		fi
		# DEBUG_ATOMIC_SLEEP reports at most once a second
		sleep 1.1
	done
fi
kmsg_mark "canary $bug done"
sh /scripts/post-check.sh
exit 0
