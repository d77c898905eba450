#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# usage: tests/host/api_audit_check.sh [DOC]
#
# docs/api-audit.md (or DOC) must audit every item of the binder ABI, so
# that the audit cannot drift from the headers. The items are the ABI
# check's own list, tests/host/abi_items.h with the protocol codes of
# include/kbinder/binder_cmds.h, expanded by the C preprocessor: every
# constant, ioctl, BC_/BR_ code and string (by name) and every structure
# ("struct TAG"); fields belong to their structure's row.
#
# Between <!-- audit-table:begin --> and <!-- audit-table:end --> a row is
# a line "| `NAME` | users | kbinder | CVEs | verdict | measured |". The
# same row format holds between the audit-interfaces markers, whose names
# are not items. Checks, one result line each:
#   api-audit/rows      every item has exactly one row, every row is an item
#   api-audit/cells     every row has six cells, a verdict "AIDL",
#                       "HIDL only", "legacy" or "debug" (with an optional
#                       "(...)"), and a measured cell "—" or a count
#   api-audit/counts    the doc's "Verdicts over the N items: AIDL a,
#                       HIDL only b, legacy c, debug d." line matches the
#                       table
#   api-audit/self/*    each check rejects a crafted copy of the doc with
#                       that fault (a row removed, doubled, misnamed, a bad
#                       verdict, a cell missing, wrong counts)
# Exit status: 1 if any line is FAIL.
set -u
cd "$(dirname "$0")/../.." || exit 1
doc=${1:-docs/api-audit.md}
out=build/host/api-audit
mkdir -p "$out" || exit 1
failed=0

# One "NAME" line per ABI item, structures as "struct TAG".
abi_items() {
	printf '%s\n' '#include "tests/host/abi_items.h"' \
		'#define C(g, n) ITEM n' '#define S(g, n) ITEM n' \
		'#define T(g, t) ITEM struct t' '#define E(g, text, e)' \
		'#define F(g, t, f)' '#define M(g, t, f)' \
		'ABI_COMMON_ITEMS(C, E, S, T, F, M)' \
		'ABI_NEW_ITEMS(C, E, S, T, F, M)' |
		${CC:-cc} -E -P -Iinclude -I. -x c - |
		tr -s ' \t' '\n' |
		awk '$0 == "ITEM" { want = 1; next }
		     want && $0 == "struct" { st = 1; next }
		     want { print (st ? "struct " : "") $0; want = 0; st = 0 }'
}

