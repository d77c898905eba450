# SPDX-License-Identifier: Apache-2.0
#
# kbinder's module life with binderfs, after the suite's own teardown check
# (so the reloads here never hide a leak of the tests): a filesystem type
# name that is taken, or has a dot in it, fails the load with one line
# naming binderfs_type and leaves nothing behind; rmmod is refused while a
# binderfs mount exists and succeeds after the unmount. Called by check.sh; kbinder only.
. /scripts/lib.sh

[ "$KBT_DRIVER" = kbinder ] || exit 0
selected binderfs_module || exit 0
ko=/lib/modules/kbinder.ko
if [ -e /sys/module/kbinder ]; then
	result FAIL vm/binderfs_module "kbinder is still loaded (see vm/module_unloads)"
	exit 0
fi

# A clash: ramfs is always registered.
kmsg_mark "binderfs type clash"
name=vm/binderfs_type_clash_fails_load_cleanly
if insmod "$ko" binderfs_type=ramfs 2>/dev/null; then
	rmmod kbinder
	result FAIL "$name" "the load succeeded"
elif ! line=$(dmesg | grep 'kbinder: .*binderfs_type=' | tail -n 1) || [ -z "$line" ]; then
	result FAIL "$name" "no kernel log line names binderfs_type="
elif [ -e /sys/module/kbinder ] || [ -e /dev/binder ] ||
	grep -q ' ramfs$' /proc/devices || [ -e /sys/kernel/debug/kbinder ]; then
	result FAIL "$name" "something was left behind"
else
	result PASS "$name"
fi

# A name the kernel cannot register: register_filesystem() BUG()s on a dot.
kmsg_mark "binderfs type with a dot"
name=vm/binderfs_type_with_a_dot_fails_load_cleanly
if insmod "$ko" binderfs_type=a.b 2>/dev/null; then
	rmmod kbinder
	result FAIL "$name" "the load succeeded"
elif ! line=$(dmesg | grep 'kbinder: binderfs_type "a.b"' | tail -n 1) || [ -z "$line" ]; then
	result FAIL "$name" "no kernel log line names the parameter"
elif [ -e /sys/module/kbinder ] || [ -e /dev/binder ]; then
	result FAIL "$name" "something was left behind"
else
	result PASS "$name"
fi

# A mount pins the module.
kmsg_mark "binderfs unload"
mnt=/tmp/binderfs_module
mkdir -p "$mnt"
if ! out=$(insmod "$ko" 2>&1); then
	result FAIL vm/unload_refused_while_mounted "insmod: $out"
	exit 0
fi
if ! out=$(mount -t binder binder "$mnt" 2>&1); then
	result FAIL vm/unload_refused_while_mounted "mount: $out"
	rmmod kbinder
	exit 0
fi
if rmmod kbinder 2>/dev/null; then
	result FAIL vm/unload_refused_while_mounted "rmmod succeeded"
	exit 0
fi
result PASS vm/unload_refused_while_mounted
umount "$mnt"
# The superblock goes asynchronously after the last unmount.
tries=50
until rmmod kbinder 2>/dev/null; do
	tries=$((tries - 1))
	if [ $tries -le 0 ]; then
		result FAIL vm/unload_after_unmount "rmmod still refused"
		exit 0
	fi
	sleep 0.1
done
result PASS vm/unload_after_unmount
exit 0
