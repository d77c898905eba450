#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# usage: tests/host/dkms-check.sh [WORKDIR]      (make host-dkms-check)
#
# DKMS for real, build only: `dkms add`, `dkms build`, `dkms install` and
# `dkms remove` of the module source the kbinder-dkms package ships
# (scripts/dkms-source.sh), for every supported Debian kernel whose headers
# are installed (6.1 and 6.12, each amd64, cloud-amd64, rt-amd64;
# DKMS_KERNELS= chooses, as SERIES/FLAVOUR words), all in throwaway trees
# under WORKDIR (default build/dkms):
# --sourcetree, --dkmstree, --installtree, --no-depmod, a throwaway
# signing key, with which each module must be signed
# (tests/deb/module-signature.sh). Nothing is loaded, nothing is written to /lib/modules,
# /var/lib/dkms or /usr/src; the test checks that too. Then what dkms.conf
# refuses: another kernel series, and a kernel of each series without
# Debian's exports.
# Output: one PASS/FAIL/SKIP line per check; exit 1 on any failure.
set -uo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
work=$(realpath -m "${1:-build/dkms}")
src=$work/src tree=$work/tree inst=$work/install
log=$work/dkms.log
failed=0

pass() { echo "PASS dkms/$1"; }
fail() { echo "FAIL dkms/$1${2:+: $2}"; failed=1; }
skip() { echo "SKIP dkms/$1${2:+: $2}"; }

if ! command -v dkms >/dev/null; then
	fail "(setup)" "dkms is not installed (scripts/deps.sh installs it)"
	exit 1
fi
name=$(sed -n 's/^PACKAGE_NAME="\(.*\)"/\1/p' dkms.conf)
version=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' dkms.conf)
mv_=$name/$version

rm -rf "$work"
mkdir -p "$src" "$tree" "$inst"
: >"$log"
# Signing as Debian's dkms does (it signs with sign-file when it finds it),
# with a key made here, never the machine's /var/lib/dkms/mok.key.
export mok_signing_key=$work/mok.key mok_certificate=$work/mok.pub
DKMS=(dkms --sourcetree "$src" --dkmstree "$tree" --installtree "$inst")

# dk ARGS...: one dkms command, its output appended to the log.
dk() {
	echo "+ dkms $*" >>"$log"
	"${DKMS[@]}" "$@" >>"$log" 2>&1
}
# logtail: the end of the log, for a FAIL line's reader.
logtail() { tail -n 5 "$log" | tr '\n' ' '; }

# What exists on the machine before: the test must leave it as it was.
host_state() {
	{
		ls -d /var/lib/dkms/"$name" /usr/src/"$name"-* 2>/dev/null
		find /lib/modules -name "$name.ko*" 2>/dev/null
	} | sort
}
before=$(host_state)

# add: the source tree exactly as the package installs it.
scripts/dkms-source.sh "$src/$name-$version"
if dk add -m "$name" -v "$version"; then
	pass add
else
	fail add "$(logtail)"
	exit 1
fi

# built_module KVER: the module DKMS built for that kernel, with its suffix.
built_module() {
	local f
	for f in "$tree/$name/$version/$1/x86_64/module/$name".ko{,.xz,.zst,.gz}; do
		[ -f "$f" ] && { echo "$f"; return; }
	done
	echo "$tree/$name/$version/$1/x86_64/module/$name.ko"
}

