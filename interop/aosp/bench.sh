#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# AOSP's binderThroughputTest on kbinder and on the upstream driver in one
# boot, with its A/A control (guest/aosp-bench.sh), and the summary that
# docs/performance.md records: per device the median iterations/s over the
# rounds and the 10th percentile of each run's fastest call, and the
# ratios against the reference (kbinder's, and the control's).
#
# usage: bench.sh     (from the top of the tree; make bench-aosp)
#   AOSP_OUT=DIR  the AOSP programs (check.sh); KSERIES (6.12);
#   AOSP_BENCH_ROUNDS, AOSP_BENCH_ITERATIONS, AOSP_BENCH_WORKERS: the guest's
#   AOSP_LOGS=DIR (build/aosp/logs); VM_TIMEOUT=S (3600)
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
[ -n "${AOSP_OUT:-}" ] || { "$here/check.sh"; exit 0; }
s=${KSERIES:-6.12}
log=${AOSP_LOGS:-build/aosp/logs}/bench-$s
mkdir -p build/vm
made=$(AOSP_OUT=$AOSP_OUT "$here/initramfs.sh" "$s") || exit 1
read -r kver initramfs ref <<<"$made"
[ -n "$ref" ] || { echo "bench.sh: $s has no reference driver" >&2; exit 1; }
knobs=""
for k in AOSP_BENCH_ROUNDS AOSP_BENCH_ITERATIONS AOSP_BENCH_WORKERS; do
	[ -n "${!k:-}" ] && knobs="$knobs $k=${!k}"
done
# As make bench: a vCPU woken by polling, one clock source (VM-NOTES.md);
# SELinux so AOSP's servicemanager gets its callers' contexts.
nice tests/vm/run.sh --kernel "/boot/vmlinuz-$kver" --initramfs "$initramfs" \
	--accel-cache build/vm/accel --timeout "${VM_TIMEOUT:-3600}" --driver kbinder \
	--append "idle=poll clocksource=tsc tsc=reliable lsm=lockdown,capability,landlock,yama,selinux,bpf selinux=1$knobs" \
	--logdir "$log" --quiet aosp-bench
rc=$?
tr -d '\r' <"$log/output.log" | awk '$1 == "AOSP-BENCH" && $4 != "none" {
	n[$3]++; ips[$3, n[$3]] = $4; best[$3, n[$3]] = $5 * 1000 }
function sortv(a, k, m,   i, j, v) {
	for (i = 2; i <= m; i++) {
		v = a[k, i]
		for (j = i - 1; j >= 1 && a[k, j] > v; j--) a[k, j + 1] = a[k, j]
		a[k, j + 1] = v
	}
}
function med(a, k, m) { sortv(a, k, m); return m % 2 ? a[k, (m + 1) / 2] : (a[k, m / 2] + a[k, m / 2 + 1]) / 2 }
function p10(a, k, m) { sortv(a, k, m); return a[k, int((m - 1) / 10) + 1] }
END {
	if (!n["refbinder"] || !n["kbinder"] || !n["refbinder2"]) { print "bench.sh: no complete rounds"; exit 1 }
	for (d in n) { mi[d] = med(ips, d, n[d]); pb[d] = p10(best, d, n[d]) }
	printf "| device | runs | median iterations/s | fastest call, 10th percentile (us) |\n|---|---|---|---|\n"
	split("refbinder kbinder refbinder2", order, " ")
	for (i = 1; i <= 3; i++) { d = order[i]; printf "| %s | %d | %.0f | %.1f |\n", d, n[d], mi[d], pb[d] }
	printf "\nkbinder / reference: %.3f (A/A, refbinder2 / reference: %.3f) in iterations/s\n", \
		mi["kbinder"] / mi["refbinder"], mi["refbinder2"] / mi["refbinder"]
	printf "reference / kbinder: %.3f (A/A, reference / refbinder2: %.3f) in fastest call\n", \
		pb["refbinder"] / pb["kbinder"], pb["refbinder"] / pb["refbinder2"]
}' | tee "$log/summary.md"
exit $rc
