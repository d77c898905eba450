#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# usage: debug/check-debug.sh check|canary|canary-boot|fuzz   (debug/debug.mk;
#        fuzz by fuzz/fuzz.mk's `make fuzz KERNEL=debug`)
#
#   check   build kbinder against the debug kernel (in a copy of driver/ and
#           include/ under $BUILD/debug/src, so the objects in driver/ for
#           Debian's kernel stay as they are), build an initramfs with it,
#           the debug reference binder_linux.ko and the guest test programs,
#           and run the guest suite on $DRIVER in one boot of the debug
#           kernel; then the debug checks (kmemleak scan, lockdep still on,
#           no taint) from /scripts/post-check.sh.
#   canary  boot once per deliberate bug of debug/canary ($CANARIES) and
#           require each run to FAIL, for the right detector; bug=none must
#           pass. This shows the debug runs are not silently blind. The
#           "fault" run shows that systematic fault injection works.
#   canary-boot  the same bugs ($BOOT_CANARIES) in one boot, each report
#           charged to its bug: make check's debug stage runs this one.
#
# Environment: KSERIES (the debug kernel's source: 6.1 or 6.12, see
# debug/build-kernel.sh), BUILD (build), DRIVER (kbinder), TESTS (*, or globs
# separated by commas), DEBUG_RESULTS (where the judged result lines go;
# $BUILD/results/debug-$DRIVER.log), JOBS (2),
# VM_TIMEOUT (1800), DEBUG_MEMORY (1536 MB; CANARY_MEMORY 1024 for the
# canaries: a kmemleak scan walks all of it), DEBUG_TEST_TIMEOUT (600, per
# test program), DEBUG_APPEND (extra kernel command line), CANARIES (all).
# Ends with tests/vm/tally.sh's closing line; exit status non-zero on failure.
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
: "${BUILD:=build}" "${DRIVER:=kbinder}" "${TESTS:=*}" "${JOBS:=2}"
: "${VM_TIMEOUT:=1800}" "${DEBUG_MEMORY:=1536}" "${DEBUG_TEST_TIMEOUT:=600}"
: "${CANARY_MEMORY:=1024}"
: "${DEBUG_APPEND:=}"
: "${CANARIES:=none fault uaf oob leak abba sleep ubsan list}"
: "${KSERIES:=6.1}"
export KSERIES
# One work tree per series: modules built against one kernel tree stay.
work=$BUILD/debug/$KSERIES
results=$BUILD/results
mkdir -p "$work/vm" "$results"

die() { echo "check-debug: $*" >&2; exit 1; }

tree=$(debug/build-kernel.sh | tail -n 1) || die "the debug kernel did not build"
[ -f "$tree/arch/x86/boot/bzImage" ] || die "no bzImage in $tree"
kernel=$tree/arch/x86/boot/bzImage
reference=$tree/drivers/android/binder_linux.ko

# sync_tree SRC DST: make DST an exact copy of SRC's sources (not its build
# products), touching only files that changed so kbuild rebuilds little.
sync_tree() {
	local src=$1 dst=$2 f
	mkdir -p "$dst"
	(cd "$src" && find . -type f \( -name '*.c' -o -name '*.h' -o -name Kbuild \
		-o -name Makefile -o -name '*.S' \) -print) | sort >"$dst.list"
	while read -r f; do
		mkdir -p "$dst/$(dirname "$f")"
		cmp -s "$src/$f" "$dst/$f" || cp -p "$src/$f" "$dst/$f"
	done <"$dst.list"
	(cd "$dst" && find . -type f \( -name '*.c' -o -name '*.h' -o -name Kbuild \
		-o -name Makefile -o -name '*.S' \) -print) | sort |
		comm -13 "$dst.list" - | while read -r f; do
			# A generated .mod.c belongs to kbuild, not to the copy.
			case "$f" in *.mod.c) continue ;; esac
			rm -f "$dst/$f"
		done
	rm -f "$dst.list"
}

# kbuild_module DIR [MAKE-ARGS...]: build the out-of-tree module in DIR
# against the tree.
kbuild_module() {
	make -C "$tree" ARCH=x86_64 M="$(cd "$1" && pwd)" -j"$JOBS" W=1 "${@:2}" \
		modules >"$1.build.log" 2>&1 || {
		cat "$1.build.log" >&2
		die "building $1 against the debug kernel failed"
	}
	grep -E 'warning:|error:' "$1.build.log" >&2 || true
}

