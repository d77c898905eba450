#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
#
# usage: dkms-kernel-check.sh KDIR
#
# Before DKMS compiles kbinder: does the kernel at KDIR export the symbols
# kbinder links against that a kernel.org 6.1 kernel keeps to itself?
# Debian's 6.1 kernels export them for their own binder module (the patch
# "Export symbols needed by Android drivers", Debian bug #901492), in every
# flavour, the cloud one included. Elsewhere modpost would stop the build
# with '"can_nice" [kbinder.ko] undefined!'; this says why, before compiling.
#
# Keep the list to what kbinder.ko really imports: tests/host/dkms-check.sh
# fails when a listed symbol is no longer imported.
symbols="can_nice close_fd_get_file __wake_up_pollfree zap_page_range
security_binder_set_context_mgr security_binder_transaction
security_binder_transfer_binder security_binder_transfer_file"

kdir=${1:?usage: dkms-kernel-check.sh KDIR}
symvers=$kdir/Module.symvers
if [ ! -r "$symvers" ]; then
	echo "kbinder: $symvers is missing: install the headers package of this kernel" >&2
	exit 1
fi
missing=""
for sym in $symbols; do
	awk -v s="$sym" '$2 == s { found = 1 } END { exit !found }' "$symvers" ||
		missing="$missing $sym"
done
if [ -n "$missing" ]; then
	echo "kbinder: the kernel at $kdir does not export:$missing" >&2
	echo "kbinder: kbinder needs the symbols Debian's 6.1 kernels export for their" >&2
	echo "kbinder: binder module; build it against a Debian 6.1 kernel (linux-headers-amd64," >&2
	echo "kbinder: -cloud-amd64, -rt-amd64) or a kernel with the same exports" >&2
	exit 1
fi
echo "kbinder: $kdir exports every symbol kbinder needs beyond a kernel.org 6.1"
