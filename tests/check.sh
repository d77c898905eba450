#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# usage: tests/check.sh all|host|lint|runner|guest|kernels|debug|fuzz   (run by the Makefile)
#
# Runs the stages of `make check`, keeps every stage's result lines under
# $BUILD/results/, and ends with one tally over all of them:
#   host    host unit tests and the ABI check (each tests/host/*.mk target)
#   lint    checkpatch --strict, sparse, W=1, kernel-doc on the module
#   runner  the VM runner's own tests: it must fail a run whose guest kernel
#           log shows a splat, a run whose guest dies without a verdict, a
#           run with a missing result file or an unbootable kernel, and a
#           program that stops before reporting all its tests; a program
#           timeout must kill everything the program started
#   guest   the guest suite, one boot per driver in $DRIVERS (kbinder and/or
#           reference): conformance tests must pass on both; then the
#           security-context tests in a boot with SELinux (<driver>@selinux),
#           and on kbinder the suite again with aidl-profile devices
#           (kbinder@aidl)
#   debug   the guest suite's $DEBUG_CHECK_TESTS (cve_*,fault_*,sec_*) on
#           the debug kernel (KASAN, lockdep, kmemleak; debug/check-debug.sh,
#           the kernel cached in ~/.cache/kbinder), on each driver of
#           $DEBUG_CHECK_DRIVERS (kbinder) that $DRIVERS names; results
#           labelled <driver>@debug; then one boot of deliberate bugs that
#           each detector must report (DEBUG_CHECK_CANARIES=0: not)
#   kernels the guest suite on other Debian kernels ($KERNELS: 6.12/amd64,
#           6.12/cloud-amd64 with $CLOUD_SMOKE; make check-flavours: every
#           series and flavour, whole), each built for and booted on its own
#   fuzz    a short kbfuzz run on kbinder (FUZZ_CHECK_DURATION s, fixed
#           FUZZ_CHECK_SEED so CI explores the same ground every time;
#           `make fuzz` picks a new seed)
# A stage fails when its runner fails, and when it reports fewer tests than
# it built: the guest stages compare their result lines with what every
# test program lists (-l). Exit status is non-zero on any failure.
set -uo pipefail

