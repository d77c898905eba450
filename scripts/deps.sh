#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# Install what kbinder needs to build and to test in QEMU, idempotently.
#   scripts/deps.sh          install whatever is missing (needs root)
#   scripts/deps.sh --check  exit 0 if nothing is missing, 1 otherwise
#   scripts/deps.sh --lint   also the lint tools (sparse, linux-source-6.1
#                            and -6.12: each series' checkpatch and kernel-doc)
#   scripts/deps.sh --kernel S/F  also Debian's kernel image and headers of
#                            series S (6.1, 6.12), flavour F (amd64,
#                            cloud-amd64, rt-amd64); 6.1/amd64, 6.12/amd64 and
#                            6.12/cloud-amd64 are always installed: make check
#                            boots all three
#   scripts/deps.sh --flavour F   the same for flavour F of both series
#   scripts/deps.sh --deb    also the Debian packaging tools (make deb,
#                            make check-deb)
set -eu

# package -> a file whose presence shows it is installed
base_packages=(
	"gcc:/usr/bin/gcc"
	"make:/usr/bin/make"
	"libc6-dev:/usr/lib/x86_64-linux-gnu/libc.a"
	"gcc-multilib:/usr/lib32/libc.so"
	"cpio:/usr/bin/cpio"
	"gzip:/bin/gzip"
	"busybox-static:/bin/busybox"
	"qemu-system-x86:/usr/bin/qemu-system-x86_64"
	"python3:/usr/bin/python3"
	"dkms:/usr/sbin/dkms"
	"pkg-config:/usr/bin/pkg-config"
)
# Kernels (series/flavour) whose image and headers are always installed.
kernels=(6.1/amd64 6.12/amd64 6.12/cloud-amd64)
lint_packages=(
	"sparse:/usr/bin/sparse"
	"linux-source-6.1:/usr/src/linux-source-6.1.tar.xz"
	"linux-source-6.12:/usr/src/linux-source-6.12.tar.xz"
	"perl:/usr/bin/perl"
)
deb_packages=(
	"dpkg-dev:/usr/bin/dpkg-buildpackage"
	"debhelper:/usr/bin/dh"
	"dh-dkms:/usr/share/perl5/Debian/Debhelper/Sequence/dkms.pm"
	"lintian:/usr/bin/lintian"
	"fakeroot:/usr/bin/fakeroot"
	"debootstrap:/usr/sbin/debootstrap"
)

mode=install
packages=("${base_packages[@]}")
while [ $# -gt 0 ]; do
	case "$1" in
	--check) mode=check ;;
	--lint) packages+=("${lint_packages[@]}") ;;
	--deb) packages+=("${deb_packages[@]}") ;;
	--kernel | --flavour)
		[ $# -ge 2 ] || { echo "deps: $1 needs an argument" >&2; exit 2; }
		case "$1:$2" in
		--kernel:6.1/?* | --kernel:6.12/?*) wanted=("$2") ;;
		--flavour:?*) wanted=("6.1/$2" "6.12/$2") ;;
		*) echo "deps: bad $1 '$2' (a kernel is 6.1/FLAVOUR or 6.12/FLAVOUR)" >&2; exit 2 ;;
		esac
		for k in "${wanted[@]}"; do
			case " ${kernels[*]} " in *" $k "*) ;; *) kernels+=("$k") ;; esac
		done
		shift ;;
	*) echo "usage: $0 [--check] [--lint] [--deb] [--kernel S/F]... [--flavour F]..." >&2; exit 2 ;;
	esac
	shift
done
# meta_packages SERIES FLAVOUR: the metapackages that install that kernel
# and its headers on Debian 12 (6.12 comes from its security archive).
meta_packages() {
	case "$1" in
	6.1) echo "linux-image-$2 linux-headers-$2" ;;
	*) echo "linux-image-$1-$2 linux-headers-$1-$2" ;;
	esac
}
for k in "${kernels[@]}"; do
	for p in $(meta_packages "${k%/*}" "${k#*/}"); do
		packages+=("$p:")
	done
done

here=$(cd "$(dirname "$0")" && pwd)

missing=()
for entry in "${packages[@]}"; do
	pkg=${entry%%:*}
	file=${entry#*:}
	if [ -n "$file" ]; then
		[ -e "$file" ] && continue
	elif dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'ok installed'; then
		continue
	fi
	missing+=("$pkg")
done

# The metapackages are installed, but is each kernel they point to complete?
kvers=()
for k in "${kernels[@]}"; do
	kver=$("$here/kernel-version.sh" "${k#*/}" "${k%/*}")
	if [ -z "$kver" ] || [ ! -d "/lib/modules/$kver/build" ]; then
		for p in $(meta_packages "${k%/*}" "${k#*/}"); do
			[[ " ${missing[*]} " == *" $p "* ]] || missing+=("$p")
		done
	fi
	kvers+=("$kver")
done

if [ ${#missing[@]} -eq 0 ]; then
	[ "$mode" = check ] || echo "deps: everything is installed (kernels ${kvers[*]})"
	exit 0
fi
if [ "$mode" = check ]; then
	echo "deps: missing: ${missing[*]}"
	exit 1
fi

if [ "$(id -u)" -ne 0 ]; then
	echo "deps: missing packages: ${missing[*]}" >&2
	echo "deps: run as root, or: sudo apt-get install ${missing[*]}" >&2
	exit 1
fi

echo "deps: installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# Other jobs may hold the dpkg lock for a while: wait for it, do not fail.
apt-get update -qq -o DPkg::Lock::Timeout=600
apt-get install -y -qq -o DPkg::Lock::Timeout=600 --no-install-recommends \
	"${missing[@]}" >/dev/null
for k in "${kernels[@]}"; do
	echo "deps: kernel $k: $("$here/kernel-version.sh" "${k#*/}" "${k%/*}")"
done
