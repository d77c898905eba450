#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# Build (or reuse) kbinder's debug kernel: Debian's own linux-source-6.1 or
# linux-source-6.12 (KSERIES) with tinyconfig plus debug/kernel.config (KASAN,
# lockdep, kmemleak, UBSAN, fault injection) and, where it exists,
# debug/kernel-<series>.config (what only that series needs), and the
# upstream binder driver from the same tree as a module (the reference).
# Everything lives outside the repository, in
#   ${KBINDER_CACHE:-$HOME/.cache/kbinder}/debug-kernel/<source version>-<fragment hash>/
# with src/ (the built tree: src/arch/x86/boot/bzImage,
# src/drivers/android/binder_linux.ko), build.log and a DONE stamp. A second
# run with the same source version and fragment does nothing.
#
# usage: debug/build-kernel.sh [--dir | --status]
#   (none)    build if needed; the last line of stdout is the tree (src/)
#   --dir     print the cache directory this source and fragment map to
#   --status  exit 0 if that directory holds a finished build
# Environment: KSERIES (6.1 or 6.12; 6.1), JOBS (2), NICE (10), KBINDER_CACHE,
# KBINDER_DEBUG_FRESH=1 (unpack the tarball even when a finished tree of
# another fragment exists).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
series=${KSERIES:-6.1}
case "$series" in
6.1 | 6.12) ;;
*) echo "debug-kernel: KSERIES=$series: 6.1 or 6.12" >&2; exit 2 ;;
esac
source_pkg=linux-source-$series
tarball=/usr/src/$source_pkg.tar.xz
# The fragment: the common lines, then the series' own (later lines win).
fragments=("$here/kernel.config")
[ -f "$here/kernel-$series.config" ] && fragments+=("$here/kernel-$series.config")
# merged_fragment: one line per symbol, its last setting, in the order the
# symbols first appear (comments dropped), so every line can be checked.
merged_fragment() {
	awk '
		/^CONFIG_[A-Za-z0-9_]+=/ { sym = $0; sub(/=.*/, "", sym) }
		/^# CONFIG_[A-Za-z0-9_]+ is not set$/ { sym = $2 }
		sym == "" { next }
		{ if (!(sym in line)) order[++n] = sym; line[sym] = $0; sym = "" }
		END { for (i = 1; i <= n; i++) print line[order[i]] }
	' "${fragments[@]}"
}
jobs=${JOBS:-2}
nice=${NICE:-10}
mode=build
case "${1:-}" in
"") ;;
--dir) mode=dir ;;
--status) mode=status ;;
*) sed -n '3,18p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac

log() { echo "debug-kernel: $*" >&2; }

# Build dependencies: the source itself, and what Kconfig (flex, bison) and
# objtool (libelf) need. Installed the way scripts/deps.sh does it.
ensure_packages() {
	local entry pkg file missing=()
	for entry in "$source_pkg:$tarball" "flex:/usr/bin/flex" \
		"bison:/usr/bin/bison" "libelf-dev:/usr/include/libelf.h" \
		"bc:/usr/bin/bc" "libssl-dev:/usr/include/openssl/opensslv.h" \
		"perl:/usr/bin/perl" "xz-utils:/usr/bin/xz"; do
		pkg=${entry%%:*} file=${entry#*:}
		[ -e "$file" ] || missing+=("$pkg")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	if [ "$(id -u)" -ne 0 ]; then
		log "missing packages: ${missing[*]} (run: sudo apt-get install ${missing[*]})"
		exit 1
	fi
	log "installing: ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	# Another job may hold the dpkg lock for a while: wait, do not fail.
	local wait=(-o DPkg::Lock::Timeout=600)
	apt-get install "${wait[@]}" -y -qq --no-install-recommends "${missing[@]}" >/dev/null ||
		{ apt-get update "${wait[@]}" -qq &&
			apt-get install "${wait[@]}" -y -qq --no-install-recommends "${missing[@]}" >/dev/null; }
}

source_version() {
	dpkg-query -W -f='${Version}' "$source_pkg" 2>/dev/null || echo unknown
}

cache_dir() {
	local hash
	hash=$(cat "${fragments[@]}" | sha256sum | cut -c1-12)
	echo "${KBINDER_CACHE:-$HOME/.cache/kbinder}/debug-kernel/$(source_version)-$hash"
}

case "$mode" in
dir) cache_dir; exit 0 ;;
status) [ -f "$(cache_dir)/DONE" ]; exit ;;
esac

