#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# usage: tests/host/module_check.sh DEFAULT.ko TEST.ko
#
# The default kbinder.ko must carry none of the allocator self-test (no
# kb_st_* or kb_alloc_selftest symbol, no selftest= parameter); the test
# build must carry both, or this check could not see them. One result
# line each: module/default_has_no_selftest, module/test_build_has_selftest.
set -uo pipefail
default=${1:?usage: module_check.sh DEFAULT.ko TEST.ko}
test_ko=${2:?usage: module_check.sh DEFAULT.ko TEST.ko}

# selftest_parts KO: the self-test's symbols and parameter in KO, one a line.
selftest_parts() {
	nm "$1" | awk '$3 ~ /^(kb_st_|kb_alloc_selftest$)/ { print $3 }'
	modinfo -F parm "$1" | sed -n 's/^\(selftest\):.*/parameter \1/p'
}

for ko in "$default" "$test_ko"; do
	[ -f "$ko" ] || { echo "FAIL module/(program): no module at $ko"; exit 1; }
done
found=$(selftest_parts "$default" | sort -u)
if [ -z "$found" ]; then
	echo "PASS module/default_has_no_selftest"
else
	echo "FAIL module/default_has_no_selftest: $(echo "$found" | wc -l) part(s) in $default: $(echo "$found" | head -n 5 | tr '\n' ' ')"
fi
found=$(selftest_parts "$test_ko")
if grep -qx kb_alloc_selftest <<<"$found" && grep -qx 'parameter selftest' <<<"$found"; then
	echo "PASS module/test_build_has_selftest"
else
	echo "FAIL module/test_build_has_selftest: $test_ko lacks kb_alloc_selftest or selftest="
fi
