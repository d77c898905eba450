# SPDX-License-Identifier: Apache-2.0
#
# kbinder's module parameters as docs/security.md and docs/containers.md
# promise them, each in a load of its own after the suite's teardown check
# (kbinder only; runs when $KBT_TESTS selects "modparams"):
#   modparam/devices_are_root_only_by_default  every device of devices= is
#       a character device, mode 0600, owner and group root
#   modparam/mode_sets_every_device  with mode=0660 every device is 0660
#   modparam/isolate_ipc_ns_0_shares_one_world  with isolate_ipc_ns=0 a
#       process in a new IPC namespace reaches the host's context manager
#       (ipcns's ipc_namespaces_are_separate_worlds, which checks the
#       shared world when the parameter says N; the main run checks the
#       separate ones)
#   modparam/devices_take_a_profile  with
#       devices=binder:aidl,hwbinder,vndbinder:aidl,fullbinder:full the
#       devices are /dev/binder, /dev/hwbinder, /dev/vndbinder and
#       /dev/fullbinder, and /sys/class/misc/<name>/profile reads aidl,
#       full, aidl, full; a new
#       binderfs mount's default devices have the same profiles, and in a
#       profile=aidl mount all aidl (the mount's profile is a ceiling);
#       profile's misc_device_answers_by_its_profile passes on the aidl
#       /dev/binder
#   modparam/devices_refuse_an_unknown_profile  devices=binder:hidl fails
#       the load (kbinder not loaded before), with the line naming the
#       unknown profile in the kernel log
# Called by check.sh after binderfs_module.sh.
. /scripts/lib.sh

[ "$KBT_DRIVER" = kbinder ] || exit 0
selected modparams || exit 0
ko=/lib/modules/kbinder.ko
if [ -e /sys/module/kbinder ]; then
	result FAIL "modparam/(all)" "kbinder is still loaded (see vm/module_unloads)"
	exit 0
fi

# load WHAT ARGS...: insmod kbinder with ARGS, or a FAIL for WHAT.
load() {
	ld_what=$1
	shift
	kmsg_mark "modparam $ld_what"
	if ! ld_out=$(insmod "$ko" "$@" 2>&1); then
		result FAIL "modparam/$ld_what" "insmod $*: $ld_out"
		return 1
	fi
}

# unload WHAT: rmmod kbinder (a FAIL for WHAT if it refuses).
unload() {
	ul_tries=50
	until rmmod kbinder 2>/dev/null; do
		ul_tries=$((ul_tries - 1))
		if [ $ul_tries -le 0 ]; then
			result FAIL "modparam/$1" "rmmod kbinder refused"
			return 1
		fi
		sleep 0.1
	done
}

# modes WANT: every device of the loaded kbinder has "WANT root root";
# prints the ones that do not.
modes() {
	md_bad=""
	for md_dev in $(tr ',' ' ' </sys/module/kbinder/parameters/devices); do
		md_got=$(stat -c '%F %a %U %G' "/dev/$md_dev" 2>&1)
		[ "$md_got" = "character special file $1 root root" ] ||
			md_bad="$md_bad /dev/$md_dev: $md_got;"
	done
	echo "$md_bad"
}

name=devices_are_root_only_by_default
if load "$name"; then
	bad=$(modes 600)
	if [ -n "$bad" ]; then
		result FAIL "modparam/$name" "$bad"
	else
		result PASS "modparam/$name"
	fi
	unload "$name"
fi

name=mode_sets_every_device
if load "$name" mode=0660; then
	bad=$(modes 660)
	if [ -n "$bad" ]; then
		result FAIL "modparam/$name" "mode=0660:$bad"
	else
		result PASS "modparam/$name"
	fi
	unload "$name"
fi