ensure_packages
dir=$(cache_dir)
src=$dir/src
if [ -f "$dir/DONE" ]; then
	log "cached: $dir"
	echo "$src"
	exit 0
fi

mkdir -p "$dir"
# One builder at a time per cache directory (two makes started together).
exec 9>"$dir/lock"
flock 9
if [ -f "$dir/DONE" ]; then
	echo "$src"
	exit 0
fi

buildlog=$dir/build.log
: >"$buildlog"
start=$(date +%s)
kmake() {
	nice -n "$nice" make -C "$src" ARCH=x86_64 "$@" >>"$buildlog" 2>&1 || {
		log "make $* failed; the end of $buildlog:"
		tail -n 30 "$buildlog" >&2
		exit 1
	}
}

# A half-built tree from an interrupted run is rebuilt from scratch. A
# finished tree of the same source with another fragment is the quickest
# start: kbuild then recompiles only what the changed options touch
# (minutes instead of half an hour on a busy 2-core host).
rm -rf "$src" "$dir/unpack"
seed=""
for done in "$dir"/../"$(source_version)"-*/DONE; do
	[ -f "$done" ] || continue
	[ -z "$seed" ] || [ "$done" -nt "$seed/DONE" ] && seed=$(dirname "$done")
done
mkdir -p "$dir/unpack"
if [ -n "$seed" ] && [ "${KBINDER_DEBUG_FRESH:-0}" != 1 ]; then
	log "starting from the built tree in $seed (KBINDER_DEBUG_FRESH=1 unpacks afresh)"
	cp -a "$seed/src" "$dir/unpack/$source_pkg"
else
	log "unpacking $tarball (source $(source_version)) into $dir"
	nice -n "$nice" tar -xJf "$tarball" -C "$dir/unpack"
fi
mv "$dir/unpack/$source_pkg" "$src"
rmdir "$dir/unpack"
merged_fragment >"$dir/kernel.config"

log "configuring: tinyconfig + ${fragments[*]##*/}"
kmake tinyconfig
(cd "$src" && ARCH=x86_64 scripts/kconfig/merge_config.sh -m .config "$dir/kernel.config") >>"$buildlog" 2>&1
kmake olddefconfig

# Every line of the fragment must have stuck: a missing dependency makes
# Kconfig drop a symbol silently, and a debug kernel without its detectors
# would pass everything.
missing=()
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=*)
		grep -qxF "$line" "$src/.config" || missing+=("$line (got: $(grep -E "^(# )?${line%%=*}[= ]" "$src/.config" || echo absent))")
		;;
	"# CONFIG_"*" is not set")
		sym=${line#\# }
		sym=${sym%% *}
		! grep -q "^$sym=" "$src/.config" || missing+=("$line (got: $(grep "^$sym=" "$src/.config"))")
		;;
	esac
done <"$dir/kernel.config"
if [ ${#missing[@]} -gt 0 ]; then
	log "these fragment lines did not stick in $src/.config:"
	printf '  %s\n' "${missing[@]}" >&2
	exit 1
fi
log "all $(grep -cE '^(CONFIG_|# CONFIG_.* is not set)' "$dir/kernel.config") fragment lines are in .config"

log "building bzImage (make -j$jobs, nice $nice; log: $buildlog)"
kmake -j"$jobs" bzImage modules_prepare
log "building modules (the reference binder_linux.ko, Module.symvers)"
kmake -j"$jobs" modules
[ -f "$src/drivers/android/binder_linux.ko" ] || { log "no binder_linux.ko was built"; exit 1; }
[ -f "$src/Module.symvers" ] || { log "no Module.symvers was written"; exit 1; }

elapsed=$(($(date +%s) - start))
echo "source $(source_version), built $(date -u +%FT%TZ) in ${elapsed}s with -j$jobs" >"$dir/DONE"
log "done in ${elapsed}s: $src"
echo "$src"
