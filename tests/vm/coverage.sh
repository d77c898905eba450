#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# usage: coverage.sh BUILT LABEL:FILE...
# BUILT lists every test the selected programs have (judge.sh --list
# GUEST_BIN GLOBS: <suite>/<test> a line); each FILE holds one boot's result
# lines, LABEL names the boot (kbinder, reference@selinux, kbinder@debug,
# ...). A test ran in a boot when that boot reported it PASS or FAIL (a
# SKIP did not run it). Prints how many of the built tests each boot ran,
# and a FAIL for every built test that ran in no boot at all (a test that
# skips everywhere tests nothing, and make check would pass without it), or
# PASS coverage/every_built_test_ran. BUILT's own FAIL lines (judge.sh
# --list: no program built, one that lists no test) fail here too, and so
# does a BUILT of no test at all: nothing ran is not everything ran.
set -u
built=$1
shift
[ -r "$built" ] || { echo "FAIL coverage/(built): cannot read $built"; exit 0; }
for arg in "$@"; do
	label=${arg%%:*} file=${arg#*:}
	[ -r "$file" ] || continue
	# testbuild.sh runs some programs with the test build loaded and
	# reports them as testbuild/<suite>/<test>: a run of <suite>/<test>.
	tr -d '\r' <"$file" | awk -v label="$label" '/^(PASS|FAIL|SKIP) / {
		name = $2; sub(/:$/, "", name); sub(/^testbuild\//, "", name)
		print label, $1, name }'
done | awk -v built="$built" '
	BEGIN {
		while ((getline line < built) > 0) {
			if (line ~ /^FAIL /) { broken[++nbroken] = line; continue }
			if (line != "" && !(line in want)) { want[line] = 1; order[++n] = line }
		}
	}
	{
		label = $1; status = $2; name = $3
		if (!(label in boots)) { boots[label] = 1; boot[++nb] = label }
		if (!(name in want)) next
		if (status == "SKIP") { skipped_in[name] = skipped_in[name] " " label; next }
		if (!((label, name) in counted)) { counted[label, name] = 1; ran[label]++ }
		anywhere[name] = 1
	}
	END {
		line = "tests run per boot (of " n " built):"
		for (i = 1; i <= nb; i++)
			line = line sprintf(" %s %d%s", boot[i], ran[boot[i]], i < nb ? "," : "")
		print line
		for (i = 1; i <= nbroken; i++) {
			sub(/^FAIL /, "FAIL coverage/", broken[i])
			print broken[i]
			missing++
		}
		if (n == 0) {
			print "FAIL coverage/(built): no test was built: nothing ran, which is not everything"
			missing++
		}
		for (i = 1; i <= n; i++) {
			t = order[i]
			if (t in anywhere) continue
			why = (t in skipped_in) ? "skipped in" skipped_in[t] : "reported by no boot"
			printf "FAIL coverage/%s: ran in no boot (%s)\n", t, why
			missing++
		}
		if (!missing)
			print "PASS coverage/every_built_test_ran"
	}'
