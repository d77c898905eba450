#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# usage: tests/host/abi_coverage.sh [SYSTEM_DIR [OURS_DIR]]
#
# abi_check compares only what tests/host/abi_items.h lists (with the
# protocol codes of include/kbinder/binder_cmds.h).  This script makes sure
# that list is complete: every macro, enum constant, typedef,
# struct and struct field defined by the system's binder headers or by
# ours must be named there.  Prints "PASS abi/coverage" or
# "FAIL abi/coverage: <what is missing>"; exits 1 on failure.
set -u
sys_dir=${1:-/usr/include/linux/android}
ours_dir=${2:-include/uapi/linux/android}
items=tests/host/abi_items.h
codes=include/kbinder/binder_cmds.h

# Print one "kind name" line per definition in the headers given.
definitions() {
	awk '
	# Drop comments, also those spanning lines.
	{
		line = ""
		rest = $0
		while (rest != "") {
			if (incomment) {
				i = index(rest, "*/")
				if (!i) { rest = ""; break }
				rest = substr(rest, i + 2); incomment = 0
			} else {
				i = index(rest, "/*")
				if (!i) { line = line rest; rest = ""; break }
				line = line substr(rest, 1, i - 1)
				rest = substr(rest, i + 2); incomment = 1
			}
		}
		$0 = line
	}
	/^#[ \t]*define[ \t]+[A-Za-z_]/ {
		name = $0
		sub(/^#[ \t]*define[ \t]+/, "", name)
		sub(/[^A-Za-z0-9_].*$/, "", name)
		if (name !~ /_H$/) print "name", name
		next
	}
	/^[ \t]*typedef[ \t]/ {
		name = $0
		sub(/;.*$/, "", name); sub(/^.*[ \t]/, "", name)
		print "name", name
		next
	}
	/^[ \t]*enum[^;]*\{/ { inenum = 1; next }
	inenum && /\}/ { inenum = 0; next }
	inenum && /^[ \t]*[A-Z_][A-Z0-9_]*[ \t]*(=|,|$)/ {
		name = $0
		sub(/^[ \t]*/, "", name); sub(/[^A-Z0-9_].*$/, "", name)
		print "name", name
		next
	}
	depth == 0 && /^[ \t]*struct[ \t]+[A-Za-z0-9_]+[ \t]*\{/ {
		tag = $0
		sub(/^[ \t]*struct[ \t]+/, "", tag); sub(/[^A-Za-z0-9_].*$/, "", tag)
		print "struct", tag
		depth = 1; members[1] = ""
		next
	}
	depth >= 1 && /(union|struct)[ \t]*\{/ {
		depth++; members[depth] = ""
		next
	}
	depth >= 1 && /^[ \t]*\}/ {
		name = $0
		sub(/^[ \t]*\}[ \t]*/, "", name); sub(/[^A-Za-z0-9_].*$/, "", name)
		if (name ~ /^__/) name = ""
		if (depth == 1) {
			n = split(members[1], m, " ")
			for (i = 1; i <= n; i++) print "field", tag, m[i]
			depth = 0
			next
		}
		n = split(members[depth], m, " ")
		for (i = 1; i <= n; i++)
			members[depth - 1] = members[depth - 1] " " (name == "" ? m[i] : name "." m[i])
		if (name != "") members[depth - 1] = members[depth - 1] " " name
		depth--
		next
	}
	depth >= 1 && /;[ \t]*$/ {
		name = $0
		sub(/;[ \t]*$/, "", name); sub(/\[.*$/, "", name)
		sub(/[ \t]+$/, "", name); sub(/^.*[^A-Za-z0-9_]/, "", name)
		members[depth] = members[depth] " " name
	}
	' "$@"
}

missing=()
checked=0
while read -r kind a b; do
	checked=$((checked + 1))
	case $kind in
	name)	grep -qw -- "$a" "$items" "$codes" || missing+=("$a") ;;
	struct)	grep -qE "\bT\([a-z]+, $a\)" "$items" || missing+=("struct $a") ;;
	field)	grep -qE "\b[FM]\([a-z]+, $a, ${b//./\\.}\)" "$items" ||
			missing+=("struct $a.$b") ;;
	esac
done < <(definitions "$sys_dir"/binder.h "$sys_dir"/binderfs.h "$ours_dir"/*.h | sort -u)

if [ "$checked" -lt 100 ]; then
	echo "FAIL abi/coverage: only $checked definitions found in $sys_dir and $ours_dir"
	exit 1
fi
if [ "${#missing[@]}" -gt 0 ]; then
	echo "FAIL abi/coverage: not in $items or $codes: ${missing[*]}"
	exit 1
fi
echo "PASS abi/coverage"
