#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# Print the version string (e.g. 6.1.0-57-amd64) of the Debian kernel image
# that apt installed through the linux-image-amd64 metapackage. This is the
# kernel kbinder is built for and booted in QEMU; it is deliberately NOT
# `uname -r`, which names the host's kernel. Prints nothing if none is found.
set -eu

ver=$(dpkg-query -W -f='${Depends}' linux-image-amd64 2>/dev/null |
	sed -n 's/.*linux-image-\([^ ,]*\).*/\1/p' | head -n 1) || true

# Fall back to the newest kernel that has both an image and headers.
if [ -z "$ver" ] || [ ! -e "/boot/vmlinuz-$ver" ]; then
	ver=""
	for dir in $(ls -d /lib/modules/*/build 2>/dev/null | sort -V); do
		v=$(basename "$(dirname "$dir")")
		[ -e "/boot/vmlinuz-$v" ] && ver=$v
	done
fi
[ -n "$ver" ] && echo "$ver"
exit 0
