# SPDX-License-Identifier: Apache-2.0
#
# The containers Waydroid and Redroid set up, with AOSP's stack (sourced by
# aosp.sh; binderfs only, so kbinder alone): two at once, each in new IPC,
# mount and pid namespaces, binderfs at /dev/binderfs, the devices made
# through binder-control under Waydroid's names and bound over /dev/binder,
# /dev/hwbinder, /dev/vndbinder; each runs its own AOSP servicemanager,
# services and binderLibTest. Then the host (this script, outside both)
# freezes a process of one container by its host pid, as a freezer does,
# and that container's libbinder (service) sees the frozen process's errors. The
# containers and the host take turns through files in /tmp (one tmpfs,
# shared by every mount namespace here). AOSP-CASE lines, phase
# aosp-containers (c1, c2: what each container saw; host: the host's).

CT_DEVICES="anbox-binder anbox-hwbinder anbox-vndbinder"
# The turns' files: in the root file system, which every mount namespace
# here shares (each container has a /tmp of its own: lib.sh's run_program
# keeps its scratch files there under fixed names).
CT=/run/aosp-ct

# ct_wait FILE: wait for a turn's file, 10 min at most (binderLibTest runs
# in between).
ct_wait() {
	cw_n=3000
	while [ ! -e "$1" ] && [ $cw_n -gt 0 ]; do
		sleep 0.2
		cw_n=$((cw_n - 1))
	done
	[ -e "$1" ]
}

# ct_inside N: PID 1 of container N's pid namespace (after unshare).
ct_inside() {
	ci_n=$1 ci_phase=aosp-containers-c$1
	mount --make-rprivate /
	mount -t tmpfs tmpfs /tmp
	mkdir -p /dev/binderfs
	if ! mount -t binder binder /dev/binderfs; then
		aosp_case "$ci_phase" containers mount-binderfs FAIL
		for ci_f in ready tested ended; do echo fail >"$CT/c$ci_n.$ci_f"; done
		return
	fi
	for ci_dev in $CT_DEVICES; do
		aosp-ctl add /dev/binderfs/binder-control "$ci_dev"
	done
	mount --bind /dev/binderfs/anbox-binder /dev/binder
	mount --bind /dev/binderfs/anbox-hwbinder /dev/hwbinder
	mount --bind /dev/binderfs/anbox-vndbinder /dev/vndbinder
	echo "c$ci_n: pid $$ in its namespace; $(ls /dev/binderfs | tr '\n' ' ')"
	aosp_features_match "$ci_phase" /dev/binderfs
	servicemanager /dev/binder &
	ci_sm=$!
	wait_for sh -c "service check manager | grep -q ': found'"
	kbinder -a 34 serve "c$ci_n.only" &
	ci_echo=$!
	binderLibTest --binderserver 0 3 0 "c$ci_n" 3>/dev/null &
	ci_lib=$!
	wait_for sh -c "service list | grep -q test.binderLibc$ci_n"
	echo ok >"$CT/c$ci_n.ready"
	ct_wait "$CT"/c1.ready && ct_wait "$CT"/c2.ready
	ci_other=$((3 - ci_n))
	aosp_check "$ci_phase" sees-own-service ': found' service check "c$ci_n.only"
	aosp_check "$ci_phase" not-the-others ': not found' service check "c$ci_other.only"
	aosp_check "$ci_phase" own-list-only '^0$' count_lines "service list" \
		"c$ci_other.only" "binderLibc$ci_other"
	aosp_check "$ci_phase" own-pid-namespace 'ct_inside' tr '\0' ' ' </proc/1/cmdline
	# Both containers' binderLibTest at the same time.
	aosp_gtest "$ci_phase" binderLibTest
	echo ok >"$CT/c$ci_n.tested"
	if [ "$ci_n" = 2 ]; then
		# The host froze c2.only's process: libbinder's first call to it
		# (service asks its interface descriptor) fails with
		# BR_FROZEN_REPLY (29202), and with extended errors on
		# (features/) libbinder logs the driver's record of the failure.
		ct_wait "$CT"/c2.frozen
		aosp_check "$ci_phase" call-frozen-fails 'Binder transaction failure: [0-9]+/29202/' \
			sh -c 'service call c2.only 1 s16 frozen; exit 0'
		echo ok >"$CT"/c2.called
		ct_wait "$CT"/c2.thawed
		aosp_check "$ci_phase" call-thawed-works 't\.h\.a\.w\.' \
			service call c2.only 1 s16 thawed
	fi
	# (up until the host's turn ends: it reaches both containers)
	ct_wait "$CT/host.ended"
	kill $ci_lib $ci_echo $ci_sm 2>/dev/null
	wait $ci_lib $ci_echo $ci_sm 2>/dev/null
	umount /dev/vndbinder /dev/hwbinder /dev/binder
	umount /dev/binderfs
	echo ok >"$CT/c$ci_n.ended"
}

# ct_host_pid NAME: the host pid of the echo service NAME (kbinder serve).
ct_host_pid() {
	for chp in /proc/[0-9]*; do
		tr '\0' ' ' <"$chp/cmdline" 2>/dev/null |
			grep -q "^kbinder -a 34 serve $1 $" && echo "${chp#/proc/}"
	done | head -n 1
}

# ct_host: the host's turn, once both containers have run their tests.
ct_host() {
	ch_phase=aosp-containers-host
	if ! ct_wait "$CT"/c1.tested || ! ct_wait "$CT"/c2.tested; then
		aosp_case $ch_phase containers turns "FAIL(containers-did-not-finish)"
		echo fail >"$CT/host.ended"
		return
	fi
	ch_pid=$(ct_host_pid c2.only)
	ch_c1=$(ct_host_pid c1.only)
	# Each container's binderfs as the host reaches it: its root.
	ch_dev2=/proc/$ch_pid/root/dev/binderfs/anbox-binder
	ch_dev1=/proc/$ch_c1/root/dev/binderfs/anbox-binder
	echo "host: c2's c2.only (kbinder serve) is host pid $ch_pid"
	# c2's process through c1's device: the driver refuses (not the open)
	aosp_check $ch_phase freeze-in-other-world-refused 'BINDER_FREEZE pid' \
		sh -c "! aosp-ctl freeze $ch_dev1 $ch_pid 1"
	aosp_check $ch_phase freeze-by-host-pid '' aosp-ctl freeze "$ch_dev2" "$ch_pid" 1 1000
	echo ok >"$CT"/c2.frozen
	ct_wait "$CT"/c2.called
	aosp_check $ch_phase frozen-info-counts-the-call 'sync_recv=[13] ' \
		aosp-ctl frozen-info "$ch_dev2" "$ch_pid"
	aosp_check $ch_phase thaw-by-host-pid '' aosp-ctl freeze "$ch_dev2" "$ch_pid" 0
	echo ok >"$CT"/c2.thawed
	echo ok >"$CT/host.ended"
}

aosp_containers() {
	echo "################ two containers (binderfs, Waydroid's device names)"
	rm -rf "$CT"
	mkdir -p "$CT"
	for ac_n in 1 2; do
		unshare --ipc --mount --pid --fork --mount-proc \
			sh -c ". /scripts/lib.sh; . /scripts/aosp-lib.sh;
				. /scripts/aosp-containers.sh; ct_inside $ac_n" &
	done
	ct_host
	ct_wait "$CT"/c1.ended && ct_wait "$CT"/c2.ended ||
		aosp_case aosp-containers-host containers end "FAIL(containers-did-not-end)"
	wait
}
