#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# usage: tests/host/lib_man.sh
#
# libkbinder's manual against its symbol map: every symbol the map
# exports is named by a man page of man/ (a family page's NAME, or
# libkbinder(3)), every family page is what scripts/man3.py writes from
# today's headers, and every page renders without a groff warning.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kbinder-man.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fails=0
pass() { echo "PASS lib/man_$1"; }
fail() { echo "FAIL lib/man_$1: $2"; fails=$((fails + 1)); }

sed -n '/global:/,/local:/p' lib/libkbinder.map | grep -o '^[[:space:]]*kbinder_[a-z0-9_]*' |
	tr -d ' \t' | sort >"$tmp/map"
# The names a page documents: its NAME line(s), before " \- ".
for m in man/*.3; do
	sed -n '/^\.SH NAME/,/^\.SH/p' "$m" | sed 's/\\-/-/g; s/ - .*//' |
		grep -o 'kbinder_[a-z0-9_]*'
done | sort -u >"$tmp/named"
missing=$(comm -23 "$tmp/map" "$tmp/named" | tr '\n' ' ')
[ -z "$missing" ] && pass every_exported_symbol_has_a_page ||
	fail every_exported_symbol_has_a_page "no page names:$missing"

mkdir -p "$tmp/gen"
if python3 scripts/man3.py --out "$tmp/gen"; then
	stale=
	for g in "$tmp"/gen/*.3; do
		cmp -s "$g" "man/$(basename "$g")" || stale="$stale $(basename "$g")"
	done
	[ -z "$stale" ] && pass pages_match_the_headers ||
		fail pages_match_the_headers "run scripts/man3.py:$stale"
else
	fail pages_match_the_headers "scripts/man3.py failed"
fi

if command -v groff >/dev/null; then
	bad=
	for m in man/*.3; do
		groff -man -ww -z "$m" 2>"$tmp/groff.log" && [ ! -s "$tmp/groff.log" ] || bad="$bad $m"
	done
	[ -z "$bad" ] && pass pages_render_cleanly || fail pages_render_cleanly "warnings in$bad"
fi
exit $((fails > 0))
