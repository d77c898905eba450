#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# usage: deb-build.sh [--version V] [--no-lintian] OUTDIR       (make deb)
#
# Build kbinder's Debian packages with Debian's tooling (dpkg-buildpackage,
# debhelper, dh-dkms): the source package and kbinder-dkms, kbinder,
# libkbinder2, libkbinder-dev, into OUTDIR, then run lintian over them at
# its default level (errors and warnings fail). dpkg-buildpackage writes
# next to the source tree, so the build runs in a copy under OUTDIR/work:
# nothing lands in the repository. --version V builds the same code as
# version V (changelog and dkms.conf of the copy; check-deb uses it to test
# an upgrade).
set -euo pipefail

version="" lintian=1
while [ $# -gt 1 ]; do
	case "$1" in
	--version) version=$2; shift ;;
	--no-lintian) lintian=0 ;;
	*) break ;;
	esac
	shift
done
out=$(realpath -m "${1:?usage: deb-build.sh [--version V] [--no-lintian] OUTDIR}")
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

for tool in dpkg-buildpackage dh dh_dkms lintian; do
	command -v "$tool" >/dev/null || {
		echo "deb-build: $tool is missing: scripts/deps.sh --deb installs it" >&2
		exit 1
	}
done

# The copy: what git tracks plus new files it does not ignore, so no build
# output (build/, driver/*.o, *.ko) gets into the source package.
[ -n "$version" ] || version=$(dpkg-parsechangelog -S Version)
work=$out/work/$version
src=$work/kbinder-$version
rm -rf "$work"
mkdir -p "$src"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git ls-files -z --cached --others --exclude-standard |
		while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
		tar --null -T - -cf - | tar -C "$src" -xf -
else
	tar --exclude=./build --exclude=.git --exclude='*.o' --exclude='*.ko' \
		--exclude='*.cmd' -cf - . | tar -C "$src" -xf -
fi

if [ "$version" != "$(dpkg-parsechangelog -S Version)" ]; then
	(
		cd "$src"
		sed -i "s/^PACKAGE_VERSION=.*/PACKAGE_VERSION=\"$version\"/" dkms.conf
		{
			echo "kbinder ($version) unstable; urgency=medium"
			echo
			echo "  * Rebuilt as $version (scripts/deb-build.sh --version)."
			echo
			echo " -- $(dpkg-parsechangelog -S Maintainer)  $(date -R)"
			echo
			cat debian/changelog
		} >debian/changelog.new
		mv debian/changelog.new debian/changelog
	)
fi

# OUTDIR holds this build's packages only.
mkdir -p "$out"
rm -f "$out"/*.deb "$out"/*.dsc "$out"/*.tar.* "$out"/*.changes "$out"/*.buildinfo
echo "deb-build: building kbinder $version in $src"
start=$(date +%s)
if ! (cd "$src" && dpkg-buildpackage -us -uc -j"$(nproc)") >"$work/build.log" 2>&1; then
	tail -n 30 "$work/build.log"
	echo "deb-build: dpkg-buildpackage failed; the whole log: $work/build.log" >&2
	exit 1
fi
mkdir -p "$out"
changes=$work/kbinder_${version}_$(dpkg-architecture -qDEB_HOST_ARCH).changes
# Move what the .changes lists (and the .changes) to OUTDIR.
for f in $(sed -n '/^Files:/,/^[^ ]/s/^ [0-9a-f]\{32\} [0-9]* [^ ]* [^ ]* //p' "$changes"); do
	mv -f "$work/$f" "$out/"
done
mv -f "$changes" "$out/"
changes=$out/${changes##*/}
echo "deb-build: built in $(($(date +%s) - start)) s:"
sed -n '/^Files:/,/^[^ ]/s/^ [0-9a-f]\{32\} \([0-9]*\) [^ ]* [^ ]* \(.*\)/  \2 (\1 bytes)/p' "$changes"

[ $lintian -eq 1 ] || exit 0
echo "deb-build: lintian (default level: errors and warnings fail)"
if lintian --fail-on error,warning "$changes" >"$work/lintian.log" 2>&1; then
	cat "$work/lintian.log"
	echo "deb-build: lintian clean"
else
	cat "$work/lintian.log"
	echo "deb-build: lintian found problems (above)" >&2
	exit 1
fi
