# SPDX-License-Identifier: Apache-2.0
#
# Shell functions of the AOSP interop guest scripts (sourced after
# /scripts/lib.sh). The AOSP programs are in /usr/bin (mkinitramfs.sh -p);
# every result of an AOSP test case is one line on the output port,
#   AOSP-CASE PHASE PROGRAM CASE STATUS
# (STATUS: PASS, FAIL, SKIP, or FAIL(...) for a case that never reported),
# which interop/aosp/table.sh turns into the per-case table. Result lines
# for the runner (result) only say whether each step could run at all.

# Each program's limit, in seconds.
: "${AOSP_TIMEOUT:=900}"

# The gtest programs every phase with a service manager runs (aosp.sh's
# aosp_suite), in order.
AOSP_SM_TESTS="binderDriverInterfaceTest binderLibTest binderSafeInterfaceTest binderClearBufTest"

# aosp_case PHASE PROGRAM CASE STATUS
aosp_case() {
	echo "AOSP-CASE $1 $2 $3 $4"
}

# aosp_list_cases PROGRAM: the cases of a gtest program, one SUITE.CASE a
# line, as its --gtest_list_tests lists them.
aosp_list_cases() {
	"/usr/bin/$1" --gtest_list_tests 2>/dev/null |
		awk '/^[^ ]/ { suite = $1 } /^  [^ ]/ { print suite $1 }'
}

# kb_counts_all: kbinder's use counts summed over every world since the
# load (debugfs kbinder/counts' `all` block), "ITEM N" lines.
kb_counts_all() {
	awk '/^world /{exit} on{print} /^all$/{on=1}' /sys/kernel/debug/kbinder/counts
}

# aosp_gtest PHASE PROGRAM [ARG]...: run a gtest program, one AOSP-CASE line
# per case that --gtest_list_tests lists (a listed case that never reported
# is a FAIL naming the program's exit status).
aosp_gtest() {
	ag_phase=$1 ag_prog=$2
	shift 2
	# (files of their own: two containers run this at once)
	ag_log=/tmp/aosp-$ag_phase-$ag_prog.log
	ag_cases=/tmp/aosp-$ag_phase-$ag_prog.cases
	ag_status=/tmp/aosp-$ag_phase-$ag_prog.status
	aosp_list_cases "$ag_prog" >"$ag_cases"
	echo "=== $ag_phase: $ag_prog $* ($(wc -l <"$ag_cases") cases)"
	kmsg_mark "aosp $ag_phase $ag_prog"
	run_program "$ag_phase/$ag_prog" "$AOSP_TIMEOUT" \
		sh -c 'exec "$0" "$@" >"'"$ag_log"'" 2>&1' "/usr/bin/$ag_prog" "$@"
	ag_rc=$rc
	cat "$ag_log"
	echo "=== $ag_phase: $ag_prog exited $ag_rc"
	# First status per case ([ OK ], [ FAILED ], [ SKIPPED ]); the summary
	# repeats FAILED and SKIPPED names, and typed cases end in a comma.
	tr -d '\r' <"$ag_log" | awk '
		/^\[       OK \] / { s = "PASS" }
		/^\[  FAILED  \] / { s = "FAIL" }
		/^\[  SKIPPED \] / { s = "SKIP" }
		/^\[ *(OK|FAILED|SKIPPED) *\] / {
			n = $0; sub(/^\[[^]]*\] /, "", n); sub(/[ ,].*/, "", n)
			if (n ~ /\./ && !(n in st)) st[n] = s
			s = ""
		}
		END { for (n in st) print n, st[n] }' >"$ag_status"
	while read -r ag_case; do
		ag_st=$(awk -v c="$ag_case" '$1 == c { print $2; exit }' "$ag_status")
		[ -n "$ag_st" ] || ag_st="FAIL(no-result,exit-$ag_rc)"
		aosp_case "$ag_phase" "$ag_prog" "$ag_case" "$ag_st"
	done <"$ag_cases"
	rm -f "$ag_cases" "$ag_status"
}

# aosp_throughput PHASE: binderThroughputTest's one case, its exit status and
# a non-zero rate (the figures themselves are for aosp-bench.sh).
aosp_throughput() {
	at_log=/tmp/aosp-$1-throughput.log
	echo "=== $1: binderThroughputTest -w 2 -i 2000"
	kmsg_mark "aosp $1 binderThroughputTest"
	run_program "$1/binderThroughputTest" "$AOSP_TIMEOUT" \
		sh -c 'exec binderThroughputTest -w 2 -i 2000 >"'"$at_log"'" 2>&1'
	cat "$at_log"
	at_rate=$(sed -n 's/.*iterations per sec: *\([0-9.]*\).*/\1/p' "$at_log" | head -n 1)
	if [ "$rc" -eq 0 ] && [ -n "$at_rate" ] && [ "${at_rate%%.*}" -gt 0 ] 2>/dev/null; then
		aosp_case "$1" binderThroughputTest "(iterations/s>0)" PASS
	else
		aosp_case "$1" binderThroughputTest "(iterations/s>0)" "FAIL(exit-$rc)"
	fi
}

