# SPDX-License-Identifier: Apache-2.0
#
# `make run`: boot with kbinder loaded and show it working
# (KBT_DRIVER=reference shows the upstream driver doing the same).
. /scripts/lib.sh

step() { echo; echo "### $*"; }

step "load the $KBT_DRIVER driver"
if ! load_driver; then
	result FAIL vm/demo "$KBT_DRIVER did not load"
	exit 1
fi
dmesg | grep -i binder | tail -n 5

step "device nodes"
ls -l /dev | grep binder

if [ -r /sys/kernel/debug/kbinder/live ]; then
	step "live objects (/sys/kernel/debug/kbinder/live)"
	cat /sys/kernel/debug/kbinder/live
fi

step "kbinder version"
kbinder version

step "kbinder demo"
if kbinder demo; then
	result PASS vm/demo
else
	result FAIL vm/demo "kbinder demo failed"
fi

if [ "$KBT_DRIVER" = kbinder ]; then
	step "rmmod kbinder"
	check_kbinder_teardown
fi
