#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# Boot Debian's kernel in QEMU with kbinder's initramfs, run one guest script
# and judge the run. Nothing is ever loaded into the host's kernel.
#
# usage: run.sh [options] [SCRIPT]        SCRIPT: a tests/vm/guest/*.sh name (check)
#   --kernel FILE      vmlinuz to boot (required)
#   --initramfs FILE   initramfs from mkinitramfs.sh (required)
#   --driver NAME      kbinder | reference (kbinder)
#   --tests GLOBS      test programs to run (*; globs separated by commas)
#   --timeout SECONDS  whole-run limit (600)
#   --logdir DIR       where console.log, output.log, results.log go
#   --accel-cache FILE remembers the accelerator probe (per host boot)
#   --append WORDS     extra kernel command line
#   --memory MB        guest memory (1024)
#   --smp SPEC         QEMU -smp (2); a kernel without ACPI needs
#                      2,sockets=2,cores=1,threads=1 to see two CPUs
#   --quiet            do not stream the guest's output
#   --tcg-thread MODE  single | multi (multi): TCG's vCPU threads
#   --plugin SPEC      load a TCG plugin (FILE.so[,KEY=VALUE...]); its
#                      output goes to LOGDIR/plugin.log. Implies TCG (KVM
#                      runs no plugin): no accelerator probe
#   --icount SPEC      QEMU's -icount SPEC (e.g. shift=0,sleep=off: the
#                      guest's clock counts instructions); TCG only
#
# One guest at a time per host: overlapping TCG guests on a small host wedge
# in boot (shared/VM-NOTES.md), so every boot waits for a host-wide lock
# (KBINDER_VM_LOCK, default /tmp/kbinder-vm.lock); --timeout counts from the
# moment the lock is held.
#
# Three serial ports: ttyS0 the kernel console (console.log), ttyS1 what the
# guest's programs print (output.log, streamed here), ttyS2 result lines and
# the verdict (results.log). The run fails when the verdict is missing, when
# any result line is FAIL, when the guest script ended with a status but 0,
# or when the kernel log shows a splat; a splat is charged to the test
# whose start marker precedes it (also in the kernel log a guest handed
# over on ttyS1, KBT-KMSG: see lib.sh). The judged result lines end up in
# LOGDIR/judged.log (tests/vm/judge-boot.sh).
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
kernel="" initramfs="" driver=kbinder tests='*' timeout=600 logdir=""
accel_cache="" append="" memory=1024 smp=2 quiet=0 script=check
tcg_thread=multi plugin="" icount=""
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) kernel=$2; shift ;;
	--initramfs) initramfs=$2; shift ;;
	--driver) driver=$2; shift ;;
	--tests) tests=$2; shift ;;
	--timeout) timeout=$2; shift ;;
	--logdir) logdir=$2; shift ;;
	--accel-cache) accel_cache=$2; shift ;;
	--append) append=$2; shift ;;
	--memory) memory=$2; shift ;;
	--smp) smp=$2; shift ;;
	--quiet) quiet=1 ;;
	--tcg-thread) tcg_thread=$2; shift ;;
	--plugin) plugin=$2; shift ;;
	--icount) icount=$2; shift ;;
	-h | --help) sed -n '3,39p' "$0"; exit 0 ;;
	-*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
	*) script=$1 ;;
	esac
	shift
done
[ -r "$kernel" ] || { echo "run.sh: cannot read kernel '$kernel'" >&2; exit 2; }
[ -r "$initramfs" ] || { echo "run.sh: cannot read initramfs '$initramfs'" >&2; exit 2; }
case "$driver" in kbinder | reference) ;; *) echo "run.sh: bad driver $driver" >&2; exit 2 ;; esac
case "$tests" in *' '*) echo "run.sh: --tests must not contain spaces" >&2; exit 2 ;; esac
case "$tcg_thread" in single | multi) ;; *) echo "run.sh: bad --tcg-thread $tcg_thread" >&2; exit 2 ;; esac
case "$plugin$icount" in *' '*) echo "run.sh: --plugin and --icount take no spaces" >&2; exit 2 ;; esac
if [ -n "$plugin" ] && [ ! -r "${plugin%%,*}" ]; then
	echo "run.sh: cannot read plugin '${plugin%%,*}'" >&2
	exit 2
fi
[ -n "$logdir" ] || logdir=$(mktemp -d "${TMPDIR:-/tmp}/kbinder-vm.XXXXXX")
mkdir -p "$logdir"
console=$logdir/console.log output=$logdir/output.log results=$logdir/results.log
judged=$logdir/judged.log plugin_log=$logdir/plugin.log
: >"$console"; : >"$output"; : >"$results"; : >"$judged"
rm -f "$plugin_log"

