#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# The host half of `make bench-insn`: boot the guest once (or twice, to
# check that two boots agree) on one vCPU with single-threaded TCG and the
# instruction-count plugin, then print the table (and the profile).
#
# usage: bench/insn/run.sh --kernel VMLINUZ --initramfs FILE --plugin FILE.so
#            --out DIR [--check] [--profile N] [--append WORDS]
#            [--icount SPEC] [--timeout S] [--tolerance PCT]
#   --out DIR      boot N's logs in DIR/bootN, its table in DIR/bootN/insn.json
#   --check        boot twice and compare the tables (bench/insn/report.py
#                  compare): fails when a count differs by more than
#                  --tolerance percent (2)
#   --profile N    the plugin's per-block counts and the guest's kallsyms:
#                  the N functions with the most kernel instructions per
#                  workload and driver (all of them in DIR/bootN/profile.txt)
#   --append WORDS more kernel command line (BENCH_INSN_WORKLOADS=...,
#                  BENCH_INSN_OPS=...: tests/vm/guest/bench_insn.sh)
#   --icount SPEC  QEMU's -icount (default shift=0,sleep=off: the guest's
#                  clock advances 1 ns per instruction and jumps over idle
#                  time, so whatever the kernel decides by the clock, the
#                  scheduler's wake-up preemption, where a tick lands,
#                  repeats from boot to boot); "" for the host's clock
# No idle=poll: the idle loop's instructions would count.
# Ends with "N passed, N failed" over the guest's result lines, each
# boot's table (bench-insn/table) and the comparison
# (bench-insn/agreement); exit status 1 when any failed.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
kernel="" initramfs="" plugin="" out="" check=0 profile=0 append="" timeout=900 tol=2
icount=shift=0,sleep=off
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) kernel=$2; shift ;;
	--initramfs) initramfs=$2; shift ;;
	--plugin) plugin=$2; shift ;;
	--out) out=$2; shift ;;
	--check) check=1 ;;
	--profile) profile=$2; shift ;;
	--append) append=$2; shift ;;
	--timeout) timeout=$2; shift ;;
	--tolerance) tol=$2; shift ;;
	--icount) icount=$2; shift ;;
	-h | --help) sed -n '3,32p' "$0"; exit 0 ;;
	*) echo "bench/insn/run.sh: unknown argument $1" >&2; exit 2 ;;
	esac
	shift
done
if [ -z "$kernel" ] || [ -z "$initramfs" ] || [ -z "$plugin" ] || [ -z "$out" ]; then
	echo "usage: bench/insn/run.sh --kernel F --initramfs F --plugin F.so --out DIR [--check] [--profile N]" >&2
	exit 2
fi
case "$profile" in '' | *[!0-9]*) echo "bench/insn/run.sh: --profile takes a number" >&2; exit 2 ;; esac

# Which kbinder is measured: the last commit of driver/ (and its UAPI),
# "+changes" when they differ from it, and the tree's own commit.
tree=$(git -C "$root" describe --always --dirty --abbrev=7 2>/dev/null || echo unknown)
drv=$(git -C "$root" log -1 --format=%h -- driver include/uapi 2>/dev/null || echo unknown)
[ -n "$(git -C "$root" status --porcelain -- driver include/uapi 2>/dev/null)" ] && drv="$drv+changes"
commit="$drv (tree $tree)"
spec=$plugin
words="clocksource=tsc tsc=reliable log_buf_len=1M"
if [ "$profile" -gt 0 ]; then
	spec="$plugin,profile=on"
	words="$words BENCH_INSN_PROFILE=1"
fi
setup="single-threaded TCG, -icount $icount"
[ -n "$icount" ] || setup="single-threaded TCG, the host's clock"
boots=1
[ "$check" = 1 ] && boots=2
mkdir -p "$out"
log=$out/results.txt
: >"$log"
for b in $(seq 1 $boots); do
	dir=$out/boot$b
	mkdir -p "$dir"
	rm -f "$dir/insn.json"
	echo "bench-insn: boot $b of $boots, kbinder $commit"
	"$root/tests/vm/run.sh" --kernel "$kernel" --initramfs "$initramfs" \
		--smp 1 --tcg-thread single --plugin "$spec" ${icount:+--icount "$icount"} \
		--timeout "$timeout" --logdir "$dir" --quiet --append "$words $append" bench_insn
	tr -d '\r' <"$dir/judged.log" | tee -a "$log"
	targs=(table "$dir" --json "$dir/insn.json" --commit "$commit" --qemu "$setup")
	[ "$profile" -gt 0 ] && targs+=(--profile "$profile" --profile-out "$dir/profile.txt")
	python3 "$here/report.py" "${targs[@]}" | tee "$dir/table.txt"
	grep -E '^(PASS|FAIL) ' "$dir/table.txt" | sed "s|bench-insn/table|bench-insn/table_boot$b|" >>"$log"
done
if [ "$check" = 1 ]; then
	if [ -s "$out/boot1/insn.json" ] && [ -s "$out/boot2/insn.json" ]; then
		python3 "$here/report.py" compare "$out/boot1/insn.json" "$out/boot2/insn.json" \
			--tolerance "$tol" | tee "$out/agreement.txt"
		grep -E '^(PASS|FAIL) ' "$out/agreement.txt" >>"$log"
	else
		echo "FAIL bench-insn/agreement: a boot has no table to compare" | tee -a "$log"
	fi
fi
passed=$(grep -c '^PASS ' "$log")
failed=$(grep -c '^FAIL ' "$log")
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
