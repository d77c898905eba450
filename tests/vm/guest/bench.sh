# SPDX-License-Identifier: Apache-2.0
#
# The guest half of `make bench`: load the upstream driver (twice named:
# binder and binder2, the A/A control) and kbinder (devices=kbinder) side by
# side, run every workload of kbbench against all of them in the same boot,
# then kbmem (kernel memory per object) on each driver. `BENCH {json}` lines
# go to $KBINDER_RESULTS for the host's bench/report.sh; people read the
# tables printed here.
#
# Knobs (kernel command line words reach /init's environment):
#   BENCH_SCALE     multiplies the rounds of every workload (default 1)
#   BENCH_WORKLOADS kbbench workloads, comma or space separated (default: all)
#   BENCH_BUDGET    seconds after which a workload stops adding rounds
#                   (once it has 10; default 20): bounds the whole run on a
#                   loaded host
#   BENCH_TIMEOUT   seconds one workload may take before it is killed (150)
#   BENCH_PROFILE   0: skip the kernel profile of a sync 4 B round trip
#                   (default 1: with `perf` in the initramfs (mkinitramfs.sh
#                   -p /usr/bin/perf) a sampling profile of the whole kernel,
#                   else function_graph self time per driver function)
#   BENCH_PROFILE_CALLS  round trips the sampling profile watches (20000)
#   BENCH_WAKE_TRACE  0: with perf, skip the trace of who wakes whom in a
#                   round trip (wake_trace; default 1)
#   BENCH_WAKE_CALLS  round trips the wake trace watches (10000)
#   BENCH_KBINDER_PARAMS  more kbinder module parameters, space separated
#                   (e.g. isolate_ipc_ns=0)
#   (old)           when the initramfs holds kbinder_old.ko (make bench
#                   OLD=REV: kbinder built from another commit under
#                   its own module name), it is loaded with devices=kbinder_old
#                   and every workload also runs on it: "vs old"
#   BENCH_SELFTEST  1: no kbinder; the reference is loaded a third time as
#                   /dev/kbinder, so every "kbinder" row is one more A/A
#                   control (tests the bench itself, not kbinder)
. /scripts/lib.sh

: "${BENCH_SCALE:=1}"
: "${BENCH_TIMEOUT:=150}"
: "${BENCH_WORKLOADS:=sync:4 sync:128 sync:4096 sync:65536 sync:1048576 oneway:128 objects:10 fd multi:1 multi:2 multi:4 multi:8 multi:16 refs:1000 refs:10000}"
: "${BENCH_BUDGET:=20}"
export BENCH_SCALE BENCH_BUDGET

out=/tmp/bench.results
: >"$out"
# Kernel messages on the serial console cost milliseconds under emulation:
# the console gets none, and the host scans the whole kernel log, handed
# over at the end (kmsg_handover), for splats as in every other run.
echo 1 >/proc/sys/kernel/printk

# proc_state PID: the state letter of /proc/PID/stat (empty once reaped).
proc_state() {
	sed -n 's/^[0-9]* (.*) \([A-Z]\).*/\1/p' "/proc/$1/stat" 2>/dev/null
}

# run_bounded SECONDS CMD...: run CMD; after SECONDS send SIGTERM, 5 s later
# SIGKILL. A process that even then does not exit is stuck in the kernel (a
# driver bug): its children (servers holding the devices) are killed, it is
# left behind, and the status is 125 (`wait` would never return). 124: timed
# out; else CMD's status.
run_bounded() {
	limit=$(($1 * 2))
	shift
	"$@" &
	bpid=$!
	ticks=0
	while :; do
		st=$(proc_state "$bpid")
		[ -z "$st" ] || [ "$st" = Z ] && break
		ticks=$((ticks + 1))
		if [ $ticks -eq $limit ]; then
			kill -TERM "$bpid" 2>/dev/null
		elif [ $ticks -eq $((limit + 10)) ]; then
			kill -KILL "$bpid" 2>/dev/null
		elif [ $ticks -ge $((limit + 20)) ]; then
			for stat in /proc/[0-9]*/stat; do
				read -r cpid _ _ ppid _ <"$stat" 2>/dev/null || continue
				[ "$ppid" = "$bpid" ] && kill -KILL "$cpid" 2>/dev/null
			done
			echo "$1 (pid $bpid) is stuck in the kernel (state $st); left behind"
			return 125
		fi
		sleep 0.5
	done
	wait "$bpid"
	rc=$?
	[ $ticks -ge $limit ] && rc=124
	return $rc
}

