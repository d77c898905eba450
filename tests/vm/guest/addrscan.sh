# SPDX-License-Identifier: Apache-2.0
#
# After the test programs: nothing kbinder tells people holds a kernel
# address. Scans every file under binder_logs/ of a binderfs mount (a
# stats=global one, which sees every world, and a plain one), what the logs
# tests saved while a call was in flight (/tmp/kbinder-logs.txt), every file
# under debugfs's kbinder/, and the netlink reports of a failing call (the
# kbinder tool's demo ends with one; `kbinder report` prints what it gets).
# A suspect is a 16-hex-digit token (a pointer, hashed or not: %p and %px
# both print 16 digits) or a decimal number of 2^63 or more.
# Called by check.sh; runs when $KBT_TESTS matches "addrscan".
. /scripts/lib.sh

suite=addrscan
selected "$suite" || exit 0
if [ "$KBT_DRIVER" != kbinder ]; then
	result SKIP "$suite/(all)" "the $KBT_DRIVER driver has no binderfs, debugfs or reports"
	exit 0
fi

echo "=== $suite"
dir=/tmp/$suite
mkdir -p "$dir/global" "$dir/plain"
out=$dir/scanned.txt
: >"$out"

# A failing call while a listener runs: at least one report.
kbinder report --count 1 --timeout 30 >"$dir/reports.txt" 2>&1 &
listener=$!
sleep 1
kbinder demo >"$dir/demo.txt" 2>&1
wait "$listener"
rc=$?
nreports=$(grep -c . "$dir/reports.txt")
if [ "$rc" -ne 0 ] || [ "$nreports" -lt 1 ]; then
	result FAIL "$suite/report" "no netlink report of the demo's failing call (status $rc)"
else
	result PASS "$suite/report"
fi

scan_tree() {
	find "$1" -type f 2>/dev/null | while read -r f; do
		echo "== $f"
		cat "$f" 2>&1
	done >>"$out"
}

ok=1
mount -t binder -o stats=global binder "$dir/global" || ok=0
mount -t binder binder "$dir/plain" || ok=0
if [ "$ok" -eq 0 ]; then
	result FAIL "$suite/mount" "cannot mount binderfs"
else
	scan_tree "$dir/global/binder_logs"
	scan_tree "$dir/plain/binder_logs"
	umount "$dir/global" "$dir/plain"
fi
scan_tree /sys/kernel/debug/kbinder
{ echo "== reports"; cat "$dir/reports.txt" "$dir/demo.txt"; } >>"$out"
[ -f /tmp/kbinder-logs.txt ] && {
	echo "== saved by the logs tests"
	cat /tmp/kbinder-logs.txt
} >>"$out"

files=$(grep -c '^== ' "$out")
# 16 hex digits alone (with or without 0x), or 19-20 decimal digits.
hex=$(grep -Eoi '(^|[^0-9a-z])(0x)?[0-9a-f]{16}([^0-9a-z]|$)' "$out")
dec=$(grep -Eo '(^|[^0-9])[0-9]{19,20}([^0-9]|$)' "$out" | tr -cd '0-9\n' |
	awk 'length($0) == 20 || $0 >= "9223372036854775808"')
if [ -n "$hex$dec" ]; then
	result FAIL "$suite/no_kernel_addresses" "suspect values: $(echo $hex $dec | head -c 300)"
	grep -Eni '(0x)?[0-9a-f]{16}|[0-9]{19,20}' "$out" | head -20
else
	echo "$suite: $files files and reports, $(wc -l <"$out") lines, no address"
	result PASS "$suite/no_kernel_addresses"
fi
exit 0
