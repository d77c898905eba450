#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# usage: scripts/lint.sh [SERIES]   (run by `make lint`)
#   SERIES: 6.1 or 6.12, the Debian kernel series to lint against (its
#   generic kernel).  Without it: the kernel build directory $KDIR names
#   (its series read from its kernel.release), else the series $KSERIES
#   names, else 6.1.
#
# The kernel's own quality tools over kbinder, one result line each:
#   checkpatch  --strict --no-tree on driver/*.[ch] and our UAPI headers
#   sparse      every file of the module through sparse (C=2)
#   w1          the module built with W=1 (extra compiler warnings)
#   kernel-doc  the kernel-doc comments of driver/*.[ch]
#   layers      no call and no #include from a lower driver file to a
#               higher one (scripts/layers.py over the W=1 build's
#               objects and the sources beside them)
#   owners      an object's inner state is named only in its owner's
#               files (scripts/owners.py, the map in scripts/owners.txt)
#   rules       the two checkers' own tests: a deliberate upward #include
#               and a foreign ->inner must fail them
#               (tests/host/layers_check.sh, tests/host/owners_check.sh)
# sparse and w1 are one build (C=2 W=1), judged apart: sparse's messages
# come marked by a wrapper.  It is the test build (KBINDER_SELFTEST=1,
# driver/Kbuild): the default module's files plus the allocator
# self-test's, so every file is checked; the default build (make module)
# is a W=1 build of a subset.
# Any warning fails its tool; no warning is ever silenced.  Prints
# "PASS lint/<tool>", "FAIL lint/<tool>: <why>" (the first findings are
# listed above it, the full log is under build/lint/<kernel>/), or "SKIP
# lint/<tool>: <why>" when there is nothing to check; the same names for
# every series (a caller that tallies two series labels them).  The kernel
# linted against goes to stderr first.  Exits 1 if any tool failed.
#
# The builds use that kernel's headers (the generic flavour's: the
# flavours of a series share their headers but for the config; `make
# module FLAVOUR=...` builds the others); driver/compat.h is where the
# series differ.  checkpatch.pl and kernel-doc are that series' own, from
# Debian's linux-source-SERIES package (/usr/src/linux-source-SERIES.tar.xz,
# see scripts/deps.sh --lint): the newer ones check more (6.12's
# kernel-doc has -Wall).  They are extracted once into
# build/tools/linux-SERIES/.  The module builds run on a copy of the
# sources under build/lint/<kernel>/, so they never race with, or are
# skipped because of, the objects of a normal build in driver/.
#
# Environment: KDIR, KSERIES (see above), JOBS (parallel jobs, default 2).
set -uo pipefail
shopt -s nullglob

cd "$(dirname "$0")/.." || exit 1
root=$PWD
JOBS=${JOBS:-2}

