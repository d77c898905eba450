# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=bash
#
# Sourced by tests/check.sh and tests/vm/judge.sh: how TESTS-style
# selections read (tests/vm/guest/lib.sh does the same in the guest).

# selected NAME GLOBS: NAME matches one of the comma-separated GLOBS and
# none of those written !GLOB ('*,!stress': everything but stress).
selected() {
	local glob hit=1
	local -a globs
	IFS=, read -r -a globs <<<"$2"
	for glob in "${globs[@]}"; do
		# shellcheck disable=SC2254
		case "$glob" in
		!*) case "$1" in ${glob#!}) return 1 ;; esac ;;
		*) case "$1" in $glob) hit=0 ;; esac ;;
		esac
	done
	return $hit
}
