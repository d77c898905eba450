#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# usage: tests/deb/check.sh DEBDIR NEXTDIR                 (make check-deb)
#
# The packages on a fresh Debian 12 root, never on the host: install the
# packages of DEBDIR (make deb), upgrade to those of NEXTDIR (the same code
# built as a later version), purge. The root is a minimal bookworm
# (debootstrap, from the apt mirror this machine uses) with dkms, gcc and
# the headers of both Debian amd64 kernels kbinder supports (6.1, and 6.12
# from the security archive), prepared once and cached in
# $KBINDER_CACHE (~/.cache/kbinder); every run works on an overlay of it
# (or a copy), so the cache stays pristine. kbinder-dkms's postinst builds
# the module in the root with DKMS for both kernels, as on a user's machine
# with two kernels installed; nothing is ever
# loaded: the root runs without CAP_SYS_MODULE, and modprobe/insmod there
# record any attempt, which fails the run. Secure Boot: the module DKMS
# builds must carry a signature by DKMS's machine-owner key
# (/var/lib/dkms/mok.pub, the key a user enrols with mokutil), checked
# with tests/deb/module-signature.sh after the install and the upgrade.
# DKMS_FRAMEWORK_CONF=FILE puts FILE in the root's
# /etc/dkms/framework.conf.d/ first (sign_file=/nonexistent: DKMS makes no
# key and signs nothing; sign_file=/bin/true: a key, and modules without
# a signature; either way the signature checks must fail).
# Output: PASS/FAIL lines (deb/...), then "N passed, N failed"; exit 1 on
# any failure.
set -uo pipefail

debdir=$(realpath "${1:?usage: check.sh DEBDIR NEXTDIR}")
nextdir=$(realpath "${2:?usage: check.sh DEBDIR NEXTDIR}")
root_dir=$(cd "$(dirname "$0")/../.." && pwd)
cache=${KBINDER_CACHE:-$HOME/.cache/kbinder}
kvers=""
for series in 6.1 6.12; do
	kver=$("$root_dir/scripts/kernel-version.sh" amd64 "$series")
	[ -n "$kver" ] || { echo "FAIL deb/(setup): no Debian $series amd64 kernel installed here"; exit 1; }
	kvers="$kvers${kvers:+ }$kver"