# extra_cpio OUT SRC:DEST...: a gzip'd newc archive of these files only (the
# directories exist in the base archive); the kernel unpacks concatenated
# archives in order, so these are added to, or replace, the base's files.
extra_cpio() {
	local out=$1 stage entry
	shift
	stage=$(mktemp -d "${TMPDIR:-/tmp}/kbinder-debug-cpio.XXXXXX")
	for entry in "$@"; do
		install -D -m "${entry##*:}" "${entry%%:*}" "$stage/$(echo "$entry" | cut -d: -f2)"
	done
	(cd "$stage" && find . -type f -print0 | LC_ALL=C sort -z |
		cpio --null -o -H newc --owner=0:0 --quiet) | gzip -1 >"$out"
	rm -rf "$stage"
}

# debug_run INITRAMFS LOGDIR SCRIPT [run.sh options]: one boot of the debug
# kernel. Without ACPI, two CPUs need two sockets and the guest ends with
# reboot -f (see shared/VM-NOTES.md); KASAN wants more memory.
debug_run() {
	local initramfs=$1 logdir=$2 script=$3
	shift 3
	tests/vm/run.sh --kernel "$kernel" --initramfs "$initramfs" \
		--accel-cache "$work/vm/accel" --memory "$DEBUG_MEMORY" \
		--smp 2,sockets=2,cores=1,threads=1 --logdir "$logdir" "$@" \
		--append "KBT_HALT=reboot KBT_SLOW_KERNEL=1 kmemleak=on log_buf_len=4M \
KBT_TEST_TIMEOUT=$DEBUG_TEST_TIMEOUT $DEBUG_APPEND${CANARY_APPEND:+ $CANARY_APPEND}" "$script"
}

# kbinder's test build (KBINDER_SELFTEST=1: the allocator self-test the
# guest runs first, see tests/vm/guest/lib.sh) in a copy of its own, as
# $work/kbinder-selftest.ko.
build_test_module() {
	sync_tree driver "$work/src-test/driver"
	sync_tree include "$work/src-test/include"
	kbuild_module "$work/src-test/driver" KBINDER_SELFTEST=1
	cp "$work/src-test/driver/kbinder.ko" "$work/kbinder-selftest.ko"
}

# The fault-injection demo (a static guest program, like the tests).
build_fault_demo() {
	mkdir -p "$work/bin"
	if [ ! "$work/bin/kbinder-fault-demo" -nt debug/fault-demo.c ]; then
		${CC:-gcc} -std=gnu11 -static -O2 -g -Wall -Wextra -Werror \
			-o "$work/bin/kbinder-fault-demo" debug/fault-demo.c ||
			die "building debug/fault-demo.c failed"
	fi
}

# The debug files every debug initramfs carries on top of the base one.
DEBUG_FILES=(
	debug/guest-debug-checks.sh:scripts/post-check.sh:0644
	debug/guest-fault.sh:scripts/fault.sh:0644
)

base_initramfs() {
	local out=$1 extra=()
	shift
	# Upstream's binderfs selftest, when the Makefile built it.
	[ -d "$BUILD/selftests/bin" ] && extra=(-b "$BUILD/selftests/bin")
	tests/vm/mkinitramfs.sh -o "$out" -m "$work/src/driver/kbinder.ko" \
		-m "$reference" "$@" -t "$BUILD/guest/bin" -b "$BUILD/tools/bin" \
		"${extra[@]}" || die "mkinitramfs failed"
}

stage_check() {
	sync_tree driver "$work/src/driver"
	sync_tree include "$work/src/include"
	kbuild_module "$work/src/driver"
	build_test_module
	build_fault_demo
	base_initramfs "$work/base.cpio.gz" -m "$work/kbinder-selftest.ko"
	extra_cpio "$work/extra.cpio.gz" "${DEBUG_FILES[@]}" \
		"$work/bin/kbinder-fault-demo:usr/bin/kbinder-fault-demo:0755"
	cat "$work/base.cpio.gz" "$work/extra.cpio.gz" >"$work/initramfs.cpio.gz"

	local logdir=$work/vm/check-$DRIVER start rc out=${DEBUG_RESULTS:-$results/debug-$DRIVER.log}
	echo "--- guest suite on $DRIVER, debug kernel (linux-source-$KSERIES)"
	mkdir -p "$logdir"
	tests/vm/judge.sh --list "$BUILD/guest/bin" "$TESTS" check "$DRIVER" post-check >"$logdir.expected"
	start=$(date +%s)
	debug_run "$work/initramfs.cpio.gz" "$logdir" check --driver "$DRIVER" \
		--tests "$TESTS" --timeout "$VM_TIMEOUT"
	rc=$?
	echo "check-debug: the debug run took $(($(date +%s) - start))s"
	# The runner's status, and every test built but not reported, count.
	tests/vm/judge.sh $rc "$logdir" "$out" "$logdir.expected"
	echo "--- summary"
	tests/vm/tally.sh tests/guest/known-failures.txt "$DRIVER@debug:$out"
}

