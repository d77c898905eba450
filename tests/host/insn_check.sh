#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# The instruction count's own tests (make host-insn-check):
#   - the plugin (bench/insn/kbinsn.c) driven by a stand-in for QEMU
#     (tests/host/insn_plugin_check.c): markers, exact window cuts, per
#     vCPU counts, the profile;
#   - the plugin imports only what Debian's qemu-system-x86_64 exports
#     (skipped without QEMU);
#   - the host report (bench/insn/report.py) on made-up logs: the table,
#     the profile, and that a missing count, an unavailable channel, a
#     profile that does not add up, and two boots further apart than the
#     tolerance all fail.
# usage: tests/host/insn_check.sh PLUGIN.so CHECKER
# Prints PASS/FAIL/SKIP lines and "N passed, N failed, N skipped".
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
report=$here/../../bench/insn/report.py
plugin=${1:?usage: insn_check.sh PLUGIN.so CHECKER}
checker=${2:?usage: insn_check.sh PLUGIN.so CHECKER}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kbinder-insn.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
out=$tmp/out.txt

pass() { echo "PASS insn/$1"; }
fail() { echo "FAIL insn/$1: $2"; }

all_tests() {
# The plugin against a stand-in for QEMU (its own PASS/FAIL lines).
"$checker" "$plugin" 2>/dev/null | grep -E '^(PASS|FAIL) '

qemu=$(command -v qemu-system-x86_64 || true)
if [ -z "$qemu" ]; then
	echo "SKIP insn/imports_what_qemu_exports: no qemu-system-x86_64"
else
	missing=$(comm -23 <(nm -D --undefined-only "$plugin" | awk '$2 ~ /^qemu_plugin_/ { print $2 }' | sort -u) \
		<(nm -D --defined-only "$qemu" | awk '{ print $3 }' | sort -u))
	if [ -z "$missing" ]; then
		pass imports_what_qemu_exports
	else
		fail imports_what_qemu_exports "$(echo "$missing" | tr '\n' ' ')"
	fi
fi

# mklog DIR: a made-up run: sync 4 B on reference, kbinder and pipe, 100
# operations each, the kernel's symbols, and the plugin's counts.
mklog() {
	local d=$1
	mkdir -p "$d"
	{
		echo 'INSN {"kind":"env","kernel":"6.1.0-test-amd64","cpus":1,"cmdline":"x"}'
		for c in reference:00000100 kbinder:00000101 pipe:00000102; do
			echo "INSN {\"kind\":\"insn\",\"workload\":\"sync:4\",\"name\":\"sync 4 B\",\"channel\":\"${c%%:*}\",\"tag\":\"${c#*:}\",\"ops\":100,\"status\":\"ok\"}"
		done
		echo "KBT-KALLSYMS: begin"
		printf '%s\n' 'ffffffff81000000 T _text' 'ffffffff81001000 T schedule' \
			'ffffffff81002000 t pipe_write' 'ffffffffc0000000 t binder_ioctl	[binder_linux]' \
			'ffffffffc0000400 t binder_transaction	[binder_linux]' \
			'ffffffffc0010000 t kb_ioctl	[kbinder]' '0xffffffffc0010000 s .text [kbinder]' |
			gzip -c | base64
		echo "KBT-KALLSYMS: end"
	} >"$d/results.log"
	cat >"$d/plugin.log" <<-'EOF'
	KBINSN window tag=00000100 vcpu=0 kernel=2000000 user=50000
	KBINSN total tag=00000100 kernel=2000000 user=50000
	KBINSN block tag=00000100 ffffffffc0000000 1200000 100
	KBINSN block tag=00000100 ffffffffc0000410 500000 200
	KBINSN block tag=00000100 ffffffff81001000 300000 200
	KBINSN end tag=00000100 blocks=9 profiled=2000000
	KBINSN window tag=00000101 vcpu=0 kernel=1500000 user=50000
	KBINSN total tag=00000101 kernel=1500000 user=50000
	KBINSN block tag=00000101 ffffffffc0010000 1000000 100
	KBINSN block tag=00000101 ffffffffc0010020 200000 100
	KBINSN block tag=00000101 ffffffff81001000 300000 200
	KBINSN end tag=00000101 blocks=9 profiled=1500000
	KBINSN window tag=00000102 vcpu=0 kernel=1000000 user=9000
	KBINSN total tag=00000102 kernel=1000000 user=9000
	KBINSN block tag=00000102 ffffffff81002000 1000000 200
	KBINSN end tag=00000102 blocks=9 profiled=1000000
	EOF
}

d=$tmp/good
mklog "$d"
if python3 "$report" table "$d" --json "$d/insn.json" --profile 3 >"$out" 2>&1 &&
	grep -q '^sync 4 B .* 20,000 (500) .* 15,000 (500) .* 0\.75 .* 1\.50 .* 10,000 (90)$' "$out" &&
	grep -q '^PASS bench-insn/table$' "$out"; then
	pass table_per_operation
else
	fail table_per_operation "$(tr '\n' '|' <"$out")"
fi
if grep -q '^ *12,000  *60\.0%  *1\.00  binder_ioctl \[binder_linux\]$' "$out" &&
	grep -q '^ *5,000  *25\.0%  *-  binder_transaction \[binder_linux\]$' "$out" &&
	grep -q '^ *12,000  *80\.0%  *1\.00  kb_ioctl \[kbinder\]$' "$out" &&
	grep -q '^ *3,000  *15\.0%  *2\.00  schedule$' "$out" &&
	grep -q '^ *17,000  *85\.0%  *(all of module binder_linux)$' "$out"; then
	pass profile_names_functions_and_their_runs
else
	fail profile_names_functions_and_their_runs "$(tr '\n' '|' <"$out")"
fi

# expect_table_failure NAME PATTERN EDIT: the table of a made-up run
# changed by the sed script EDIT (on plugin.log, or results.log when it
# starts with "results:") must fail, saying PATTERN.
expect_table_failure() {
	local name=$1 pattern=$2 edit=$3 d=$tmp/$1 file=plugin.log
	mklog "$d"
	case "$edit" in results:*) file=results.log; edit=${edit#results:} ;; esac
	sed -i "$edit" "$d/$file"
	if python3 "$report" table "$d" --profile 3 >"$out" 2>&1; then
		fail "$name" "the report passed"
	elif grep -q "^FAIL bench-insn/table: .*$pattern" "$out"; then
		pass "$name"
	else
		fail "$name" "failed, but not for '$pattern': $(grep FAIL "$out" | head -n 1)"
	fi
}
expect_table_failure missing_count_fails 'no count for window 00000101' '/tag=00000101/d'
expect_table_failure unavailable_channel_fails 'kbinder: unavailable: server: no such device' \
	'results:s/"channel":"kbinder","tag":"00000101","ops":100,"status":"ok"/"channel":"kbinder","tag":"00000101","ops":100,"status":"unavailable","why":"server: no such device"/'
expect_table_failure profile_that_does_not_add_up_fails 'the profile adds up to 1500000, the window to 2000000' \
	'/ffffffffc0000410/d; s/profiled=2000000/profiled=1500000/'
expect_table_failure plugin_error_fails 'out of memory' \
	'1i KBINSN error: out of memory, counts are incomplete'
expect_table_failure a_window_named_twice_fails 'window 00000101 is named twice' \
	'results:/"tag":"00000101"/p'
# shellcheck disable=SC2016
expect_table_failure no_kallsyms_fails 'no kallsyms' 'results:/KBT-KALLSYMS/,$d'

# compare: B is A with the reference's kernel count scaled by FACTOR and
# the pipe's user count set to USER.
mkpair() {
	python3 - "$d/insn.json" "$tmp/b.json" "$1" "$2" <<-'EOF'
	import json, sys
	a = json.load(open(sys.argv[1]))
	for r in a["rows"]:
	    if r["channel"] == "reference":
	        r["kernel"] *= float(sys.argv[3])
	    if r["channel"] == "pipe":
	        r["user"] = float(sys.argv[4])
	json.dump(a, open(sys.argv[2], "w"))
	EOF
}
# expect_compare NAME STATUS PATTERN FACTOR USER
expect_compare() {
	mkpair "$4" "$5"
	python3 "$report" compare "$d/insn.json" "$tmp/b.json" >"$out" 2>&1
	local rc=$?
	if { [ "$2" = PASS ] && [ $rc -eq 0 ]; } || { [ "$2" = FAIL ] && [ $rc -ne 0 ]; } &&
		grep -q "^$2 bench-insn/agreement: $3" "$out"; then
		pass "$1"
	else
		fail "$1" "exit $rc: $(grep -E '^(PASS|FAIL)' "$out" | tr '\n' '|')"
	fi
}
expect_compare boots_within_tolerance_pass PASS 'the two boots agree within 1.49%' 1.015 90
expect_compare boots_beyond_tolerance_fail FAIL 'sync 4 B on reference, kernel: 2.96% apart' 1.03 90
expect_compare small_counts_are_not_judged PASS 'the two boots agree within 0.00%' 1 120
python3 - "$d/insn.json" "$tmp/b.json" <<-'EOF'
import json, sys
a = json.load(open(sys.argv[1]))
for r in a["rows"]:
    if r["channel"] == "pipe":
        r["kernel"] *= 1.05
json.dump(a, open(sys.argv[2], "w"))
EOF
if python3 "$report" compare "$d/insn.json" "$tmp/b.json" --judge reference,kbinder >"$out" 2>&1 &&
	! python3 "$report" compare "$d/insn.json" "$tmp/b.json" >/dev/null 2>&1; then
	pass only_the_judged_channels_are_judged
else
	fail only_the_judged_channels_are_judged "$(grep -E '^(PASS|FAIL)' "$out" | tr '\n' '|')"
fi
python3 - "$d/insn.json" "$tmp/b.json" <<-'EOF'
import json, sys
a = json.load(open(sys.argv[1]))
a["rows"] = [r for r in a["rows"] if r["channel"] != "kbinder"]
json.dump(a, open(sys.argv[2], "w"))
EOF
if ! python3 "$report" compare "$d/insn.json" "$tmp/b.json" >"$out" 2>&1 &&
	grep -q '^FAIL bench-insn/agreement: sync:4/100 on kbinder is in one boot only' "$out"; then
	pass a_row_missing_from_a_boot_fails
else
	fail a_row_missing_from_a_boot_fails "$(grep -E '^(PASS|FAIL)' "$out" | tr '\n' '|')"
fi
python3 - "$d/insn.json" "$tmp/b.json" <<-'EOF'
import json, sys
a = json.load(open(sys.argv[1]))
a["rows"].append(dict(a["rows"][0]))
json.dump(a, open(sys.argv[2], "w"))
EOF
if ! python3 "$report" compare "$d/insn.json" "$tmp/b.json" >"$out" 2>&1 &&
	grep -q '^FAIL bench-insn/agreement: sync:4/100 on reference is twice in table b' "$out"; then
	pass a_row_twice_in_a_boot_fails
else
	fail a_row_twice_in_a_boot_fails "$(grep -E '^(PASS|FAIL)' "$out" | tr '\n' '|')"
fi
}

all_tests | tee "$tmp/lines"
passed=$(grep -c '^PASS ' "$tmp/lines")
failed=$(grep -c '^FAIL ' "$tmp/lines")
skipped=$(grep -c '^SKIP ' "$tmp/lines")
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
