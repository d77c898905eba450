# SPDX-License-Identifier: Apache-2.0
#
# Boots, says so, powers off: the host uses it to find out whether an
# accelerator really boots this kernel.
. /scripts/lib.sh
result PASS vm/boots
