#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# usage: tests/check.sh all|host|lint|runner|guest|flavours|debug|fuzz   (run by the Makefile)
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
#           security-context tests in a boot with SELinux (<driver>@selinux)
#   debug   the guest suite's $DEBUG_CHECK_TESTS (cve_*,fault_*,sec_*) on
#           the debug kernel (KASAN, lockdep, kmemleak; debug/check-debug.sh,
#           the kernel cached in ~/.cache/kbinder), on each driver of
#           $DEBUG_CHECK_DRIVERS (kbinder) that $DRIVERS names; results
#           labelled <driver>@debug
#   flavours the guest suite on other Debian kernel flavours ($FLAVOURS:
#           cloud-amd64, rt-amd64), each built for and booted on its own
#   fuzz    a short kbfuzz run on kbinder (FUZZ_CHECK_DURATION s, fixed
#           FUZZ_CHECK_SEED so CI explores the same ground every time;
#           `make fuzz` picks a new seed)
# A stage fails when its runner fails, and when it reports fewer tests than
# it built: the guest stages compare their result lines with what every
# test program lists (-l). Exit status is non-zero on any failure.
set -uo pipefail

: "${BUILD:=build}" "${DRIVERS:=kbinder}" "${TESTS:=*}" "${VM_RUN:=}"
: "${GUEST_BIN:=$BUILD/guest/bin}"
# The debug-kernel stage: the CVE, fault and security regression tests on
# kbinder (the whole suite, and the reference, take too long under KASAN
# for every `make check`; `make check-debug` runs everything).
: "${DEBUG_CHECK_TESTS:=cve_*,fault_*,sec_*}" "${DEBUG_CHECK_DRIVERS:=kbinder}"
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
results=$BUILD/results
mkdir -p "$results"
inputs=()

