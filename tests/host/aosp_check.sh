#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# make check-aosp's host side, without AOSP's programs or a guest
# (interop/aosp/): without AOSP_OUT it says what to build and exits 0; an
# AOSP_OUT that lacks a program fails naming it; and table.sh's verdict on
# crafted boot logs: kbinder failing a case the reference passes fails, a
# case failing on both is listed and passes, a kbinder-only case must pass
# (or fail as the reference's aosp-suite run of it), a case kbinder never
# ran fails; a case of the aidl phases must do what kbinder's full device
# did, and the reference's n/a there is neither a pass nor a failure.
set -u
cd "$(dirname "$0")/../.." || exit 1
dir=build/host/aosp
rm -rf "$dir" && mkdir -p "$dir/empty" || exit 1

passed=0 failed=0
# check NAME WANT_RC PATTERN CMD...: exit status and a line of output
check() {
	local name=$1 want=$2 pattern=$3 out rc
	shift 3
	out=$("$@" 2>&1)
	rc=$?
	if [ "$rc" -ne "$want" ]; then
		echo "FAIL $name: exit $rc, expected $want"
		echo "$out" | sed 's/^/    /'
		failed=$((failed + 1))
	elif ! echo "$out" | grep -Eq -- "$pattern"; then
		echo "FAIL $name: no line matching '$pattern'"
		echo "$out" | sed 's/^/    /'
		failed=$((failed + 1))
	else
		echo "PASS $name"
		passed=$((passed + 1))
	fi
}

check no_aosp_out_says_what_to_build_and_passes 0 'AOSP_OUT is not set' \
	env -u AOSP_OUT interop/aosp/check.sh
check no_aosp_out_names_the_release 0 'android-14\.0\.0_r55' \
	env -u AOSP_OUT interop/aosp/check.sh
check aosp_out_without_programs_fails 1 'lacks: servicemanager service binderDriverInterfaceTest' \
	env AOSP_OUT="$dir/empty" interop/aosp/check.sh

# boot LABEL LINE...: a boot's output log with these AOSP-CASE lines, CRLF
# ended as the serial port gives them.
boot() {
	local f=$dir/$1.log
	shift
	printf 'kbinder guest: noise\r\n' >"$f"
	printf 'AOSP-CASE %s\r\n' "$@" >>"$f"
	echo "$f"
}
# A full device's aosp-suite: a pass, a failure on both drivers, a skip.
suite=('aosp-suite binderLibTest BinderLibTest.Nop PASS'
	'aosp-suite binderLibTest BinderLibTest.InheritRt FAIL'
	'aosp-suite binderLibTest BinderLibTest.Freeze SKIP')
ref=$(boot ref "${suite[@]}")
good=$(boot good "${suite[@]}" \
	'aosp-features features extended_error PASS')
regressed=$(boot regressed 'aosp-suite binderLibTest BinderLibTest.Nop FAIL(no-result,exit-139)' \
	'aosp-suite binderLibTest BinderLibTest.InheritRt FAIL' \
	'aosp-suite binderLibTest BinderLibTest.Freeze SKIP')
missing=$(boot missing 'aosp-suite binderLibTest BinderLibTest.InheritRt FAIL' \
	'aosp-suite binderLibTest BinderLibTest.Freeze SKIP')
onlybad=$(boot onlybad "${suite[@]}" \
	'aosp-features features extended_error FAIL(file-0,call-1)')

check table_same_results_pass 0 '^4 passed, 0 failed$' \
	interop/aosp/table.sh 6.12-kbinder="$good" 6.12-reference="$ref"
check table_lists_a_case_failing_on_both 0 'InheritRt \(FAIL / FAIL\)' \
	interop/aosp/table.sh 6.12-kbinder="$good" 6.12-reference="$ref"
check table_has_a_row_per_case 0 '^\| aosp-suite \| binderLibTest \| BinderLibTest\.Nop \| PASS \| PASS \|$' \
	interop/aosp/table.sh 6.12-kbinder="$good" 6.12-reference="$ref"
