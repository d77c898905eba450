#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# usage: tests/host/lib_install.sh BUILD
#
# Checks the packaging contract of libkbinder: `make install PREFIX=/usr
# DESTDIR=dir` without a kernel or root installs the shared library (with
# its SONAME and links), the static one, the public headers, kbinder.pc, the
# tool and its man pages; the shared object exports exactly the symbol map;
# the installed header builds against the system's own linux-libc-dev (no
# project include path) as C99 and C++; a program built with pkg-config
# links and runs both shared and static.
set -uo pipefail
build=${1:-build}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kbinder-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
dest=$tmp/dest
fails=0

pass() { echo "PASS lib/install_$1"; }
fail() { echo "FAIL lib/install_$1: $2"; fails=$((fails + 1)); }

# Nothing but PATH: no KBINDER_DEPS_OK, so the deps check would run if
# install still asked for it (and would fail without a kernel image here).
if env -i PATH="$PATH" HOME="$tmp" make -s --no-print-directory install \
	PREFIX=/usr DESTDIR="$dest" BUILD="$build" >"$tmp/install.log" 2>&1; then
	pass make_install_with_destdir
else
	fail make_install_with_destdir "$(tail -3 "$tmp/install.log" | tr '\n' ' ')"
	exit 1
fi

# The SONAME and the file name come from the Makefile (one place).
sover=$(sed -n 's/^LIB_SOVERSION := //p' Makefile)
libver=$(sed -n 's/^LIB_VERSION := //p' Makefile)
headers=$(cd lib/include && ls kbinder/*.h)
missing=
for f in usr/lib/libkbinder.so.$libver usr/lib/libkbinder.so.$sover usr/lib/libkbinder.so \
	usr/lib/libkbinder.a $(printf 'usr/include/%s ' $headers) \
	usr/include/kbinder/uapi/linux/kbinder_profile.h \
	usr/lib/pkgconfig/kbinder.pc usr/bin/kbinder usr/share/man/man1/kbinder.1 \
	usr/share/man/man3/libkbinder.3; do
	[ -e "$dest/$f" ] || missing="$missing $f"
done
[ -z "$missing" ] && pass installs_every_file || fail installs_every_file "missing:$missing"
[ ! -e "$dest/usr/include/kbinder/legacy.h" ] && pass legacy_names_not_installed ||
	fail legacy_names_not_installed "legacy.h was installed"
[ "$(readlink "$dest/usr/lib/libkbinder.so")" = libkbinder.so.$sover ] &&
[ "$(readlink "$dest/usr/lib/libkbinder.so.$sover")" = libkbinder.so.$libver ] &&
	pass shared_links || fail shared_links "wrong symlinks"

soname=$(readelf -d "$dest/usr/lib/libkbinder.so.$libver" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = libkbinder.so.$sover ] && pass soname || fail soname "SONAME is '$soname'"
# Every installed header includes only installed headers.
bad=
for h in $headers; do
	for inc in $(sed -n 's/^#include "\(.*\)"/\1/p; s/^#include <\(kbinder\/.*\)>/\1/p' "lib/include/$h"); do
		case $inc in kbinder/*) ;; *) inc=kbinder/$inc ;; esac
		[ -e "$dest/usr/include/$inc" ] || bad="$bad $h:$inc"
	done
done
[ -z "$bad" ] && pass headers_include_only_installed_headers ||
	fail headers_include_only_installed_headers "$bad"

# Exports == the map's global list; nothing else (no internal helper, no
# kb_ name that could be confused with the driver's).
sed -n '/global:/,/local:/p' lib/libkbinder.map | grep -o '^[[:space:]]*kbinder_[a-z0-9_]*' |
	tr -d ' \t' | sort >"$tmp/map"
nm -D --defined-only "$dest/usr/lib/libkbinder.so.$libver" | awk '$2 == "T" {print $3}' |
	sed 's/@.*//' | sort >"$tmp/exports"
if diff -u "$tmp/map" "$tmp/exports" >"$tmp/diff"; then
	pass exports_exactly_the_map
else
	fail exports_exactly_the_map "$(grep '^[-+]k' "$tmp/diff" | tr '\n' ' ')"
fi
# Every function the headers declare is in the map (static inline ones
# are not exported: they are the header's own).
(cd lib/include && grep -h '\bkbinder_[a-z0-9_]*(' $headers | grep -v '^static inline' |
	grep -o '\bkbinder_[a-z0-9_]*(' | tr -d '(' | sort -u) >"$tmp/declared"
grep -h -A1 '^static inline' $(printf 'lib/include/%s ' $headers) | grep -o '\bkbinder_[a-z0-9_]*(' |
	tr -d '(' | sort -u >"$tmp/inline"
comm -23 "$tmp/declared" "$tmp/inline" >"$tmp/declared.out" && mv "$tmp/declared.out" "$tmp/declared"
undeclared=$(comm -23 "$tmp/declared" "$tmp/map" | tr '\n' ' ')
[ -z "$undeclared" ] && pass map_covers_the_headers || fail map_covers_the_headers "not in the map: $undeclared"

cat >"$tmp/use.c" <<'C'
#include <kbinder/kbinder.h>
#include <kbinder/report.h>
#include <kbinder/android.h>
#include <kbinder/servicemanager.h>
#include <linux/kbinder_profile.h>
#include <stdio.h>
#include <string.h>
int main(void)
{
	struct kbinder_parcel p;
	struct kbinder_view v;
	struct binder_transaction_data tr;
	uint32_t x = 0;

	kbinder_parcel_init(&p);
	kbinder_parcel_write_u32(&p, 0x1234);
	memset(&tr, 0, sizeof(tr));
	kbinder_parcel_to_txn(&p, &tr);
	kbinder_view_init(&v, &tr);
	if (kbinder_view_read_u32(&v, &x) || x != 0x1234)
		return 1;
	kbinder_parcel_fini(&p);
	if (KBINDER_CTL_PROFILE(KBINDER_PROFILE_AIDL) != 0x6b627001U)
		return 1;
	printf("%s\n", kbinder_return_name(BR_REPLY));
	return 0;
}
C
export PKG_CONFIG_SYSROOT_DIR=$dest PKG_CONFIG_LIBDIR=$dest/usr/lib/pkgconfig
if ! cflags=$(pkg-config --cflags kbinder) || ! libs=$(pkg-config --libs kbinder) ||
	! slibs=$(pkg-config --static --libs kbinder); then
	fail pkg_config "pkg-config does not know kbinder"
else
	pass pkg_config
	# -nostdinc would be too much: the system's headers are the point,
	# the project's include/uapi must not be on the path.
	if gcc -std=c99 -pedantic -Wall -Wextra -Werror $cflags -c "$tmp/use.c" -o "$tmp/use.o" 2>"$tmp/cc.log"; then
		pass header_builds_on_system_uapi_c99
	else
		fail header_builds_on_system_uapi_c99 "$(head -3 "$tmp/cc.log" | tr '\n' ' ')"
	fi
	if command -v g++ >/dev/null; then
		if g++ -x c++ -std=c++11 -Wall -Wextra -Werror $cflags -c "$tmp/use.c" -o "$tmp/usepp.o" 2>"$tmp/cxx.log"; then
			pass header_builds_as_cxx
		else
			fail header_builds_as_cxx "$(head -3 "$tmp/cxx.log" | tr '\n' ' ')"
		fi
	fi
	if gcc "$tmp/use.o" -o "$tmp/use-shared" $libs 2>"$tmp/ld.log" &&
		out=$(LD_LIBRARY_PATH=$dest/usr/lib "$tmp/use-shared") && [ "$out" = BR_REPLY ] &&
		LD_LIBRARY_PATH=$dest/usr/lib ldd "$tmp/use-shared" | grep "libkbinder.so.$sover =>" >/dev/null; then
		pass links_and_runs_shared
	else
		fail links_and_runs_shared "$(head -3 "$tmp/ld.log" | tr '\n' ' ')"
	fi
	if gcc -static "$tmp/use.o" -o "$tmp/use-static" $(echo "$slibs" | sed 's/-lkbinder/-l:libkbinder.a/') 2>"$tmp/lds.log" &&
		out=$("$tmp/use-static") && [ "$out" = BR_REPLY ]; then
		pass links_and_runs_static
	else
		fail links_and_runs_static "$(head -3 "$tmp/lds.log" | tr '\n' ' ')"
	fi
fi

# The examples build as a user would build them: pkg-config, installed tree.
if [ -n "${cflags+x}" ]; then
	bad=
	for ex in examples/*.c; do
		gcc -std=c11 -Wall -Wextra -Werror $cflags "$ex" -o "$tmp/ex" $libs 2>"$tmp/ex.log" ||
			bad="$bad $ex: $(head -2 "$tmp/ex.log" | tr '\n' ' ')"
	done
	[ -z "$bad" ] && pass examples_build_from_the_installed_tree ||
		fail examples_build_from_the_installed_tree "$bad"
fi

if command -v groff >/dev/null; then
	bad=
	for m in man/*.[1-8]; do
		groff -man -ww -z "$m" 2>"$tmp/groff.log" && [ ! -s "$tmp/groff.log" ] || bad="$bad $m"
	done
	[ -z "$bad" ] && pass man_pages_render_cleanly || fail man_pages_render_cleanly "warnings in$bad"
fi
exit $((fails > 0))
