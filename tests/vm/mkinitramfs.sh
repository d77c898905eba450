#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# Build the guest's initramfs: busybox-static, the guest scripts, the modules
# under test and the static test and tool programs.
#
# usage: mkinitramfs.sh -o OUT.cpio.gz [-m MODULE.ko]... [-t TESTDIR] [-b BINDIR]
#                       [-p PROGRAM]... [-s SCRIPT]...
#   -m  a kernel module, installed as /lib/modules/<name>.ko (repeatable)
#   -t  a directory of static test programs, installed under /tests/
#   -b  a directory of static tools, installed under /usr/bin/ (repeatable)
#   -p  a dynamically linked host program (e.g. /usr/bin/perf for a bench
#       profile), installed under /usr/bin/ with the shared libraries `ldd`
#       lists (repeatable; never used by `make check`)
#   -s  an extra guest script, installed as /scripts/<name> beside
#       tests/vm/guest's, so run.sh can run it by name (repeatable)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out=""
modules=()
testdir=""
bindirs=()
programs=()
scripts=()
while getopts "o:m:t:b:p:s:" opt; do
	case "$opt" in
	o) out=$OPTARG ;;
	m) modules+=("$OPTARG") ;;
	t) testdir=$OPTARG ;;
	b) bindirs+=("$OPTARG") ;;
	p) programs+=("$OPTARG") ;;
	s) scripts+=("$OPTARG") ;;
	*) echo "usage: $0 -o OUT [-m MODULE]... [-t TESTDIR] [-b BINDIR] [-p PROGRAM]... [-s SCRIPT]..." >&2; exit 2 ;;
	esac
done
[ -n "$out" ] || { echo "mkinitramfs: -o is required" >&2; exit 2; }

root=$(mktemp -d "${TMPDIR:-/tmp}/kbinder-initramfs.XXXXXX")
trap 'rm -rf "$root"' EXIT

mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,dev,proc,sys,tmp,run,lib/modules,tests,scripts,etc}
install -m 0755 /bin/busybox "$root/bin/busybox"
install -m 0755 "$here/guest/init" "$root/init"
install -m 0644 "$here"/guest/*.sh "$root/scripts/"
for sc in "${scripts[@]}"; do
	[ -r "$sc" ] || { echo "mkinitramfs: no such script: $sc" >&2; exit 1; }
	install -m 0644 "$sc" "$root/scripts/$(basename "$sc")"
done
for m in "${modules[@]}"; do
	[ -e "$m" ] || { echo "mkinitramfs: no such module: $m" >&2; exit 1; }
	install -m 0644 "$m" "$root/lib/modules/$(basename "$m")"
done
if [ -n "$testdir" ] && [ -d "$testdir" ]; then
	find "$testdir" -maxdepth 1 -type f -perm -u+x -exec install -m 0755 {} "$root/tests/" \;
fi
for bindir in "${bindirs[@]}"; do
	[ -d "$bindir" ] || continue
	find "$bindir" -maxdepth 1 -type f -perm -u+x -exec install -m 0755 {} "$root/usr/bin/" \;
done
for prog in "${programs[@]}"; do
	[ -x "$prog" ] || { echo "mkinitramfs: no such program: $prog" >&2; exit 1; }
	install -m 0755 "$prog" "$root/usr/bin/$(basename "$prog")"
	# Its loader and libraries, at the paths the binary asks for.
	ldd "$prog" | sed -n 's/.*=> \(\/[^ ]*\) .*/\1/p; s/^[[:space:]]*\(\/[^ ]*\) .*/\1/p' |
		sort -u | while read -r lib; do
			mkdir -p "$root$(dirname "$lib")"
			cp -L "$lib" "$root$lib"
		done
done
echo "root:x:0:0:root:/:/bin/sh" >"$root/etc/passwd"
echo "root:x:0:" >"$root/etc/group"

mkdir -p "$(dirname "$out")"
# Several builds may race for the same output: write aside, rename atomically.
tmp=$(mktemp "$out.XXXXXX")
(cd "$root" && find . -print0 | LC_ALL=C sort -z |
	cpio --null -o -H newc --owner=0:0 --quiet) | gzip -1 >"$tmp"
chmod 0644 "$tmp"
mv "$tmp" "$out"
