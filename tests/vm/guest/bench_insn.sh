# SPDX-License-Identifier: Apache-2.0
#
# The guest half of `make bench-insn`: load the upstream driver
# (devices=binder) and kbinder (devices=kbinder), then run every workload
# of kbbench in its instruction-count mode (--insn OPS): per channel
# (reference, kbinder, the pipe and unix-socket ping-pongs beside the sync
# sizes, memcpy beside 64 KiB) one window of OPS operations between the
# markers the host's QEMU plugin (bench/insn/kbinsn.c) counts between.
# `INSN {json}` lines go to $KBINDER_RESULTS; the counts are in the
# plugin's log on the host, which bench/insn/report.py joins with them.
# The guest should run on one vCPU with single-threaded TCG and without
# idle=poll (the idle loop would count): bench/insn/run.sh boots it so.
#
# Knobs (kernel command line words reach /init's environment):
#   BENCH_INSN_WORKLOADS  kbbench workloads, comma or space separated, each
#                    optionally WORKLOAD/OPS (default: the eight of issue 31;
#                    one-way calls 10,000 a window, in kbbench's batches of
#                    100: how often the server runs between them varies a
#                    little from boot to boot, and more calls weigh it less)
#   BENCH_INSN_OPS   operations per window where a workload names none (2000)
#   BENCH_INSN_PROFILE  1: hand the host the kernel's symbols for the
#                    per-function profile (/proc/kallsyms' text symbols and
#                    the modules' section addresses, gzip and base64, on
#                    $KBINDER_RESULTS between KBT-KALLSYMS lines)
#   BENCH_TIMEOUT    seconds one workload may take before it is killed (300)
#   BENCH_INSN_SETTLE  seconds to wait at most for a quiet CPU before the
#                    first window (120)
. /scripts/lib.sh

: "${BENCH_INSN_OPS:=2000}"
: "${BENCH_INSN_WORKLOADS:=sync:4 sync:128 sync:4096 sync:65536/500 oneway:128/10000 objects:10 fd refs:10000}"
: "${BENCH_TIMEOUT:=300}"

# Kernel messages on the console cost time and instructions: none there;
# the host scans the whole log, handed over at the end.
echo 1 >/proc/sys/kernel/printk

# quiet_bounded SECONDS CMD...: run CMD under a watchdog that does nothing
# until SECONDS have passed, then sends SIGTERM, and SIGKILL 5 s later;
# status 124 if it fired, else CMD's. (lib.sh's run_bounded polls twice a
# second with a sed and a sleep: on the one vCPU their fork, exec and exit
# would be counted in whatever window is open, up to several hundred
# instructions per operation, kernel and user.)
quiet_bounded() {
	limit=$1
	shift
	rm -f /tmp/insn.fired
	"$@" &
	qb_pid=$!
	(
		trap 'kill "$qb_sleep" 2>/dev/null; exit 0' TERM
		sleep "$limit" &
		qb_sleep=$!
		wait "$qb_sleep"
		: >/tmp/insn.fired
		kill -TERM "$qb_pid" 2>/dev/null
		sleep 5 &
		qb_sleep=$!
		wait "$qb_sleep"
		kill -KILL "$qb_pid" 2>/dev/null
	) &
	qb_dog=$!
	wait "$qb_pid"
	qb_rc=$?
	kill -TERM "$qb_dog" 2>/dev/null
	wait "$qb_dog" 2>/dev/null
	[ -e /tmp/insn.fired ] && return 124
	return $qb_rc
}

# load NAME MODULE DEVICE: insmod MODULE devices=DEVICE, or end the run:
# every table row needs both drivers.
load() {
	kmsg_mark "bench-insn: load $1"
	if ! msg=$(insmod "/lib/modules/$2" "devices=$3" 2>&1) || [ ! -c "/dev/$3" ]; then
		result FAIL "insn/load_$1" "${msg:-no /dev/$3}"
		kmsg_handover
		exit 1
	fi
	result PASS "insn/load_$1"
}
load reference binder_linux.ko binder
load kbinder kbinder.ko kbinder

# busy_jiffies: the CPU time spent outside the idle task, and all of it
# ("BUSY TOTAL", in jiffies, from /proc/stat's first line).
busy_jiffies() {
	read -r _ user nice system idle iowait irq softirq _ </proc/stat
	echo "$((user + nice + system + irq + softirq)) $((user + nice + system + irq + softirq + idle + iowait))"
}

