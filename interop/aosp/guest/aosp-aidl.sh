# SPDX-License-Identifier: Apache-2.0
#
# AOSP's tests and servicemanager on kbinder devices with the `aidl`
# profile (sourced by aosp.sh; docs/api-audit.md, "The aidl profile").
# kbinder is loaded again with AIDL_DEVICES, so that the misc /dev/binder
# refuses what no AIDL user sends, and then:
#   aosp-aidl           the suite on that misc device, after its sysfs
#                       profile file says aidl
#   aosp-aidl-binderfs  the suite on a binderfs mounted at /dev/binderfs
#                       with profile=aidl, after its binder_logs/profiles
#                       says aidl (libbinder turns its features on, so it
#                       logs the extended error of what the driver refused)
# Each phase ends with its own use counts (COUNT-AIDL lines: what the phase
# added to debugfs's `all` block) and three AOSP-CASE checks of them: the
# one BINDER_TYPE_PTR of binderLibTest's BufRejected refused, nothing else
# refused, no refusable item's handler run. On the reference, which has no
# profiles, every case of both phases is an AOSP-CASE "n/a".

AIDL_DEVICES=binder:aidl,hwbinder,vndbinder:aidl

# aidl_reload: the driver, loaded at boot with full devices, unloaded once
# every file of the phases before is released, and loaded with AIDL_DEVICES.
aidl_reload() {
	ar_n=200
	while ! live_counters_are_zero && [ $ar_n -gt 0 ]; do
		sleep 0.1
		ar_n=$((ar_n - 1))
	done
	kmsg_mark "rmmod kbinder (for devices=$AIDL_DEVICES)"
	rmmod kbinder || return 1
	kmsg_mark "load kbinder devices=$AIDL_DEVICES"
	load_driver "devices=$AIDL_DEVICES"
}

# aidl_profile_is PHASE WHERE VALUE: the device's profile, read from WHERE,
# is VALUE; an AOSP-CASE line either way, the phase runs only if it is aidl.
aidl_profile_is() {
	echo "$1: the profile of /dev/binder (from $2): ${3:-<none>}"
	if [ "$3" = aidl ]; then
		aosp_case "$1" device profile=aidl PASS
	else
		aosp_case "$1" device profile=aidl "FAIL(${3:-none})"
		return 1
	fi
}

# aidl_count ITEM FILE: ITEM's count in FILE ("ITEM N" lines; 0 if absent).
aidl_count() {
	awk -v i="$1" '{ k = $0; sub(/ [0-9]+$/, "", k) } k == i { n = $NF }
		END { print n + 0 }' "$2"
}