# What each canary's failure must mention (a regex for its judged.log).
canary_expect() {
	case "$1" in
	uaf) echo 'KASAN: .*use-after-free' ;;
	oob) echo 'KASAN: .*out-of-bounds' ;;
	leak) echo '^FAIL debug/kmemleak_clean' ;;
	abba) echo 'possible circular locking' ;;
	sleep) echo 'sleeping function called from invalid context' ;;
	ubsan) echo 'UBSAN: array-index-out-of-bounds' ;;
	list) echo 'list_add double add|list_debug' ;;
	*) return 1 ;;
	esac
}

# The canary initramfs: the base one, the debug checks, the canary module.
build_canary_initramfs() {
	sync_tree driver "$work/src/driver"
	sync_tree include "$work/src/include"
	kbuild_module "$work/src/driver"
	sync_tree debug/canary "$work/canary"
	kbuild_module "$work/canary"
	build_fault_demo
	base_initramfs "$work/canary-base.cpio.gz"
	extra_cpio "$work/canary-extra.cpio.gz" "${DEBUG_FILES[@]}" \
		debug/guest-canary.sh:scripts/canary.sh:0644 \
		"$work/bin/kbinder-fault-demo:usr/bin/kbinder-fault-demo:0755" \
		"$work/canary/kbinder_canary.ko:lib/modules/kbinder_canary.ko:0644"
	cat "$work/canary-base.cpio.gz" "$work/canary-extra.cpio.gz" >"$work/initramfs-canary.cpio.gz"
}

stage_canary() {
	local bug logdir expect rc log=$results/debug-canary.log n=0
	build_canary_initramfs

	: >"$log"
	for bug in $CANARIES; do
		n=$((n + 1))
		logdir=$work/vm/canary-$bug
		echo "--- canary $bug"
		CANARY_APPEND="KBT_CANARY=$bug" DEBUG_MEMORY=$CANARY_MEMORY \
			debug_run "$work/initramfs-canary.cpio.gz" \
			"$logdir" canary --quiet --timeout 300 >"$logdir.out" 2>&1
		rc=$?
		grep '^vm: guest ran' "$logdir.out" | sed 's/^/    /'
		sed -n 's/^/    /; /FAIL/p' "$logdir/judged.log"
		if [ "$bug" = none ]; then
			if [ $rc -eq 0 ]; then
				echo "PASS debug-canary/no_bug_passes"
			else
				echo "FAIL debug-canary/no_bug_passes: the control run failed (see $logdir/judged.log)"
			fi
		elif [ "$bug" = fault ]; then
			if [ $rc -eq 0 ] && grep -q '^PASS debug/fault_nth_injects' "$logdir/judged.log"; then
				echo "PASS debug-canary/fault_injection_works"
			else
				echo "FAIL debug-canary/fault_injection_works: see $logdir/judged.log"
			fi
		elif ! expect=$(canary_expect "$bug"); then
			echo "FAIL debug-canary/$bug: no expectation for this bug"
		elif [ $rc -eq 0 ]; then
			echo "FAIL debug-canary/${bug}_fails_the_run: the run passed, the detector is blind"
		elif grep -qE "$expect" "$logdir/judged.log"; then
			echo "PASS debug-canary/${bug}_fails_the_run"
		else
			echo "FAIL debug-canary/${bug}_fails_the_run: failed, but not for '$expect' (see $logdir/judged.log)"
		fi | tee -a "$log"
	done
	# one result per canary, or the stage fails
	[ "$(grep -cE '^(PASS|FAIL|SKIP) ' "$log")" -eq $n ] ||
		echo "FAIL debug-canary/(count): $n canaries, $(grep -cE '^(PASS|FAIL|SKIP) ' "$log") results" | tee -a "$log"
	echo "--- summary"
	tests/vm/tally.sh tests/guest/known-failures.txt "host:$log"
}

