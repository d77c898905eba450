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

# selected NAME: $KBT_TESTS (shell globs separated by commas) selects NAME,
# a test program or a guest script's group of results, if one glob matches
# it and none written !GLOB does (the host's tests/vm/judge.sh --list
# selects the same way).
selected() {
	sel_hit=1
	set -f
	for sel_glob in $(echo "${KBT_TESTS:-*}" | tr ',' ' '); do
		# shellcheck disable=SC2254
		case "$sel_glob" in
		!*)
			case "$1" in ${sel_glob#!})
				set +f
				return 1 ;;
			esac ;;
		*) case "$1" in $sel_glob) sel_hit=0 ;; esac ;;
		esac
	done
	set +f
	return $sel_hit
}

# kmsg_mark TEXT: a line in the kernel log, so the host can charge a later
# splat to whatever ran after it.
kmsg_mark() {
	echo "kbinder-runner: $*" >/dev/kmsg
}

# kmsg_handover: the whole kernel log on this script's output (ttyS1),
# between "KBT-KMSG: begin" and "KBT-KMSG: end", for the host to scan like
# the console (tests/vm/run.sh). A script that lowered the console's log
# level (the bench: printk 1, kernel messages cost time on the serial
# port) calls it before it ends, or the host would never see a splat.
kmsg_handover() {
	echo "KBT-KMSG: begin"
	dmesg
	echo "KBT-KMSG: end"
}

# load_driver [MODULE-ARGS...]: load the driver named by $KBT_DRIVER, with
# $KBT_MODPARAMS (from the kernel command line, commas for spaces) as well.
# $KBT_PROFILE (kbinder only) gives binder and vndbinder, the devices AIDL
# userspace opens, that device profile; hwbinder stays full, as HIDL needs.
load_driver() {
	# shellcheck disable=SC2046
	set -- "$@" $(echo "${KBT_MODPARAMS:-}" | tr ',' ' ')
	case "$KBT_DRIVER" in
	kbinder)
		[ -n "${KBT_PROFILE:-}" ] && set -- "$@" \
			"devices=binder:$KBT_PROFILE,hwbinder,vndbinder:$KBT_PROFILE"
		insmod /lib/modules/kbinder.ko "$@" ;;
	reference)
		insmod /lib/modules/binder_linux.ko \
			devices=binder,hwbinder,vndbinder "$@" ;;
	*)
		echo "unknown driver $KBT_DRIVER"
		return 1 ;;
	esac
}

# live_counters_are_zero: kbinder's live-object table holds counters, and
# every one is 0 (a table with none would pass without checking anything).
live_counters_are_zero() {
	[ -r /sys/kernel/debug/kbinder/live ] || return 1
	awk 'NF == 2 && $2 ~ /^[0-9]+$/ { n++ } $2 != 0 { bad = 1 }
		END { exit !(n && !bad) }' /sys/kernel/debug/kbinder/live
}