# aidl_phase PHASE: the suite with AOSP's servicemanager on /dev/binder,
# then what it sent and what the driver refused.
aidl_phase() {
	kb_counts_all >/tmp/aidl-before
	aosp_suite "$1" aosp_sm_start
	kb_counts_all >/tmp/aidl-after
	# what this phase added: "ITEM N" per counter
	awk 'NR == FNR { k = $0; sub(/ [0-9]+$/, "", k); b[k] = $NF; next }
		{ k = $0; sub(/ [0-9]+$/, "", k); print k, $NF - b[k] }' \
		/tmp/aidl-before /tmp/aidl-after >/tmp/aidl-counts
	echo "=== $1: kbinder use counts of this phase"
	sed "s/^/COUNT-AIDL $1 /" /tmp/aidl-counts
	ap_ref=$(aidl_count "refused BINDER_TYPE_PTR" /tmp/aidl-counts)
	ap_ptr=$(aidl_count BINDER_TYPE_PTR /tmp/aidl-counts)
	if [ "$ap_ref" = 1 ] && [ "$ap_ptr" = 0 ]; then
		aosp_case "$1" counts PTR-refused-once PASS
	else
		aosp_case "$1" counts PTR-refused-once "FAIL(refused-$ap_ref,dispatched-$ap_ptr)"
	fi
	ap_other=$(awk '/^refused / && $2 != "BINDER_TYPE_PTR" { n += $NF }
		END { print n + 0 }' /tmp/aidl-counts)
	ap_run=$(awk '/^handled / { n += $NF } END { print n + 0 }' /tmp/aidl-counts)
	if [ "$ap_other" = 0 ]; then
		aosp_case "$1" counts nothing-else-refused PASS
	else
		aosp_case "$1" counts nothing-else-refused "FAIL($ap_other)"
	fi
	if [ "$ap_run" = 0 ]; then
		aosp_case "$1" counts no-refusable-handled PASS
	else
		aosp_case "$1" counts no-refusable-handled "FAIL($ap_run)"
	fi
	rm -f /tmp/aidl-before /tmp/aidl-after /tmp/aidl-counts
}

# aidl_bufrejected_error PHASE: with extended errors on (binderfs's
# features/), libbinder logs the driver's reason for refusing BufRejected's
# PTR object: BR_FAILED_REPLY (29201) with -EOPNOTSUPP (-95) on an aidl
# device (a full one says -EINVAL: the object's length exceeds the room).
aidl_bufrejected_error() {
	ab_line=$(tr -d '\r' <"/tmp/aosp-$1-binderLibTest.log" | awk '
		/^\[ RUN +\] BinderLibTest\.BufRejected$/ { on = 1; next }
		on && /^\[/ { exit }
		on && /Binder transaction failure: / { print; exit }')
	echo "$1: BufRejected's extended error: ${ab_line:-<none logged>}"
	case "$ab_line" in
	*"Binder transaction failure: "*/29201/-95)
		aosp_case "$1" binderLibTest-log BufRejected-extended-error PASS ;;
	"")
		aosp_case "$1" binderLibTest-log BufRejected-extended-error "FAIL(none)" ;;
	*)
		aosp_case "$1" binderLibTest-log BufRejected-extended-error \
			"FAIL(${ab_line##*/29201/})" ;;
	esac
}

aosp_aidl() {
	echo "################ aidl devices: kbinder loaded with devices=$AIDL_DEVICES"
	if ! aa_out=$(aidl_reload 2>&1); then
		result FAIL "aosp-aidl/(reload)" "$aa_out"
		aosp_case aosp-aidl device reload "FAIL(reload)"
		return
	fi
	result PASS "aosp-aidl/(reload)"
	if selected aosp-aidl; then
		aidl_profile_is aosp-aidl /sys/class/misc/binder/profile \
			"$(cat /sys/class/misc/binder/profile 2>/dev/null)" &&
			aidl_phase aosp-aidl
	fi
	if selected aosp-aidl-binderfs; then
		mkdir -p /dev/binderfs
		mount -t binder -o profile=aidl binder /dev/binderfs
		echo "binder_logs/profiles:"
		cat /dev/binderfs/binder_logs/profiles
		if aidl_profile_is aosp-aidl-binderfs /dev/binderfs/binder_logs/profiles \
			"$(awk '$1 == "binder" { print $2 }' /dev/binderfs/binder_logs/profiles)"; then
			aosp_features_match aosp-aidl-binderfs /dev/binderfs
			mount --bind /dev/binderfs/binder /dev/binder
			aidl_phase aosp-aidl-binderfs
			aidl_bufrejected_error aosp-aidl-binderfs
			umount /dev/binder
		fi
		umount /dev/binderfs
	fi
}

# aosp_aidl_na: the reference has no device profiles: each case the phases
# would run, marked n/a (not a pass, not a failure).
aosp_aidl_na() {
	for an_phase in aosp-aidl aosp-aidl-binderfs; do
		selected "$an_phase" || continue
		aosp_case "$an_phase" device profile=aidl n/a
		for an_prog in $AOSP_SM_TESTS; do
			aosp_list_cases "$an_prog" | while read -r an_case; do
				aosp_case "$an_phase" "$an_prog" "$an_case" n/a
			done
		done
		aosp_case "$an_phase" binderThroughputTest "(iterations/s>0)" n/a
		for an_case in PTR-refused-once nothing-else-refused no-refusable-handled; do
			aosp_case "$an_phase" counts "$an_case" n/a
		done
	done
	selected aosp-aidl-binderfs &&
		aosp_case aosp-aidl-binderfs binderLibTest-log BufRejected-extended-error n/a
}