# canary-boot (make check's debug stage): one boot of the canary initramfs
# that commits every bug of $BOOT_CANARIES in turn (guest-canary.sh with a
# comma list; kasan_multi_shot, so that KASAN reports more than its first).
# Each bug's report must be charged to the phase its marker opened
# (vm/canary_BUG), or, for the leak, fail debug/kmemleak_clean. The order
# matters: lockdep switches itself off at its first report and at any
# KASAN report, so abba comes first and the KASAN bugs last. The control
# (a run without a bug passes) and fault injection are the debug stage's
# own run of the suite (its fault_* tests). Results: debug-canary/*.
: "${BOOT_CANARIES:=abba sleep list ubsan leak uaf oob}"
stage_canary_boot() {
	local bug logdir=$work/vm/canary-boot expect rc log=${CANARY_RESULTS:-$results/debug-canary-boot.log} start
	build_canary_initramfs
	echo "--- canaries in one boot: $BOOT_CANARIES"
	start=$(date +%s)
	CANARY_APPEND="KBT_CANARY=$(echo "$BOOT_CANARIES" | tr -s ' ' ,) kasan_multi_shot" \
		DEBUG_MEMORY=$CANARY_MEMORY debug_run "$work/initramfs-canary.cpio.gz" \
		"$logdir" canary --quiet --timeout 600 >"$logdir.out" 2>&1
	rc=$?
	echo "check-debug: the canary boot took $(($(date +%s) - start))s"
	grep '^vm: guest ran' "$logdir.out" | sed 's/^/    /'
	: >"$log"
	for bug in $BOOT_CANARIES; do
		if ! expect=$(canary_expect "$bug"); then
			echo "FAIL debug-canary/${bug}_is_reported: no expectation for this bug"
		elif [ "$bug" = leak ]; then
			if grep -qE "$expect" "$logdir/judged.log"; then
				echo "PASS debug-canary/${bug}_is_reported"
			else
				echo "FAIL debug-canary/${bug}_is_reported: no '$expect' (see $logdir/judged.log)"
			fi
		elif grep -E "^FAIL vm/canary_$bug: " "$logdir/judged.log" | grep -qE "$expect"; then
			echo "PASS debug-canary/${bug}_is_reported"
		else
			echo "FAIL debug-canary/${bug}_is_reported: no FAIL vm/canary_$bug with '$expect' (see $logdir/judged.log)"
		fi
	done | tee "$log"
	if [ $rc -eq 0 ]; then
		echo "FAIL debug-canary/(boot): the boot passed: every detector is blind" | tee -a "$log"
	fi
	grep -q '^KBT-VERDICT: done' "$logdir/results.log" ||
		echo "FAIL debug-canary/(boot): no verdict (see $logdir)" | tee -a "$log"
	echo "--- summary"
	tests/vm/tally.sh tests/guest/known-failures.txt "host:$log"
}

# fuzz (`make fuzz KERNEL=debug`, fuzz/fuzz.mk): kbfuzz on $DRIVER in one
# boot of the debug kernel, then the debug checks. FUZZ_APPEND: fuzz.sh's
# knobs; FUZZ_LOGDIR, FUZZ_TIMEOUT: the run's logs and limit.
stage_fuzz() {
	local logdir=${FUZZ_LOGDIR:-$BUILD/fuzz/debug-$DRIVER} start rc
	sync_tree driver "$work/src/driver"
	sync_tree include "$work/src/include"
	kbuild_module "$work/src/driver"
	tests/vm/mkinitramfs.sh -o "$work/fuzz-base.cpio.gz" -m "$work/src/driver/kbinder.ko" \
		-m "$reference" -b "$BUILD/fuzz/bin" -b "$BUILD/tools/bin" || die "mkinitramfs failed"
	extra_cpio "$work/fuzz-extra.cpio.gz" "${DEBUG_FILES[0]}"
	cat "$work/fuzz-base.cpio.gz" "$work/fuzz-extra.cpio.gz" >"$work/initramfs-fuzz.cpio.gz"
	echo "--- kbfuzz on $DRIVER, debug kernel"
	mkdir -p "$logdir"
	# fuzz.sh runs the debug checks after kbinder's teardown only
	if [ "$DRIVER" = kbinder ]; then
		tests/vm/judge.sh --list - '*' fuzz "$DRIVER" post-check >"$logdir/expected"
	else
		tests/vm/judge.sh --list - '*' fuzz "$DRIVER" >"$logdir/expected"
	fi
	start=$(date +%s)
	DEBUG_APPEND="$DEBUG_APPEND ${FUZZ_APPEND:-}" debug_run "$work/initramfs-fuzz.cpio.gz" \
		"$logdir" fuzz --driver "$DRIVER" --timeout "${FUZZ_TIMEOUT:-900}"
	rc=$?
	echo "check-debug: the fuzz run took $(($(date +%s) - start))s"
	tests/vm/judge.sh $rc "$logdir" "$logdir/judged.stage" "$logdir/expected" >/dev/null
	echo "--- fuzz summary ($DRIVER, debug kernel, logs in $logdir)"
	tr -d '\r' <"$logdir/results.log" | sed -n 's/^FUZZ /kbfuzz: /p'
	tests/vm/tally.sh tests/guest/known-failures.txt "$DRIVER:$logdir/judged.stage"
}

case "${1:-}" in
check) stage_check ;;
canary) stage_canary ;;
canary-boot) stage_canary_boot ;;
fuzz) stage_fuzz ;;
*) sed -n '3,26p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