: "${BUILD:=build}" "${DRIVERS:=kbinder}" "${TESTS:=*}" "${VM_RUN:=}"
: "${GUEST_BIN:=$BUILD/guest/bin}"
# The kernel the guest stage boots (the Makefile's KSERIES/FLAVOUR): its
# results carry the plain driver label on 6.1 generic, <driver>@<series>-
# <flavour> on any other, as the kernels stage labels its own.
: "${PRIMARY_KERNEL:=6.1/amd64}"
primary_suffix=""
[ "$PRIMARY_KERNEL" = 6.1/amd64 ] || primary_suffix=@${PRIMARY_KERNEL/\//-}
# The debug-kernel stage: the CVE, fault and security regression tests on
# kbinder (the whole suite, and the reference, take too long under KASAN
# for every `make check`; `make check-debug` runs everything).
: "${DEBUG_CHECK_TESTS:=cve_*,fault_*,sec_*}" "${DEBUG_CHECK_DRIVERS:=kbinder}"
# Which series the debug kernel is built from (docs/debug-kernel.md says
# why this one).
: "${DEBUG_CHECK_KSERIES:=6.12}"
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
# shellcheck source=tests/vm/select.sh
. tests/vm/select.sh
results=$BUILD/results
mkdir -p "$results"
inputs=()

# The module's hygiene is a test too: checkpatch --strict, sparse, W=1 and
# kernel-doc over driver/ and the UAPI headers (scripts/lint.sh), against
# each kernel series with that series' own tools; results lint/<series>/*.
stage_lint() {
	local series log
	scripts/deps.sh --lint --check >/dev/null || scripts/deps.sh --lint
	for series in 6.1 6.12; do
		echo "--- lint ($series)"
		log=$results/lint-$series.log
		scripts/lint.sh "$series" 2>&1 |
			sed -E "s#^(PASS|FAIL|SKIP) lint/#\1 lint/$series/#" | tee "$log"
		# lint.sh exits non-zero on any finding: without a FAIL line it died.
		if [ "${PIPESTATUS[0]}" -ne 0 ] && ! grep -q '^FAIL ' "$log"; then
			echo "FAIL lint/$series/(program): scripts/lint.sh exited non-zero" | tee -a "$log"
		fi
		inputs+=("host:$log")
	done
}

stage_host() {
	local target
	mkdir -p "$results"
	for target in $(sed -n 's/^\(host-[a-z0-9-]*-check\):.*/\1/p' tests/host/*.mk 2>/dev/null); do
		echo "--- host: $target"
		make -s --no-print-directory "$target" 2>&1 | tee "$results/$target.log"
		# A host test that dies before printing a FAIL line still fails.
		if [ "${PIPESTATUS[0]}" -ne 0 ] && ! grep -q '^FAIL ' "$results/$target.log"; then
			echo "FAIL $target/(program): exited non-zero" | tee -a "$results/$target.log"
		fi
		inputs+=("host:$results/$target.log")
	done
}

# expect_runner_failure NAME SCRIPT PATTERN: the runner must reject this run,
# and its judgement must mention PATTERN.
expect_runner_failure() {
	local name=$1 script=$2 pattern=$3 dir=$BUILD/vm/runner-$2.$$
	if $VM_RUN --quiet --timeout 120 --logdir "$dir" "$script" >"$dir.out" 2>&1; then
		echo "FAIL runner/$name: the runner accepted the run"
	elif grep -q "$pattern" "$dir/judged.log"; then
		echo "PASS runner/$name"
	else
		echo "FAIL runner/$name: rejected, but not for '$pattern' (see $dir/judged.log)"
	fi
}

# expect_lines NAME FILE PATTERN...: FILE has a line for every PATTERN.
expect_lines() {
	local name=$1 file=$2 pattern
	shift 2
	for pattern in "$@"; do
		if ! grep -q -- "$pattern" "$file" 2>/dev/null; then
			echo "FAIL runner/$name: no line '$pattern' in $file"
			return
		fi
	done
	echo "PASS runner/$name"
}

# Crafted console logs, one per example of each splat pattern in
# tests/vm/splats.list (runner/scan_fails_NAME, NAME_2, ... for a
# pattern's further examples), and the cases one line cannot hold
# (SCAN_CASES): NAME|LINE|LINE...; the lines follow a "kbinder-test: start
# demo/NAME" marker, have no Call Trace (each pattern must catch its splat
# alone, as a WARN_ONCE or a console that dropped the trace leaves it),
# and the scan must report exactly one FAIL, charged to demo/NAME, quoting
# the first. A list example must also be caught by its own pattern, not
# only by another one: each pattern earns its place.
SCAN_CASES=(
	'splat_inside_the_dump_window|[   12.000000] kbinder-test: expect stack dump|[   12.000001] kernel BUG at lib/list_debug.c:30!|[   12.000002] Call Trace:|[   12.000003] kbinder-test: expect end'
)

# scan_cases: every case, NAME<TAB>PATTERN<TAB>LINE|LINE... (PATTERN -
# for SCAN_CASES).
scan_cases() {
	tests/vm/splats.sh --names >"$results/splats.names" || return 1
	tests/vm/splats.sh --examples | awk -F '\t' -v names="$results/splats.names" '
		BEGIN { while ((getline l < names) > 0) { split(l, f, "\t"); pat[f[1]] = f[2] } }
		{
			k = ++seen[$1]
			printf "%s%s\t%s\t[   12.000001] %s\n", $1, (k > 1 ? "_" k : ""), pat[$1], $2
		}' || return 1
	printf '%s\n' "${SCAN_CASES[@]}" | sed 's/|/\t-\t/'
}

# Every case of scan_cases through scan-kernel-log.sh.
scan_pattern_tests() {
	local dir=$1 name pattern lines first out want
	if ! scan_cases >"$dir/cases"; then
		echo "FAIL runner/scan_cases: tests/vm/splats.sh cannot read the splat list"
		return
	fi
	while IFS=$'\t' read -r name pattern lines; do
		{
			echo "[   11.000000] kbinder-test: start demo/$name"
			echo "$lines" | tr '|' '\n'
			echo "[   13.000000] kbinder-test: start demo/after_$name"
		} >"$dir/scan-$name.log"
		first=$(echo "$lines" | tr '|' '\n' | grep -v 'kbinder-test: expect' |
			head -n 1 | sed 's/^\[[ 0-9.]*\] //')
		want="FAIL demo/$name: kernel log: $first"
		out=$(tests/vm/scan-kernel-log.sh "$dir/scan-$name.log")
		if [ "$out" != "$want" ]; then
			echo "FAIL runner/scan_fails_$name: scan-kernel-log.sh said '$(echo "$out" | tr '\n' ' ')', want '$want'"
		elif [ "$pattern" != - ] && ! PATTERN=$pattern awk 'BEGIN { p = ENVIRON["PATTERN"] }
			$0 ~ p { hit = 1 } END { exit !hit }' <<<"$first"; then
			echo "FAIL runner/scan_fails_$name: caught, but not by its own pattern '$pattern'"
		else
			echo "PASS runner/scan_fails_$name"
		fi
	done <"$dir/cases"
}

# The guest-stage judgement itself: a missing result file, a runner that
# cannot boot, and a program that reports fewer tests than it has must each
# fail; a program timeout must leave nothing running (tests/vm/guest/programs.sh).
runner_judgement_tests() {
	local dir=$BUILD/vm/runner-judge.$$ out rc
	mkdir -p "$dir"
	tests/vm/tally.sh /dev/null "kbinder:$dir/no-such-file" >"$dir/tally.out"
	rc=$?
	if [ $rc -ne 0 ] && grep -q '^FAIL tally/results \[kbinder\]: missing result file' "$dir/tally.out" &&
		grep -q '^0 passed, 1 failed' "$dir/tally.out"; then
		echo "PASS runner/missing_result_file_fails"
	else
		echo "FAIL runner/missing_result_file_fails: tally.sh exit $rc, said: $(tail -n 1 "$dir/tally.out")"
	fi
	# A known failure whose FAIL carries a kernel splat still fails.
	echo "kbinder demo/listed  # a listed test" >"$dir/known.txt"
	printf '%s\n' 'FAIL demo/listed: demo.c:1: ASSERT_EQ(1, 2)' \
		'FAIL demo/listed: kernel log: BUG: KASAN: use-after-free in demo' >"$dir/splat.log"
	tests/vm/tally.sh "$dir/known.txt" "kbinder:$dir/splat.log" >"$dir/known.out"
	rc=$?
	if [ $rc -ne 0 ] && grep -q '^FAIL demo/listed \[kbinder\]: known failure, but a kernel splat: kernel log: BUG: KASAN' "$dir/known.out"; then
		echo "PASS runner/known_failure_with_a_splat_still_fails"
	else
		echo "FAIL runner/known_failure_with_a_splat_still_fails: tally.sh exit $rc, said: $(head -n 1 "$dir/known.out")"
	fi
	# A long tally names its failures again just before the counts, the
	# guest's own (vm/) first: what a log cut to its tail still shows.
	{
		seq 1 50 | sed 's|^|PASS demo/p|'
		echo 'FAIL demo/late: demo.c:1: ASSERT_EQ(1, 2)'
		echo 'FAIL vm/verdict: no verdict: the guest stopped early'
	} >"$dir/long.log"
	tests/vm/tally.sh /dev/null "kbinder:$dir/long.log" | tail -n 4 >"$dir/long.out"
	if [ "$(head -n 3 "$dir/long.out" | cut -d' ' -f1-2 | tr '\n' ,)" = \
		'--- failures,FAIL vm/verdict,FAIL demo/late,' ]; then
		echo "PASS runner/long_tally_repeats_its_failures_at_the_end"
	else
		echo "FAIL runner/long_tally_repeats_its_failures_at_the_end: its tail: $(tr '\n' '|' <"$dir/long.out")"
	fi
	# Inside a test's expected-stack-dump window (kbt_expect_stack_dump) the
	# trace of a plain stack dump passes, as many as come (6.1's sysfs
	# dumps twice when drv_coexist's insmod clashes; 6.12's header adds
	# UID: and a Tainted: line); a WARNING there, a
	# trace without dump_stack()'s header, or a Call Trace after the
	# window, still fails.
	hdr1='[ 1.11] CPU: 1 PID: 9 Comm: insmod Tainted: G OE 6.1.0-57-amd64 #1'
	hdr2='[ 1.12] Hardware name: QEMU Standard PC (i440FX + PIIX, 1996)'
	printf '%s\n' '[ 1.0] kbinder-test: start demo/dump' \
		'[ 1.1] kbinder-test: expect stack dump' \
		"[ 1.10] sysfs: cannot create duplicate filename '/devices/virtual/misc/binder'" \
		"$hdr1" "$hdr2" '[ 1.2] Call Trace:' '[ 1.21]  dump_stack_lvl+0x44/0x5c' \
		"[ 1.22] sysfs: cannot create duplicate filename '/devices/virtual/misc/binder'" \
		"$hdr1" "$hdr2" '[ 1.23] Call Trace:' '[ 1.24]  </TASK>' \
		'[ 1.25] CPU: 0 UID: 0 PID: 9 Comm: insmod Tainted: G OE 6.12.118+deb12-amd64 #1' \
		'[ 1.26] Tainted: [O]=OOT_MODULE, [E]=UNSIGNED_MODULE' "$hdr2" '[ 1.27] Call Trace:' \
		'[ 1.3] kbinder-test: expect end' \
		'[ 2.0] kbinder-test: start demo/warn' \
		'[ 2.1] kbinder-test: expect stack dump' "$hdr1" "$hdr2" '[ 2.2] Call Trace:' \
		'[ 2.3] WARNING: CPU: 0 PID: 1 at demo' \
		'[ 2.5] kbinder-test: start demo/bare' \
		'[ 2.6] kbinder-test: expect stack dump' '[ 2.7]  <TASK>' '[ 2.8] Call Trace:' \
		'[ 3.0] kbinder-test: start demo/after' \
		'[ 3.1] kbinder-test: expect stack dump' \
		'[ 3.2] kbinder-test: expect end' "$hdr1" "$hdr2" '[ 3.3] Call Trace:' >"$dir/dump.log"
	out=$(tests/vm/scan-kernel-log.sh "$dir/dump.log")
	if [ "$out" = "FAIL demo/warn: kernel log: WARNING: CPU: 0 PID: 1 at demo
FAIL demo/bare: kernel log: Call Trace:
FAIL demo/after: kernel log: Call Trace:" ]; then
		echo "PASS runner/expected_stack_dump_passes_only_a_call_trace"
	else
		echo "FAIL runner/expected_stack_dump_passes_only_a_call_trace: scan-kernel-log.sh said: $(echo "$out" | tr '\n' ' ')"
	fi
	# Every result a guest script prints is expected (results.list): one
	# that vanishes fails, and so does one that nobody declared.
	tests/vm/judge.sh --list - '*' check kbinder >"$dir/script.expected"
	mkdir -p "$dir/vanished"
	grep -vx 'vm/module_unloads' "$dir/script.expected" | sed 's/^/PASS /' >"$dir/vanished/judged.log"
	tests/vm/judge.sh 0 "$dir/vanished" "$dir/vanished.out" "$dir/script.expected" >/dev/null
	if [ "$(grep '^FAIL ' "$dir/vanished.out")" = "FAIL vm/module_unloads: no result (its program ended without reporting it)" ]; then
		echo "PASS runner/a_vanished_script_result_fails"
	else
		echo "FAIL runner/a_vanished_script_result_fails: judge.sh said: $(grep '^FAIL ' "$dir/vanished.out" | tr '\n' ' ')"
	fi
	mkdir -p "$dir/undeclared"
	{ sed 's/^/PASS /' "$dir/script.expected"; echo "SKIP addrscan/new_check: why"; } >"$dir/undeclared/judged.log"
	tests/vm/judge.sh 0 "$dir/undeclared" "$dir/undeclared.out" "$dir/script.expected" >/dev/null
	if grep -q '^FAIL addrscan/new_check: reported (SKIP), but on no list' "$dir/undeclared.out" &&
		[ "$(grep -c '^FAIL ' "$dir/undeclared.out")" -eq 1 ]; then
		echo "PASS runner/an_undeclared_script_result_fails"
	else
		echo "FAIL runner/an_undeclared_script_result_fails: judge.sh said: $(grep '^FAIL ' "$dir/undeclared.out" | tr '\n' ' ')"
	fi
	# TESTS that select nothing (a typo) fail the run, which would
	# otherwise pass with the script's own checks alone.
	mkdir -p "$dir/bin" "$dir/nothing"
	printf '#!/bin/sh\necho demo/one\n' >"$dir/bin/demo" && chmod +x "$dir/bin/demo"
	export KBT_GUEST_SRC=$dir/no-sources
	tests/vm/judge.sh --list "$dir/bin" 'demo/one' check kbinder >"$dir/nothing.expected"
	grep -vx 'vm/selection' "$dir/nothing.expected" | sed 's/^/PASS /' >"$dir/nothing/judged.log"
	tests/vm/judge.sh 0 "$dir/nothing" "$dir/nothing.out" "$dir/nothing.expected" >/dev/null
	tests/vm/judge.sh --list "$dir/bin" 'de*' check kbinder >"$dir/some.expected"
	tests/vm/judge.sh --list "$dir/bin" 'the' check kbinder >"$dir/word.expected"
	tests/vm/judge.sh --list "$dir/bin" 'addrscan' check kbinder >"$dir/group.expected"
	unset KBT_GUEST_SRC
	if [ "$(grep '^FAIL ' "$dir/nothing.out")" = "FAIL vm/selection: the run's TESTS select no test program and no guest script" ] &&
		grep -qx 'demo/one' "$dir/some.expected" && ! grep -qx 'vm/selection' "$dir/some.expected" &&
		grep -qx 'vm/selection' "$dir/word.expected" &&
		! grep -qx 'vm/selection' "$dir/group.expected"; then
		echo "PASS runner/a_selection_of_no_test_fails"
	else
		echo "FAIL runner/a_selection_of_no_test_fails: judge.sh said: $(grep '^FAIL ' "$dir/nothing.out" | tr '\n' ' ')"
	fi
	# A build of no test program cannot pass: the judgement fails it, and
	# coverage does not say that every built test ran.
	mkdir -p "$dir/empty-bin" "$dir/empty"
	tests/vm/judge.sh --list "$dir/empty-bin" '*' check kbinder >"$dir/empty.expected"
	grep -v '^FAIL ' "$dir/empty.expected" | sed 's/^/PASS /' >"$dir/empty/judged.log"
	tests/vm/judge.sh 0 "$dir/empty" "$dir/empty.out" "$dir/empty.expected" >/dev/null
	tests/vm/judge.sh --list "$dir/empty-bin" '*' >"$dir/empty.built"
	out=$(tests/vm/coverage.sh "$dir/empty.built" "kbinder:$dir/empty.out")
	if [ "$(grep '^FAIL ' "$dir/empty.out")" = "FAIL vm/(programs): no test program in $dir/empty-bin: a run of none would pass" ] &&
		grep -q '^FAIL coverage/vm/(programs): no test program' <<<"$out" &&
		! grep -q '^PASS ' <<<"$out"; then
		echo "PASS runner/a_run_with_no_test_program_fails"
	else
		echo "FAIL runner/a_run_with_no_test_program_fails: judge.sh said: $(grep '^FAIL ' "$dir/empty.out" | tr '\n' ' '); coverage.sh said: $(echo "$out" | tr '\n' ' ')"
	fi
	# Every tests/guest/*.c must build a program that lists a test: one
	# that lists none, one whose -l fails, a source with no program fail.
	mkdir -p "$dir/src" "$dir/bin2" "$dir/listed"
	printf '#!/bin/sh\nexit 0\n' >"$dir/bin2/silent"
	printf '#!/bin/sh\necho "broken: no test registered" >&2; exit 1\n' >"$dir/bin2/broken"
	printf '#!/bin/sh\necho good/one\n' >"$dir/bin2/good"
	chmod +x "$dir/bin2/silent" "$dir/bin2/broken" "$dir/bin2/good"
	touch "$dir/src/silent.c" "$dir/src/broken.c" "$dir/src/good.c" "$dir/src/unbuilt.c"
	KBT_GUEST_SRC=$dir/src tests/vm/judge.sh --list "$dir/bin2" '*' check kbinder >"$dir/listed.expected"
	grep -v '^FAIL ' "$dir/listed.expected" | sed 's/^/PASS /' >"$dir/listed/judged.log"
	tests/vm/judge.sh 0 "$dir/listed" "$dir/listed.out" "$dir/listed.expected" >/dev/null
	KBT_GUEST_SRC=$dir/src tests/vm/judge.sh --list "$dir/bin2" '*' >"$dir/listed.built"
	out=$(tests/vm/coverage.sh "$dir/listed.built" "kbinder:$dir/listed.out")
	if [ "$(grep '^FAIL ' "$dir/listed.out")" = "FAIL unbuilt/(program): unbuilt.c is a test program, but $dir/bin2/unbuilt was not built
FAIL broken/(list): 'broken -l' failed (status 1): broken: no test registered
FAIL silent/(list): 'silent -l' lists no test: a program of none would pass" ] &&
		[ "$(grep -c '^FAIL coverage/' <<<"$out")" -eq 3 ] && ! grep -q '^PASS ' <<<"$out"; then
		echo "PASS runner/a_program_that_lists_no_test_fails"
	else
		echo "FAIL runner/a_program_that_lists_no_test_fails: judge.sh said: $(grep '^FAIL ' "$dir/listed.out" | tr '\n' ' '); coverage.sh said: $(echo "$out" | tr '\n' ' ')"
	fi
	# A built test that every boot skipped ran nowhere: it fails.
	printf '%s\n' demo/ran demo/skipped_everywhere demo/failed >"$dir/built.txt"
	printf '%s\n' 'PASS demo/ran' 'SKIP demo/skipped_everywhere: no LSM' >"$dir/boot1.log"
	printf '%s\n' 'SKIP demo/skipped_everywhere: no LSM' 'FAIL demo/failed: x' >"$dir/boot2.log"
	out=$(tests/vm/coverage.sh "$dir/built.txt" "kbinder:$dir/boot1.log" "kbinder@selinux:$dir/boot2.log")
	if [ "$out" = "tests run per boot (of 3 built): kbinder 1, kbinder@selinux 1
FAIL coverage/demo/skipped_everywhere: ran in no boot (skipped in kbinder kbinder@selinux)" ]; then
		echo "PASS runner/a_test_skipped_in_every_boot_fails"
	else
		echo "FAIL runner/a_test_skipped_in_every_boot_fails: coverage.sh said: $(echo "$out" | tr '\n' ' ')"
	fi
	# A test that only the test build runs (testbuild.sh reports it as
	# testbuild/<suite>/<test>) ran; one it skipped too did not.
	printf '%s\n' demo/tb_only demo/tb_skipped >"$dir/built.txt"
	printf '%s\n' 'SKIP demo/tb_only: needs the test build' 'SKIP demo/tb_skipped: x' \
		'PASS testbuild/demo/tb_only' 'SKIP testbuild/demo/tb_skipped: y' >"$dir/boot1.log"
	out=$(tests/vm/coverage.sh "$dir/built.txt" "kbinder:$dir/boot1.log")
	if [ "$out" = "tests run per boot (of 2 built): kbinder 1
FAIL coverage/demo/tb_skipped: ran in no boot (skipped in kbinder kbinder)" ]; then
		echo "PASS runner/a_test_the_test_build_ran_counts_as_run"
	else
		echo "FAIL runner/a_test_the_test_build_ran_counts_as_run: coverage.sh said: $(echo "$out" | tr '\n' ' ')"
	fi
	# The guest stage with a kernel that cannot be read (no boot at all).
	DRIVERS=kbinder TESTS='drv_poll' BUILD=$dir/build GUEST_BIN=$GUEST_BIN \
		VM_RUN="tests/vm/run.sh --kernel $dir/no-such-vmlinuz --initramfs /dev/null" \
		tests/check.sh guest >"$dir/unreadable.out" 2>&1
	rc=$?
	if [ $rc -ne 0 ] && grep -q '^FAIL vm/run \[kbinder\]: the runner exited with status 2' "$dir/unreadable.out" &&
		grep -q '^0 passed, [1-9][0-9]* failed' "$dir/unreadable.out"; then
		echo "PASS runner/unreadable_kernel_fails_the_guest_stage"
	else
		echo "FAIL runner/unreadable_kernel_fails_the_guest_stage: exit $rc, said: $(tail -n 1 "$dir/unreadable.out")"
	fi
	# One boot: a program that stops early, one that hangs with processes
	# in other sessions, one that leaves a process behind.
	dir=$BUILD/vm/runner-programs.$$
	mkdir -p "$dir"
	tests/vm/judge.sh --list "$GUEST_BIN" harness_fdcheck programs kbinder >"$dir.expected"
	$VM_RUN --quiet --timeout 180 --logdir "$dir" programs >"$dir.out" 2>&1
	out=$dir/judged.stage
	tests/vm/judge.sh 0 "$dir" "$out" "$dir.expected" >/dev/null
	if grep -q '^PASS harness_fdcheck/a_test_body_that_closes_what_it_opens_passes' "$out" &&
		grep -q '^FAIL harness_fdcheck/two_snapshots_of_an_unchanged_table_do_not_differ: no result' "$out"; then
		echo "PASS runner/a_program_that_stops_early_fails"
	else
		echo "FAIL runner/a_program_that_stops_early_fails: see $out"
	fi
	expect_lines program_timeout_kills_its_whole_session "$dir/judged.log" \
		'^FAIL runner_hang/(program): timed out after 3s' \
		'^PASS runner/program_timeout_left_nothing_running'
	expect_lines leftover_processes_fail_their_program "$dir/judged.log" \
		'^FAIL runner_leave/(program): left processes running after it ended: [0-9]*(sleep)' \
		'^PASS runner/leftovers_were_killed'
	# A splat on the console fails the run, charged to its test.
	expect_lines fails_on_kernel_splat "$dir/judged.log" \
		'^FAIL runner/fake_splat: kernel log: WARNING: CPU: 0 PID: 1 at kbinder-runner-selftest (fake splat)'
	# A task blocked past the hung-task threshold inside one test fails it:
	# the harness's scan (the demo's line, judged in the guest) and the
	# host's console scan both.
	expect_lines hung_task_fails_its_test "$dir/judged.log" \
		'^PASS runner/hung_task_fails_its_test' \
		'^FAIL harness_verdict/demo_a_hung_task: kernel log: INFO: task .* blocked for more than 10 seconds'
	# Not on the console (printk 1), only in the log handed over.
	if grep -q 'a splat the console hid' "$dir/console.log"; then
		echo "FAIL runner/a_splat_the_console_hid_fails: the console showed it: not the case under test"
	else
		expect_lines a_splat_the_console_hid_fails "$dir/judged.log" \
			'^FAIL runner/quiet_splat: kernel log: WARNING: CPU: 0 PID: 1 at kbinder-runner-selftest (a splat the console hid)'
	fi
}

# One boot's judgement (tests/vm/judge-boot.sh, what run.sh runs after
# every boot) on crafted logs: a guest script that ended with a status but
# 0 fails the run; a kernel log handed over without its end marker keeps
# its last line (a panic's), and fails.
boot_judgement_tests() {
	local dir=$BUILD/vm/runner-boot.$$ rc clean=ok
	# boot_dir NAME VERDICT: a fresh log directory, its results.log holding
	# one PASS and the verdict line VERDICT (none if empty)
	boot_dir() {
		mkdir -p "$dir/$1" && : >"$dir/$1/console.log" && : >"$dir/$1/output.log"
		{ printf 'PASS demo/one\r\n'; [ -z "$2" ] || printf '%s\r\n' "$2"; } >"$dir/$1/results.log"
	}
	boot_dir clean 'KBT-VERDICT: done 0'
	tests/vm/judge-boot.sh "$dir/clean" 0 900 "guest script check" || clean="exit $?"
	[ "$(cat "$dir/clean/judged.log")" = "PASS demo/one" ] || clean="said $(tr '\n' ' ' <"$dir/clean/judged.log")"
	boot_dir status 'KBT-VERDICT: done 2'
	tests/vm/judge-boot.sh "$dir/status" 0 900 "guest script check"
	rc=$?
	if [ "$clean" != ok ]; then
		echo "FAIL runner/a_guest_script_that_failed_fails_the_run: a clean boot did not pass: $clean"
	elif [ $rc -ne 0 ] && [ "$(grep '^FAIL ' "$dir/status/judged.log")" = \
		"FAIL vm/verdict: guest script check ended with status 2: 'KBT-VERDICT: done 2'" ]; then
		echo "PASS runner/a_guest_script_that_failed_fails_the_run"
	else
		echo "FAIL runner/a_guest_script_that_failed_fails_the_run: judge-boot.sh exit $rc, said: $(tr '\n' ' ' <"$dir/status/judged.log")"
	fi
	# The handover as the guest prints it (CRLF), cut after a panic's line;
	# then a whole one, whose last line is a splat too.
	boot_dir cut 'KBT-VERDICT: done 0'
	printf '%s\r\n' 'KBT-KMSG: begin' '[    1.000000] kbinder-test: start demo/cut' \
		'[    2.000000] Kernel panic - not syncing: Fatal exception' >"$dir/cut/output.log"
	tests/vm/judge-boot.sh "$dir/cut" 0 900 >/dev/null
	rc=$?
	boot_dir whole 'KBT-VERDICT: done 0'
	printf '%s\r\n' 'KBT-KMSG: begin' '[    1.000000] kbinder-test: start demo/whole' \
		'[    2.000000] refcount_t: underflow; use-after-free.' 'KBT-KMSG: end' >"$dir/whole/output.log"
	tests/vm/judge-boot.sh "$dir/whole" 0 900 >/dev/null
	if [ $rc -ne 0 ] &&
		grep -qx 'FAIL demo/cut: kernel log: Kernel panic - not syncing: Fatal exception' "$dir/cut/judged.log" &&
		grep -q '^FAIL vm/kmsg_handover: the kernel log handed over on ttyS1 has no end marker' "$dir/cut/judged.log" &&
		[ "$(grep '^FAIL ' "$dir/whole/judged.log")" = 'FAIL demo/whole: kernel log: refcount_t: underflow; use-after-free.' ]; then
		echo "PASS runner/a_kernel_log_handover_cut_short_keeps_its_last_line"
	else
		echo "FAIL runner/a_kernel_log_handover_cut_short_keeps_its_last_line: judge-boot.sh exit $rc, said: $(tr '\n' ' ' <"$dir/cut/judged.log"); whole: $(tr '\n' ' ' <"$dir/whole/judged.log")"
	fi
}

stage_runner() {
	echo "--- runner self-tests"
	mkdir -p "$BUILD/vm"
	{
		expect_runner_failure fails_without_verdict noverdict \
			'^FAIL vm/verdict: no verdict: the guest stopped early.*last line: .*Power down'
		mkdir -p "$BUILD/vm/runner-scan.$$"
		scan_pattern_tests "$BUILD/vm/runner-scan.$$"
		boot_judgement_tests
		runner_judgement_tests
	} | tee "$results/runner.log"
	# The stage reports every self-test, or fails.
	{
		printf 'runner/%s\n' fails_on_kernel_splat fails_without_verdict \
			missing_result_file_fails known_failure_with_a_splat_still_fails \
			long_tally_repeats_its_failures_at_the_end \
			expected_stack_dump_passes_only_a_call_trace \
			unreadable_kernel_fails_the_guest_stage \
			a_program_that_stops_early_fails program_timeout_kills_its_whole_session \
			leftover_processes_fail_their_program \
			a_vanished_script_result_fails an_undeclared_script_result_fails \
			a_test_skipped_in_every_boot_fails a_test_the_test_build_ran_counts_as_run \
			a_splat_the_console_hid_fails \
			a_selection_of_no_test_fails hung_task_fails_its_test \
			a_run_with_no_test_program_fails a_program_that_lists_no_test_fails \
			a_guest_script_that_failed_fails_the_run \
			a_kernel_log_handover_cut_short_keeps_its_last_line
		scan_cases | cut -f 1 | sed 's|^|runner/scan_fails_|'
	} >"$results/runner.expected"
	tests/vm/missing-results.sh "$results/runner.expected" "$results/runner.log" |
		tee -a "$results/runner.log"
	inputs+=("host:$results/runner.log")
}

stage_guest() {
	local driver dir rc t
	for driver in $DRIVERS; do
		# One directory per run, so that concurrent runs never mix
		# their logs; check-<driver> points at the latest.
		dir=$BUILD/vm/check-$driver.$$
		echo "--- guest suite on $driver"
		mkdir -p "$dir"
		tests/vm/judge.sh --list "$GUEST_BIN" "$TESTS" check "$driver" >"$dir.expected"
		t=$SECONDS
		$VM_RUN --driver "$driver" --tests "$TESTS" --logdir "$dir" check
		rc=$?
		echo "    boot: $((SECONDS - t)) s"
		mkdir -p "$BUILD/vm"
		[ -L "$BUILD/vm/check-$driver" ] || rm -rf "$BUILD/vm/check-$driver"
		ln -sfn "${dir##*/}" "$BUILD/vm/check-$driver"
		tests/vm/judge.sh $rc "$dir" "$results/guest-$driver.$$.log" "$dir.expected"
		inputs+=("$driver$primary_suffix:$results/guest-$driver.$$.log")
		stage_guest_selinux "$driver"
		[ "$driver" = kbinder ] && stage_guest_aidl
	done
}

# The whole suite once more on kbinder with binder and vndbinder made with
# the aidl device profile (docs/api-audit.md): everything passes there but
# the tests of what the profile refuses, which skip (REQUIRE_FULL_PROFILE),
# and profile.c checks the refusals on those devices too. Labelled
# kbinder@aidl. AIDL_BOOT=0 leaves it out.
stage_guest_aidl() {
	local dir rc t
	[ "${AIDL_BOOT:-1}" = 1 ] || return 0
	dir=$BUILD/vm/check-kbinder-aidl.$$
	echo "--- guest suite on kbinder, binder and vndbinder with the aidl profile"
	mkdir -p "$dir"
	tests/vm/judge.sh --list "$GUEST_BIN" "$TESTS" check kbinder >"$dir.expected"
	t=$SECONDS
	$VM_RUN --quiet --driver kbinder --tests "$TESTS" --logdir "$dir" \
		--append KBT_PROFILE=aidl check >"$dir.out" 2>&1
	rc=$?
	echo "    boot: $((SECONDS - t)) s"
	tests/vm/judge.sh $rc "$dir" "$results/guest-kbinder-aidl.$$.log" "$dir.expected"
	grep -c '^SKIP .*has the aidl profile' "$results/guest-kbinder-aidl.$$.log" |
		sed 's/^/    skipped for the profile: /'
	inputs+=("kbinder@aidl$primary_suffix:$results/guest-kbinder-aidl.$$.log")
}

# The stock guest's LSM (AppArmor) gives credentials no security context,
# so the security-context tests need one more, short boot with SELinux (no
# policy loaded: it allows everything, and names the kernel's context
# "kernel"): labelled <driver>@selinux. It runs every selected program whose
# name has "secctx" in it (SECCTX_TESTS: secctx, sec_secctx and their
# compat32_ builds). SECCTX_BOOT=0 leaves it out.
SELINUX_APPEND="lsm=lockdown,capability,landlock,yama,selinux,bpf selinux=1"
: "${SECCTX_TESTS:=*secctx*}"
stage_guest_selinux() {
	local driver=$1 dir rc out prog name t progs=""
	[ "${SECCTX_BOOT:-1}" = 1 ] || return 0
	for prog in "$GUEST_BIN"/*; do
		name=${prog##*/}
		[ -x "$prog" ] || continue
		# shellcheck disable=SC2254
		case "$name" in $SECCTX_TESTS) ;; *) continue ;; esac
		selected "$name" "$TESTS" && progs=${progs:+$progs,}$name
	done
	[ -n "$progs" ] || return 0
	dir=$BUILD/vm/check-$driver-selinux.$$
	out=$results/guest-$driver-selinux.$$.log
	echo "--- security contexts on $driver, guest booted with SELinux: $progs"
	mkdir -p "$dir"
	tests/vm/judge.sh --list "$GUEST_BIN" "$progs" check "$driver" >"$dir.expected"
	t=$SECONDS
	$VM_RUN --quiet --driver "$driver" --tests "$progs" --logdir "$dir" \
		--append "$SELINUX_APPEND" check >"$dir.out" 2>&1
	rc=$?
	echo "    boot: $((SECONDS - t)) s"
	tests/vm/judge.sh $rc "$dir" "$out" "$dir.expected"
	grep -E '^(PASS|FAIL|SKIP) [a-z0-9_]*secctx/' "$out" | sed 's/^/    /'
	inputs+=("$driver@selinux:$out")
}