json_escape() {
	printf '%s' "$1" | tr -d '\r' | tr '\n"\\' "   "
}

ref_devices=binder,binder2
[ "${BENCH_SELFTEST:-0}" = 1 ] && ref_devices=binder,binder2,kbinder
kmsg_mark "bench: load reference"
if ! msg=$(insmod /lib/modules/binder_linux.ko devices=$ref_devices 2>&1) ||
	[ ! -c /dev/binder ] || [ ! -c /dev/binder2 ]; then
	result FAIL bench/load_reference "${msg:-no /dev/binder or /dev/binder2}"
	kmsg_handover
	exit 1
fi
result PASS bench/load_reference

# kbinder_insmod: load kbinder with $BENCH_KBINDER_PARAMS (words, unquoted).
kbinder_insmod() {
	# shellcheck disable=SC2086
	insmod /lib/modules/kbinder.ko devices=kbinder ${BENCH_KBINDER_PARAMS:-}
}

kmsg_mark "bench: load kbinder"
kbinder_args=""
kbinder_state="loaded${BENCH_KBINDER_PARAMS:+ with $BENCH_KBINDER_PARAMS}"
if [ "${BENCH_SELFTEST:-0}" = 1 ]; then
	kbinder_state="self-test: the reference driver posing as kbinder"
	kbinder_args="--kbinder /dev/kbinder"
elif [ ! -e /lib/modules/kbinder.ko ]; then
	kbinder_state="kbinder.ko is not in the initramfs"
elif ! msg=$(kbinder_insmod 2>&1); then
	kbinder_state="insmod kbinder.ko devices=kbinder${BENCH_KBINDER_PARAMS:+ $BENCH_KBINDER_PARAMS} failed: $msg"
elif [ ! -c /dev/kbinder ]; then
	kbinder_state="kbinder loaded but /dev/kbinder did not appear"
else
	kbinder_args="--kbinder /dev/kbinder"
fi
# A bench without kbinder measured nothing it is for: it fails (the
# self-test has no kbinder on purpose).
if [ "${BENCH_SELFTEST:-0}" = 1 ]; then
	result SKIP bench/load_kbinder "$kbinder_state"
elif [ -n "$kbinder_args" ]; then
	result PASS bench/load_kbinder
else
	result FAIL bench/load_kbinder "$kbinder_state"
fi

old_args=""
old_state="none"
if [ -e /lib/modules/kbinder_old.ko ]; then
	kmsg_mark "bench: load the old kbinder"
	old_rev=${BENCH_OLD:-}
	# Its own devices, and no binderfs: this tree's kbinder holds the
	# filesystem type "binder" (a build from before binderfs ignores the
	# unknown parameter).
	if ! msg=$(insmod /lib/modules/kbinder_old.ko devices=kbinder_old \
		binderfs_type= 2>&1); then
		result FAIL bench/load_old "insmod kbinder_old.ko failed: $msg"
	elif [ ! -c /dev/kbinder_old ]; then
		result FAIL bench/load_old "no /dev/kbinder_old"
	else
		result PASS bench/load_old
		old_args="--old /dev/kbinder_old"
		old_state="kbinder ${old_rev:-?}"
	fi
fi

cpus=$(grep -c '^processor' /proc/cpuinfo)
model=$(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1)
echo "BENCH {\"kind\":\"env\",\"kernel\":\"$(uname -r)\",\"cpus\":$cpus,\"cpu\":\"$(json_escape "$model")\",\"cmdline\":\"$(json_escape "$(cat /proc/cmdline)")\",\"scale\":\"$BENCH_SCALE\",\"kbinder\":\"$(json_escape "$kbinder_state")\",\"old\":\"$(json_escape "$old_state")\"}" >>"$out"

