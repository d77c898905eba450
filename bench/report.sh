#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# Host half of `make bench`: from the guest's results.log, write
# build/bench/results.json, results.csv and bench.svg and print the table
# (kbinder/reference ratio per row with its spread, the A/A control, the
# baselines, the issue's targets, kernel memory per object).
#
# usage: bench/report.sh LOGDIR [OUTDIR]    (OUTDIR: build/bench)
# Exit status 1 when there is nothing to report, when kbinder did not load
# (no "PASS bench/load_kbinder"; the self-test, BENCH_SELFTEST=1, has no
# kbinder on purpose), or when the report cannot be made.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
logdir=${1:?usage: report.sh LOGDIR [OUTDIR]}
outdir=${2:-$here/../build/bench}
log=$logdir/results.log
if [ ! -s "$log" ]; then
	echo "bench/report.sh: no results in $log" >&2
	exit 1
fi
mkdir -p "$outdir"
cp "$log" "$outdir/results.log"
rc=0
python3 "$here/report.py" "$outdir/results.log" "$outdir" || rc=$?
if ! tr -d '\r' <"$log" | grep -q '^PASS bench/load_kbinder$' &&
	! tr -d '\r' <"$log" | grep -q '^SKIP bench/load_kbinder: self-test'; then
	echo "bench/report.sh: kbinder was not measured: $(tr -d '\r' <"$log" |
		grep -m1 ' bench/load_kbinder' || echo 'no bench/load_kbinder line')" >&2
	rc=1
fi
exit $rc