# The debug kernel's cold build is the longest single step of a cold `make
# check` (about 9 minutes of an idle 2-core host). `all` starts it at once,
# in the background at the lowest priority, so that it uses what the
# guests leave of the CPU (a TCG guest keeps about one core busy) instead
# of adding its whole time at the end; stage_debug waits for it.
# DEBUG_PREBUILD=0: no background build (stage_debug builds it in line).
debug_build_pid=""
start_debug_build() {
	local driver wanted=0
	[ "${DEBUG_PREBUILD:-1}" = 1 ] || return 0
	for driver in $DEBUG_CHECK_DRIVERS; do
		case " $DRIVERS " in *" $driver "*) wanted=1 ;; esac
	done
	[ $wanted = 1 ] || return 0
	KSERIES=$DEBUG_CHECK_KSERIES debug/build-kernel.sh --status 2>/dev/null && return 0
	echo "--- debug kernel (linux-source-$DEBUG_CHECK_KSERIES): building in the background, lowest priority"
	KSERIES=$DEBUG_CHECK_KSERIES NICE=19 debug/build-kernel.sh \
		>"$results/debug-kernel-build.log" 2>&1 &
	debug_build_pid=$!
}

wait_debug_build() {
	[ -n "$debug_build_pid" ] || return 0
	echo "--- debug kernel: waiting for the background build"
	# Its failure is not judged here: check-debug.sh builds again and
	# reports (build.log in the cache directory says why).
	wait "$debug_build_pid" ||
		echo "debug kernel: the background build failed (see $results/debug-kernel-build.log); building again"
	debug_build_pid=""
}