kvers=()
for k in ${DKMS_KERNELS:-6.1/amd64 6.1/cloud-amd64 6.1/rt-amd64 6.12/amd64 6.12/cloud-amd64 6.12/rt-amd64}; do
	flavour=${k/\//-}
	kver=$(scripts/kernel-version.sh "${k#*/}" "${k%/*}")
	if [ -z "$kver" ] || [ ! -d "/lib/modules/$kver/build" ]; then
		skip "build_$flavour" "no headers of a Debian ${k%/*} ${k#*/} kernel installed"
		continue
	fi
	kvers+=("$kver")
	start=$(date +%s)
	if ! dk build -m "$name" -v "$version" -k "$kver"; then
		fail "build_$flavour" "$(logtail)"
		continue
	fi
	# DKMS compresses the module the way the kernel's own are (6.12's:
	# kbinder.ko.xz), so the file has the kernel's suffix.
	built=$(built_module "$kver")
	vermagic=$(modinfo -F vermagic "$built" 2>/dev/null)
	if [ "${vermagic%% *}" = "$kver" ]; then
		pass "build_$flavour"
		echo "dkms: $flavour ($kver) built in $(($(date +%s) - start)) s"
	else
		fail "build_$flavour" "$built: vermagic '$vermagic', expected $kver"
		continue
	fi
	# Signed as Debian's dkms signs, with the key it was given.
	if out=$(sh tests/deb/module-signature.sh "$built" "$mok_certificate"); then
		pass "signed_$flavour"
	else
		fail "signed_$flavour" "$out"
	fi
	# dkms installs only into a kernel's existing module directory.
	mkdir -p "$inst/$kver"
	if dk install -m "$name" -v "$version" -k "$kver" --no-depmod &&
		[ -f "$inst/$kver/updates/dkms/${built##*/}" ] &&
		cmp -s "$built" "$inst/$kver/updates/dkms/${built##*/}"; then
		pass "install_$flavour"
	else
		fail "install_$flavour" "not in $inst/$kver/updates/dkms: $(logtail)"
	fi
done

# Every symbol dkms-kernel-check.sh demands of a series must be one
# kbinder.ko imports there, or the check would turn away kernels that can
# run it: checked on the first kernel built of each series.
checked=""
for kver in "${kvers[@]}"; do
	series=$(echo "$kver" | sed -E 's/^([0-9]+\.[0-9]+)\..*/\1/')
	case " $checked " in *" $series "*) continue ;; esac
	checked="$checked $series"
	ko=$(built_module "$kver")
	case "$ko" in
	*.xz) xz -dc "$ko" >"$work/imports.ko" && ko=$work/imports.ko ;;
	esac
	imports=$(modprobe --dump-modversions "$ko" 2>/dev/null | awk '{ print $2 }')
	demanded=$(sed -n "/^symbols_${series/./_}=\"/,/\"\$/p" scripts/dkms-kernel-check.sh |
		tr -d '"' | sed 's/^symbols_[0-9_]*=//' | tr ' ' '\n' | grep .)
	stale=""
	for sym in $demanded; do
		grep -qx "$sym" <<<"$imports" || stale="$stale $sym"
	done
	if [ -z "$demanded" ]; then
		fail "kernel_check_demands_only_imports_$series" "no symbol list for $series in dkms-kernel-check.sh"
	elif [ -n "$stale" ]; then
		fail "kernel_check_demands_only_imports_$series" "kbinder.ko ($kver) no longer imports:$stale"
	else
		pass "kernel_check_demands_only_imports_$series"
	fi
done

# status: installed for each kernel built above.
status=$("${DKMS[@]}" status -m "$name" -v "$version" 2>&1)
echo "$status" >>"$log"
missing=""
for kver in "${kvers[@]}"; do
	grep -q "$mv_, $kver, x86_64: installed" <<<"$status" || missing="$missing $kver"
done
if [ -n "$missing" ]; then
	fail status_lists_every_kernel "not installed:$missing ($status)"
else
	pass status_lists_every_kernel
fi

# Another kernel series: skipped by BUILD_EXCLUSIVE_KERNEL (dkms exit 77),
# before anything is compiled. Headers of a real kernel stand in for it.
if [ ${#kvers[@]} -gt 0 ]; then
	dk build -m "$name" -v "$version" -k 6.6.0-0-amd64 \
		--kernelsourcedir "/lib/modules/${kvers[0]}/build"
	rc=$?
	if [ $rc -eq 77 ] && grep -q 'BUILD_EXCLUSIVE directive which does not match this kernel' "$log"; then
		pass refuses_other_kernel_series
	else
		fail refuses_other_kernel_series "dkms exit $rc: $(logtail)"
	fi
fi

# A kernel of each series without Debian's exports: the same headers with
# those symbols taken out of Module.symvers. The build stops at the check,
# before compiling, and make.log names what is missing.
checked=""
for kver in "${kvers[@]}"; do
	series=$(echo "$kver" | sed -E 's/^([0-9]+\.[0-9]+)\..*/\1/')
	case " $checked " in *" $series "*) continue ;; esac
	checked="$checked $series"
	fake=$work/vanilla-$series
	mkdir -p "$fake"
	cp "/lib/modules/$kver/build/.config" "$fake/"
	ln -s "/lib/modules/$kver/build/include" "$fake/include"
	awk '$2 != "can_nice" && $2 !~ /^security_binder_/' \
		"/lib/modules/$kver/build/Module.symvers" >"$fake/Module.symvers"
	dk build -m "$name" -v "$version" -k "$series.0-0-vanilla" --kernelsourcedir "$fake"
	rc=$?
	mlog=$tree/$name/$version/build/make.log
	if [ $rc -ne 0 ] && grep -q 'does not export: can_nice security_binder_set_context_mgr' "$mlog" 2>/dev/null &&
		! grep -q ' CC \[M\]' "$mlog"; then
		pass "refuses_${series}_kernel_without_debian_exports"
	else
		fail "refuses_${series}_kernel_without_debian_exports" "dkms exit $rc; see $mlog"
	fi
done

# remove: every kernel, and the tree is clean again.
if dk remove -m "$name" -v "$version" --all --no-depmod &&
	[ ! -e "$tree/$name" ] &&
	[ -z "$(find "$inst" -name "$name.ko*")" ]; then
	pass remove_cleans_up
else
	fail remove_cleans_up "left: $(find "$tree" "$inst" -name "$name*" | head -n 3 | tr '\n' ' ')"
fi

after=$(host_state)
if [ "$before" = "$after" ]; then
	pass host_trees_untouched
else
	fail host_trees_untouched "before: [$before] after: [$after]"
fi
exit $failed
