#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# The layering checker's own tests (scripts/layers.py): it must reject a
# call from a lower file to a higher one, accept a downward call, and
# reject an "allow" line that no longer matches a back-edge; the same for
# an #include (a lower file that includes a higher one's header, or
# another header of its own layer).  Objects are tiny C files compiled
# here, checked against a two-layer spec of our own; the sources beside
# them are what the include check reads.
set -u
cd "$(dirname "$0")/../.." || exit 1
dir=build/host/layers
rm -rf "$dir" && mkdir -p "$dir/down" "$dir/up" || exit 1
cc=${CC:-gcc}

# down: main.o calls stats.o (a lower layer) -- allowed
echo 'void kb_fake_stats(void) {}' >"$dir/stats.c"
echo 'void kb_fake_stats(void); void kb_fake_main(void) { kb_fake_stats(); }' >"$dir/main.c"
# up: stats.o calls main.o (a higher layer) -- a back-edge
echo 'void kb_fake_main(void); void kb_fake_stats(void) { kb_fake_main(); }' >"$dir/stats_up.c"
echo 'void kb_fake_main(void) {}' >"$dir/main_leaf.c"
$cc -c -o "$dir/down/stats.o" "$dir/stats.c" &&
	$cc -c -o "$dir/down/main.o" "$dir/main.c" &&
	$cc -c -o "$dir/up/stats.o" "$dir/stats_up.c" &&
	$cc -c -o "$dir/up/main.o" "$dir/main_leaf.c" || { echo "FAIL layers/build: cannot compile"; exit 1; }

printf 'stats\nmain\n' >"$dir/spec.txt"
printf 'stats\nmain\nallow stats -> main # once needed\n' >"$dir/spec-stale.txt"

failed=0
# check NAME WANT(0|1) SPEC OBJDIR PATTERN: exit status and a line of output
check() {
	local name=$1 want=$2 spec=$3 objs=$4 pattern=$5 out rc
	out=$(python3 scripts/layers.py --spec="$spec" "$objs" 2>&1)
	rc=$?
	if [ "$rc" -ne "$want" ]; then
		echo "FAIL layers/$name: exit $rc, expected $want: $out"
		failed=1
	elif ! grep -q -- "$pattern" <<<"$out"; then
		echo "FAIL layers/$name: no '$pattern' in: $out"
		failed=1
	else
		echo "PASS layers/$name"
	fi
}
check rejects_a_call_upwards 1 "$dir/spec.txt" "$dir/up" 'back-edge stats -> main'
check accepts_calls_downwards 0 "$dir/spec.txt" "$dir/down" '^PASS lint/layers'
check allowed_back_edge_passes 0 "$dir/spec-stale.txt" "$dir/up" '1 back-edges (1 allowed)'
check stale_allow_line_fails 1 "$dir/spec-stale.txt" "$dir/down" 'not a back-edge any more'
mkdir -p "$dir/extra" && cp "$dir/down/"*.o "$dir/extra/" && cp "$dir/down/main.o" "$dir/extra/send.o"
check file_in_no_layer_fails 1 "$dir/spec.txt" "$dir/extra" "send.o is in no layer"
# 6.12's kbuild compiles scripts/module-common.c into .module-common.o
# beside our objects: it is kbuild's, in no layer, and must not count.
mkdir -p "$dir/kbuild" && cp "$dir/down/"*.o "$dir/kbuild/" &&
	echo 'int kb_fake_module_common;' >"$dir/module-common.c" &&
	$cc -c -o "$dir/kbuild/.module-common.o" "$dir/module-common.c" ||
	{ echo "FAIL layers/build: cannot compile"; exit 1; }
check kbuild_objects_are_none_of_ours 0 "$dir/spec.txt" "$dir/kbuild" '^PASS lint/layers'

# Includes: the calls are fine (downward), the headers are what differ.
# inc_case NAME: a copy of the downward objects, with sources beside them.
inc_case() {
	mkdir -p "$dir/$1" && cp "$dir/down/"*.o "$dir/$1/" || { echo "FAIL layers/build: cannot copy"; exit 1; }
	echo "$dir/$1"
}
d=$(inc_case inc-down)
echo 'void kb_fake_stats(void);' >"$d/stats.h"
printf '#include "internal.h"\n#include "stats.h"\n' >"$d/main.c"
echo '/* everyone may include it */' >"$d/internal.h"
printf 'stats\nmain\nheader internal = base\n' >"$dir/spec-inc.txt"
check accepts_includes_downwards 0 "$dir/spec-inc.txt" "$d" '^PASS lint/layers'
d=$(inc_case inc-up)
echo 'void kb_fake_main(void);' >"$d/main.h"
printf '#include "stats.h"\n#include "main.h"\n' >"$d/stats.c"
echo 'void kb_fake_stats(void);' >"$d/stats.h"
check rejects_an_include_upwards 1 "$dir/spec-inc.txt" "$d" 'upward include stats -> main (stats.c:2 includes main.h)'
d=$(inc_case inc-header)
printf '#include "main.h"\n' >"$d/stats.h"
echo 'void kb_fake_main(void);' >"$d/main.h"
check rejects_an_upward_include_in_a_header 1 "$dir/spec-inc.txt" "$d" 'upward include stats -> main (stats.h:1 includes main.h)'
d=$(inc_case inc-same)
printf 'stats send\nmain\n' >"$dir/spec-same.txt"
printf '#include "stats.h"\n#include "send.h"\n' >"$d/stats.c"
touch "$d/stats.h" "$d/send.h"
check rejects_an_include_within_a_layer 1 "$dir/spec-same.txt" "$d" 'upward include stats -> send'
d=$(inc_case inc-unknown)
printf '#include "nowhere.h"\n' >"$d/main.c"
check header_in_no_layer_fails 1 "$dir/spec-inc.txt" "$d" 'nowhere.\[ch\] is in no layer'
d=$(inc_case inc-uapi)
printf '#include "../include/uapi/linux/android/binder.h"\n' >"$d/stats.c"
check includes_outside_the_driver_do_not_count 0 "$dir/spec-inc.txt" "$d" '^PASS lint/layers'
printf 'stats\nmain\nheader internal = base\nallow stats -> main # once needed\n' >"$dir/spec-inc-allow.txt"
check allowed_upward_include_passes 0 "$dir/spec-inc-allow.txt" "$dir/inc-up" '1 upward includes (1 allowed)'
exit $failed
