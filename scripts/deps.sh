#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# Install what kbinder needs to build and to test in QEMU, idempotently.
#   scripts/deps.sh          install whatever is missing (needs root)
#   scripts/deps.sh --check  exit 0 if nothing is missing, 1 otherwise
#   scripts/deps.sh --lint   also the lint tools (sparse, linux-source-6.1)
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
	"linux-image-amd64:"
	"linux-headers-amd64:"
	"python3:/usr/bin/python3"
	"pkg-config:/usr/bin/pkg-config"
)
lint_packages=(
	"sparse:/usr/bin/sparse"
	"linux-source-6.1:/usr/src/linux-source-6.1.tar.xz"
	"perl:/usr/bin/perl"
)

mode=install
packages=("${base_packages[@]}")
for arg in "$@"; do
	case "$arg" in
	--check) mode=check ;;
	--lint) packages+=("${lint_packages[@]}") ;;
	*) echo "usage: $0 [--check] [--lint]" >&2; exit 2 ;;
	esac
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

# The metapackages are installed, but is the kernel they point to complete?
kver=$("$here/kernel-version.sh")
if [ -z "$kver" ] || [ ! -d "/lib/modules/$kver/build" ]; then
	for p in linux-image-amd64 linux-headers-amd64; do
		[[ " ${missing[*]} " == *" $p "* ]] || missing+=("$p")
	done
fi

if [ ${#missing[@]} -eq 0 ]; then
	[ "$mode" = check ] || echo "deps: everything is installed (kernel $kver)"
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
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "deps: installed (kernel $("$here/kernel-version.sh"))"