echo
echo "kbinder bench: $cpus vCPUs, scale $BENCH_SCALE, kbinder: $kbinder_state, old: $old_state"
echo "speedup = reference time / other's time (above 1: faster than the reference);"
echo "cost = time / baseline's time; [p10 .. p90] of the per-round ratios."
start=$(date +%s)
for w in $(echo "$BENCH_WORKLOADS" | tr , " "); do
	# WORKLOAD@N: everything on CPU N.
	pin=""
	case "$w" in
	*@*) pin="--cpu ${w#*@}"; w=${w%@*} ;;
	esac
	name=$(echo "$w${pin:+_cpu}" | tr ':' '_')
	kmsg_mark "bench: $w $pin"
	lines=$(wc -l <"$out")
	# shellcheck disable=SC2086
	run_bounded "$BENCH_TIMEOUT" kbbench --reference /dev/binder \
		--reference2 /dev/binder2 $kbinder_args $old_args $pin --results "$out" "$w"
	rc=$?
	if [ "$rc" -eq 125 ] && [ -n "$kbinder_args" ]; then
		# A process stuck in a driver: most likely kbinder. Go on without it.
		result FAIL "bench/$name" "kbbench stuck in the kernel; kbinder dropped"
		kbinder_args=""
		continue
	elif [ "$rc" -ne 0 ]; then
		result FAIL "bench/$name" "kbbench exited with status $rc"
		continue
	fi
	wline=$(tail -n +$((lines + 1)) "$out" | grep '"kind":"workload"' | tail -n 1)
	case "$wline" in
	*'"name":"reference","status":"ok"'*) result PASS "bench/$name" ;;
	"") result FAIL "bench/$name" "no result line" ;;
	*) result FAIL "bench/$name" "the reference driver did not run it" ;;
	esac
	if [ -n "$kbinder_args" ]; then
		case "$wline" in
		*'"name":"kbinder","status":"ok"'*) ;;
		*) why=$(echo "$wline" | sed -n 's/.*"name":"kbinder","status":"unavailable","why":"\([^"]*\)".*/\1/p')
			result FAIL "bench/kbinder/$name" "kbinder is loaded but could not run it: ${why:-?}" ;;
		esac
	fi
done
echo
echo "workloads took $(($(date +%s) - start)) s"
# Whether kbinder reused freed objects (off on a kernel with KASAN or
# kmemleak: docs/performance.md), and how often it did in these workloads.
if [ -n "$kbinder_args" ] && [ -r /sys/kernel/debug/kbinder/reuse ]; then
	echo "kbinder object reuse: $(tr '\n' ' ' </sys/kernel/debug/kbinder/reuse)"
fi

if command -v kbmem >/dev/null 2>&1; then
	echo
	echo "kernel memory per object (kbmem)"
	for dev in binder kbinder; do
		[ -c "/dev/$dev" ] || continue
		[ "$dev" = kbinder ] && [ -z "$kbinder_args" ] && continue
		drv=reference
		[ "$dev" = kbinder ] && drv=kbinder
		kmsg_mark "bench: kbmem $dev"
		if ! run_bounded "$BENCH_TIMEOUT" kbmem --device "/dev/$dev" \
			--driver "$drv" --results "$out"; then
			result SKIP "bench/memory_$drv" "kbmem failed on /dev/$dev"
		fi
	done
fi

