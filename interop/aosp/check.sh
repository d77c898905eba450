#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# make check-aosp: AOSP's Android 14 binder tests, servicemanager and
# `service` on kbinder and on the kernel's own binder_linux.ko, one boot per
# kernel and driver, and the per-case table (table.sh).
#
# usage: check.sh            (from the top of the tree; make check-aosp)
#   AOSP_OUT=DIR       the AOSP programs, built by the user outside this
#                      repository (README.md here says what they are and
#                      where their sources come from); unset: say so, exit 0
#   AOSP_KSERIES=LIST  the kernel series to boot ("6.12 6.1")
#   AOSP_DRIVERS=LIST  (kbinder reference)
#   AOSP_TESTS=GLOBS   the guest's phases (aosp-*; guest/aosp.sh)
#   AOSP_LOGS=DIR      where each boot's logs go (build/aosp/logs)
#   VM_TIMEOUT=S       each boot's limit (3600)
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# The AOSP programs every boot runs (one name a line).
programs=$(grep -v "^#" "$here/programs.list")

if [ -z "${AOSP_OUT:-}" ]; then
	cat <<EOF
check-aosp: AOSP_OUT is not set, nothing to run (not a failure).
This check runs AOSP's own Android 14 binder programs, which this
repository neither holds nor builds:
$(echo "$programs" | tr -s " \t\n" " " | fold -s -w 70 | sed 's/^/    /')
Build them for Linux from android-14.0.0_r55 (see interop/aosp/README.md:
the repositories, the tag and what has to change off Android), then
    make check-aosp AOSP_OUT=DIR
with DIR the directory that holds them (their shared libraries are found
the way ldd finds them and copied into the guest at the same paths).
EOF
	exit 0
fi

missing=""
for p in $programs; do
	[ -x "$AOSP_OUT/$p" ] || missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "check-aosp: AOSP_OUT=$AOSP_OUT lacks:$missing (interop/aosp/README.md)" >&2
	exit 1
fi
for p in $programs; do
	if ldd "$AOSP_OUT/$p" | grep -q 'not found'; then
		echo "check-aosp: $AOSP_OUT/$p: $(ldd "$AOSP_OUT/$p" | grep 'not found' | head -n 1)" >&2
		exit 1
	fi
done

series=${AOSP_KSERIES:-6.12 6.1}
drivers=${AOSP_DRIVERS:-kbinder reference}
logs=${AOSP_LOGS:-build/aosp/logs}
mkdir -p "$logs" build/vm

# The kernel's own SELinux with no policy: every process has a context, so
# a context manager that asks for its callers' (BINDER_SET_CONTEXT_MGR_EXT,
# as AOSP's does) gets one; with AppArmor, 6.1 and 6.12 fail every such
# transaction on both drivers (docs/interop.md).
append="lsm=lockdown,capability,landlock,yama,selinux,bpf selinux=1"

rc=0
runs=()
for s in $series; do
	made=$(AOSP_OUT=$AOSP_OUT "$here/initramfs.sh" "$s") || exit 1
	read -r kver initramfs ref <<<"$made"
	for d in $drivers; do
		[ "$d" = reference ] && [ -z "$ref" ] && continue
		log=$logs/$s-$d
		echo "check-aosp: $s, $d (logs in $log)"
		nice tests/vm/run.sh --kernel "/boot/vmlinuz-$kver" --initramfs "$initramfs" \
			--accel-cache build/vm/accel --timeout "${VM_TIMEOUT:-3600}" \
			--driver "$d" --tests "${AOSP_TESTS:-*}" --append "$append" \
			--logdir "$log" --quiet aosp || rc=1
		runs+=("$s-$d=$log/output.log")
	done
done
"$here/table.sh" "${runs[@]}" || rc=1
exit $rc
