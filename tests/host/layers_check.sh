#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# The layering checker's own tests (scripts/layers.py): it must reject a
# call from a lower file to a higher one, accept a downward call, and
# reject an "allow" line that no longer matches a back-edge.  Objects are
# tiny C files compiled here, checked against a two-layer spec of our own.
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
exit $failed
