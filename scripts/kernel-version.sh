#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# usage: kernel-version.sh [FLAVOUR]        FLAVOUR: amd64 (default),
#                                           cloud-amd64, rt-amd64
#
# Print the version string (e.g. 6.1.0-57-amd64, 6.1.0-57-cloud-amd64) of
# the Debian kernel image that apt installed through the
# linux-image-FLAVOUR metapackage. This is the kernel kbinder is built for
# and booted in QEMU; it is deliberately NOT `uname -r`, which names the
# host's kernel. Prints nothing if none is found.
set -eu

flavour=${1:-amd64}
case "$flavour" in
*[!a-z0-9-]* | "") echo "kernel-version.sh: bad flavour '$flavour'" >&2; exit 2 ;;
esac

ver=$(dpkg-query -W -f='${Depends}' "linux-image-$flavour" 2>/dev/null |
	sed -n 's/.*linux-image-\([^ ,]*\).*/\1/p' | head -n 1) || true

# Fall back to the newest kernel of this flavour that has both an image and
# headers. The version must end in exactly "-<abi>-FLAVOUR": 6.1.0-57-amd64
# is amd64, 6.1.0-57-cloud-amd64 is not.
if [ -z "$ver" ] || [ ! -e "/boot/vmlinuz-$ver" ]; then
	ver=""
	for dir in $(ls -d /lib/modules/*/build 2>/dev/null | sort -V); do
		v=$(basename "$(dirname "$dir")")
		[[ "$v" =~ ^[0-9]+\.[0-9]+\.[0-9]+-[0-9]+-${flavour}$ ]] || continue
		[ -e "/boot/vmlinuz-$v" ] && ver=$v
	done
fi
[ -n "$ver" ] && echo "$ver"
exit 0