# The debug kernel: debug/check-debug.sh builds (or finds, cached in
# ~/.cache/kbinder) the kernel, runs $DEBUG_CHECK_TESTS on it and judges
# the run the same way (tests/vm/judge.sh); results labelled <driver>@debug.
stage_debug() {
	local driver out rc t ran=0
	wait_debug_build
	for driver in $DEBUG_CHECK_DRIVERS; do
		case " $DRIVERS " in *" $driver "*) ;; *) continue ;; esac
		ran=1
		echo "--- debug kernel (linux-source-$DEBUG_CHECK_KSERIES; KASAN, lockdep, kmemleak): $DEBUG_CHECK_TESTS on $driver"
		out=$results/debug-$driver.$$.log
		t=$SECONDS
		KSERIES=$DEBUG_CHECK_KSERIES BUILD=$BUILD DRIVER=$driver \
			TESTS="$DEBUG_CHECK_TESTS" DEBUG_RESULTS=$out \
			debug/check-debug.sh check >"$out.out" 2>&1
		rc=$?
		echo "    boot: $((SECONDS - t)) s"
		grep -E '^(debug-kernel|check-debug|vm: )' "$out.out"
		if [ ! -s "$out" ] || { [ $rc -ne 0 ] && ! grep -q '^FAIL ' "$out"; }; then
			echo "FAIL debug/run: check-debug.sh exited with status $rc (see $out.out)" | tee -a "$out"
		fi
		inputs+=("$driver@debug:$out")
	done
	[ $ran -eq 1 ] && stage_debug_canaries
}

