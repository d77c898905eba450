# SPDX-License-Identifier: Apache-2.0
#
# The guest half of `make fuzz`: load the driver under test, run kbfuzz on
# it, report the result (with the seed that reproduces it), then, on
# kbinder, check that it returns to zero live objects and unloads.
#
# Knobs (kernel command line words reach /init's environment):
#   KBT_FUZZ_DURATION  seconds of fuzzing (60)
#   KBT_FUZZ_SEED      seed (empty: kbfuzz picks one and prints it)
#   KBT_FUZZ_PROCS     actor processes (4)
#   KBT_FUZZ_THREADS   starting threads per process (2)
#   KBT_FUZZ_KILL_MS   mean time between SIGKILLs of an actor (1500; 0: none)
#   KBT_FUZZ_BINDER_FDS  0: never send the binder fd itself (1)
#   KBT_FUZZ_ARGS      more kbfuzz options, commas for spaces
#                      (e.g. --ops,200,--trace,--kill-ms,0)
#   KBT_FUZZ_MIN_CALLS   calls that must be delivered for the run to pass
#                      (default: one per second of fuzzing; measured rates
#                      are ~70/s on the stock kernel, ~4/s on the debug one)
#   KBT_FUZZ_MIN_DEATHS  actors that must die and be replaced (default: a
#                      quarter of the kills KBT_FUZZ_KILL_MS asks for; 0
#                      without kills). Both 0 with --ops (a replay).
#   KBT_FUZZ_PROFILE   empty: fuzz $BINDER_DEVICE (a misc device, full);
#                      full or aidl: fuzz the device "binder" of a new
#                      binderfs mount made with profile=<that> (kbinder
#                      only). kbfuzz reports its reach on the device from
#                      kbinder's use counters either way.
. /scripts/lib.sh

: "${KBT_FUZZ_DURATION:=60}"
: "${KBT_FUZZ_SEED:=}"
: "${KBT_FUZZ_PROCS:=4}"
: "${KBT_FUZZ_THREADS:=2}"
: "${KBT_FUZZ_KILL_MS:=1500}"

# The serial console is slow under emulation: warnings and worse only (a
# splat still reaches console.log for the host's scan, and the whole log
# is handed over at the end, kmsg_handover; kbfuzz reads /dev/kmsg itself
# too).
echo 5 >/proc/sys/kernel/printk
[ -n "${KBFUZZ_DEBUG:-}" ] && export KBFUZZ_DEBUG

kmsg_mark "load $KBT_DRIVER"
if ! out=$(load_driver 2>&1); then
	result FAIL "vm/load_$KBT_DRIVER" "$out"
	exit 1
fi
result PASS "vm/load_$KBT_DRIVER"
dev=${BINDER_DEVICE:-/dev/binder}
fuzzfs=""
if [ -n "${KBT_FUZZ_PROFILE:-}" ]; then
	fuzzfs=/tmp/kbfuzz-binderfs
	mkdir -p $fuzzfs
	if [ "$KBT_DRIVER" != kbinder ] ||
		! out=$(mount -t binder -o "profile=$KBT_FUZZ_PROFILE" binder $fuzzfs 2>&1); then
		result FAIL fuzz/run "no binderfs with profile=$KBT_FUZZ_PROFILE on $KBT_DRIVER: ${out:-only kbinder has profiles}"
		kmsg_handover
		exit 0
	fi
	dev=$fuzzfs/binder
	echo "=== fuzzing $dev: $(cat $fuzzfs/binder_logs/profiles | tr '\n' ' ')"
fi

set -- --device "$dev" --duration "$KBT_FUZZ_DURATION" --procs "$KBT_FUZZ_PROCS" \
	--threads "$KBT_FUZZ_THREADS" --kill-ms "$KBT_FUZZ_KILL_MS"
