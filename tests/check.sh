#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# usage: tests/check.sh all|host|lint|runner|guest|flavours|fuzz   (run by the Makefile)
#
# Runs the stages of `make check`, keeps every stage's result lines under
# $BUILD/results/, and ends with one tally over all of them:
#   host    host unit tests and the ABI check (each tests/host/*.mk target)
#   lint    checkpatch --strict, sparse, W=1, kernel-doc on the module
#   runner  the VM runner's own tests: it must fail a run whose guest kernel
#           log shows a splat, and a run whose guest dies without a verdict
#   guest   the guest suite, one boot per driver in $DRIVERS (kbinder and/or
#           reference): conformance tests must pass on both
#   flavours the guest suite on other Debian kernel flavours ($FLAVOURS:
#           cloud-amd64, rt-amd64), each built for and booted on its own
#   fuzz    a short kbfuzz run on kbinder (FUZZ_CHECK_DURATION s, fixed
#           FUZZ_CHECK_SEED so CI explores the same ground every time;
#           `make fuzz` picks a new seed)
# Exit status is non-zero on any failure.
set -uo pipefail

: "${BUILD:=build}" "${DRIVERS:=kbinder}" "${TESTS:=*}" "${VM_RUN:=}"
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

stage_runner() {
	echo "--- runner self-tests"
	mkdir -p "$BUILD/vm"
	{
		expect_runner_failure fails_on_kernel_splat splat \
			'^FAIL runner/fake_splat: kernel log: WARNING:'
		expect_runner_failure fails_without_verdict noverdict \
			'^FAIL vm/verdict: no verdict'
	} | tee "$results/runner.log"
	inputs+=("host:$results/runner.log")
}

stage_guest() {
	local driver dir
	for driver in $DRIVERS; do
		# One directory per run, so that concurrent runs never mix
		# their logs; check-<driver> points at the latest.
		dir=$BUILD/vm/check-$driver.$$
		echo "--- guest suite on $driver"
		$VM_RUN --driver "$driver" --tests "$TESTS" --logdir "$dir" check
		[ -L "$BUILD/vm/check-$driver" ] || rm -rf "$BUILD/vm/check-$driver"
		ln -sfn "${dir##*/}" "$BUILD/vm/check-$driver"
		cp "$dir/judged.log" "$results/guest-$driver.$$.log"
		inputs+=("$driver:$results/guest-$driver.$$.log")
	done
}

# The guest suite on the other Debian 6.1 kernel flavours in $FLAVOURS
# (make check: cloud-amd64; make check-flavours: amd64 cloud-amd64 rt-amd64),
# each with the module built against its own headers, booting its own
# kernel; the flavour named by $1 (the one stage_guest ran) is skipped. A
# kernel without binder_linux.ko (cloud-amd64 is built without binder at
# all) has no reference: the suite runs on kbinder alone there, and says so.
stage_flavours() {
	local skip=${1:-} flavour kver ref driver drivers label dir
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
	local dir=$BUILD/fuzz/check.$$
	[ -f fuzz/fuzz.mk ] || return 0
	mkdir -p "$BUILD/fuzz"
	case " $DRIVERS " in *" kbinder "*) ;; *) return 0 ;; esac
	echo "--- fuzz: ${FUZZ_CHECK_DURATION:-45} s on kbinder, seed ${FUZZ_CHECK_SEED:-1}"
	make -s --no-print-directory check-fuzz DRIVER=kbinder FUZZ_LOGDIR="$dir" \
		FUZZ_CHECK_DURATION="${FUZZ_CHECK_DURATION:-45}" \
		SEED="${FUZZ_CHECK_SEED:-1}" >"$dir.out" 2>&1
	grep -m1 '^kbfuzz: seed' "$dir.out" || true
	if [ -r "$dir/judged.log" ]; then
		inputs+=("kbinder:$dir/judged.log")
	else
		echo "FAIL fuzz/run: no judged.log (see $dir.out)" | tee "$dir.fail"
		inputs+=("kbinder:$dir.fail")
	fi
}

case "${1:-all}" in
all) stage_host; stage_lint; stage_runner; stage_guest; stage_flavours "${FLAVOUR:-amd64}"; stage_fuzz ;;
flavours) stage_flavours ;;
lint) stage_lint ;;
fuzz) stage_fuzz ;;
host) stage_host ;;
runner) stage_runner ;;
guest) stage_guest ;;
*) echo "usage: $0 all|host|lint|runner|guest|flavours|fuzz" >&2; exit 2 ;;
esac

echo "--- summary"
tests/vm/tally.sh tests/guest/known-failures.txt "${inputs[@]}"
