# SPDX-License-Identifier: Apache-2.0
#
# Runner self-test: how the guest runs test programs (run_program, lib.sh).
# No driver is loaded. The host (tests/check.sh, stage runner) checks:
# - a program that ends after reporting only some of its tests (here
#   harness_fdcheck asked for one test) is caught by the host's count;
# - a program that hangs past its limit is killed with every process it
#   started, in its session or out of it;
# - a program that leaves a process behind fails, and the process dies;
# - a splat the console shows fails the run, charged to the test that was
#   running;
# - a task blocked uninterruptibly for longer than the hung-task threshold
#   (run.sh) inside one test's time is reported, and fails that test, in
#   the harness and in the host's console scan;
# - a splat the console never showed (printk 1, as in the bench) still
#   fails: the host scans the kernel log handed over on ttyS1.
. /scripts/lib.sh

run_program harness_fdcheck 60 /tests/harness_fdcheck \
	a_test_body_that_closes_what_it_opens_passes

# A task blocked past the hung-task threshold: harness_verdict's demo,
# started now and judged once the next two checks are done (it waits
# about 11 s for the kernel's report; they need no CPU meanwhile). Its
# own result line stays here (no KBINDER_RESULTS): what it said is
# judged below, and the host judges the console, where its start marker
# is the last before the report.
KBT_VERDICT_DEMO=1 KBINDER_RESULTS='' /tests/harness_verdict demo_a_hung_task >/tmp/hung.out 2>&1 &
hung_pid=$!
hung_wait=100
while [ $hung_wait -gt 0 ] && ! grep -q 'blocked uninterruptibly' /tmp/hung.out; do
	sleep 0.1
	hung_wait=$((hung_wait - 1))
done

# sleeping_marked: the pids of the processes this test started (their
# command line ends with the marker argument 4242).
sleeping_marked() {
	for sm_cmd in /proc/[0-9]*/cmdline; do
		grep -q 424242 "$sm_cmd" 2>/dev/null && echo "${sm_cmd%/cmdline}"
	done
}

cat >/tmp/hang.sh <<'HANG'
#!/bin/sh
sleep 424242 &
setsid sleep 424242 &
sh -c 'setsid sleep 424242 & exit 0'
sleep 424242
HANG
chmod +x /tmp/hang.sh
run_program runner_hang 3 /tmp/hang.sh
[ $rc -eq 124 ] && result FAIL "runner_hang/(program)" "timed out after 3s"
left=$(sleeping_marked)
if [ -z "$left" ]; then
	result PASS runner/program_timeout_left_nothing_running
else
	result FAIL runner/program_timeout_left_nothing_running "still running: $left"
fi

cat >/tmp/leave.sh <<'LEAVE'
#!/bin/sh
setsid sleep 424242 &
exit 0
LEAVE
chmod +x /tmp/leave.sh
run_program runner_leave 30 /tmp/leave.sh
left=$(sleeping_marked)
if [ -z "$left" ]; then
	result PASS runner/leftovers_were_killed
else
	result FAIL runner/leftovers_were_killed "still running: $left"
fi

wait $hung_pid
hung='^FAIL harness_verdict/demo_a_hung_task: kernel log: INFO: task .* blocked for more than'
if grep -q "$hung" /tmp/hung.out; then
	result PASS runner/hung_task_fails_its_test
else
	result FAIL runner/hung_task_fails_its_test \
		"the demo said: $(grep -E '^(PASS|FAIL|SKIP) |writer|hung' /tmp/hung.out | tr '\n' ' ' | cut -c1-300)"
fi
cat /tmp/hung.out

echo "kbinder-test: start runner/fake_splat" >/dev/kmsg
echo "<4>WARNING: CPU: 0 PID: 1 at kbinder-runner-selftest (fake splat)" >/dev/kmsg
result PASS runner/fake_splat


echo 1 >/proc/sys/kernel/printk
echo "kbinder-test: start runner/quiet_splat" >/dev/kmsg
echo "<4>WARNING: CPU: 0 PID: 1 at kbinder-runner-selftest (a splat the console hid)" >/dev/kmsg
echo 7 >/proc/sys/kernel/printk
result PASS runner/quiet_splat
kmsg_handover
exit 0
