#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# usage: judge.sh --list GUEST_BIN GLOBS [RUN DRIVER [ADDON...]] >EXPECTED
#                                                          (before the boot)
#        judge.sh RC LOGDIR OUT EXPECTED                   (after it)
# --list prints the results a run will report: what every program in
# GUEST_BIN ("-": none) whose name matches GLOBS (comma-separated globs, as
# TESTS) lists with -l (a 32-bit program, compat32_X, may not run on the
# host: it lists what X lists), and the lines tests/vm/guest/results.list
# declares for the guest script RUN (check, fuzz, programs) and each ADDON
# a variant initramfs adds (post-check) on DRIVER, as far as GLOBS select
# them; GLOBS that select no program and no group of a script's results
# add vm/selection, which the judgement fails. A FAIL line stands for a
# build that cannot pass honestly, and the judgement copies it: GUEST_BIN
# without any program, a selected tests/guest/*.c (KBT_GUEST_SRC: another
# directory of sources) with no program built, a program whose -l fails or
# lists no test. Make the list before the boot, from the programs the
# initramfs was built with.
# Then the result file OUT of the run, for tally.sh: its judged lines
# (LOGDIR/judged.log, from run.sh), a FAIL when the runner exited non-zero
# (RC) without saying why, a FAIL for every EXPECTED result that did not
# report (missing-results.sh), and a FAIL for every PASS or SKIP that is
# not EXPECTED (a result nobody declared: the list would drift).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
table=$here/guest/results.list

# shellcheck source=tests/vm/select.sh
. "$here/select.sh"

# list_tests GUEST_BIN GLOBS: what the selected programs list, and a FAIL
# line (which the judgement copies) for a build that cannot pass honestly:
# no test program at all, a tests/guest/*.c ($KBT_GUEST_SRC) the build made
# no program of, a program whose -l fails or lists no test.
list_tests() {
	local bin=$1 prog name out rc err src srcdir=${KBT_GUEST_SRC:-$here/../guest}
	[ "$bin" = - ] && return 0
	err=$(mktemp)
	for prog in "$bin"/*; do
		[ -f "$prog" ] && [ -x "$prog" ] && break
		prog=""
	done
	if [ -z "$prog" ]; then
		echo "FAIL vm/(programs): no test program in $bin: a run of none would pass"
		rm -f "$err"
		return 0
	fi
	for src in "$srcdir"/*.c; do
		[ -f "$src" ] || continue
		name=${src##*/} name=${name%.c}
		selected "$name" "$2" || continue
		[ -f "$bin/$name" ] && [ -x "$bin/$name" ] ||
			echo "FAIL $name/(program): $name.c is a test program, but $bin/$name was not built"
	done
	for prog in "$bin"/*; do
		[ -f "$prog" ] && [ -x "$prog" ] || continue
		name=${prog##*/}
		selected "$name" "$2" || continue
		out=$("$prog" -l 2>"$err")
		rc=$?
		# a 32-bit program the host cannot run lists what its suite does
		if [ $rc -ne 0 ] && [ "${name#compat32_}" != "$name" ] &&
			[ -x "$bin/${name#compat32_}" ]; then
			out=$("$bin/${name#compat32_}" -l 2>"$err" | sed "s|^${name#compat32_}/|$name/|")
			rc=$?
		fi
		if [ $rc -ne 0 ]; then
			echo "FAIL $name/(list): '$name -l' failed (status $rc): $(head -n 1 "$err" | cut -c1-200)"
		elif [ -z "$out" ]; then
			echo "FAIL $name/(list): '$name -l' lists no test: a program of none would pass"
		else
			echo "$out"
		fi
	done
	rm -f "$err"
}

# list_declared GLOBS DRIVER RUN...: the table's lines for these runs.
list_declared() {
	local sel_globs=$1 driver=$2 want run drv sel res
	shift 2
	[ -r "$table" ] || { echo "tally/(results.list)"; return; }
	for want in "$@"; do
		while read -r run drv sel res; do
			case "$run" in '' | '#'*) continue ;; esac
			[ "$run" = "$want" ] || continue
			[ "$drv" = '*' ] || [ "$drv" = "$driver" ] || continue
			[ "$sel" = - ] || selected "$sel" "$sel_globs" || continue
			echo "$res"
		done <"$table"
	done
}

# selects_group GLOBS [RUN DRIVER]: whether GLOBS name a group of a guest
# script's results (results.list's SELECTED column; only RUN's rows for
# DRIVER if given).
selects_group() {
	local run drv sel
	[ -r "$table" ] || return 1
	while read -r run drv sel _; do
		case "$run" in '' | '#'*) continue ;; esac
		[ -z "${2:-}" ] || [ "$run" = "$2" ] || continue
		[ -z "${3:-}" ] || [ "$drv" = '*' ] || [ "$drv" = "$3" ] || continue
		[ "$sel" = - ] && continue
		selected "$sel" "$1" && return 0
	done <"$table"
	return 1
}

if [ "${1:-}" = --list ]; then
	if [ $# -lt 3 ] || [ $# -eq 4 ]; then
		sed -n '3,6p' "$0" | sed 's/^# \{0,1\}//' >&2
		exit 2
	fi
	tests=$(list_tests "$2" "$3")
	[ -n "$tests" ] && echo "$tests"
	[ $# -ge 5 ] && list_declared "$3" "$5" "$4" "${@:6}"
	# A selection of nothing (a mistyped TESTS) is not a run without
	# failures: vm/selection is expected and fails (below).
	# (no pipe into grep -q here: under pipefail, the writer's SIGPIPE
	# when grep -q stops reading would count as no test at all)
	[ "$2" != - ] && [ -z "$(grep -v '^FAIL ' <<<"$tests")" ] &&
		! selects_group "$3" "${4:-}" "${5:-}" && echo "vm/selection"
	exit 0
fi
[ $# -eq 4 ] || { sed -n '3,24p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
rc=$1 dir=$2 out=$3 expected=$4
if [ -r "$dir/judged.log" ]; then
	cp "$dir/judged.log" "$out"
else
	: >"$out"
fi
if [ "$rc" -ne 0 ] && ! grep -q '^FAIL ' "$out"; then
	echo "FAIL vm/run: the runner exited with status $rc (see $dir)" | tee -a "$out"
fi
if grep -qx 'vm/selection' "$expected"; then
	echo "FAIL vm/selection: the run's TESTS select no test program and no guest script" | tee -a "$out"
fi
# What --list found wrong before the boot (no program, one that lists none).
grep '^FAIL ' "$expected" | tee -a "$out"
# (Each check reads OUT whole before anything is added to it.)
more=$("$here/missing-results.sh" "$expected" "$out")
[ -n "$more" ] && echo "$more" | tee -a "$out"
# A PASS or SKIP on no list: a new result line that nobody declared.
more=$(tr -d '\r' <"$out" | awk -v expected="$expected" '
	BEGIN { while ((getline line < expected) > 0) want[line] = 1 }
	/^(PASS|SKIP) / {
		name = $2; sub(/:$/, "", name)
		if (!(name in want) && !(name in said)) {
			said[name] = 1
			printf "FAIL %s: reported (%s), but on no list: not in its program'"'"'s -l, nor declared in tests/vm/guest/results.list for this run\n", name, $1
		}
	}')
[ -n "$more" ] && echo "$more" | tee -a "$out"
exit 0