# wait_for CMD...: run CMD every 0.2 s until it succeeds, 15 s at most.
wait_for() {
	wf_n=75
	until "$@" >/dev/null 2>&1; do
		wf_n=$((wf_n - 1))
		[ $wf_n -gt 0 ] || return 1
		sleep 0.2
	done
}

# aosp_sm_start [DEVICE]: AOSP's servicemanager on DEVICE (/dev/binder),
# backgrounded (pid in sm_pid); waits until it answers.
aosp_sm_start() {
	servicemanager "${1:-/dev/binder}" &
	sm_pid=$!
	# (its own client: `service` is libbinder on the default device)
	wait_for sh -c "service check manager | grep -q ': found'"
}

# kbinder_sm_start [DEVICE]: kbinder's own service manager, Android 14's
# protocol (--api-level 34), backgrounded (pid in sm_pid).
kbinder_sm_start() {
	kbinder -d "${1:-/dev/binder}" -a 34 servicemanager -v &
	sm_pid=$!
	wait_for kbinder -d "${1:-/dev/binder}" -a 34 list
}

# sm_stop: stop the service manager sm_pid names.
sm_stop() {
	kill "$sm_pid" 2>/dev/null
	wait "$sm_pid" 2>/dev/null
}

# show CMD...: run CMD, showing it and its exit status, as a transcript.
show() {
	echo "\$ $*"
	"$@"
	echo "[exit $?]"
}

# The v2 cgroup freezer binderLibTest's Freeze case looks for (it skips
# where /sys/fs/cgroup/uid_0/cgroup.freeze is missing).
aosp_cgroup() {
	grep -q ' /sys/fs/cgroup ' /proc/mounts || mount -t cgroup2 none /sys/fs/cgroup
	mkdir -p /sys/fs/cgroup/uid_0
}

# count_lines CMD PATTERN...: CMD's output, then how many of its lines match
# one of the fixed strings PATTERN (0 is an answer, not a failure).
count_lines() {
	cl_cmd=$1
	shift
	sh -c "$cl_cmd" >/tmp/aosp-count.$$ 2>&1
	cat /tmp/aosp-count.$$
	for cl_p in "$@"; do echo "$cl_p"; done >/tmp/aosp-count.$$.p
	grep -c -F -f /tmp/aosp-count.$$.p /tmp/aosp-count.$$
	rm -f /tmp/aosp-count.$$ /tmp/aosp-count.$$.p
	return 0
}

# aosp_check PHASE NAME PATTERN CMD...: one case of a transcript: CMD shown
# with its output, PASS if it exits 0 and its output matches the extended
# regular expression PATTERN (empty: any output), FAIL otherwise.
aosp_check() {
	ac_phase=$1 ac_name=$2 ac_pat=$3
	shift 3
	echo "\$ $*"
	ac_out=$("$@" 2>&1)
	ac_rc=$?
	echo "$ac_out"
	echo "[exit $ac_rc]"
	if [ $ac_rc -ne 0 ]; then
		aosp_case "$ac_phase" interop "$ac_name" "FAIL(exit-$ac_rc)"
	elif [ -n "$ac_pat" ] && ! echo "$ac_out" | grep -Eq "$ac_pat"; then
		aosp_case "$ac_phase" interop "$ac_name" "FAIL(output)"
	else
		aosp_case "$ac_phase" interop "$ac_name" PASS
	fi
}

# aosp_features_match PHASE DIR: every file under DIR/features says 1 (a
# feature the driver has), and the two libbinder 14 reads are backed by
# the calls they turn on (aosp-ctl probe through DIR/binder). The other
# features' behaviour is kbinder's own guest tests' (drv_freeze_notify,
# drv_netlink).
aosp_features_match() {
	aosp-ctl probe "$2/binder" >/tmp/aosp-probe
	for fm_file in "$2"/features/*; do
		fm_name=${fm_file##*/}
		fm_val=$(cat "$fm_file")
		fm_probe=$(sed -n "s/^$fm_name=//p" /tmp/aosp-probe)
		echo "features/$fm_name: $fm_val${fm_probe:+ (call works: $fm_probe)}"
		if [ "$fm_val" = 1 ] && [ "${fm_probe:-1}" = 1 ]; then
			aosp_case "$1" features "$fm_name" PASS
		else
			aosp_case "$1" features "$fm_name" "FAIL(file-$fm_val,call-${fm_probe:-na})"
		fi
	done
	for fm_name in oneway_spam_detection extended_error; do
		[ -e "$2/features/$fm_name" ] ||
			aosp_case "$1" features "$fm_name" "FAIL(missing)"
	done
	rm -f /tmp/aosp-probe
}