# settle: wait until a whole second went by with the CPU busy at most 2%
# of it (at most BENCH_INSN_SETTLE seconds, 120): what the kernel still
# does in the background after boot would be counted in the first
# windows (6.12 tests its crypto algorithms in kernel threads, RSA among
# them, for seconds after boot: 20,000 instructions per round trip more
# in the first workload). Sleeping is cheap: with -icount sleep=off an
# idle guest's clock jumps to its next timer.
settle() {
	waited=0 busy='?' total='?'
	while [ "$waited" -lt "${BENCH_INSN_SETTLE:-120}" ]; do
		b0=$(busy_jiffies)
		sleep 1
		b1=$(busy_jiffies)
		waited=$((waited + 1))
		busy=$((${b1% *} - ${b0% *}))
		total=$((${b1#* } - ${b0#* }))
		if [ "$total" -gt 0 ] && [ $((busy * 100)) -le $((total * 2)) ]; then
			echo "the guest is quiet after ${waited}s (last second: $busy of $total jiffies busy)"
			return 0
		fi
	done
	echo "the guest was still busy after ${waited}s (last second: $busy of $total jiffies)"
	return 1
}

kmsg_mark "bench-insn: settle"
if settle; then
	result PASS insn/settle
else
	result FAIL insn/settle "the CPU was still busy after ${BENCH_INSN_SETTLE:-120}s: the counts would include it"
fi

cpus=$(grep -c '^processor' /proc/cpuinfo)
# (no quote or backslash in the JSON string)
# shellcheck disable=SC1003
cmdline=$(tr -d '"\\' </proc/cmdline)
echo "INSN {\"kind\":\"env\",\"kernel\":\"$(uname -r)\",\"cpus\":$cpus,\"cmdline\":\"$cmdline\"}" >>"$KBINDER_RESULTS"
echo "kbinder bench-insn: $cpus vCPU(s), kernel $(uname -r), $BENCH_INSN_OPS operations per window"
[ "$cpus" = 1 ] || echo "warning: $cpus vCPUs: the counts include cross-CPU wake-ups"

for spec in $(echo "$BENCH_INSN_WORKLOADS" | tr , " "); do
	w=${spec%%/*}
	ops=$BENCH_INSN_OPS
	[ "$w" != "$spec" ] && ops=${spec#*/}
	name=$(echo "$w" | tr ':' '_')
	kmsg_mark "bench-insn: $w"
	tmp=/tmp/insn.$name.$ops
	rm -f "$tmp"
	quiet_bounded "$BENCH_TIMEOUT" kbbench --reference /dev/binder --kbinder /dev/kbinder \
		--insn "$ops" --results "$tmp" "$w"
	rc=$?
	cat "$tmp" >>"$KBINDER_RESULTS" 2>/dev/null
	if [ "$rc" -eq 124 ]; then
		result FAIL "insn/$name" "killed after BENCH_TIMEOUT=${BENCH_TIMEOUT}s"
		continue
	elif [ "$rc" -ne 0 ]; then
		result FAIL "insn/$name" "kbbench exited with status $rc"
		continue
	fi
	bad=$(grep -v '"status":"ok"' "$tmp" 2>/dev/null |
		sed -n 's/.*"channel":"\([^"]*\)".*"why":"\([^"]*\)".*/\1: \2/p' | head -n 1)
	if [ ! -s "$tmp" ]; then
		result FAIL "insn/$name" "no result line"
	elif [ -n "$bad" ]; then
		result FAIL "insn/$name" "$bad"
	else
		result PASS "insn/$name"
	fi
done

# The names of the profile: every text symbol, and where each module's
# sections are (a module's static functions are in kallsyms too; its
# sections name what falls between symbols).
if [ "${BENCH_INSN_PROFILE:-0}" = 1 ]; then
	{
		grep ' [tTwW] ' /proc/kallsyms
		for m in binder_linux kbinder; do
			for s in "/sys/module/$m/sections/".text* "/sys/module/$m/sections/.init.text"; do
				[ -r "$s" ] && echo "$(cat "$s") s ${s##*/} [$m]"
			done
		done
	} >/tmp/kallsyms
	n=$(wc -l </tmp/kallsyms)
	if [ "$n" -gt 1000 ]; then
		{
			echo "KBT-KALLSYMS: begin"
			gzip -c /tmp/kallsyms | base64
			echo "KBT-KALLSYMS: end"
		} >>"$KBINDER_RESULTS"
		result PASS insn/kallsyms
	else
		result FAIL insn/kallsyms "only $n text symbols in /proc/kallsyms"
	fi
fi

kmsg_handover
exit 0