# check_kbinder_teardown: after the tests, kbinder must be back to zero live
# objects (processes release asynchronously, so wait for it, up to 20 s)
# and unload.
check_kbinder_teardown() {
	if [ ! -r /sys/kernel/debug/kbinder/live ]; then
		result FAIL vm/live_objects_return_to_zero \
			"/sys/kernel/debug/kbinder/live is missing"
	elif ! grep -q . /sys/kernel/debug/kbinder/live; then
		result FAIL vm/live_objects_return_to_zero \
			"/sys/kernel/debug/kbinder/live holds no counter"
	else
		tries=200
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

# kbinder_selftest: load kbinder's test build (kbinder-selftest.ko, built
# with KBINDER_SELFTEST=1; the default kbinder.ko has no self-test) with
# selftest=1: its in-module self-tests run at load and fail the load if they
# fail. Then unload it again. A module without the self-test would ignore
# selftest=1 and load, so the parameter must be there and set.
#
# The self-test runs in the module's init, and insmod waits for it
# uninterruptibly: on the debug kernel for longer (about 15 s) than the
# hung-task threshold run.sh sets (10 s), which then reports insmod as
# hung. That wait is the self-test at work, so the detector has its
# default threshold (120 s) back for this one step.
kbinder_selftest() {
	st_ko=/lib/modules/kbinder-selftest.ko
	st_hung=/proc/sys/kernel/hung_task_timeout_secs
	# (cat, not read: read takes a byte at a time, and a sysctl file
	# read at an offset past 0 is at its end: "10" would read as "1")
	st_hung_was=$(cat "$st_hung" 2>/dev/null)
	kmsg_mark "kbinder self-test"
	[ -n "$st_hung_was" ] && echo 120 >"$st_hung"
	if [ ! -e "$st_ko" ]; then
		result FAIL vm/module_selftest "$st_ko is not in the initramfs"
	elif out=$(insmod "$st_ko" selftest=1 2>&1); then
		if [ "$(cat /sys/module/kbinder/parameters/selftest 2>/dev/null)" = Y ]; then
			result PASS vm/module_selftest
		else
			result FAIL vm/module_selftest \
				"$st_ko loaded without a selftest parameter: not a test build"
		fi
		rmmod kbinder || result FAIL vm/module_selftest "rmmod failed"
	else
		result FAIL vm/module_selftest \
			"$out; $(dmesg | grep 'kbinder' | tail -n 3 | tr '\n' ' ')"
	fi
	if [ -n "$st_hung_was" ]; then
		echo "$st_hung_was" >"$st_hung"
		[ "$(cat "$st_hung")" = "$st_hung_was" ] ||
			result FAIL vm/module_selftest "the hung-task threshold is $(cat "$st_hung") s after the self-test, not $st_hung_was s"
	fi
}

# user_pids: the pids of every user-space process but this shell (kernel
# threads have PF_KTHREAD, 0x200000, in /proc/PID/stat's flags). Builtins
# only, so the scan starts no process of its own.
user_pids() {
	for up_stat in /proc/[0-9]*/stat; do
		{ read -r up_line <"$up_stat"; } 2>/dev/null || continue
		up_pid=${up_line%% *}
		[ "$up_pid" = "$$" ] && continue
		# shellcheck disable=SC2086
		set -- ${up_line##*) }
		# $1 state, $2 ppid, $3 pgrp, $4 session, ..., $7 flags
		[ $(($7 & 0x200000)) -eq 0 ] || continue
		echo "$up_pid"
	done
}

# leftovers BEFORE_FILE: the user processes that did not exist when
# BEFORE_FILE was written (user_pids), one "pid(comm)" a line.
leftovers() {
	user_pids >/tmp/kbt-after
	grep -vxF -f "$1" /tmp/kbt-after >/tmp/kbt-new
	while read -r lo_pid; do
		{ read -r lo_comm <"/proc/$lo_pid/comm"; } 2>/dev/null || continue
		echo "$lo_pid($lo_comm)"
	done </tmp/kbt-new
	rm -f /tmp/kbt-after /tmp/kbt-new
}

# run_program NAME LIMIT PROGRAM [ARGS...]: run a test program in a session
# of its own, with KBT_PROGRAM_TIMEOUT=LIMIT (the harness keeps every test
# inside it, see harness.h). After LIMIT seconds it gets SIGTERM (the
# harness then ends its running test and reports the rest as not run), and
# 5 s later everything still in its session gets SIGKILL. Whatever user
# process it leaves behind (in any session) is killed before the next
# program runs, and fails it: nothing may outlive its program into the next
# one or into the driver's unload. Sets rc to the program's status.
# running PID: PID exists and has not exited yet (a zombie has).
running() {
	[ -r "/proc/$1/stat" ] || return 1
	{ read -r rn_line <"/proc/$1/stat"; } 2>/dev/null || return 1
	# shellcheck disable=SC2086
	set -- ${rn_line##*) }
	[ "$1" != Z ]
}

# uptime_s: seconds since boot (builtins only).
uptime_s() {
	read -r us_up _ </proc/uptime
	echo "${us_up%%.*}"
}

run_program() {
	rp_name=$1 rp_limit=$2
	shift 2
	user_pids >/tmp/kbt-before
	KBT_PROGRAM_TIMEOUT=$rp_limit setsid "$@" &
	rp_pid=$!
	rp_end=$(($(uptime_s) + rp_limit)) rp_timed_out=0
	while running "$rp_pid"; do
		if [ "$(uptime_s)" -ge $rp_end ]; then
			rp_timed_out=1
			kill -TERM "$rp_pid" 2>/dev/null
			rp_grace=50
			while [ $rp_grace -gt 0 ] && running "$rp_pid"; do
				sleep 0.1
				rp_grace=$((rp_grace - 1))
			done
			kill -KILL -- "-$rp_pid" 2>/dev/null
			break
		fi
		sleep 0.1
	done
	wait "$rp_pid"
	rc=$?
	[ $rp_timed_out -eq 1 ] && rc=124
	leftovers /tmp/kbt-before >/tmp/kbt-left
	if [ -s /tmp/kbt-left ]; then
		rp_what=$(tr '\n' ' ' </tmp/kbt-left)
		# shellcheck disable=SC2046
		kill -KILL $(sed 's/(.*//' /tmp/kbt-left) 2>/dev/null
		[ $rp_timed_out -eq 1 ] ||
			result FAIL "$rp_name/(program)" "left processes running after it ended: ${rp_what}(killed)"
		echo "run_program: killed what $rp_name left: $rp_what"
		# ...and wait until they are gone: one still there (stuck in the
		# kernel) would run into the next program or the driver's unload.
		rp_grace=100
		while [ $rp_grace -gt 0 ] && still_running /tmp/kbt-left; do
			sleep 0.1
			rp_grace=$((rp_grace - 1))
		done
		if still_running /tmp/kbt-left; then
			rp_what=$(still_running /tmp/kbt-left | tr '\n' ' ')
			result FAIL "$rp_name/(program)" "what it left did not die within 10 s of SIGKILL: $rp_what"
		fi
	fi
	rm -f /tmp/kbt-before /tmp/kbt-left
}

# still_running FILE: those of FILE's "pid(comm)" lines still running, with
# their state and kernel wait channel; false if none is.
still_running() {
	sr_any=1
	while read -r sr_line; do
		sr_pid=${sr_line%%(*}
		running "$sr_pid" || continue
		# (wchan has no newline: read fills the variable and says false)
		sr_wchan=
		{ read -r sr_wchan <"/proc/$sr_pid/wchan"; } 2>/dev/null
		{ read -r sr_stat <"/proc/$sr_pid/stat"; } 2>/dev/null || sr_stat=
		# shellcheck disable=SC2086
		set -- ${sr_stat##*) }
		echo "$sr_line state ${1:-?} in ${sr_wchan:-?}"
		sr_any=0
	done <"$1"
	return $sr_any
}