# profile NAME DEVICE ENTRY MODULE: where one driver's time goes during 400
# sync 4 B calls on DEVICE (client and server), as self time per function
# of MODULE below the ioctl entry ENTRY, from the function_graph tracer
# (only MODULE's functions are hooked: patching the whole kernel under
# emulation stalls CPUs for seconds; so a module function's self time
# includes the core kernel functions it calls; time asleep is not counted).
# Tracing slows every call: read the shares, not the absolute times.
profile() {
	t=/sys/kernel/tracing
	[ -e $t/current_tracer ] || mount -t tracefs nodev $t 2>/dev/null
	if ! grep -qw function_graph $t/available_tracers 2>/dev/null; then
		echo "profile: no function_graph tracer"
		return
	fi
	echo 0 >$t/tracing_on
	echo nop >$t/current_tracer
	if ! echo ":mod:$4" >$t/set_ftrace_filter 2>/dev/null ||
		! echo "$3" >$t/set_graph_function 2>/dev/null; then
		echo "profile $1: cannot trace $3 in $4"
		echo >$t/set_ftrace_filter
		return
	fi
	echo 4 >$t/max_graph_depth
	echo 0 >$t/options/sleep-time 2>/dev/null
	echo 1 >$t/options/funcgraph-proc
	echo 0 >$t/options/funcgraph-irqs 2>/dev/null
	echo 8192 >$t/buffer_size_kb
	echo function_graph >$t/current_tracer
	echo >$t/trace
	echo 1 >$t/tracing_on
	run_bounded 60 kbbench --reference "$2" --rounds 5 --batch 40 sync:4 >/dev/null 2>&1
	echo 0 >$t/tracing_on
	echo
	echo "profile of $1 ($2), sync 4 B, self time below $3 (us):"
	awk -F'|' '
	# Lines: " 1)  task-pid  | duration | code", code "f() {", "f();" or "}".
	NF >= 3 {
		task = $1; sub(/^ *[0-9]+\) */, "", task); sub(/ *$/, "", task)
		d = $2; gsub(/[^0-9.]/, "", d)
		code = $3; sub(/^ */, "", code); sub(/ *\/\*.*$/, "", code)
		if (code ~ /\{ *$/) {
			n = ++depth[task]; sub(/ *\(.*$/, "", code); sub(/ \[.*$/, "", code)
			name[task, n] = code; kids[task, n] = 0
		} else if (code ~ /^\}/) {
			n = depth[task]
			if (n < 1 || d == "") next
			f = name[task, n]; self[f] += d - kids[task, n]; calls[f]++
			depth[task] = n - 1
			if (n > 1) kids[task, n - 1] += d
			else total += d
		} else if (code ~ /\);? *$/ && d != "") {
			n = depth[task]; f = code; sub(/ *\(.*$/, "", f); sub(/ \[.*$/, "", f)
			self[f] += d; calls[f]++
			if (n >= 1) kids[task, n] += d
			else total += d
		}
	}
	END {
		if (total <= 0) { print "  (no trace)"; exit }
		for (f in self) printf "%12.1f %8d %5.1f%%  %s\n", self[f], calls[f], 100 * self[f] / total, f
		printf "%12.1f          100.0%%  (all, below the ioctl entry)\n", total
	}' $t/trace | sort -rn | head -n 16
	echo nop >$t/current_tracer
	echo >$t/set_graph_function
	echo >$t/set_ftrace_filter
}

# perf_profile NAME DEVICE RE: a sampling profile (cpu-clock, with call
# chains) of the kbbench processes (client and server) during
# $BENCH_PROFILE_CALLS sync 4 B round trips on DEVICE alone. Printed: each
# object's share (kernel, module, kbbench) and the hottest symbols by self
# time. Unlike function_graph, nothing is hooked: the costs of the core
# kernel (syscall entry, scheduler, copies, slab) show up by name. Under
# TCG a sample is taken when interrupts are enabled again, so the time of
# irq-off sections lands on the function that re-enables them
# (_raw_spin_unlock_irq*, finish_task_switch). RE matches the names of
# the driver's own functions, whose shares are added up.
perf_profile() {
	calls=${BENCH_PROFILE_CALLS:-20000}
	data=/tmp/perf.$1.data
	echo 0 >/proc/sys/kernel/kptr_restrict 2>/dev/null
	echo -1 >/proc/sys/kernel/perf_event_paranoid 2>/dev/null
	run_bounded 120 perf record -q -N -e cpu-clock -F 4000 -g -o "$data" -- \
		kbbench --reference "$2" --baselines 0 --rounds $((calls / 100)) --batch 100 \
		--budget 60 sync:4 >"/tmp/perf.$1.log" 2>&1
	echo
	echo "perf profile of $1 ($2), $calls sync 4 B round trips (client and server):"
	grep -E 'median' "/tmp/perf.$1.log" | head -n 1
	echo "-- by object:"
	perf report -i "$data" --no-children --sort dso -g none --stdio \
		2>/dev/null | grep '%' | head -n 6
	echo "-- hottest symbols (self):"
	perf report -i "$data" --no-children --sort dso,sym -g none --stdio \
		--percent-limit 0.4 2>/dev/null | grep '%' | head -n 70
	echo "-- who waits for a spinlock (call chains of the slow path):"
	perf report -i "$data" --no-children -S native_queued_spin_lock_slowpath \
		-g graph,2,callee --stdio 2>/dev/null |
		grep -v '^#' | grep -v '^ *$' | head -n 40
	echo "-- the driver's own functions (symbols matching $3), all together:"
	perf report -i "$data" --no-children --sort sym -g none --stdio \
		2>/dev/null | awk -v re="$3" '$1 ~ /%$/ && $3 ~ re {
			sub(/%/, "", $1); t += $1; n++ }
		END { printf "    %.2f%% in %d functions\n", t, n }'
	echo "-- hottest instructions of the driver's own functions (samples, symbol+offset):"
	perf script -i "$data" -F ip,sym,symoff -G 2>/dev/null |
		awk -v re="$3" '$2 ~ re { print $2 }' | sort | uniq -c |
		sort -rn | head -n "${BENCH_PROFILE_LINES:-60}"
	rm -f "$data"
	# Software counters work under TCG: how many context switches,
	# migrations and system calls a round trip costs, and how much CPU
	# time (client and server together).
	run_bounded 120 perf stat -x, -e task-clock,context-switches,cpu-migrations,raw_syscalls:sys_enter \
		-o "/tmp/perf.$1.stat" -- kbbench --reference "$2" --baselines 0 \
		--rounds $((calls / 100)) --batch 100 --budget 60 sync:4 \
		>"/tmp/perf.$1.stat.log" 2>&1
	# The calls the run made (the budget may end it early; warm-up
	# rounds are not counted: under 1%).
	made=$(sed -n 's/.*median.*(\([0-9]*\) calls).*/\1/p' "/tmp/perf.$1.stat.log" | head -n 1)
	[ -n "$made" ] && [ "$made" -gt 0 ] || made=$calls
	echo "-- per round trip (perf stat, $made calls; the CPU time is both"
	echo "   processes' together, kbbench's own timing and sorting included):"
	grep -E 'median' "/tmp/perf.$1.stat.log" | head -n 1
	awk -F, -v n="$made" '$3 != "" && $1 ~ /^[0-9.]+$/ {
		v = $1 / n; u = ""
		if ($3 == "task-clock") { v *= 1000; u = " us of CPU" }
		printf "    %-18s %10.2f%s\n", $3, v, u }' "/tmp/perf.$1.stat"
}