# The detectors of the debug kernel must see a deliberate bug each (the
# canaries, one boot that commits them all: debug/check-debug.sh
# canary-boot), or a clean debug run proves nothing. DEBUG_CHECK_CANARIES=0
# leaves them out; make check-debug-canary runs them one boot each.
stage_debug_canaries() {
	local out=$results/debug-canaries.$$.log rc t=$SECONDS
	[ "${DEBUG_CHECK_CANARIES:-1}" = 1 ] || return 0
	echo "--- debug kernel: every detector fails a deliberate bug (canaries, one boot)"
	KSERIES=$DEBUG_CHECK_KSERIES BUILD=$BUILD CANARY_RESULTS=$out \
		debug/check-debug.sh canary-boot >"$out.out" 2>&1
	rc=$?
	echo "    boot: $((SECONDS - t)) s"
	grep -E '^(check-debug|vm: |    vm: )' "$out.out"
	grep '^FAIL ' "$out" 2>/dev/null
	if [ ! -s "$out" ] || { [ $rc -ne 0 ] && ! grep -q '^FAIL ' "$out"; }; then
		echo "FAIL debug-canary/run: check-debug.sh canary-boot exited with status $rc (see $out.out)" | tee -a "$out"
	fi
	inputs+=("host:$out")
}

