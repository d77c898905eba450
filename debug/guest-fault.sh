# SPDX-License-Identifier: Apache-2.0
#
# Fault injection on the debug kernel (installed as /scripts/fault.sh in the
# debug initramfs; source it). The kernel has FAILSLAB and FAIL_PAGE_ALLOC
# with their knobs in /sys/kernel/debug/{failslab,fail_page_alloc}/, plus the
# per-task /proc/<pid>/make-it-fail and /proc/thread-self/fail-nth.
#
# Out of the box neither would fail a kbinder allocation: both skip every
# allocation that may sleep (ignore-gfp-wait is Y), fail_page_alloc skips
# order-0 pages (min-order is 1), and every injected failure dumps a stack
# (verbose 2), which the VM runner rightly counts as a kernel splat.
#
#   fault_nth_setup          only /proc/thread-self/fail-nth injects: the test
#                            writes N there, makes one call, and the N-th
#                            allocation inside that call fails (systematic
#                            fault tests; reading 0 back means it fired)
#   fault_random_setup PCT   also fail PCT% of the allocations of every task
#                            whose make-it-fail is 1 (echo 1 >
#                            /proc/self/make-it-fail; inherited by children)
#   fault_off                no injection at all (the boot state, but quiet)

FAULT_ATTRS="failslab fail_page_alloc"

# fault_knob ATTR KNOB VALUE
fault_knob() {
	echo "$3" >"/sys/kernel/debug/$1/$2"
}

fault_available() {
	[ -d /sys/kernel/debug/failslab ] && [ -w /proc/thread-self/fail-nth ]
}

fault_off() {
	for attr in $FAULT_ATTRS; do
		fault_knob "$attr" probability 0
		fault_knob "$attr" task-filter N
		fault_knob "$attr" ignore-gfp-wait Y
		fault_knob "$attr" verbose 1
	done
	fault_knob fail_page_alloc min-order 1
}

fault_nth_setup() {
	fault_available || return 1
	for attr in $FAULT_ATTRS; do
		fault_knob "$attr" probability 0
		fault_knob "$attr" ignore-gfp-wait N
		# One notice line per injection, no stack dump.
		fault_knob "$attr" verbose 1
	done
	fault_knob fail_page_alloc min-order 0
}

fault_random_setup() {
	fault_nth_setup || return 1
	for attr in $FAULT_ATTRS; do
		fault_knob "$attr" task-filter Y
		fault_knob "$attr" interval 1
		fault_knob "$attr" times -1
		fault_knob "$attr" space 0
		fault_knob "$attr" probability "$1"
	done
}
