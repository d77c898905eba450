#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# usage: scripts/build-old.sh REV KDIR OUTDIR
#
# Build kbinder as it was at commit REV, renamed kbinder_old (module name,
# hence its log prefix and debugfs directory), into OUTDIR/kbinder_old.ko,
# so that `make bench OLD=REV` can load it beside this tree's kbinder and
# compare the two in one boot.  Its devices get their names from the
# devices= parameter at load time; if both register the netlink family
# "binder", the second loads without reports (it says so).
set -euo pipefail
rev=$1 kdir=$2 out=$3
cd "$(dirname "$0")/.."
sha=$(git rev-parse --verify --quiet "$rev^{commit}") || {
	echo "build-old: $rev is not a commit of this repository" >&2
	exit 1
}
src=$out/src
if [ -f "$out/kbinder_old.ko" ] && [ "$(cat "$out/rev" 2>/dev/null)" = "$sha" ]; then
	echo "build-old: kbinder_old.ko of ${sha:0:12} is built"
	exit 0
fi
rm -rf "$out" && mkdir -p "$src"
git archive "$sha" driver include | tar -x -C "$src"
# The module's name comes from Kbuild's obj-m and its <name>-y list.
sed -i -e 's/^obj-m[[:space:]]*:=[[:space:]]*kbinder\.o/obj-m := kbinder_old.o/' \
	-e 's/^kbinder-/kbinder_old-/' "$src/driver/Kbuild"
grep -q '^obj-m := kbinder_old.o' "$src/driver/Kbuild" || {
	echo "build-old: cannot rename the module in $rev's driver/Kbuild" >&2
	exit 1
}
make -C "$kdir" M="$PWD/$src/driver" -j"${JOBS:-2}" modules >"$out/build.log" 2>&1 || {
	tail -n 20 "$out/build.log" >&2
	echo "build-old: building $rev failed (log: $out/build.log)" >&2
	exit 1
}
cp "$src/driver/kbinder_old.ko" "$out/kbinder_old.ko"
echo "$sha" >"$out/rev"
echo "build-old: kbinder_old.ko of ${sha:0:12} built"
