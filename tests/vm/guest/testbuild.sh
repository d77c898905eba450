# SPDX-License-Identifier: Apache-2.0
#
# What needs kbinder's test build (/lib/modules/kbinder-selftest.ko, built
# with KBINDER_SELFTEST=1: knobs the default module does not have), in
# loads of its own after the suite's teardown check. kbinder only.
#
# init_unwind (runs when $KBT_TESTS selects "init_unwind"): the start-up
# unwinds what it did when a step fails. For every step S (the module names
# them), a load with fail_step=S holds before S (fail_hold_ms) and then
# fails there instead of running it:
#   init/nothing_reachable_while_failing  during each hold, processes try to
#       open every device and kbinder's debugfs file and to mount binderfs:
#       none of it may work. A failed init does not wait for the module
#       references that an open file or a mount holds (kernel/module/main.c
#       frees the module at once), so whatever a failing load let userspace
#       reach is left pointing into freed memory: the close or unmount
#       after the failure then runs freed code.
#   init/every_step_fails_cleanly  each of those loads fails, says that it
#       failed at S, and leaves nothing behind (module, devices, filesystem
#       type, device numbers, debugfs); then a plain load and unload work.
# world_ids (runs when $KBT_TESTS selects "world_ids"): the program
#   /tests/world_ids with the test build loaded (in the main run it skips:
#   it needs the test build's knobs); its results are reported as
#   testbuild/world_ids/<test>, and the live counters must be back at 0
#   after it (testbuild/world_ids_left_nothing).
# Called by check.sh after modparams.sh.
. /scripts/lib.sh

[ "$KBT_DRIVER" = kbinder ] || exit 0
ko=/lib/modules/kbinder-selftest.ko

# ready GROUP: nothing of kbinder is loaded and the test build is there
# (else a FAIL for GROUP).
ready() {
	if [ -e /sys/module/kbinder ]; then
		result FAIL "$1/(all)" "kbinder is still loaded (see vm/module_unloads)"
		return 1
	fi
	if [ ! -e "$ko" ]; then
		result FAIL "$1/(all)" "$ko is not in the initramfs"
		return 1
	fi
}

# unload GROUP: rmmod kbinder (a FAIL for GROUP if it keeps refusing).
unload() {
	ul_tries=50
	until rmmod kbinder 2>/dev/null; do
		ul_tries=$((ul_tries - 1))
		if [ $ul_tries -le 0 ]; then
			result FAIL "$1/(all)" "rmmod kbinder refused"
			return 1
		fi
		sleep 0.1
	done
}

