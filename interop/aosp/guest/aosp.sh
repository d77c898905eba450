# SPDX-License-Identifier: Apache-2.0
#
# The guest half of `make check-aosp` (interop/aosp/check.sh): AOSP's
# Android 14 binder tests and servicemanager, built outside the repository
# and packed into the initramfs, on the driver under test. Phases, each a
# group KBT_TESTS selects (aosp-suite,aosp-ksm,...; all by default):
#   aosp-suite       every test program, AOSP's servicemanager on /dev/binder
#   aosp-ksm         the ones that use a service manager again, with
#                    kbinder's (--api-level 34)
#   aosp-features    (binderfs only: kbinder) /dev/binderfs mounted as on
#                    Android, its features/ checked, libbinder's features on
#   aosp-interop     kbinder's tools against AOSP's servicemanager and AOSP's
#                    clients against kbinder's (aosp-interop.sh)
#   aosp-containers  (kbinder) two containers as Waydroid and Redroid set
#                    them up (aosp-containers.sh)
#   aosp-aidl, aosp-aidl-binderfs
#                    (kbinder, reloaded with aidl devices; n/a on the
#                    reference) the suite on a misc and on a binderfs
#                    device with the aidl profile (aosp-aidl.sh)
# Case results are AOSP-CASE lines (aosp-lib.sh); result lines say whether a
# phase could run.
. /scripts/lib.sh
. /scripts/aosp-lib.sh
. /scripts/aosp-interop.sh
. /scripts/aosp-containers.sh
. /scripts/aosp-aidl.sh

kmsg_mark "load $KBT_DRIVER"
if ! out=$(load_driver 2>&1); then
	result FAIL "vm/load_$KBT_DRIVER" "$out"
	exit 1
fi
result PASS "vm/load_$KBT_DRIVER"
aosp_cgroup
export BINDER_DEVICE=/dev/binder
echo "devices: $(echo /dev/*binder*)"

# aosp_suite PHASE START: the programs that use a service manager, with the
# one START starts; the others once, in the aosp-suite phase.
aosp_suite() {
	if ! "$2"; then
		result FAIL "$1/(servicemanager)" "$2: the service manager did not answer"
		sm_stop
		return
	fi
	result PASS "$1/(servicemanager)"
	for as_prog in $AOSP_SM_TESTS; do
		aosp_gtest "$1" "$as_prog"
	done
	aosp_throughput "$1"
	if [ "$1" = aosp-suite ]; then
		aosp_gtest "$1" binderTextOutputTest
	fi
	sm_stop
}

selected aosp-suite && aosp_suite aosp-suite aosp_sm_start
selected aosp-ksm && aosp_suite aosp-ksm kbinder_sm_start

# The device as Android has it: binderfs at /dev/binderfs, /dev/binder its
# "binder" device; libbinder reads features/ there and turns on one-way
# spam detection and extended errors.
if selected aosp-features && grep -qw binder /proc/filesystems; then
	mkdir -p /dev/binderfs
	mount -t binder binder /dev/binderfs
	aosp_features_match aosp-features /dev/binderfs
	mount --bind /dev/binderfs/binder /dev/binder
	aosp_suite aosp-features aosp_sm_start
	umount /dev/binder
	umount /dev/binderfs
fi

selected aosp-interop && aosp_interop
if selected aosp-containers && grep -qw binder /proc/filesystems; then
	aosp_containers
fi

# What AOSP's programs sent on the full devices, summed over every world
# (docs/api-audit.md, "Measured"), as the guest suite prints it: "COUNT
# <item> <n>" lines (the aidl phases print their own, COUNT-AIDL).
if [ "$KBT_DRIVER" = kbinder ] && [ -r /sys/kernel/debug/kbinder/counts ]; then
	echo "=== kbinder use counts, every world"
	kb_counts_all | sed 's/^/COUNT /'
fi

if selected aosp-aidl || selected aosp-aidl-binderfs; then
	if [ "$KBT_DRIVER" = kbinder ]; then
		aosp_aidl
	else
		aosp_aidl_na
	fi
fi

kmsg_mark "aosp done"
[ "$KBT_DRIVER" = kbinder ] && check_kbinder_teardown
exit 0