# The kernel: the series named as the argument, else KDIR, else the series
# $KSERIES names (default 6.1); a series means its generic kernel.
series=${KSERIES:-6.1}
if [ $# -gt 0 ]; then
	series=$1
	KDIR=""
fi
# series_of KVER: 6.1 for 6.1.0-57-amd64, 6.12 for 6.12.118+deb12-amd64.
series_of() { echo "$1" | sed -n 's/^\([0-9]*\.[0-9]*\)[.-].*/\1/p'; }
if [ -n "${KDIR:-}" ]; then
	kver=$(cat "$KDIR/include/config/kernel.release" 2>/dev/null) ||
		kver=$(basename "$(dirname "$KDIR")")
	series=$(series_of "$kver")
else
	case "$series" in
	6.1 | 6.12) ;;
	*) echo "usage: scripts/lint.sh [6.1|6.12]: unsupported series '$series'" >&2; exit 2 ;;
	esac
	kver=$(scripts/kernel-version.sh amd64 "$series")
	# A kernel-version.sh that knows no series names 6.1's: look for one.
	if [ "$(series_of "$kver")" != "$series" ]; then
		kver=""
		# The generic flavour's: 6.1.0-57-amd64, 6.12.118+deb12-amd64.
		re="^${series//./\\.}\\.[0-9]+(-[0-9]+|\\+deb[0-9]+(u[0-9]+)?)-amd64\$"
		for dir in $(printf "%s\n" /lib/modules/*/build | sort -V); do
			v=$(basename "$(dirname "$dir")")
			[[ "$v" =~ $re ]] && kver=$v
		done
	fi
	KDIR=/lib/modules/${kver:-none-of-series-$series}/build
fi
echo "lint: against ${kver:-no $series kernel} ($KDIR), tools of linux-source-$series" >&2

tools=build/tools/linux-$series
logs=build/lint/${kver:-$series}
source_tar=/usr/src/linux-source-$series.tar.xz
mkdir -p "$logs"

failed=0
# Our sources only: tracked and new files (a driver file not yet added is
# linted too), never what .gitignore names (kbuild's generated *.mod.c).
mapfile -t driver_files < <(git ls-files --cached --others --exclude-standard \
	'driver/*.c' 'driver/*.h' 2>/dev/null || ls driver/*.[ch] | grep -v '\.mod\.c$')
uapi_files=(include/uapi/linux/android/*.h include/uapi/linux/*.h)

pass() { echo "PASS lint/$1"; }
skip() { echo "SKIP lint/$1: $2"; }
fail() { echo "FAIL lint/$1: $2"; failed=1; }

# show FILE: print the first findings of a log, indented.
show() {
	sed -n '1,30s/^/  /p' "$1"
	[ "$(wc -l <"$1")" -le 30 ] || echo "  ... (all of it in $1)"
}

# Extract the kernel scripts we use from the linux-source tarball, once.
# Unpack to a scratch directory and move into place, so an interrupted or
# concurrent run never leaves half a tool behind.
tool_files=(checkpatch.pl spelling.txt const_structs.checkpatch kernel-doc)
have_tools() {
	local f
	for f in "${tool_files[@]}"; do
		[ -e "$tools/$f" ] || return 1
	done
}
fetch_tools() {
	have_tools && return 0
	[ -r "$source_tar" ] || return 1
	local tmp members=() f
	mkdir -p "$tools" || return 1
	tmp=$(mktemp -d "$tools/.extract.XXXXXX") || return 1
	for f in "${tool_files[@]}"; do
		members+=("linux-source-$series/scripts/$f")
	done
	if tar -xJf "$source_tar" -C "$tmp" --strip-components=2 "${members[@]}"; then
		for f in "${tool_files[@]}"; do
			mv -f "$tmp/$f" "$tools/$f"
		done
	fi
	rm -rf "$tmp"
	have_tools
}
tools_missing="$tools/ is incomplete and $source_tar is missing (scripts/deps.sh --lint installs linux-source-$series)"
fetch_tools
have_tools && tools_ok=1 || tools_ok=0

# ---------------------------------------------------------------- checkpatch
run_checkpatch() {
	local files=("${driver_files[@]}" "${uapi_files[@]}") log=$logs/checkpatch.log
	if [ ${#files[@]} -eq 0 ]; then
		skip checkpatch "nothing to check (no driver or UAPI sources yet)"
		return
	fi
	if [ "$tools_ok" -ne 1 ]; then
		fail checkpatch "$tools_missing"
		return
	fi
	perl "$tools/checkpatch.pl" --strict --no-tree --terse --no-summary \
		--show-types -f "${files[@]}" >"$log" 2>&1
	local rc=$?
	if [ $rc -eq 0 ] && [ ! -s "$log" ]; then
		pass checkpatch
		return
	fi
	show "$log"
	fail checkpatch "$(grep -c . "$log") finding(s) in ${#files[@]} file(s)"
}

# ---------------------------------------------------------------- builds
# The module build: a copy of driver/ (and the UAPI headers its Kbuild
# includes as ../include/uapi) under build/lint/<kernel>/w1, built with W=1
# and, if sparse is installed, C=2.  A wrapper in the CHECK slot runs
# sparse and marks each line it prints "sparse: ", so that judge_build
# can tell its messages from the compiler's.  Sets build_rc ("" when
# nothing was built, with both tools already judged).
build_log=$logs/build.log
build_rc=""
build_module() {
	local dir=$logs/w1 check=$root/$logs/sparse-marked args=(W=1 KBINDER_SELFTEST=1)
	if [ ${#driver_files[@]} -eq 0 ] || [ ! -f driver/Kbuild ]; then
		skip sparse "nothing to check (driver/ has no Kbuild or sources yet)"
		skip w1 "nothing to check (driver/ has no Kbuild or sources yet)"
		return
	fi
	if [ ! -d "$KDIR" ]; then
		fail sparse "no kernel build directory at $KDIR"
		fail w1 "no kernel build directory at $KDIR"
		return
	fi
	# (and what older lint runs left: a separate sparse build)
	rm -rf "$logs/sparse" "$logs"/sparse.log* "$logs"/w1.log* "$logs"/build.log*
	rm -rf "$dir" && mkdir -p "$dir" ||
		{ fail w1 "cannot create $dir"; fail sparse "cannot create $dir"; return; }
	find driver include -type f \( -name '*.[chS]' -o -name Kbuild -o -name Makefile \) \
		-exec cp --parents -t "$dir" {} + ||
		{ fail w1 "cannot copy sources"; fail sparse "cannot copy sources"; return; }
	if command -v sparse >/dev/null; then
		# A crash is reported as an error of sparse on that file, and
		# the build goes on (a failing CHECK would stop it, and delete
		# the file's object); sed -u writes whole lines, so that none
		# is spliced with the compiler's.
		cat >"$check" <<-'WRAPPER'
		#!/usr/bin/env bash
		# CHECK for scripts/lint.sh: sparse, each line it prints marked.
		sparse "$@" 2>&1 | sed -u 's/^/sparse: /' >&2
		rc=${PIPESTATUS[0]}
		[ "$rc" -eq 0 ] || echo "sparse: ${*: -1}: error: sparse exited $rc" >&2
		exit 0
		WRAPPER
		chmod +x "$check"
		args+=(C=2 CHECK="$check")
	fi
	make -C "$KDIR" M="$root/$dir/driver" -j"$JOBS" "${args[@]}" modules >"$build_log" 2>&1
	build_rc=$?
}

# judge_build TOOL: judge the build's messages that are TOOL's (sparse:
# the marked lines; w1: the others) about our own files.
judge_build() {
	local tool=$1 ours=$logs/$1.log.ours pick=(grep -v '^sparse: ') others
	[ -n "$build_rc" ] || return 0
	[ "$tool" = sparse ] && pick=(grep '^sparse: ')
	if [ "$tool" = sparse ] && ! command -v sparse >/dev/null; then
		fail sparse "sparse is not installed (scripts/deps.sh --lint)"
		return
	fi
	# Messages about our files, with paths shown relative to the repository.
	"${pick[@]}" "$build_log" | grep -iE '(warning|error):' |
		grep -F "$root/$logs/w1/" | sed "s|$root/$logs/w1/||g" >"$ours"
	others=$("${pick[@]}" "$build_log" | grep -iE '(warning|error):' |
		grep -vcF "$root/$logs/w1/")
	if [ "$build_rc" -eq 0 ] && [ ! -s "$ours" ] && [ "$others" -eq 0 ]; then
		pass "$tool"
	elif [ -s "$ours" ]; then
		show "$ours"
		fail "$tool" "$(wc -l <"$ours") warning(s)/error(s) in our sources"
	elif [ "$others" -ne 0 ]; then
		"${pick[@]}" "$build_log" | grep -iE '(warning|error):' >"$logs/$tool.log.other"
		show "$logs/$tool.log.other"
		fail "$tool" "$others message(s) outside our sources (see $build_log)"
	else
		tail -n 20 "$build_log" >"$logs/build.log.tail"
		show "$logs/build.log.tail"
		fail "$tool" "the build failed (make exited $build_rc, see $build_log)"
	fi
}

# ---------------------------------------------------------------- kernel-doc
run_kernel_doc() {
	local log=$logs/kernel-doc.log opts
	if [ ${#driver_files[@]} -eq 0 ]; then
		skip kernel-doc "nothing to check (no driver sources yet)"
		return
	fi
	if [ "$tools_ok" -ne 1 ]; then
		fail kernel-doc "$tools_missing"
		return
	fi
	# 6.1's kernel-doc has no -Wall; there its extra checks (missing
	# return value descriptions) come with -v, next to "info:" lines.
	if perl "$tools/kernel-doc" -Wall -none /dev/null >/dev/null 2>&1; then
		opts=(-Wall)
	else
		opts=(-v)
	fi
	perl "$tools/kernel-doc" "${opts[@]}" -none "${driver_files[@]}" >"$log" 2>&1
	local rc=$?
	grep -E '(warning|error):' "$log" >"$log.ours"
	if [ ! -s "$log.ours" ] && [ $rc -eq 0 ]; then
		pass kernel-doc
		return
	fi
	[ -s "$log.ours" ] || cp "$log" "$log.ours"
	show "$log.ours"
	fail kernel-doc "$(grep -cE '(warning|error):' "$log") warning(s) (kernel-doc ${opts[*]})"
}

# ---------------------------------------------------------------- layers
# The objects of the W=1 build show which file calls which.
run_layers() {
	local objs=$logs/w1/driver log=$logs/layers.log
	if ! compgen -G "$objs/*.o" >/dev/null; then
		fail layers "no objects in $objs (the W=1 build failed)"
		return
	fi
	python3 scripts/layers.py "$objs" >"$log" 2>&1
	local rc=$?
	grep -v '^PASS\|^FAIL' "$log"
	if [ $rc -eq 0 ]; then
		pass layers
	else
		fail layers "$(sed -n 's/^FAIL lint\/layers: //p' "$log")"
	fi
}

# ---------------------------------------------------------------- owners
run_owners() {
	local log=$logs/owners.log
	python3 scripts/owners.py driver >"$log" 2>&1
	local rc=$?
	grep -v '^PASS\|^FAIL' "$log" | sed -n '1,30p'
	if [ $rc -eq 0 ]; then
		pass owners
	else
		fail owners "$(sed -n 's/^FAIL lint\/owners: //p' "$log")"
	fi
}

# ---------------------------------------------------------------- rules
# The checkers above pass on the tree; these show that they would fail.
run_rules() {
	local log=$logs/rules.log t rc=0
	: >"$log"
	for t in tests/host/layers_check.sh tests/host/owners_check.sh; do
		bash "$t" >>"$log" 2>&1 || rc=1
	done
	if [ $rc -eq 0 ] && ! grep -q '^FAIL' "$log"; then
		pass rules
	else
		grep '^FAIL' "$log"
		fail rules "$(grep -c '^FAIL' "$log") of the checkers' own tests failed (see $log)"
	fi
}

run_checkpatch
build_module
judge_build sparse
judge_build w1
run_layers
run_owners
run_rules
run_kernel_doc
exit $failed
