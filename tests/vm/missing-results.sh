#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# usage: missing-results.sh EXPECTED RESULTS
# EXPECTED lists the tests a run must report, one <suite>/<test> a line (what
# the test programs list with -l); RESULTS holds the run's result lines. Print
# a FAIL line for every expected test without a result: a program that died,
# hung or stopped half-way must not shrink the count silently. A suite none
# of whose tests reported gets one line for all of them.
set -u
expected=$1 results=$2
[ -r "$expected" ] || { echo "FAIL tally/expected: cannot read $expected"; exit 0; }
{ [ -r "$results" ] && tr -d '\r' <"$results"; } | awk -v expected="$expected" '
	/^(PASS|FAIL|SKIP) / { name = $2; sub(/:$/, "", name); have[name] = 1 }
	END {
		while ((getline line < expected) > 0) {
			# (a FAIL line of judge.sh --list is a failure, no test)
			if (line == "" || line ~ /^FAIL / || (line in seen)) continue
			seen[line] = 1
			suite = line; sub(/\/.*/, "", suite)
			n = ++count[suite]; test[suite, n] = line
			if (!(suite in order)) { order[suite] = ++suites; name_of[suites] = suite }
			if (line in have) reported[suite]++
		}
		for (i = 1; i <= suites; i++) {
			s = name_of[i]
			if (reported[s] == 0) {
				printf "FAIL %s/(results): none of its %d tests reported a result\n", s, count[s]
				continue
			}
			for (j = 1; j <= count[s]; j++)
				if (!(test[s, j] in have))
					printf "FAIL %s: no result (its program ended without reporting it)\n", test[s, j]
		}
	}'