# The guest suite on other Debian kernels: $KERNELS, SERIES/FLAVOUR words
# (make check: 6.12/amd64 6.12/cloud-amd64; make check-flavours: the three
# flavours of both series), each with the module built against its own
# headers, booting its own kernel, judged like the guest stage against what
# was built; the kernel named by $1 (the one stage_guest ran) is skipped.
# Results are labelled <driver>@<series>-<flavour>. A kernel without
# binder_linux.ko (cloud-amd64 is built without binder at all) has no
# reference: the suite runs on kbinder alone there, and says so.
# A word SERIES/FLAVOUR=GLOBS runs the programs GLOBS selects in that boot
# when TESTS is left at '*'. make check's cloud boot runs CLOUD_SMOKE: the
# module loads on a kernel with no binder of its own, binderfs, the
# namespaces, the core of the protocol, freezing, the tool and the address
# scan (about 20 s of the suite's 150); the whole suite runs on both
# series' generic kernels in the same run, and on every flavour in make
# check-flavours (a cut to keep a cold make check near 25 minutes).
CLOUD_SMOKE='binderfs*,ipcns,context_mgr,transaction,oneway,nested,death,refcount,fds,sg,fileops,drv_freeze*,secctx,cli,addrscan'
stage_kernels() {
	local skip=${1-$PRIMARY_KERNEL} k sel series flavour kver driver drivers label dir rc t
	for k in ${KERNELS:-6.12/amd64 6.12/cloud-amd64=$CLOUD_SMOKE}; do
		sel=$TESTS
		case "$k" in *=*)
			[ "$TESTS" = '*' ] && sel=${k#*=}
			k=${k%%=*} ;;
		esac
		[ "$k" = "$skip" ] && continue
		series=${k%/*} flavour=${k#*/}
		kver=$(scripts/kernel-version.sh "$flavour" "$series")
		drivers=$DRIVERS
		if [ -n "$kver" ] && ! ls /lib/modules/"$kver"/kernel/drivers/android/binder_linux.ko* >/dev/null 2>&1; then
			echo "--- $series $flavour: $kver has no binder of its own" \
				"($(grep -s 'CONFIG_ANDROID_BINDER_IPC[= ]' "/boot/config-$kver")):" \
				"the suite runs on kbinder alone, no reference"
			drivers=${drivers//reference/}
		fi
		for driver in $drivers; do
			label=$driver@$series-$flavour
			dir=$BUILD/$series-$flavour/vm/check-$driver.$$
			echo "--- guest suite on $driver, $series $flavour kernel ${kver:-(not installed)}${sel:+, TESTS=$sel}"
			mkdir -p "$dir"
			tests/vm/judge.sh --list "$GUEST_BIN" "$sel" check "$driver" >"$dir.expected"
			# Its own make, deriving KVER, KDIR and the reference from
			# KSERIES and FLAVOUR, not the outer make's command line.
			t=$SECONDS
			env -u MAKEFLAGS -u MAKELEVEL make -s --no-print-directory flavour-run KSERIES="$series" \
				FLAVOUR="$flavour" DRIVER="$driver" TESTS="$sel" LOGDIR="$dir"
			rc=$?
			echo "    build and boot: $((SECONDS - t)) s"
			tests/vm/judge.sh $rc "$dir" "$results/guest-$label.$$.log" "$dir.expected"
			inputs+=("$label:$results/guest-$label.$$.log")
		done
	done
}

stage_fuzz() {
	local dir=$BUILD/fuzz/check.$$ rc
	[ -f fuzz/fuzz.mk ] || return 0
	mkdir -p "$BUILD/fuzz"
	case " $DRIVERS " in *" kbinder "*) ;; *) return 0 ;; esac
	echo "--- fuzz: ${FUZZ_CHECK_DURATION:-45} s on kbinder, seed ${FUZZ_CHECK_SEED:-1}"
	make -s --no-print-directory check-fuzz DRIVER=kbinder FUZZ_LOGDIR="$dir" \
		FUZZ_CHECK_DURATION="${FUZZ_CHECK_DURATION:-45}" \
		SEED="${FUZZ_CHECK_SEED:-1}" >"$dir.out" 2>&1
	rc=$?
	grep -m1 '^kbfuzz: seed' "$dir.out" || true
	# judged.stage: the run's lines judged against what fuzz.sh declares
	if [ -r "$dir/judged.stage" ]; then
		if [ $rc -ne 0 ] && ! grep -q '^FAIL ' "$dir/judged.stage"; then
			echo "FAIL fuzz/run: make check-fuzz exited with status $rc (see $dir.out)" |
				tee -a "$dir/judged.stage"
		fi
		grep '^FAIL ' "$dir/judged.stage"
		inputs+=("kbinder:$dir/judged.stage")
	else
		echo "FAIL fuzz/run: no judged.stage (see $dir.out)" | tee "$dir.fail"
		inputs+=("kbinder:$dir.fail")
	fi
}