# A CPU kept by the kernel for 10 s (a soft lockup: 2 x watchdog_thresh) or
# an RCU grace period held up for 10 s is reported (the defaults are 20 s
# and 21 s), and scan-kernel-log.sh fails the run for it: a teardown that
# walks an attacker-sized list without yielding must not pass. So is a task
# blocked uninterruptibly for 10 s (the default is 120 s, longer than any
# test may run: a test times out at 30 s unless it says otherwise), seen
# within 2 s more (the detector's check interval): every Debian kernel we
# boot and the debug kernel have DETECT_HUNG_TASK (the runner stage checks
# that a hung task inside a test fails it, tests/vm/guest/programs.sh).
detectors="watchdog_thresh=5 rcupdate.rcu_cpu_stall_timeout=10 \
sysctl.kernel.hung_task_timeout_secs=10 sysctl.kernel.hung_task_check_interval_secs=2"

# qemu_cmd ACCEL SCRIPT: the QEMU command line for one boot.
qemu_cmd() {
	local accel=$1 script=$2 cpu=()
	case "$accel" in
	kvm) cpu=(-accel kvm -cpu host) ;;
	tcg) cpu=(-accel "tcg,thread=$tcg_thread") ;;
	esac
	[ -n "$plugin" ] && [ "$accel" = tcg ] &&
		cpu+=(-plugin "$plugin" -d plugin -D "$plugin_log")
	[ -n "$icount" ] && [ "$accel" = tcg ] && cpu+=(-icount "$icount")
	echo qemu-system-x86_64 "${cpu[@]}" -smp "$smp" -m "$memory" \
		-nodefaults -no-user-config -display none -no-reboot \
		-kernel "$kernel" -initrd "$initramfs" \
		-serial "file:$console" -serial "file:$output" -serial "file:$results" \
		-append "\"console=ttyS0,115200 loglevel=7 panic=-1 $detectors \
KBT_SCRIPT=$script KBT_DRIVER=$driver KBT_TESTS=$tests $append\""
}

# probe_accel: "kvm" if KVM really boots this kernel (on some hosts /dev/kvm
# exists but cannot run it: see shared/VM-NOTES.md), else "tcg".
probe_accel() {
	local boot_id
	boot_id=$(cat /proc/sys/kernel/random/boot_id 2>/dev/null)
	if [ -n "$accel_cache" ] && [ -r "$accel_cache" ]; then
		local cached_id cached_accel
		read -r cached_id cached_accel <"$accel_cache"
		if [ "$cached_id" = "$boot_id" ]; then
			echo "$cached_accel"
			return
		fi
	fi
	local accel=tcg
	if [ -w /dev/kvm ]; then
		eval "timeout 20 $(qemu_cmd kvm probe)" >/dev/null 2>&1
		grep -q 'PASS vm/boots' "$results" && accel=kvm
		: >"$console"; : >"$output"; : >"$results"
	fi
	[ -n "$accel_cache" ] && mkdir -p "$(dirname "$accel_cache")" &&
		echo "$boot_id $accel" >"$accel_cache"
	echo "$accel"
}

# The lock is held until this script exits; QEMU inherits it, so a guest
# that outlives us (it cannot: timeout kills it) would keep it too.
exec 9>>"${KBINDER_VM_LOCK:-/tmp/kbinder-vm.lock}"
if ! flock -n 9; then
	echo "vm: waiting for another guest on this host to finish (${KBINDER_VM_LOCK:-/tmp/kbinder-vm.lock})"
	flock 9
fi

if [ -n "$plugin$icount" ]; then
	accel=tcg
else
	accel=$(probe_accel)
fi
echo "vm: booting $(basename "$kernel") with $accel, script $script, driver $driver, logs in $logdir"

start=$(date +%s)
# QEMU's own complaints go to the terminal and to qemu.err, whose first
# line a guest that stopped early is failed with.
qerr=$logdir/qemu.err
eval "timeout --foreground $timeout $(qemu_cmd "$accel" "$script")" 2> >(tee "$qerr" >&2) &
qemu=$!
if [ $quiet -eq 0 ]; then
	tail -n +1 -F "$output" 2>/dev/null --pid=$qemu | tr -d '\r' &
	streamer=$!
fi
wait $qemu
qemu_rc=$?
[ $quiet -eq 0 ] && wait "$streamer" 2>/dev/null
elapsed=$(($(date +%s) - start))

# Judge: result lines from the guest, then what the host saw (the verdict
# and its status, the splats of the console and of a kernel log handed
# over): judge-boot.sh.
"$here/judge-boot.sh" "$logdir" "$qemu_rc" "$timeout" "guest script $script"
echo "vm: guest ran ${elapsed}s ($accel); console log: $console"
! grep -q '^FAIL ' "$judged"