# The module's hygiene is a test too: checkpatch --strict, sparse, W=1 and
# kernel-doc over driver/ and the UAPI headers (scripts/lint.sh).
stage_lint() {
	echo "--- lint"
	scripts/deps.sh --lint --check >/dev/null || scripts/deps.sh --lint
	scripts/lint.sh 2>&1 | tee "$results/lint.log"
	# lint.sh exits non-zero on any finding: without a FAIL line it died.
	if [ "${PIPESTATUS[0]}" -ne 0 ] && ! grep -q '^FAIL ' "$results/lint.log"; then
		echo "FAIL lint/(program): scripts/lint.sh exited non-zero" | tee -a "$results/lint.log"
	fi
	inputs+=("host:$results/lint.log")
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
	# Inside a test's expected-stack-dump window only a Call Trace passes
	# (kbt_expect_stack_dump); a WARNING there, or a Call Trace after
	# the window, still fails.
	printf '%s\n' '[ 1.0] kbinder-test: start demo/dump' \
		'[ 1.1] kbinder-test: expect stack dump' '[ 1.2] Call Trace:' \
		'[ 1.3] kbinder-test: expect end' \
		'[ 2.0] kbinder-test: start demo/warn' \
		'[ 2.1] kbinder-test: expect stack dump' '[ 2.2] Call Trace:' \
		'[ 2.3] WARNING: CPU: 0 PID: 1 at demo' \
		'[ 3.0] kbinder-test: start demo/after' \
		'[ 3.1] kbinder-test: expect stack dump' \
		'[ 3.2] kbinder-test: expect end' '[ 3.3] Call Trace:' >"$dir/dump.log"
	out=$(tests/vm/scan-kernel-log.sh "$dir/dump.log")
	if [ "$out" = "FAIL demo/warn: kernel log: WARNING: CPU: 0 PID: 1 at demo
FAIL demo/after: kernel log: Call Trace:" ]; then
		echo "PASS runner/expected_stack_dump_passes_only_a_call_trace"
	else
		echo "FAIL runner/expected_stack_dump_passes_only_a_call_trace: scan-kernel-log.sh said: $(echo "$out" | tr '\n' ' ')"
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
	tests/vm/judge.sh --list "$GUEST_BIN" harness_fdcheck >"$dir.expected"
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
}

stage_runner() {
	echo "--- runner self-tests"
	mkdir -p "$BUILD/vm"
	{
		expect_runner_failure fails_on_kernel_splat splat \
			'^FAIL runner/fake_splat: kernel log: WARNING:'
		expect_runner_failure fails_without_verdict noverdict \
			'^FAIL vm/verdict: no verdict'
		runner_judgement_tests
	} | tee "$results/runner.log"
	# The stage reports every self-test, or fails.
	printf 'runner/%s\n' fails_on_kernel_splat fails_without_verdict \
		missing_result_file_fails known_failure_with_a_splat_still_fails \
		expected_stack_dump_passes_only_a_call_trace \
		unreadable_kernel_fails_the_guest_stage \
		a_program_that_stops_early_fails program_timeout_kills_its_whole_session \
		leftover_processes_fail_their_program >"$results/runner.expected"
	tests/vm/missing-results.sh "$results/runner.expected" "$results/runner.log" |
		tee -a "$results/runner.log"
	inputs+=("host:$results/runner.log")
}

stage_guest() {
	local driver dir rc
	for driver in $DRIVERS; do
		# One directory per run, so that concurrent runs never mix
		# their logs; check-<driver> points at the latest.
		dir=$BUILD/vm/check-$driver.$$
		echo "--- guest suite on $driver"
		mkdir -p "$dir"
		tests/vm/judge.sh --list "$GUEST_BIN" "$TESTS" >"$dir.expected"
		$VM_RUN --driver "$driver" --tests "$TESTS" --logdir "$dir" check
		rc=$?
		mkdir -p "$BUILD/vm"
		[ -L "$BUILD/vm/check-$driver" ] || rm -rf "$BUILD/vm/check-$driver"
		ln -sfn "${dir##*/}" "$BUILD/vm/check-$driver"
		tests/vm/judge.sh $rc "$dir" "$results/guest-$driver.$$.log" "$dir.expected"
		inputs+=("$driver:$results/guest-$driver.$$.log")
		stage_guest_selinux "$driver"
	done
}

# The stock guest's LSM (AppArmor) gives credentials no security context,
# so the security-context tests need one more, short boot with SELinux (no
# policy loaded: it allows everything, and names the kernel's context
# "kernel"): labelled <driver>@selinux. SECCTX_BOOT=0 leaves it out.
SELINUX_APPEND="lsm=lockdown,capability,landlock,yama,selinux,bpf selinux=1"
stage_guest_selinux() {
	local driver=$1 dir rc out selected=0 glob
	[ "${SECCTX_BOOT:-1}" = 1 ] || return 0
	set -f
	for glob in $(echo "$TESTS" | tr ',' ' '); do
		# shellcheck disable=SC2254
		case secctx in $glob) selected=1 ;; esac
	done
	set +f
	[ $selected -eq 1 ] && [ -x "$GUEST_BIN/secctx" ] || return 0
	dir=$BUILD/vm/check-$driver-selinux.$$
	out=$results/guest-$driver-selinux.$$.log
	echo "--- security contexts on $driver, guest booted with SELinux"
	mkdir -p "$dir"
	tests/vm/judge.sh --list "$GUEST_BIN" secctx >"$dir.expected"
	$VM_RUN --quiet --driver "$driver" --tests secctx --logdir "$dir" \
		--append "$SELINUX_APPEND" check >"$dir.out" 2>&1
	rc=$?
	tests/vm/judge.sh $rc "$dir" "$out" "$dir.expected"
	grep -E '^(PASS|FAIL|SKIP) secctx/' "$out" | sed 's/^/    /'
	inputs+=("$driver@selinux:$out")
}

