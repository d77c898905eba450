#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# The per-case table of the AOSP runs, and its verdict.
#
# usage: table.sh SERIES-DRIVER=OUTPUT.LOG...
#   e.g. table.sh 6.12-kbinder=build/aosp/logs/6.12-kbinder/output.log \
#                 6.12-reference=build/aosp/logs/6.12-reference/output.log
#
# Reads the guest's AOSP-CASE lines (guest/aosp-lib.sh) from each boot's
# output log and prints one Markdown row per case with each boot's status.
# Verdict, per case and kernel series: kbinder passes every case the
# reference passes there (a SKIP counts as passing only where the reference
# skipped too); a case that only kbinder's boot runs (binderfs: features,
# containers) must pass or skip, unless the reference fails the same
# program's same case in its aosp-suite run. A case of the aidl phases
# (aosp-aidl*: kbinder's devices with the aidl profile; the reference says
# n/a, it has no profiles) must do what kbinder's full device did with it
# in the same boot (aosp-features for aosp-aidl-binderfs, else aosp-suite):
# pass where it passed, pass or skip where it skipped; one that fails on
# the full device too is listed, one that has no such case there must pass
# or skip. A case neither boot of a series ran is not judged there
# (AOSP_TESTS chose fewer phases). Cases that fail on both drivers are
# listed after the table: docs/interop.md explains each. Ends with
# "N passed, N failed"; exit status 1 if any failed.
set -uo pipefail

[ $# -gt 0 ] || { echo "usage: $0 SERIES-DRIVER=OUTPUT.LOG..." >&2; exit 2; }
for arg in "$@"; do
	[ -r "${arg#*=}" ] || { echo "table.sh: cannot read ${arg#*=}" >&2; exit 2; }
done

for arg in "$@"; do
	label=${arg%%=*}
	tr -d '\r' <"${arg#*=}" | awk -v l="$label" '$1 == "AOSP-CASE" && NF >= 5 {
		print l, $2, $3, $4, $5 }'
done | awk -v labels="$(printf '%s ' "${@%%=*}")" '
	function status(r, c) { return ((r, c) in st) ? st[r, c] : "" }
	BEGIN { n = split(labels, col, " ") }
	{
		row = $2 " | " $3 " | " $4
		if (!(row in seen)) { seen[row] = 1; rows[++nr] = row }
		st[row, $1] = $5
	}
	END {
		printf "| phase | program | case |"
		for (i = 1; i <= n; i++) printf " %s |", col[i]
		printf "\n|---|---|---|"
		for (i = 1; i <= n; i++) printf "---|"
		printf "\n"
		# rows sorted by phase, program, case
		for (i = 1; i <= nr; i++) order[i] = rows[i]
		for (i = 2; i <= nr; i++) {
			v = order[i]
			for (j = i - 1; j >= 1 && order[j] > v; j--) order[j + 1] = order[j]
			order[j + 1] = v
		}
		passed = failed = 0
		for (r = 1; r <= nr; r++) {
			row = order[r]
			printf "| %s |", row
			for (i = 1; i <= n; i++) {
				s = ((row, col[i]) in st) ? st[row, col[i]] : "-"
				printf " %s |", s
			}
			printf "\n"
			# judge per series: kbinder against the reference
			for (i = 1; i <= n; i++) {
				split(col[i], sd, "-")
				if (sd[2] != "kbinder") continue
				ser = sd[1]
				kb = ((row, col[i]) in st) ? st[row, col[i]] : ""
				rk = ser "-reference"
				has_ref = 0
				for (j = 1; j <= n; j++) if (col[j] == rk) has_ref = 1
				rs = ((row, rk) in st) ? st[row, rk] : ""
				if (kb == "" && rs == "") continue	# not run in this series
				split(row, rp, " \\| ")
				if (rp[1] ~ /^aosp-aidl/) {
					# an aidl device: as kbinder on a full device
					# did (the same case of the full phase, else
					# of aosp-suite); n/a on the reference
					bp = rp[1] == "aosp-aidl-binderfs" ? "aosp-features" : "aosp-suite"
					bs = status(bp " | " rp[2] " | " rp[3], col[i])
					if (bs == "" && bp != "aosp-suite") {
						bp = "aosp-suite"
						bs = status(bp " | " rp[2] " | " rp[3], col[i])
					}
					ok = kb == "PASS" || (kb == "SKIP" && bs != "PASS")
					if (!ok && bs != "" && bs != "PASS" && bs != "SKIP" && kb != "") {
						ok = 1
						both[++nb] = ser ": " row " (" kb " / full device, " bp ": " bs ")"
					}
					why = "kbinder " (kb == "" ? "did not run it" : kb) (bs == "" ? "" : ", full device " bs)
					if (ok) passed++
					else { failed++; bad[++nbad] = ser ": " row ": " why }
					continue
				}
				if (has_ref && rs != "") {
					ok = (rs != "PASS" && rs != "SKIP") || kb == "PASS" || (kb == "SKIP" && rs == "SKIP")
					if (rs != "PASS" && rs != "SKIP" && kb != "PASS" && kb != "SKIP")
						both[++nb] = ser ": " row " (" kb " / " rs ")"
					why = "kbinder " (kb == "" ? "did not run it" : kb) ", reference " rs
				} else {
					# kbinder only (binderfs): compared with what
					# the reference did with the case in aosp-suite
					sr = "aosp-suite | " rp[2] " | " rp[3]
					rs = ((sr, rk) in st) ? st[sr, rk] : ""
					ok = (kb == "PASS" || kb == "SKIP")
					if (!ok && has_ref && rs != "" && rs != "PASS" && rs != "SKIP") {
						ok = 1
						both[++nb] = ser ": " row " (" kb " / aosp-suite: " rs ")"
					}
					why = "kbinder " (kb == "" ? "did not run it" : kb) " (kbinder only)"
				}
				if (ok) passed++
				else { failed++; bad[++nbad] = ser ": " row ": " why }
			}
		}
		if (nb) {
			printf "\nFailing on both drivers (explained in docs/interop.md):\n"
			for (i = 1; i <= nb; i++) printf "  %s\n", both[i]
		}
		if (nbad) {
			printf "\nkbinder differs from the reference (aosp-aidl*: from kbinder on a full device, or fails with none in the boot):\n"
			for (i = 1; i <= nbad; i++) printf "  FAIL %s\n", bad[i]
		}
		printf "\n%d passed, %d failed\n", passed, failed
		exit failed > 0
	}'
