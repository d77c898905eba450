# SPDX-License-Identifier: Apache-2.0
#
# Guest checks of the debug kernel, installed as /scripts/post-check.sh in
# the debug initramfs: tests/vm/guest/check.sh runs it after the test
# programs and kbinder's teardown (debug/guest-canary.sh runs it too).
# The host runner already fails a run on any splat in the kernel log; these
# checks catch what never reaches the log on its own:
#   debug/detectors_on      KASAN, lockdep and kmemleak are really running
#   debug/kmemleak_clean    a kmemleak scan finds no unreferenced object
#   debug/lockdep_still_on  lockdep did not switch itself off (it does on the
#                           first report of its own, on a KASAN report, and on
#                           most taints, and is then blind for the rest)
#   debug/kernel_untainted  no taint but O (out-of-tree module)
# shellcheck source=tests/vm/guest/lib.sh
. /scripts/lib.sh

kmsg_mark "debug checks"

kmemleak=/sys/kernel/debug/kmemleak
missing=""
grep -q ' kasan_report$' /proc/kallsyms || missing="$missing KASAN"
[ -r /proc/lockdep_stats ] || missing="$missing lockdep"
[ -e "$kmemleak" ] || missing="$missing kmemleak"
if [ -z "$missing" ]; then
	result PASS debug/detectors_on
else
	result FAIL debug/detectors_on "not running:$missing"
fi

# kmemleak ignores objects younger than 5 s, so let the last ones (from the
# final tests and the rmmod) age first. It also holds back an object whose
# contents changed since the previous scan, and a new object counts as
# changed: a leak shows only on the second scan that sees it (the canary
# "leak" went unseen with one). A scan walks all of memory: slow under TCG,
# but synchronous.
if [ -e "$kmemleak" ]; then
	sleep 6
	kmemleak_boot=/tmp/kmemleak.boot kmemleak_rest=/tmp/kmemleak.rest
	: >"$kmemleak_boot"
	: >"$kmemleak_rest"
	start=$(date +%s)
	if ! { echo scan >"$kmemleak" && echo scan >"$kmemleak"; } 2>/dev/null; then
		result FAIL debug/kmemleak_clean "kmemleak is disabled (see the kernel log)"
	else
		# Objects the kernel allocated while booting, before any
		# userspace ran (comm swapper, pid 0 or 1: e.g. ACPI's caches),
		# are the kernel's, not the driver's: listed, not counted.
		awk -v boot="$kmemleak_boot" -v rest="$kmemleak_rest" '
			BEGIN { file = rest }
			/^unreferenced object/ { getline comm
				isboot = (comm ~ /comm "swapper\/[0-9]+", pid [01],/)
				file = isboot ? boot : rest
				print $0 >> file; print comm >> file; next }
			{ print >> file }' "$kmemleak"
		count=$(grep -c '^unreferenced object' "$kmemleak_rest")
		booted=$(grep -c '^unreferenced object' "$kmemleak_boot")
		echo "kmemleak: two scans took $(($(date +%s) - start))s, $count unreferenced objects ($booted more from boot, ignored)"
		if [ "$count" -eq 0 ]; then
			result PASS debug/kmemleak_clean
		else
			cat "$kmemleak_rest"
			# The first frame of the first leak that is not kmemleak's
			# own or the allocator's says who allocated it.
			who=$(sed -n 's/^ *\[<[^>]*>\] //p' "$kmemleak_rest" |
				grep -v -e kmemleak -e '^slab_' -e '^kmem_cache_' -e '^__kmem_cache' \
					-e '^__kmalloc' -e '^kmalloc' -e '^kzalloc' |
				head -n 1)
			result FAIL debug/kmemleak_clean "$count unreferenced objects, first from ${who:-?}"
		fi
	fi
fi

if [ -r /proc/lockdep_stats ]; then
	on=$(awk '$1 == "debug_locks:" { print $2 }' /proc/lockdep_stats)
	if [ "$on" = 1 ]; then
		result PASS debug/lockdep_still_on
	else
		result FAIL debug/lockdep_still_on \
			"debug_locks is ${on:-missing}: an earlier report switched lockdep off"
	fi
fi

# Taint bits (Documentation/admin-guide/tainted-kernels.rst); O (4096) is
# expected: every module under test is out of tree.
taint=$(cat /proc/sys/kernel/tainted)
bad=$((taint & ~4096))
if [ "$bad" -eq 0 ]; then
	result PASS debug/kernel_untainted
else
	letters=""
	bit=0
	for letter in P F S R M B U D A W C I O E L K X T N; do
		[ $((bad >> bit & 1)) -eq 1 ] && letters="$letters$letter"
		bit=$((bit + 1))
	done
	result FAIL debug/kernel_untainted "tainted $taint ($letters)"
fi
exit 0