# wake_trace NAME DEVICE: where the time of a sync 4 B round trip goes
# between the two processes, from scheduler and system call tracepoints
# (tracefs, the events of kbbench's two tasks only; no function is
# hooked) over $BENCH_WAKE_CALLS round trips, after the same run with no
# event enabled. For each direction (the call, client to server; the
# reply, server to client), medians in microseconds of: the sender's
# ioctl entry to its first wake-up of the other task; that wake-up to the
# receiver running; the receiver running to its ioctl's return; the
# sender's entry to that return; and the sender's time from the wake-up
# until it sleeps (beside the receiver). A receiver woken before it slept
# never switches in: counted apart. The figures include the system call
# entry and exit and the tracepoints' own cost.
wake_trace() {
	t=/sys/kernel/tracing
	calls=${BENCH_WAKE_CALLS:-10000}
	[ -e $t/trace ] || mount -t tracefs nodev $t 2>/dev/null
	if [ ! -d $t/events/sched/sched_waking ] ||
		[ ! -d $t/events/raw_syscalls ]; then
		echo "wake trace: no sched or raw_syscalls events"
		return
	fi
	# Untraced first: no event enabled yet.
	run_bounded 120 kbbench --reference "$2" --baselines 0 \
		--rounds $((calls / 100)) --batch 100 --budget 60 sync:4 \
		>"/tmp/wake.$1.plain" 2>&1
	clock=$(sed 's/.*\[\(.*\)\].*/\1/' $t/trace_clock)
	size=$(cat $t/buffer_size_kb)
	echo 0 >$t/tracing_on
	echo nop >$t/current_tracer
	echo mono >$t/trace_clock
	echo 16384 >$t/buffer_size_kb
	echo >$t/set_event
	echo 'id == 16' >$t/events/raw_syscalls/sys_enter/filter	# ioctl
	echo 'id == 16' >$t/events/raw_syscalls/sys_exit/filter
	for e in sched/sched_waking sched/sched_switch raw_syscalls/sys_enter \
		raw_syscalls/sys_exit; do
		echo 1 >$t/events/$e/enable
	done
	echo 1 >$t/options/event-fork
	echo >$t/trace
	# The client is kbbench's first process (one client runs in it); the
	# server is its child, traced through event-fork. Tracing starts
	# once the pid filter holds only that process.
	run_bounded 120 sh -c "echo \$\$ >/tmp/wake.client; echo \$\$ >$t/set_event_pid;
		echo 1 >$t/tracing_on;
		exec kbbench --reference $2 --baselines 0 --rounds $((calls / 100)) \
		--batch 100 --budget 60 sync:4" >"/tmp/wake.$1.log" 2>&1
	echo 0 >$t/tracing_on
	cat $t/trace >"/tmp/wake.$1.trace"
	echo >$t/set_event
	echo >$t/set_event_pid
	echo 0 >$t/options/event-fork
	echo 0 >$t/events/raw_syscalls/sys_enter/filter
	echo 0 >$t/events/raw_syscalls/sys_exit/filter
	echo "$clock" >$t/trace_clock
	echo "$size" >$t/buffer_size_kb
	echo >$t/trace
	echo 1 >$t/tracing_on
	echo
	echo "wake trace of $1 ($2), sync 4 B round trips (medians, us):"
	sed -n '/median/{s/^ *[a-z0-9]* /  untraced /p;q}' "/tmp/wake.$1.plain"
	sed -n '/median/{s/^ *[a-z0-9]* /  traced   /p;q}' "/tmp/wake.$1.log"
	grep -q 'LOST' "/tmp/wake.$1.trace" && echo "  (the trace lost events)"
	# Only wake-ups of a kbbench task count, the first of each ioctl,
	# and a switch out counts as a sleep only in state S.
	awk -v client="$(cat /tmp/wake.client)" '
	function pid_of(s) { sub(/.*-/, "", s); return s }
	function val(k, s) { s = $0; sub(".*" k "=", "", s); sub(/ .*/, "", s); return s }
	$1 ~ /-[0-9]+$/ {
		for (i = 2; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) break
		if (i > NF) next
		ts = substr($i, 1, length($i) - 1) * 1e6; ev = $(i + 1); me = pid_of($1)
		if (ev == "sys_enter:") { entry[me] = ts; next }
		if (ev == "sys_exit:") {
			if (me in wake) { print dir[me], "6-woken-before-it-slept", 1; delete wake[me] }
			if (me in run) {
				print dir[me], "3-running-to-its-return", ts - run[me]
				print dir[me], "5-sender-entry-to-receiver-return", ts - from[me]
				delete run[me]; delete from[me]
			}
			delete entry[me]; next
		}
		if (ev == "sched_waking:") {
			r = val("pid")
			if (r == me || !(me in entry) || val("comm") != "kbbench") next
			d = me == client ? "call" : "reply"
			print d, "1-sender-entry-to-wake-up", ts - entry[me]
			wake[r] = ts; dir[r] = d; from[r] = entry[me]; tail[me] = ts; tdir[me] = d
			delete entry[me]
			next
		}
		if (ev == "sched_switch:") {
			p = val("prev_pid"); n = val("next_pid")
			if (p in tail) {
				if (val("prev_state") ~ /^S/)
					print tdir[p], "4-sender-wake-up-to-sleep", ts - tail[p]
				delete tail[p]
			}
			if (n in wake) {
				print dir[n], "2-wake-up-to-running", ts - wake[n]
				run[n] = ts; delete wake[n]
			}
		}
	}' "/tmp/wake.$1.trace" | sort -k1,1 -k2,2 -k3,3n | awk '
	function flush() {
		if (!n) return
		if (key ~ /woken-before/) printf "  %-5s %-36s %8d times\n", d, k, n
		else printf "  %-5s %-36s %8.1f (%d)\n", d, k, v[int((n + 1) / 2)], n
	}
	{ if ($1 " " $2 != key) { flush(); key = $1 " " $2; d = $1; k = substr($2, 3); n = 0 }
	  v[++n] = $3 }
	END { flush() }'
	rm -f "/tmp/wake.$1.trace"
}

if [ "${BENCH_PROFILE:-1}" = 1 ]; then
	kmsg_mark "bench: profile"
	kbinder_prof=""
	[ -n "$kbinder_args" ] && [ "${BENCH_SELFTEST:-0}" != 1 ] && kbinder_prof=1
	if command -v perf >/dev/null 2>&1; then
		perf_profile reference /dev/binder '^binder_'
		[ -n "$kbinder_prof" ] && perf_profile kbinder /dev/kbinder '^kb_'
		if [ "${BENCH_WAKE_TRACE:-1}" = 1 ]; then
			wake_trace reference /dev/binder
			[ -n "$kbinder_prof" ] && wake_trace kbinder /dev/kbinder
		fi
	else
		profile reference /dev/binder binder_ioctl binder_linux
		[ -n "$kbinder_prof" ] &&
			profile kbinder /dev/kbinder kb_file_ioctl kbinder
	fi
fi

if dmesg | grep -qi binder; then
	echo
	echo "kernel log lines about binder (last 20):"
	dmesg | grep -i binder | tail -n 20
fi

cat "$out" >>"$KBINDER_RESULTS"
kmsg_handover
exit 0
