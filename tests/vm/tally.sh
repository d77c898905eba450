#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# usage: tally.sh KNOWN_FAILURES DRIVER:FILE...
# Merge result lines (PASS/FAIL/SKIP NAME[: why]) from several files, apply
# the known-failures list for each file's driver, print one line per test and
# a line per DRIVER label with its own counts (when there is more than
# one), and the closing line "N passed, N failed, N skipped". Exit 1 on any
# failure.
#
# DRIVER is kbinder, reference, host (no driver), or a driver with a
# variant, e.g. kbinder@debug (the debug kernel): the variant shows in the
# label; the known-failures list is looked up by the label and by the
# driver alone (a line for reference@6.12-amd64 lists a failure of that run
# only, one for reference of every run of the reference).
#
# A test reported more than once counts once: FAIL beats SKIP beats PASS.
# A listed known failure that fails counts as skipped, unless one of its
# FAIL lines reports a kernel splat ("kernel log: ..."): a splat always
# fails. A listed test that passes fails the run, so the list cannot go
# stale. A result file that is missing or holds no result line fails the
# run (tally/results), and so does a run with no result at all.
set -u
known=$1
shift
for arg in "$@"; do
	driver=${arg%%:*}
	file=${arg#*:}
	if [ ! -r "$file" ]; then
		echo "$driver FAIL tally/results: missing result file $file"
	elif ! tr -d '\r' <"$file" | grep -qE '^(PASS|FAIL|SKIP) '; then
		echo "$driver FAIL tally/results: no result line in $file"
	else
		tr -d '\r' <"$file" | grep -E '^(PASS|FAIL|SKIP) ' | sed "s|^|$driver |"
	fi
done | awk -v known="$known" '
	BEGIN {
		while ((getline line < known) > 0) {
			sub(/#.*/, "", line)
			n = split(line, f, " ")
			if (n >= 2) listed[f[1] " " f[2]] = 1
		}
	}
	{
		driver = $1; status = $2; name = $3; sub(/:$/, "", name)
		why = $0; sub(/^[^ ]+ [^ ]+ [^ ]+ ?/, "", why)
		key = driver " " name
		rank = (status == "FAIL") ? 3 : (status == "SKIP") ? 2 : 1
		if (!(key in best) || rank > best[key]) {
			best[key] = rank; reason[key] = why
		}
		if (status == "FAIL" && !(key in splat) && index(why, "kernel log: ") > 0)
			splat[key] = substr(why, index(why, "kernel log: "))
		if (!(key in order)) { order[key] = ++count; keys[count] = key }
	}
	END {
		passed = failed = skipped = 0
		for (i = 1; i <= count; i++) {
			key = keys[i]; split(key, k, " ")
			base = k[1]; sub(/@.*/, "", base)
			label = (k[1] == "host") ? k[2] : k[2] " [" k[1] "]"
			r = best[key]
			if (((base " " k[2]) in listed) || ((k[1] " " k[2]) in listed)) {
				if (r == 3 && (key in splat)) { reason[key] = "known failure, but a kernel splat: " splat[key] }
				else if (r == 3) { r = 2; reason[key] = "known failure (tests/guest/known-failures.txt)" }
				else if (r == 1) { r = 3; reason[key] = "passes now: remove it from tests/guest/known-failures.txt" }
			}
			run = k[1]
			if (!(run in runs)) { runs[run] = ++nruns; run_name[nruns] = run }
			if (r == 3) {
				failed++; rf[run]++
				fails[failed] = "FAIL " label (reason[key] == "" ? "" : ": " reason[key])
				print fails[failed]
			}
			else if (r == 2) { skipped++; rs[run]++; print "SKIP " label (reason[key] == "" ? "" : ": " reason[key]) }
			else { passed++; rp[run]++; print "PASS " label }
		}
		if (count == 0) { failed++; print "FAIL tally/results: no result at all" }
		# The failures once more, next to the counts, so that a log cut
		# down to its tail (as CI keeps it) still names them: those of
		# the boot itself (vm/, where a guest that stopped early says
		# why) and kernel splats first, at most 40 in all.
		if (failed > 0 && count > 40) {
			print "--- failures"
			shown = 0
			for (pass = 1; pass <= 2; pass++)
				for (i = 1; i <= failed; i++) {
					first = fails[i] ~ /^FAIL vm\// || index(fails[i], "kernel log: ") > 0
					if ((pass == 1) != first) continue
					if (++shown <= 40) print fails[i]
				}
			if (shown > 40) print "... and " shown - 40 " more"
		}
		# One line per run (driver, kernel, boot), then the total.
		if (nruns > 1)
			for (i = 1; i <= nruns; i++) {
				run = run_name[i]
				printf "  %s: %d passed, %d failed, %d skipped\n", run, rp[run], rf[run], rs[run]
			}
		printf "%d passed, %d failed, %d skipped\n", passed, failed, skipped
		exit failed > 0
	}'
