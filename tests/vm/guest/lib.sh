# SPDX-License-Identifier: Apache-2.0
#
# Shell functions shared by the guest scripts (sourced, not run).

# result STATUS NAME [WHY]: one result line, for people and for the host.
result() {
	line="$1 $2"
	[ -n "${3:-}" ] && line="$line: $3"
	echo "$line"
	echo "$line" >>"$KBINDER_RESULTS"
}

# kmsg_mark TEXT: a line in the kernel log, so the host can charge a later
# splat to whatever ran after it.
kmsg_mark() {
	echo "kbinder-runner: $*" >/dev/kmsg
}

# load_driver [MODULE-ARGS...]: load the driver named by $KBT_DRIVER, with
# $KBT_MODPARAMS (from the kernel command line, commas for spaces) as well.
load_driver() {
	# shellcheck disable=SC2046
	set -- "$@" $(echo "${KBT_MODPARAMS:-}" | tr ',' ' ')
	case "$KBT_DRIVER" in
	kbinder)
		insmod /lib/modules/kbinder.ko "$@" ;;
	reference)
		insmod /lib/modules/binder_linux.ko \
			devices=binder,hwbinder,vndbinder "$@" ;;
	*)
		echo "unknown driver $KBT_DRIVER"
		return 1 ;;
	esac
}

# live_counters_are_zero: every counter in kbinder's live-object table is 0.
live_counters_are_zero() {
	[ -r /sys/kernel/debug/kbinder/live ] || return 1
	! awk '$2 != 0 { found = 1 } END { exit !found }' \
		/sys/kernel/debug/kbinder/live
}

# check_kbinder_teardown: after the tests, kbinder must be back to zero live
# objects (processes release asynchronously, so wait up to 5 s) and unload.
check_kbinder_teardown() {
	if [ ! -r /sys/kernel/debug/kbinder/live ]; then
		result FAIL vm/live_objects_return_to_zero \
			"/sys/kernel/debug/kbinder/live is missing"
	else
		tries=50
		while ! live_counters_are_zero && [ $tries -gt 0 ]; do
			sleep 0.1
			tries=$((tries - 1))
		done
		if live_counters_are_zero; then
			result PASS vm/live_objects_return_to_zero
		else
			result FAIL vm/live_objects_return_to_zero \
				"$(awk '$2 != 0 { printf "%s=%s ", $1, $2 }' \
				/sys/kernel/debug/kbinder/live)"
		fi
	fi
	kmsg_mark "rmmod kbinder"
	if out=$(rmmod kbinder 2>&1); then
		result PASS vm/module_unloads
	else
		result FAIL vm/module_unloads "$out"
	fi
}

# kbinder_selftest: load kbinder with selftest=1 (its in-module self-tests run
# at load and fail the load if they fail), then unload it again.
kbinder_selftest() {
	kmsg_mark "kbinder self-test"
	if out=$(insmod /lib/modules/kbinder.ko selftest=1 2>&1); then
		result PASS vm/module_selftest
		rmmod kbinder || result FAIL vm/module_selftest "rmmod failed"
	else
		result FAIL vm/module_selftest \
			"$out; $(dmesg | grep 'kbinder' | tail -n 3 | tr '\n' ' ')"
	fi
}