# The debug kernel: debug/check-debug.sh builds (or finds, cached in
# ~/.cache/kbinder) the kernel, runs $DEBUG_CHECK_TESTS on it and judges
# the run the same way (tests/vm/judge.sh); results labelled <driver>@debug.
stage_debug() {
	local driver out rc
	for driver in $DEBUG_CHECK_DRIVERS; do
		case " $DRIVERS " in *" $driver "*) ;; *) continue ;; esac
		echo "--- debug kernel (KASAN, lockdep, kmemleak): $DEBUG_CHECK_TESTS on $driver"
		out=$results/debug-$driver.$$.log
		BUILD=$BUILD DRIVER=$driver TESTS="$DEBUG_CHECK_TESTS" DEBUG_RESULTS=$out \
			debug/check-debug.sh check >"$out.out" 2>&1
		rc=$?
		grep -E '^(debug-kernel|check-debug|vm: )' "$out.out"
		if [ ! -s "$out" ] || { [ $rc -ne 0 ] && ! grep -q '^FAIL ' "$out"; }; then
			echo "FAIL debug/run: check-debug.sh exited with status $rc (see $out.out)" | tee -a "$out"
		fi
		inputs+=("$driver@debug:$out")
	done
}

# The guest suite on the other Debian 6.1 kernel flavours in $FLAVOURS
# (make check: cloud-amd64; make check-flavours: amd64 cloud-amd64 rt-amd64),
# each with the module built against its own headers, booting its own
# kernel; the flavour named by $1 (the one stage_guest ran) is skipped. A
# kernel without binder_linux.ko (cloud-amd64 is built without binder at
# all) has no reference: the suite runs on kbinder alone there, and says so.
stage_flavours() {
	# make check skips the flavour its guest stage ran; check-flavours none
	local skip=${1-${FLAVOUR:-amd64}} flavour kver ref driver drivers label dir
	for flavour in ${FLAVOURS:-cloud-amd64}; do
		[ "$flavour" = "$skip" ] && continue
		kver=$(scripts/kernel-version.sh "$flavour")
		ref=/lib/modules/$kver/kernel/drivers/android/binder_linux.ko
		drivers=$DRIVERS
		if [ -n "$kver" ] && [ ! -e "$ref" ]; then
			echo "--- $flavour: $kver has no binder of its own" \
				"($(grep -s 'CONFIG_ANDROID_BINDER_IPC[= ]' "/boot/config-$kver")):" \
				"the suite runs on kbinder alone, no reference"
			drivers=${drivers//reference/}
		fi
		for driver in $drivers; do
			label=$driver
			[ "$flavour" = amd64 ] || label=$driver@$flavour
			dir=$BUILD/$flavour/vm/check-$driver.$$
			echo "--- guest suite on $driver, $flavour kernel ${kver:-(not installed)}"
			mkdir -p "$BUILD/$flavour/vm"
			make -s --no-print-directory flavour-run FLAVOUR="$flavour" \
				KVER="$kver" KDIR="/lib/modules/$kver/build" \
				VMLINUZ="/boot/vmlinuz-$kver" DRIVER="$driver" \
				TESTS="$TESTS" LOGDIR="$dir"
			if [ -s "$dir/judged.log" ]; then
				cp "$dir/judged.log" "$results/guest-$label.$$.log"
			else
				echo "FAIL $flavour/(build): no guest run (see above)" \
					>"$results/guest-$label.$$.log"
			fi
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
	if [ -r "$dir/judged.log" ]; then
		if [ $rc -ne 0 ] && ! grep -q '^FAIL ' "$dir/judged.log"; then
			echo "FAIL fuzz/run: make check-fuzz exited with status $rc (see $dir.out)" |
				tee -a "$dir/judged.log"
		fi
		inputs+=("kbinder:$dir/judged.log")
	else
		echo "FAIL fuzz/run: no judged.log (see $dir.out)" | tee "$dir.fail"
		inputs+=("kbinder:$dir.fail")
	fi
}

# The stages `all` runs, in order: a stage is a stage_<name> function.
ALL_STAGES="host lint runner guest flavours debug fuzz"
case "${1:-all}" in
all) for stage in $ALL_STAGES; do "stage_$stage"; done ;;
flavours) stage_flavours "" ;;
host | lint | runner | guest | debug | fuzz) "stage_$1" ;;
*) echo "usage: $0 all|flavours|$(echo "$ALL_STAGES" | tr ' ' '|')" >&2; exit 2 ;;
esac

echo "--- summary"
tests/vm/tally.sh tests/guest/known-failures.txt "${inputs[@]}"
