# SPDX-License-Identifier: Apache-2.0
#
# Runner self-test: the guest powers off before init writes its verdict, as if
# it had crashed. The host runner must fail the run.
. /scripts/lib.sh
result PASS runner/about_to_vanish
sync
[ "${KBT_HALT:-poweroff}" = reboot ] && reboot -f
poweroff -f
sleep 60