# The rows of the region MARK of DOC: "NAME<TAB>line" per row.
rows() {
	awk -v mark="$2" '
	$0 ~ "<!-- " mark ":begin -->" { inside = 1; next }
	$0 ~ "<!-- " mark ":end -->" { inside = 0; next }
	inside && /^\| `[^`]+` \|/ {
		name = $0
		sub(/^\| `/, "", name); sub(/`.*$/, "", name)
		print name "\t" $0
	}' "$1"
}

# check_rows DOC ITEMS: prints one problem a line.
check_rows() {
	rows "$1" audit-table | cut -f1 | sort | uniq -c |
		awk '$1 > 1 { $1 = ""; print "more than one row for" $0 }'
	rows "$1" audit-table | cut -f1 | sort -u >"$out/names"
	sort -u "$2" >"$out/items"
	comm -23 "$out/items" "$out/names" | sed 's/^/no row for /'
	comm -13 "$out/items" "$out/names" | sed 's/^/a row for what is not an ABI item: /'
}

# check_cells DOC: prints one problem a line.
check_cells() {
	{ rows "$1" audit-table; rows "$1" audit-interfaces; } | cut -f2- |
	awk -F' [|] ' '
	{
		name = $1; sub(/^\| `/, "", name); sub(/`.*$/, "", name)
		pipes = gsub(/\|/, "|")
		if (pipes != 7) {
			print name ": " pipes - 1 " cells instead of 6"
			next
		}
		verdict = $5; measured = $6; sub(/ [|]$/, "", measured)
		if (verdict !~ /^(AIDL|HIDL only|legacy|debug)( \([^)]*\))?$/)
			print name ": verdict \"" verdict "\""
		if (measured != "—" && measured !~ /^[0-9]/)
			print name ": measured \"" measured "\""
	}'
}

# check_counts DOC: the stated verdict counts against the table's.
check_counts() {
	local stated actual
	stated=$(sed -n 's/.*Verdicts over the \([0-9]*\) items: AIDL \([0-9]*\), HIDL only \([0-9]*\), legacy \([0-9]*\), debug \([0-9]*\)\..*/\1 \2 \3 \4 \5/p' "$1" | head -1)
	actual=$(rows "$1" audit-table | cut -f2- | awk -F' [|] ' '
		{ v = $5; sub(/ \(.*$/, "", v); n[v]++; total++ }
		END { printf "%d %d %d %d %d", total, n["AIDL"], n["HIDL only"], n["legacy"], n["debug"] }')
	if [ -z "$stated" ]; then
		echo "no \"Verdicts over the N items: AIDL a, HIDL only b, legacy c, debug d.\" line"
	elif [ "$stated" != "$actual" ]; then
		echo "stated counts (items, AIDL, HIDL only, legacy, debug) $stated, table $actual"
	fi
}

# result NAME PROBLEMS-FILE: a PASS or FAIL line.
result() {
	if [ -s "$2" ]; then
		echo "FAIL api-audit/$1: $(head -5 "$2" | paste -sd ';' -)$([ "$(wc -l <"$2")" -gt 5 ] && echo '; ...')"
		failed=1
	else
		echo "PASS api-audit/$1"
	fi
}

abi_items >"$out/abi-items"
n=$(wc -l <"$out/abi-items")
if [ "$n" -lt 100 ]; then
	echo "FAIL api-audit/rows: only $n ABI items from tests/host/abi_items.h"
	exit 1
fi
if [ ! -f "$doc" ]; then
	echo "FAIL api-audit/rows: no $doc"
	exit 1
fi
check_rows "$doc" "$out/abi-items" >"$out/rows.txt"
result rows "$out/rows.txt"
check_cells "$doc" >"$out/cells.txt"
result cells "$out/cells.txt"
check_counts "$doc" >"$out/counts.txt"
result counts "$out/counts.txt"

# self NAME SED-SCRIPT CHECK PATTERN: the check must report PATTERN on a
# copy of the doc edited by SED-SCRIPT.
self() {
	local name=$1 script=$2 check=$3 pattern=$4 copy=$out/self-$1.md
	sed "$script" "$doc" >"$copy"
	if cmp -s "$copy" "$doc"; then
		echo "FAIL api-audit/self/$name: the edit changed nothing (a row it needs is gone?)"
		failed=1
		return
	fi
	case $check in
	rows) check_rows "$copy" "$out/abi-items" ;;
	cells) check_cells "$copy" ;;
	counts) check_counts "$copy" ;;
	esac >"$out/self-$name.txt"
	if grep -q -- "$pattern" "$out/self-$name.txt"; then
		echo "PASS api-audit/self/$name"
	else
		echo "FAIL api-audit/self/$name: '$pattern' not reported (got: $(head -3 "$out/self-$name.txt" | paste -sd ';' -))"
		failed=1
	fi
}

# The backquotes below are the doc's, not command substitutions.
# shellcheck disable=SC2016
{
	self a_missing_row_is_reported '/^| `BC_REPLY_SG` |/d' rows 'no row for BC_REPLY_SG'
	self a_missing_struct_row_is_reported '/^| `struct binder_pri_desc` |/d' rows 'no row for struct binder_pri_desc'
	self a_doubled_row_is_reported '/^| `BR_NOOP` |/p' rows 'more than one row for BR_NOOP'
	self a_misnamed_row_is_reported 's/^| `BC_FREE_BUFFER` |/| `BC_FREE_BUFER` |/' rows 'not an ABI item: BC_FREE_BUFER'
	self a_bad_verdict_is_reported '/^| `TF_ROOT_OBJECT` |/s/| legacy |/| unused |/' cells 'TF_ROOT_OBJECT: verdict "unused"'
	self a_missing_cell_is_reported '/^| `BINDER_VERSION` |/s/| — |$/|/' cells 'BINDER_VERSION: 5 cells'
	self a_bad_measured_cell_is_reported '/^| `poll` |/s/| — |$/| soon |/' cells 'poll: measured "soon"'
	self wrong_counts_are_reported '/^| `BR_FINISHED` |/s/| legacy |/| AIDL |/' counts 'stated counts'
}
exit $failed
