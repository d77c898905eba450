# SPDX-License-Identifier: Apache-2.0
#
# AOSP's binderThroughputTest on kbinder and on the upstream driver in one
# boot, with an A/A control (interop/aosp/bench.sh boots it; figures in
# docs/performance.md): the upstream driver loaded under two names
# (refbinder, refbinder2: the second is the control) and kbinder
# (devices=kbinder), AOSP's servicemanager on each device for the whole
# boot, and /dev/binder, which libbinder opens, a symlink switched to the
# device under test before each run. A round runs the test once on each
# device, the order rotating from round to round. One line per run:
#   AOSP-BENCH ROUND DEVICE ITERATIONS_PER_S BEST_MS
# Knobs: AOSP_BENCH_ROUNDS (30), AOSP_BENCH_ITERATIONS (calls per worker,
# 1000), AOSP_BENCH_WORKERS (2).
. /scripts/lib.sh

: "${AOSP_BENCH_ROUNDS:=30}"
: "${AOSP_BENCH_ITERATIONS:=1000}"
: "${AOSP_BENCH_WORKERS:=2}"
echo 1 >/proc/sys/kernel/printk

if ! out=$(insmod /lib/modules/binder_linux.ko devices=refbinder,refbinder2 2>&1) ||
	! out2=$(insmod /lib/modules/kbinder.ko devices=kbinder 2>&1); then
	result FAIL vm/aosp-bench-load "${out:-} ${out2:-}"
	exit 1
fi
rm -f /dev/binder
for d in refbinder kbinder refbinder2; do
	servicemanager "/dev/$d" &
done
sleep 2

round=1
while [ $round -le "$AOSP_BENCH_ROUNDS" ]; do
	case $(((round - 1) % 3)) in
	0) order="refbinder kbinder refbinder2" ;;
	1) order="kbinder refbinder2 refbinder" ;;
	2) order="refbinder2 refbinder kbinder" ;;
	esac
	for d in $order; do
		ln -sf "/dev/$d" /dev/binder
		log=/tmp/bench-$d.log
		timeout 300 binderThroughputTest -w "$AOSP_BENCH_WORKERS" \
			-i "$AOSP_BENCH_ITERATIONS" >"$log" 2>&1
		brc=$?
		ips=$(sed -n 's/^iterations per sec: *//p' "$log" | head -n 1)
		best=$(sed -n 's/.*best:\([0-9.e+-]*\)ms.*/\1/p' "$log" | head -n 1)
		echo "AOSP-BENCH $round $d ${ips:-none} ${best:-none} rc=$brc"
		[ $brc -eq 0 ] && [ -n "$ips" ] || result FAIL "aosp-bench/$d" "round $round: exit $brc"
	done
	round=$((round + 1))
done
result PASS aosp-bench/ran
kmsg_handover
exit 0
