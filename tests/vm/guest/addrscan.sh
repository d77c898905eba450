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
# A scan that read nothing would find nothing: while it runs, a service
# manager and a service (kbinder servicemanager, kbinder serve) keep
# processes with nodes, refs and threads alive, and the scan must have
# read what they and the run made: the five logs of both mounts, each
# process's binder_logs/proc/<pid> in the stats=global mount with its
# "proc <pid>" in state, the run's failed calls in failed_transaction_log
# (40 of them first, so the log holds this run's calls only), and
# debugfs's live and reuse; else no_kernel_addresses fails.
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

# A failing call while a listener runs: at least one report. The listener
# joins the group at some point: until it has its report, more failing
# calls follow the demo's (a call to a manager nobody is: a dead reply).
kbinder report --count 1 --timeout 60 >"$dir/reports.txt" 2>&1 &
listener=$!
kbinder demo >"$dir/demo.txt" 2>&1
tries=0
while kill -0 "$listener" 2>/dev/null && [ "$tries" -lt 250 ]; do
	kbinder ping kbinder.addrscan.nobody >/dev/null 2>&1
	tries=$((tries + 1))
	sleep 0.2
done
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

# What must have been scanned, not empty: "== PATH" heads a file's text.
short=""
must_scan() {
	awk -v f="$1" '
		$0 == "== " f { on = 1; next }
		/^== / { on = 0 }
		on && NF { n++ }
		END { exit n ? 0 : 1 }
	' "$out" || short="$short $1"
}

# The transaction logs keep the last 32 calls of every world: make the
# failed ones this run's (what earlier programs left there is theirs, and
# a size they made up may read like an address: errors' sizes_that_overflow
# sends one of 2^64 - 8). A call to a manager nobody is fails.
i=0
while [ "$i" -lt 40 ]; do
	kbinder ping kbinder.addrscan.nobody >/dev/null 2>&1
	i=$((i + 1))
done

# until_ok CMD...: run CMD every 0.1 s until it succeeds, for up to 30 s.
until_ok() {
	tries=0
	until "$@" >/dev/null 2>&1; do
		tries=$((tries + 1))
		[ "$tries" -lt 300 ] || return 1
		sleep 0.1
	done
}

# Processes of kbinder's own world alive while the scan runs: the service
# registers only once the manager answers.
kbinder servicemanager >"$dir/sm.txt" 2>&1 &
sm=$!
until_ok kbinder list || short="$short (the service manager did not answer: $(cat "$dir/sm.txt"))"
kbinder serve kbinder.addrscan >"$dir/serve.txt" 2>&1 &
svc=$!
until_ok kbinder ping kbinder.addrscan || short="$short (the service did not answer: $(cat "$dir/serve.txt"))"

ok=1
mount -t binder -o stats=global binder "$dir/global" || ok=0
mount -t binder binder "$dir/plain" || ok=0
if [ "$ok" -eq 0 ]; then
	result FAIL "$suite/mount" "cannot mount binderfs"
else
	scan_tree "$dir/global/binder_logs"
	scan_tree "$dir/plain/binder_logs"
	for f in state stats transactions transaction_log failed_transaction_log; do
		# the plain mount's worlds are empty: its logs exist
		grep -qxF "== $dir/plain/binder_logs/$f" "$out" || short="$short $dir/plain/binder_logs/$f"
	done
	for f in state stats transaction_log failed_transaction_log counts profiles proc/$sm proc/$svc; do
		must_scan "$dir/global/binder_logs/$f"
	done
	for p in $sm $svc; do
		grep -qx "proc $p" "$out" || short="$short (proc $p in state)"
	done
	umount "$dir/global" "$dir/plain"
fi
kill "$sm" "$svc" 2>/dev/null
wait "$sm" "$svc" 2>/dev/null
scan_tree /sys/kernel/debug/kbinder
must_scan /sys/kernel/debug/kbinder/live
must_scan /sys/kernel/debug/kbinder/reuse
must_scan /sys/kernel/debug/kbinder/counts
must_scan /sys/kernel/debug/kbinder/profiles
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
elif [ -n "$short" ]; then
	result FAIL "$suite/no_kernel_addresses" "the scan missed what the run made (missing or empty):$short"
	grep '^== ' "$out"
else
	echo "$suite: $files files and reports, $(wc -l <"$out") lines, no address"
	result PASS "$suite/no_kernel_addresses"
fi
exit 0
