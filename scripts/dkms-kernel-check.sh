#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
#
# usage: dkms-kernel-check.sh KDIR
#
# Before DKMS compiles kbinder: does the kernel at KDIR export the symbols
# kbinder links against that a kernel.org kernel keeps to itself? Debian's
# 6.1 and 6.12 kernels export them for their own binder module (the patch
# "Export symbols needed by Android drivers", Debian bug #901492), in every
# flavour, the cloud one included. Elsewhere modpost would stop the build
# with '"can_nice" [kbinder.ko] undefined!'; this says why, before compiling.
#
# Keep each list to what kbinder.ko really imports on that series:
# tests/host/dkms-check.sh fails when a listed symbol is no longer imported.
symbols_6_1="can_nice close_fd_get_file __wake_up_pollfree zap_page_range
security_binder_set_context_mgr security_binder_transaction
security_binder_transfer_binder security_binder_transfer_file"
symbols_6_12="can_nice file_close_fd __wake_up_pollfree zap_page_range_single
security_binder_set_context_mgr security_binder_transaction
security_binder_transfer_binder security_binder_transfer_file"

kdir=${1:?usage: dkms-kernel-check.sh KDIR}
symvers=$kdir/Module.symvers
if [ ! -r "$symvers" ]; then
	echo "kbinder: $symvers is missing: install the headers package of this kernel" >&2
	exit 1
fi
release=$(cat "$kdir/include/config/kernel.release" 2>/dev/null)
case "$release" in
6.1.*) series=6.1 symbols=$symbols_6_1 ;;
6.12.*) series=6.12 symbols=$symbols_6_12 ;;
*)
	echo "kbinder: the kernel at $kdir is '${release:-unknown}': kbinder supports the 6.1 and 6.12 series" >&2
	exit 1 ;;
esac
missing=""
for sym in $symbols; do
	awk -v s="$sym" '$2 == s { found = 1 } END { exit !found }' "$symvers" ||
		missing="$missing $sym"
done
if [ -n "$missing" ]; then
	echo "kbinder: the kernel at $kdir does not export:$missing" >&2
	echo "kbinder: kbinder needs the symbols Debian's $series kernels export for their" >&2
	echo "kbinder: binder module; build it against a Debian $series kernel (linux-headers-amd64," >&2
	echo "kbinder: -cloud-amd64, -rt-amd64 and their 6.12 counterparts) or a kernel with the same exports" >&2
	exit 1
fi
echo "kbinder: $kdir ($release) exports every symbol kbinder needs beyond a kernel.org $series"
