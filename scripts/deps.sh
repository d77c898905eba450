#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# Install what kbinder needs to build and to test in QEMU, idempotently.
#   scripts/deps.sh          install whatever is missing (needs root)
#   scripts/deps.sh --check  exit 0 if nothing is missing, 1 otherwise
#   scripts/deps.sh --lint   also the lint tools (sparse, linux-source-6.1)
#   scripts/deps.sh --flavour F   also Debian's linux-image-F and
#                            linux-headers-F (rt-amd64; amd64 and cloud-amd64
#                            are always installed: make check boots both)
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
# Kernel flavours whose image and headers are always installed.
flavours=(amd64 cloud-amd64)
lint_packages=(
	"sparse:/usr/bin/sparse"
	"linux-source-6.1:/usr/src/linux-source-6.1.tar.xz"
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
	--flavour)
		[ $# -ge 2 ] || { echo "deps: --flavour needs a flavour" >&2; exit 2; }
		case " ${flavours[*]} " in *" $2 "*) ;; *) flavours+=("$2") ;; esac
		shift ;;
	*) echo "usage: $0 [--check] [--lint] [--deb] [--flavour F]..." >&2; exit 2 ;;
	esac
	shift
done
for f in "${flavours[@]}"; do
	packages+=("linux-image-$f:" "linux-headers-$f:")
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
for f in "${flavours[@]}"; do
	kver=$("$here/kernel-version.sh" "$f")
	if [ -z "$kver" ] || [ ! -d "/lib/modules/$kver/build" ]; then
		for p in "linux-image-$f" "linux-headers-$f"; do
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
for f in "${flavours[@]}"; do
	echo "deps: kernel $f: $("$here/kernel-version.sh" "$f")"
done
