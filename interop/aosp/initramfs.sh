#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# The AOSP guests' initramfs for one kernel series (check.sh, bench.sh):
# kbinder built for it, the kernel's binder_linux.ko, kbinder's tools,
# aosp-ctl, the AOSP programs of AOSP_OUT with their shared libraries, and
# the guest scripts of interop/aosp/guest. Prints "KVER INITRAMFS".
#
# usage: initramfs.sh SERIES    (from the top of the tree; AOSP_OUT set)
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
s=$1
# The AOSP programs every boot runs (one name a line).
programs=$(grep -v "^#" "$here/programs.list")
make -s module tools build/aosp/bin/aosp-ctl KSERIES="$s" >&2 || exit 1
info=$(make -s kernel-info KSERIES="$s") || exit 1
kver=$(echo "$info" | sed -n 's/.*KVER=\([^ ]*\).*/\1/p')
ref=$(echo "$info" | sed -n 's/.*REFERENCE_KO=\([^ ]*\).*/\1/p')
if [ -n "$ref" ]; then
	make -s "$ref" KSERIES="$s" >&2 || exit 1
fi
if [ "$s" = 6.1 ]; then mod=driver/kbinder.ko; else mod=build/$s-amd64/driver/kbinder.ko; fi
out=build/aosp/initramfs-$s.cpio.gz
args=(-o "$out" -m "$mod" -b build/tools/bin -b build/aosp/bin)
[ -n "$ref" ] && args+=(-m "$ref")
for p in $programs; do args+=(-p "$AOSP_OUT/$p"); done
for g in "$here"/guest/*.sh; do args+=(-s "$g"); done
nice tests/vm/mkinitramfs.sh "${args[@]}" >&2 || exit 1
echo "$kver $out${ref:+ ref}"