# After all stages: every test a selected program lists must have run (PASS
# or FAIL, not SKIP) in at least one boot; one line says how many each boot
# ran (tests/vm/coverage.sh). COVERAGE=0 leaves the check out, for a run
# that leaves boots out on purpose (DRIVER=kbinder: drv_coexist runs on the
# reference only; SECCTX_BOOT=0; DEBUG_CHECK_DRIVERS=none: fault_* need the
# debug kernel).
stage_coverage() {
	local out=$results/coverage.$$.log arg boots=()
	[ "${COVERAGE:-1}" = 1 ] || return 0
	echo "--- coverage: every built test runs in some boot"
	tests/vm/judge.sh --list "$GUEST_BIN" "$TESTS" >"$out.built"
	for arg in "${inputs[@]}"; do
		case "$arg" in host:*) ;; *) boots+=("$arg") ;; esac
	done
	tests/vm/coverage.sh "$out.built" "${boots[@]}" | tee "$out"
	inputs+=("host:$out")
}

# The stages `all` runs, in order: a stage is a stage_<name> function.
ALL_STAGES="host lint runner guest kernels debug fuzz"
case "${1:-all}" in
all)
	start_debug_build
	# Where the time goes, for the budget of a cold run (docs/testing.md).
	for stage in $ALL_STAGES; do
		start=$SECONDS
		"stage_$stage"
		echo "--- $stage: $((SECONDS - start)) s (at $((SECONDS / 60)) min $((SECONDS % 60)) s)"
	done
	stage_coverage ;;
kernels) stage_kernels "" ;;
host | lint | runner | guest | debug | fuzz) "stage_$1" ;;
*) echo "usage: $0 all|$(echo "$ALL_STAGES" | tr ' ' '|')" >&2; exit 2 ;;
esac

wait_debug_build
echo "--- summary"
tests/vm/tally.sh tests/guest/known-failures.txt "${inputs[@]}"
