# SPDX-License-Identifier: Apache-2.0
#
# `make run`: boot with kbinder loaded and show it working.
. /scripts/lib.sh

step() { echo; echo "### $*"; }

step "insmod kbinder.ko"
if ! load_driver; then
	result FAIL vm/demo "kbinder did not load"
	exit 1
fi
dmesg | grep -i kbinder | tail -n 5

step "device nodes"
ls -l /dev | grep binder

if [ -r /sys/kernel/debug/kbinder/live ]; then
	step "live objects (/sys/kernel/debug/kbinder/live)"
	cat /sys/kernel/debug/kbinder/live
fi

if command -v kbinder >/dev/null 2>&1; then
	step "kbinder demo"
	kbinder demo
fi

step "rmmod kbinder"
check_kbinder_teardown
