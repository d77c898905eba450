#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# usage: judge.sh --list GUEST_BIN GLOBS >EXPECTED     (before the boot)
#        judge.sh RC LOGDIR OUT EXPECTED                 (after it)
# --list prints the tests a run will report: what every program in
# GUEST_BIN whose name matches GLOBS (comma-separated globs, as TESTS) lists
# with -l; a 32-bit program (compat32_X) may not run on the host, it lists
# what X lists. Make the list before the boot, from the programs the
# initramfs was built with.
# Then the result file OUT of the run, for tally.sh: its judged lines
# (LOGDIR/judged.log, from run.sh), a FAIL when the runner exited non-zero
# (RC) without saying why, and a FAIL for every EXPECTED test that did not
# report (missing-results.sh).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)

list_tests() {
	local bin=$1 prog name glob match
	local -a globs
	IFS=, read -r -a globs <<<"$2"
	for prog in "$bin"/*; do
		[ -f "$prog" ] && [ -x "$prog" ] || continue
		name=${prog##*/}
		match=0
		for glob in "${globs[@]}"; do
			# shellcheck disable=SC2254
			case "$name" in $glob) match=1 ;; esac
		done
		[ $match -eq 1 ] || continue
		if ! "$prog" -l 2>/dev/null; then
			case "$name" in
			compat32_*) "$bin/${name#compat32_}" -l 2>/dev/null |
				sed "s|^${name#compat32_}/|$name/|" ;;
			*) echo "$name/(list)" ;;
			esac
		fi
	done
}

if [ "${1:-}" = --list ]; then
	list_tests "$2" "$3"
	exit 0
fi
[ $# -eq 4 ] || { sed -n '3,15p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
rc=$1 dir=$2 out=$3 expected=$4
if [ -r "$dir/judged.log" ]; then
	cp "$dir/judged.log" "$out"
else
	: >"$out"
fi
if [ "$rc" -ne 0 ] && ! grep -q '^FAIL ' "$out"; then
	echo "FAIL vm/run: the runner exited with status $rc (see $dir)" | tee -a "$out"
fi
"$here/missing-results.sh" "$expected" "$out" | tee -a "$out"
exit 0