[ -n "$KBT_FUZZ_SEED" ] && set -- "$@" --seed "$KBT_FUZZ_SEED"
# Upstream consumes a command cut short by write_size past its end (it
# reads the code and payload without checking they fit); kbinder must not.
[ "$KBT_DRIVER" = reference ] && set -- "$@" --allow-overread
[ "${KBT_FUZZ_BINDER_FDS:-1}" = 0 ] && set -- "$@" --no-binder-fds
# The least work a passing run does: a run that made no calls, or whose
# actors never died and came back, found nothing because it tried nothing.
min_calls=$KBT_FUZZ_DURATION min_deaths=0
[ "$KBT_FUZZ_KILL_MS" -gt 0 ] && min_deaths=$((KBT_FUZZ_DURATION * 1000 / KBT_FUZZ_KILL_MS / 4))
[ "$KBT_FUZZ_KILL_MS" -gt 0 ] && [ "$min_deaths" -lt 1 ] && min_deaths=1
case ",${KBT_FUZZ_ARGS:-}," in *,--ops,*) min_calls=0 min_deaths=0 ;; esac
set -- "$@" --min-calls "${KBT_FUZZ_MIN_CALLS:-$min_calls}" \
	--min-deaths "${KBT_FUZZ_MIN_DEATHS:-$min_deaths}"
# shellcheck disable=SC2046
[ -n "${KBT_FUZZ_ARGS:-}" ] && set -- "$@" $(echo "$KBT_FUZZ_ARGS" | tr , ' ')
echo "=== kbfuzz $*"
kmsg_mark "program fuzz"
# kbfuzz bounds itself (a watchdog, 30 s of wind-down); this is the backstop.
{
	timeout $((KBT_FUZZ_DURATION + 120)) kbfuzz "$@"
	echo $? >/tmp/fuzz.rc
} 2>&1 | tee /tmp/fuzz.out
rc=$(cat /tmp/fuzz.rc 2>/dev/null || echo 255)
seed=$(sed -n 's/^kbfuzz: seed \([0-9]*\) .*/\1/p' /tmp/fuzz.out | head -n 1)
sed -n 's/^kbfuzz: \(seed .*processes: .*\)/FUZZ \1/p; s/^kbfuzz: \(reach .*\)/FUZZ \1/p' /tmp/fuzz.out >>"$KBINDER_RESULTS"
case $rc in
0) result PASS fuzz/run ;;
1) why=$(sed -n 's/^FAIL fuzz\/run: //p' /tmp/fuzz.out | tail -n 1)
	result FAIL fuzz/run "${why:-kbfuzz failed (seed $seed)}" ;;
124 | 143) result FAIL fuzz/run "kbfuzz itself did not finish (seed $seed): a kbfuzz bug" ;;
*) result FAIL fuzz/run "kbfuzz exited with status $rc (seed $seed)" ;;
esac

kmsg_mark "fuzz done"
[ -n "$fuzzfs" ] && umount $fuzzfs
# Why the driver refused things (the reference logs user errors, rate-limited).
echo "=== most frequent binder kernel messages"
dmesg | sed -n 's/.*binder[a-z_]*: //p' | grep -v ' ioctl ' |
	sed 's/[0-9a-f]*[0-9][0-9a-f]*/N/g' |
	sort | uniq -c | sort -rn | head -n 25
[ -n "${KBFUZZ_DEBUG:-}" ] && dmesg | grep 'binder' | grep -v ' ioctl ' | tail -n 80
if [ "$KBT_DRIVER" = kbinder ]; then
	# If objects stay alive, show what is left before the verdict.
	tries=50
	while ! live_counters_are_zero && [ $tries -gt 0 ]; do
		sleep 0.1
		tries=$((tries - 1))
	done
	if ! live_counters_are_zero; then
		echo "=== kbinder objects still alive after the run (seed $seed)"
		cat /sys/kernel/debug/kbinder/live
		echo "=== processes"
		ps
		echo "=== blocked tasks (sysrq w) and the kernel log's tail"
		echo w >/proc/sysrq-trigger 2>/dev/null
		dmesg | tail -n 60
	fi
	check_kbinder_teardown
	# A variant initramfs (the debug kernel's) may add its own checks.
	[ -f /scripts/post-check.sh ] && sh /scripts/post-check.sh
fi
kmsg_handover
exit 0