check table_fails_where_kbinder_fails_a_reference_pass 1 \
	'FAIL 6\.12: aosp-suite \| binderLibTest \| BinderLibTest\.Nop: kbinder FAIL\(no-result' \
	interop/aosp/table.sh 6.12-kbinder="$regressed" 6.12-reference="$ref"
check table_fails_a_case_kbinder_never_ran 1 'Nop: kbinder did not run it' \
	interop/aosp/table.sh 6.12-kbinder="$missing" 6.12-reference="$ref"
check table_fails_a_failing_kbinder_only_case 1 'extended_error: kbinder FAIL\(file-0,call-1\) \(kbinder only\)' \
	interop/aosp/table.sh 6.12-kbinder="$onlybad" 6.12-reference="$ref"
asref=$(boot asref "${suite[@]}" \
	'aosp-features binderLibTest BinderLibTest.InheritRt FAIL')
check table_kbinder_only_case_failing_as_the_reference_suite_passes 0 \
	'aosp-features \| binderLibTest \| BinderLibTest\.InheritRt \(FAIL / aosp-suite: FAIL\)' \
	interop/aosp/table.sh 6.12-kbinder="$asref" 6.12-reference="$ref"
check table_judges_each_series_apart 1 '^6 passed, 1 failed$' \
	interop/aosp/table.sh 6.12-kbinder="$good" 6.12-reference="$ref" \
	6.1-kbinder="$regressed" 6.1-reference="$ref"

# The aidl phases: judged against kbinder's own full device, the
# reference's n/a neither a pass nor a failure.
aidl=$(boot aidl "${suite[@]}" \
	'aosp-aidl device profile=aidl PASS' \
	'aosp-aidl binderLibTest BinderLibTest.Nop PASS' \
	'aosp-aidl binderLibTest BinderLibTest.InheritRt FAIL' \
	'aosp-aidl binderLibTest BinderLibTest.Freeze SKIP')
aidlbad=$(boot aidlbad 'aosp-suite binderLibTest BinderLibTest.Nop PASS' \
	'aosp-suite binderLibTest BinderLibTest.Freeze PASS' \
	'aosp-aidl device profile=aidl FAIL(full)' \
	'aosp-aidl binderLibTest BinderLibTest.Nop FAIL' \
	'aosp-aidl binderLibTest BinderLibTest.Freeze SKIP')
refna=$(boot refna "${suite[@]}" \
	'aosp-aidl device profile=aidl n/a' \
	'aosp-aidl binderLibTest BinderLibTest.Nop n/a' \
	'aosp-aidl binderLibTest BinderLibTest.InheritRt n/a' \
	'aosp-aidl binderLibTest BinderLibTest.Freeze n/a')
check table_aidl_as_the_full_device_passes 0 '^7 passed, 0 failed$' \
	interop/aosp/table.sh 6.12-kbinder="$aidl" 6.12-reference="$refna"
check table_aidl_shows_the_reference_na 0 '^\| aosp-aidl \| binderLibTest \| BinderLibTest\.Nop \| PASS \| n/a \|$' \
	interop/aosp/table.sh 6.12-kbinder="$aidl" 6.12-reference="$refna"
check table_aidl_lists_a_case_failing_on_the_full_device 0 \
	'aosp-aidl \| binderLibTest \| BinderLibTest\.InheritRt \(FAIL / full device, aosp-suite: FAIL\)' \
	interop/aosp/table.sh 6.12-kbinder="$aidl" 6.12-reference="$refna"
check table_aidl_fails_what_the_full_device_passes 1 '^2 passed, 3 failed$' \
	interop/aosp/table.sh 6.12-kbinder="$aidlbad"
check table_aidl_fails_a_wrong_profile 1 'profile=aidl: kbinder FAIL\(full\)$' \
	interop/aosp/table.sh 6.12-kbinder="$aidlbad"
check table_aidl_fails_a_skip_where_the_full_device_passed 1 \
	'Freeze: kbinder SKIP, full device PASS' \
	interop/aosp/table.sh 6.12-kbinder="$aidlbad"
check table_aidl_fails_a_case_kbinder_never_ran 1 'aosp-aidl \| binderLibTest \| BinderLibTest\.Nop: kbinder did not run it' \
	interop/aosp/table.sh 6.12-kbinder="$missing" 6.12-reference="$refna"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