name=isolate_ipc_ns_0_shares_one_world
if load "$name" isolate_ipc_ns=0; then
	param=$(cat /sys/module/kbinder/parameters/isolate_ipc_ns 2>&1)
	saved=$KBINDER_RESULTS
	export KBINDER_RESULTS=/tmp/modparam-ipcns.results
	: >"$KBINDER_RESULTS"
	run_program "modparam/ipcns" 60 /tests/ipcns ipc_namespaces_are_separate_worlds
	export KBINDER_RESULTS=$saved
	line=$(tr -d '\r' </tmp/modparam-ipcns.results | grep ' ipcns/ipc_namespaces_are_separate_worlds' | head -n 1)
	if [ "$param" != N ]; then
		result FAIL "modparam/$name" "isolate_ipc_ns reads '$param' after isolate_ipc_ns=0"
	else
		case "$line" in
		"PASS "*) result PASS "modparam/$name" ;;
		"") result FAIL "modparam/$name" "ipcns reported nothing (status $rc)" ;;
		*) result FAIL "modparam/$name" "$line" ;;
		esac
	fi
	if ! live_counters_are_zero; then
		sleep 1
		live_counters_are_zero ||
			result FAIL "modparam/$name" "live objects left: $(awk '$2 != 0 { printf "%s=%s ", $1, $2 }' /sys/kernel/debug/kbinder/live)"
	fi
	unload "$name"
fi

name=devices_take_a_profile
if load "$name" devices=binder:aidl,hwbinder,vndbinder:aidl,fullbinder:full; then
	got=""
	for d in binder hwbinder vndbinder fullbinder; do
		[ -c "/dev/$d" ] || got="$got /dev/$d missing;"
		got="$got $d=$(cat /sys/class/misc/$d/profile 2>&1)"
	done
	mnt=/tmp/modparam-binderfs
	mkdir -p $mnt
	if mount -t binder binder $mnt 2>/dev/null; then
		got="$got fs:$(tr '\n' ' ' <$mnt/binder_logs/profiles)"
		umount $mnt
	else
		got="$got fs: mount failed"
	fi
	# profile= is a ceiling: fullbinder:full is made aidl in an aidl mount
	if mount -t binder -o profile=aidl binder $mnt 2>/dev/null; then
		got="$got aidlfs:$(tr '\n' ' ' <$mnt/binder_logs/profiles)"
		umount $mnt
	else
		got="$got aidlfs: mount failed"
	fi
	saved=$KBINDER_RESULTS
	export KBINDER_RESULTS=/tmp/modparam-profile.results
	: >"$KBINDER_RESULTS"
	run_program "modparam/profile" 60 /tests/profile misc_device_answers_by_its_profile
	export KBINDER_RESULTS=$saved
	line=$(tr -d '\r' </tmp/modparam-profile.results | grep ' profile/misc_device_answers_by_its_profile' | head -n 1)
	want=" binder=aidl hwbinder=full vndbinder=aidl fullbinder=full fs:binder aidl hwbinder full vndbinder aidl fullbinder full  aidlfs:binder aidl hwbinder aidl vndbinder aidl fullbinder aidl "
	if [ "$got" != "$want" ]; then
		result FAIL "modparam/$name" "got:$got; want:$want"
	else
		case "$line" in
		"PASS "*) result PASS "modparam/$name" ;;
		"") result FAIL "modparam/$name" "profile reported nothing" ;;
		*) result FAIL "modparam/$name" "$line" ;;
		esac
	fi
	unload "$name"
fi

name=devices_refuse_an_unknown_profile
kmsg_mark "modparam $name"
if [ -e /sys/module/kbinder ]; then
	# else insmod fails for being loaded already, whatever the value
	result FAIL "modparam/$name" "kbinder is still loaded before the insmod"
elif out=$(insmod "$ko" devices=binder:hidl 2>&1); then
	result FAIL "modparam/$name" "insmod devices=binder:hidl loaded"
	unload "$name"
elif ! dmesg | sed -n "/kbinder-runner: modparam $name/,\$p" |
	grep -q 'device "binder": unknown profile'; then
	result FAIL "modparam/$name" "insmod failed ($out) without the unknown-profile line in the kernel log"
else
	result PASS "modparam/$name"
fi
exit 0
