# SPDX-License-Identifier: Apache-2.0
#
# Runner self-test: a fake kernel splat. The host runner must fail this run
# and charge the splat to the test that was running.
. /scripts/lib.sh
echo "kbinder-test: start runner/fake_splat" >/dev/kmsg
echo "<4>WARNING: CPU: 0 PID: 1 at kbinder-runner-selftest (fake splat)" >/dev/kmsg
result PASS runner/fake_splat
