# SPDX-License-Identifier: Apache-2.0
#
# Upstream's binderfs selftest (tools/testing/selftests/filesystems/binderfs
# of Debian's linux-source-6.1, built by the Makefile, installed as
# /usr/bin/binderfs_test), run unmodified against the loaded driver. Its
# TAP output becomes one result line per test: binderfs_selftest/<test>.
# Called by check.sh after the test programs; runs when $KBT_TESTS matches
# "binderfs_selftest".
. /scripts/lib.sh

suite=binderfs_selftest
selected "$suite" || exit 0

if [ "$KBT_DRIVER" != kbinder ]; then
	result SKIP "$suite/(all)" "the $KBT_DRIVER driver has no binderfs"
	exit 0
fi
if [ ! -x /usr/bin/binderfs_test ]; then
	# The Makefile builds it for every initramfs (from linux-source-6.1).
	result FAIL "$suite/(all)" "/usr/bin/binderfs_test is not in the initramfs"
	exit 0
fi

echo "=== $suite"
kmsg_mark "program $suite"
out=/tmp/$suite.tap
(cd /tmp && timeout "${KBT_TEST_TIMEOUT:-120}" /usr/bin/binderfs_test) >"$out" 2>&1
rc=$?
cat "$out"

# "#  RUN  global.NAME ..." names the test that the next "ok"/"not ok" ends;
# a skip's line carries only the reason ("ok N # SKIP why").
seen=0
name=""
while read -r line; do
	case "$line" in
	"#  RUN "*)
		name=${line#*global.}
		name=${name%% ...*} ;;
	"ok "*"# SKIP"*)
		result SKIP "$suite/$name" "${line#*# SKIP }"
		seen=$((seen + 1)) ;;
	"ok "*)
		result PASS "$suite/$name"
		seen=$((seen + 1)) ;;
	"not ok "*)
		result FAIL "$suite/$name" "see output.log"
		seen=$((seen + 1)) ;;
	esac
done <"$out"

case $rc in
0 | 1) [ "$seen" -gt 0 ] || result FAIL "$suite/(program)" "no test results (status $rc)" ;;
124 | 143) result FAIL "$suite/(program)" "timed out" ;;
*) result FAIL "$suite/(program)" "exited with status $rc" ;;
esac
exit 0
