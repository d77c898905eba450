// SPDX-License-Identifier: Apache-2.0
/*
 * The ABI facts of the system's Linux 6.1 binder headers
 * (/usr/include/linux/android, from linux-libc-dev).  Build this file
 * WITHOUT -Iinclude/uapi so <linux/android/...> finds the system copy.
 */
#include <linux/android/binder.h>
#include <linux/android/binderfs.h>

#include "abi_items.h"
#include "abi_table.h"

/*
 * Our header names the flags enum; 6.1's does not.  If our header were
 * picked up here by mistake, this tag would be defined twice.
 */
enum flat_binder_object_flags { ABI_SYS_HEADER_IS_THE_6_1_COPY };

static const struct abi_entry rows[] = { ABI_ROWS(ABI_COMMON_ITEMS) };

const struct abi_table abi_table_sys = {
	.origin = "system",
	.rows = rows,
	.count = sizeof(rows) / sizeof(rows[0]),
};