world_ids() {
	kmsg_mark "world_ids: load the test build"
	if ! out=$(insmod "$ko" 2>&1); then
		result FAIL "testbuild/world_ids/(all)" "insmod: $out"
		return
	fi
	wi_saved=$KBINDER_RESULTS
	export KBINDER_RESULTS=/tmp/world_ids.results
	: >"$KBINDER_RESULTS"
	run_program "testbuild/world_ids" 120 /tests/world_ids
	export KBINDER_RESULTS=$wi_saved
	tr -d '\r' </tmp/world_ids.results >/tmp/world_ids.lines
	wi_seen=0
	while read -r wi_status wi_rest; do
		wi_name=${wi_rest%%: *}
		wi_why=""
		[ "$wi_name" = "$wi_rest" ] || wi_why=${wi_rest#*: }
		result "$wi_status" "testbuild/$wi_name" "$wi_why"
		wi_seen=$((wi_seen + 1))
	done </tmp/world_ids.lines
	[ $wi_seen -gt 0 ] ||
		result FAIL "testbuild/world_ids/(program)" "no results (status $rc)"
	if live_counters_are_zero || { sleep 1 && live_counters_are_zero; }; then
		result PASS testbuild/world_ids_left_nothing
	else
		result FAIL testbuild/world_ids_left_nothing \
			"$(awk '$2 != 0 { printf "%s=%s ", $1, $2 }' /sys/kernel/debug/kbinder/live)"
	fi
	unload testbuild/world_ids
}

if selected world_ids && ready testbuild/world_ids; then
	world_ids
fi
selected init_unwind || exit 0
ready init || exit 0

devs="kbtinit0 kbtinit1"
fstype=kbtinitfs
args="devices=kbtinit0,kbtinit1 binderfs_type=$fstype"
mnt=/tmp/kbtinit
held=/tmp/kbtinit-held
hold_param=/sys/module/kbinder/parameters/fail_hold_ms
mkdir -p "$mnt"

# The steps, as the module lists them when fail_step= names none of them.
kmsg_mark "init_unwind: list the steps"
# shellcheck disable=SC2086
if insmod "$ko" $args fail_step=none-such 2>/dev/null; then
	rmmod kbinder
	result FAIL init/every_step_fails_cleanly "fail_step=none-such did not fail the load"
	exit 0
fi
steps=$(dmesg | sed -n 's/.*test build: fail_step=none-such names no step; the steps: //p' | tail -n 1)
# shellcheck disable=SC2086
set -- $steps
if [ $# -lt 5 ]; then
	result FAIL init/every_step_fails_cleanly "the module listed ${#} steps: '$steps'"
	exit 0
fi

# hold PATH: a process that opens PATH for reading (never creating it) on
# fd 3, says "held PATH" in $held if the open worked, and keeps it open.
holders=""
hold() {
	sh -c 'exec 3<"$1" && echo "held $1" >>"$2" && exec sleep 600' \
		_ "$1" "$held" 2>/dev/null &
	holders="$holders $!:$1"
}

# settle: every holder has opened its file or given up (within 10 s).
settle() {
	for st_pair in $holders; do
		st_pid=${st_pair%%:*} st_path=${st_pair#*:} st_n=200
		while running "$st_pid" &&
			! grep -qxF "held $st_path" "$held" && [ $st_n -gt 0 ]; do
			sleep 0.05
			st_n=$((st_n - 1))
		done
	done
}

# left_behind: what a failed load left (nothing, if it unwound).
left_behind() {
	lb=""
	[ -e /sys/module/kbinder ] && lb="$lb module"
	for lb_dev in $devs; do
		[ -e "/dev/$lb_dev" ] && lb="$lb /dev/$lb_dev"
	done
	grep -qw "$fstype" /proc/filesystems && lb="$lb filesystem-type"
	grep -q " $fstype\$" /proc/devices && lb="$lb device-numbers"
	[ -e /sys/kernel/debug/kbinder ] && lb="$lb debugfs"
	echo "$lb"
}

# holds STEP: how many times a load said it holds before failing STEP.
holds() {
	dmesg | grep -c "test build: holding before failing step $1\$"
}

# await_hold STEP COUNT PID: wait until the COUNT-th hold before STEP
# began while the load PID runs (20 s at most). Busybox's insmod tries
# init_module() again when finit_module() failed, so a failing load runs
# the start-up twice: each time is a hold of its own.
await_hold() {
	ah_n=400
	until [ "$(holds "$1")" -ge "$2" ]; do
		running "$3" || return 1
		ah_n=$((ah_n - 1))
		[ $ah_n -gt 0 ] || return 1
		sleep 0.05
	done
	running "$3"
}

# probe: try to reach everything a load can make; what worked goes to
# $held. Counts in $dev_tries the devices that existed to be tried (the
# check is empty if no hold ever had one).
dev_tries=0
probe() {
	for pr_dev in $devs; do
		[ -c "/dev/$pr_dev" ] && dev_tries=$((dev_tries + 1))
		hold "/dev/$pr_dev"
	done
	hold /sys/kernel/debug/kbinder/live
	if mount -t "$fstype" none "$mnt" 2>/dev/null; then
		mounted=1
		echo "held mount" >>"$held"
	fi
	settle
}

reached_any="" unclean=""
for step in $steps; do
	: >"$held"
	holders="" mounted=0
	kmsg_mark "init_unwind: fail_step=$step"
	base=$(holds "$step")
	# shellcheck disable=SC2086
	insmod "$ko" $args fail_step="$step" fail_hold_ms=60000 \
		>/tmp/kbtinit-insmod 2>&1 &
	ld_pid=$!
	attempt=1
	while await_hold "$step" $((base + attempt)) "$ld_pid"; do
		probe
		# The tries count only if they happened during the hold.
		running "$ld_pid" ||
			unclean="$unclean $step: the hold ended before the tries;"
		echo 0 >"$hold_param" 2>/dev/null
		attempt=$((attempt + 1))
	done
	[ $attempt -gt 1 ] ||
		unclean="$unclean $step: the load never held ($(cat /tmp/kbtinit-insmod));"
	wait "$ld_pid"
	ld_rc=$?
	reached=$(sed 's/^held //' "$held" | tr '\n' ' ')
	[ -n "$reached" ] && reached_any="$reached_any $step: $reached;"
	# Let go of whatever was reached (after a bad unwind this is where the
	# kernel runs the freed module's release code).
	for pair in $holders; do
		kill "${pair%%:*}" 2>/dev/null
	done
	for pair in $holders; do
		wait "${pair%%:*}" 2>/dev/null
	done
	[ $mounted = 1 ] && umount "$mnt"
	if [ $ld_rc -eq 0 ]; then
		unclean="$unclean $step: the load succeeded;"
		rmmod kbinder
		continue
	fi
	dmesg | grep -q "test build: failing step $step as asked\$" ||
		unclean="$unclean $step: no line says it failed there;"
	lb=$(left_behind)
	[ -n "$lb" ] && unclean="$unclean $step: left$lb;"
done

if [ -n "$reached_any" ]; then
	result FAIL init/nothing_reachable_while_failing "reached during the hold:$reached_any"
elif [ $dev_tries -eq 0 ]; then
	result FAIL init/nothing_reachable_while_failing "no hold had a device to try (steps: $steps)"
else
	result PASS init/nothing_reachable_while_failing
fi

# After all of that, the names are free: a plain load works, and unloads.
kmsg_mark "init_unwind: a plain load"
# shellcheck disable=SC2086
if ! out=$(insmod "$ko" $args 2>&1); then
	unclean="$unclean then a plain load failed: $out;"
else
	for dev in $devs; do
		[ -c "/dev/$dev" ] || unclean="$unclean then a plain load made no /dev/$dev;"
	done
	tries=50
	until rmmod kbinder 2>/dev/null; do
		tries=$((tries - 1))
		if [ $tries -le 0 ]; then
			unclean="$unclean then rmmod kbinder was refused;"
			break
		fi
		sleep 0.1
	done
fi
if [ -n "$unclean" ]; then
	result FAIL init/every_step_fails_cleanly "$unclean (steps: $steps)"
else
	result PASS init/every_step_fails_cleanly
fi
exit 0