done
base=$cache/deb-root-bookworm-${kvers// /_}
work=$debdir/check-deb

# The mirror apt uses here (deb822 or one-line sources), else Debian's.
mirror=$(sed -n 's/^URIs: *\([^ ]*\/debian\)\/*$/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n 1)
[ -n "$mirror" ] || mirror=$(sed -n 's/^deb \(\[[^]]*\] \)\{0,1\}\([^ ]*\/debian\)\/* bookworm .*/\2/p' \
	/etc/apt/sources.list 2>/dev/null | head -n 1)
: "${mirror:=http://deb.debian.org/debian}"

# What the root has besides minbase: what a user of the packages has (dkms
# and the headers of their kernel; the C toolchain the -dev package needs),
# so that the test itself needs no network.
base_packages="dkms gcc make kmod pkgconf libc6-dev linux-libc-dev"
for kver in $kvers; do
	base_packages="$base_packages linux-headers-$kver"
done
# What kbinder-dkms depends on beyond that (openssl: Debian 12's dkms makes
# its signing key with it, and dkms does not depend on it): fetched into
# the root's apt cache, not installed, so that the test's apt-get installs
# it because the package says so, without the network.
fetched_packages="openssl"

# base_apt DIR: install $base_packages into the root at DIR, fetch
# $fetched_packages.
base_apt() {
	unshare --mount --propagation private sh -c '
		mount -t proc proc "$1/proc" &&
		chroot "$1" sh -c "export DEBIAN_FRONTEND=noninteractive;
			apt-get update -qq &&
			apt-get install -y -qq --no-install-recommends $2 >/dev/null &&
			apt-get clean &&
			apt-get install -y -qq --no-install-recommends --download-only $3 >/dev/null"' \
		sh "$1" "$base_packages" "$fetched_packages" >>"$cache/debootstrap.log" 2>&1 &&
		for kver in $kvers; do [ -d "$1/lib/modules/$kver/build" ] || return 1; done &&
		echo "$base_packages + $fetched_packages" >"$1/.kbinder-base-packages"
}

# prepare_base: debootstrap the root once (a few minutes), then
# $base_packages.
prepare_base() {
	local tmp=$base.tmp
	echo "check-deb: preparing a bookworm root in $base (once) from $mirror"
	mkdir -p "$cache"
	if [ ! -e "$tmp/.debootstrap-done" ]; then
		rm -rf "$tmp"
		if ! debootstrap --variant=minbase bookworm "$tmp" "$mirror" \
			>"$cache/debootstrap.log" 2>&1; then
			tail -n 5 "$cache/debootstrap.log"
			echo "FAIL deb/(setup): debootstrap failed (see $cache/debootstrap.log)"
			return 1
		fi
		touch "$tmp/.debootstrap-done"
	fi
	# The suites this machine's apt uses (bookworm-updates, -security: the
	# kernel's headers may come from there), Debian's sources only.
	local f copied=0
	for f in /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list; do
		[ -f "$f" ] && grep -q 'debian\.org' "$f" && cp "$f" "$tmp$f" && copied=1
	done
	if [ -f /etc/apt/sources.list ] && grep -q '^deb .*debian\.org' /etc/apt/sources.list; then
		cp /etc/apt/sources.list "$tmp/etc/apt/sources.list"
	elif [ $copied -eq 1 ]; then
		rm -f "$tmp/etc/apt/sources.list"
	fi
	if ! base_apt "$tmp"; then
		tail -n 5 "$cache/debootstrap.log"
		echo "FAIL deb/(setup): apt-get in the new root failed (see $cache/debootstrap.log)"
		return 1
	fi
	rm -f "$tmp/.debootstrap-done"
	mv "$tmp" "$base"
}

[ -d "$base" ] || prepare_base || exit 1
if [ "$(cat "$base/.kbinder-base-packages" 2>/dev/null)" != "$base_packages + $fetched_packages" ]; then
	echo "check-deb: adding to the cached root: $base_packages + $fetched_packages"
	base_apt "$base" || {
		echo "FAIL deb/(setup): apt-get in the cached root failed (see $cache/debootstrap.log)"
		exit 1
	}
fi

rm -rf "$work"
mkdir -p "$work/upper" "$work/overlay-work" "$work/root"
cp "$root_dir/tests/deb/module-signature.sh" "$work/"
if [ -n "${DKMS_FRAMEWORK_CONF:-}" ]; then
	echo "check-deb: DKMS configured with $DKMS_FRAMEWORK_CONF"
	cp "$DKMS_FRAMEWORK_CONF" "$work/framework.conf" || exit 1
fi
# The packages a user installs (not the -dbgsym ones).
mkdir -p "$work/next"
for d in "$debdir" "$nextdir"; do
	to=$work
	[ "$d" = "$nextdir" ] && to=$work/next
	for f in "$d"/*.deb; do
		case "$f" in *-dbgsym_*) ;; *) [ -e "$f" ] && cp "$f" "$to/" ;; esac
	done
done

# What runs inside the root: every step prints its own PASS/FAIL lines.
cat >"$work/in-root.sh" <<'EOF'
#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Run by tests/deb/check.sh inside the throwaway root.
set -u
kvers=$1
export DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8
log=/debs/in-root.log
failed=0
pass() { echo "PASS deb/$1"; }
fail() { echo "FAIL deb/$1${2:+: $2}"; failed=1; }
# ko KERNEL: the module DKMS installed for it; compressed the way the
# kernel's own modules are (6.12's .ko.xz: DKMS follows its config).
ko() {
	for f in .ko .ko.xz .ko.zst .ko.gz; do
		f=/lib/modules/$1/updates/dkms/kbinder$f
		[ -f "$f" ] && { echo "$f"; return; }
	done
	echo "/lib/modules/$1/updates/dkms/kbinder.ko"
}

# Any attempt to load a module is recorded (and fails: no CAP_SYS_MODULE).
for t in modprobe insmod; do
	rm -f /usr/sbin/$t
	printf '#!/bin/sh\necho "$0 $*" >>/debs/load-attempts\nexit 1\n' >/usr/sbin/$t
	chmod 0755 /usr/sbin/$t
done

# Every file but the package manager's own state, logs, caches and the
# module index depmod keeps (modules.dep... stay, as on any machine).
files_now() {
	find / -xdev \( -path /proc -o -path /debs -o -path /tmp -o -path /var/cache \
		-o -path /var/log -o -path /var/lib/dpkg -o -path /var/lib/apt \) -prune \
		-o ! -path '/lib/modules/*/modules.*' ! -path '/usr/lib/modules/*/modules.*' \
		-print | sort
}
# What the run asks of DKMS (DKMS_FRAMEWORK_CONF), before anything is installed.
[ -f /debs/framework.conf ] && cp /debs/framework.conf /etc/dkms/framework.conf.d/check-deb.conf
files_now >/debs/files-before

# DKMS's machine-owner certificate, where its configuration puts it.
mok_cert() {
	(
		mok_certificate=""
		for f in /etc/dkms/framework.conf /etc/dkms/framework.conf.d/*.conf; do
			[ -f "$f" ] && . "$f"
		done
		echo "${mok_certificate:-/var/lib/dkms/mok.pub}"
	)
}
# unsigned: for every kernel whose module is not signed with that key, why.
unsigned() {
	for k in $kvers; do
		out=$(sh /debs/module-signature.sh "$(ko "$k")" "$(mok_cert)") && continue
		echo "$k: $out"
	done
}

# dkms_state VERSION KERNEL: "installed" when DKMS built and installed that
# version of kbinder for that kernel.
dkms_state() {
	dkms status -m kbinder -v "$1" -k "$2" 2>/dev/null | sed -n 's/.*: //p'
}
# built_for_all VERSION: that version installed, for every kernel, with the
# right vermagic; else what is not.
built_for_all() {
	for k in $kvers; do
		if [ "$(dkms_state "$1" "$k")" != installed ] || [ ! -f "$(ko "$k")" ] ||
			[ "$(modinfo -F vermagic "$(ko "$k")" | cut -d' ' -f1)" != "$k" ]; then
			echo "$k: dkms '$(dkms_state "$1" "$k")', $(ls "$(ko "$k")" 2>&1)"
		fi
	done
}

echo "--- install"
if apt-get install -y --no-install-recommends /debs/*.deb >>$log 2>&1; then
	pass install
else
	fail install "apt-get failed: $(tail -n 3 $log | tr '\n' ' ')"
fi
v1=$(dpkg-query -W -f='${Version}' kbinder-dkms 2>/dev/null)
not_built=$(built_for_all "$v1")
if [ -z "$not_built" ]; then
	pass postinst_builds_module_with_dkms_for_every_kernel
else
	fail postinst_builds_module_with_dkms_for_every_kernel "$(echo "$not_built" | tr '\n' ' ')"
fi
not_signed=$(unsigned)
cp "$(mok_cert)" /debs/mok-after-install 2>/dev/null
if [ -z "$not_signed" ]; then
	pass module_signed_with_dkms_mok
else
	fail module_signed_with_dkms_mok "$(echo "$not_signed" | tr '\n' ' ')"
fi
if out=$(kbinder --help 2>&1) && echo "$out" | grep -qi usage; then
	pass kbinder_help_runs
else
	fail kbinder_help_runs "$(echo "$out" | head -n 2 | tr '\n' ' ')"
fi
if man -w kbinder >/dev/null 2>&1 || [ -f /usr/share/man/man1/kbinder.1.gz ]; then
	pass man_page_installed
else
	fail man_page_installed "no kbinder(1)"
fi
# A program built against the -dev package with pkg-config, as a user would.
cat >/tmp/use.c <<'C'
#include <kbinder/kbinder.h>
#include <stdio.h>
int main(void)
{
	puts(kbinder_command_name(BC_TRANSACTION));
	return 0;
}
C
if gcc -o /tmp/use /tmp/use.c $(pkg-config --cflags --libs kbinder) >>$log 2>&1 &&
	ldd /tmp/use | grep -q 'libkbinder\.so\.2 => /' &&
	[ "$(/tmp/use)" = BC_TRANSACTION ]; then
	pass dev_package_builds_and_links_a_program
else
	fail dev_package_builds_and_links_a_program "$(tail -n 2 $log | tr '\n' ' ')"
fi
missing=""
for f in 60-kbinder.rules kbinder-modprobe.conf kbinder-modules-load.conf; do
	[ -f /usr/share/doc/kbinder-dkms/examples/$f ] || missing="$missing $f"
done
if [ -z "$missing" ]; then
	pass examples_shipped
else
	fail examples_shipped "missing:$missing"
fi

echo "--- upgrade"
if apt-get install -y --no-install-recommends /debs/next/*.deb >>$log 2>&1; then
	pass upgrade
else
	fail upgrade "apt-get failed: $(tail -n 3 $log | tr '\n' ' ')"
fi
v2=$(dpkg-query -W -f='${Version}' kbinder-dkms 2>/dev/null)
old_left=""
for k in $kvers; do
	old_left="$old_left$(dkms_state "$v1" "$k")"
done
if [ "$v2" != "$v1" ] && [ -z "$(built_for_all "$v2")" ] &&
	[ -z "$old_left" ] && [ ! -e "/usr/src/kbinder-$v1" ] &&
	[ -d "/usr/src/kbinder-$v2" ]; then
	pass upgrade_rebuilds_and_drops_the_old_version
else
	fail upgrade_rebuilds_and_drops_the_old_version \
		"$v1 -> $v2; dkms: $(dkms status 2>&1 | tr '\n' ' '); /usr/src: $(ls -d /usr/src/kbinder-* 2>&1 | tr '\n' ' ')"
fi

not_signed=$(unsigned)
if [ -z "$not_signed" ] && cmp -s "$(mok_cert)" /debs/mok-after-install; then
	pass upgrade_module_signed_with_the_same_mok
else
	why=$(echo "$not_signed" | tr '\n' ' ')
	fail upgrade_module_signed_with_the_same_mok \
		"${why:-the DKMS certificate is not the one made at the install}"
fi

echo "--- purge"
installed=$(dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' kbinder-dkms kbinder \
	libkbinder2 libkbinder-dev 2>/dev/null | awk '$1 ~ /^i/ { print $2 }')
# With what was installed only for them (openssl), as `apt autoremove` does.
# shellcheck disable=SC2086
if [ -n "$installed" ] && apt-get purge -y --autoremove $installed >>$log 2>&1; then
	pass purge
else
	fail purge "apt-get failed: $(tail -n 3 $log | tr '\n' ' ')"
fi
left=$(dpkg -l 'kbinder*' 'libkbinder*' 2>/dev/null | awk '/^[a-z][a-z] / && $1 != "un" { print $2 }')
files_now >/debs/files-after
# DKMS's signing key and certificate are DKMS's, made at the first signed
# build and enrolled by the user: they stay, as on any machine.
extra=$(comm -13 /debs/files-before /debs/files-after |
	grep -vx -e /var/lib/dkms/mok.key -e /var/lib/dkms/mok.pub)
if [ -z "$left" ] && [ -z "$extra" ] && [ ! -e /var/lib/dkms/kbinder ]; then
	pass purge_leaves_nothing
else
	fail purge_leaves_nothing "packages: [$left] files: [$(echo "$extra" | head -n 5 | tr '\n' ' ')]"
fi

if [ -s /debs/load-attempts ]; then
	fail nothing_loaded "$(tr '\n' ' ' </debs/load-attempts)"
else
	pass nothing_loaded
fi
exit $failed
EOF

start=$(date +%s)
# Mount namespace of its own: the mounts vanish with it, whatever happens.
unshare --mount --propagation private bash -c '
	set -e
	base=$1 work=$2 kvers=$3
	if ! mount -t overlay overlay \
		-o "lowerdir=$base,upperdir=$work/upper,workdir=$work/overlay-work" \
		"$work/root" 2>/dev/null; then
		echo "check-deb: no overlayfs here, copying the root"
		cp -a "$base/." "$work/root/"
	fi
	mkdir -p "$work/root/debs"
	mount --bind "$work" "$work/root/debs"
	mount -t proc proc "$work/root/proc"
	# No CAP_SYS_MODULE in the root: nothing there can load a module.
	setpriv --inh-caps=-sys_module --bounding-set=-sys_module \
		chroot "$work/root" sh /debs/in-root.sh "$kvers"
' sh "$base" "$work" "$kvers" | tee "$work/results.log"
rc=${PIPESTATUS[0]}
echo "check-deb: the root's part took $(($(date +%s) - start)) s (log: $work/in-root.log)"
passed=$(grep -c '^PASS ' "$work/results.log")
failed=$(grep -c '^FAIL ' "$work/results.log")
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] || rc=1
exit "$rc"
