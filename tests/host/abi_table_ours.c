// SPDX-License-Identifier: Apache-2.0
/*
 * The ABI facts of our headers (include/uapi/linux/android).  Build this
 * file WITH -Iinclude/uapi first in the include path.
 *
 * Besides the table, the sizes are pinned at compile time: a struct that
 * changes size breaks the build before the run-time comparison.
 */
#include <linux/android/binder.h>
#include <linux/android/binderfs.h>
#include <linux/android/binder_netlink.h>

#include "abi_items.h"
#include "abi_mainline.h"
#include "abi_table.h"

#define ABI_SIZE(tag, m64, m32, ipc32)					\
	_Static_assert(sizeof(struct tag) == ABI_PICK(m64, m32, ipc32),	\
		       "sizeof(struct " #tag ") differs from upstream")

/* Linux 6.1 values (the system headers give the same), plus 6.12's. */
ABI_SIZE(binder_object_header, 4, 4, 4);
ABI_SIZE(flat_binder_object, 24, 24, 16);
ABI_SIZE(binder_fd_object, 24, 24, 16);
ABI_SIZE(binder_buffer_object, 40, 40, 24);
ABI_SIZE(binder_fd_array_object, 32, 32, 20);
ABI_SIZE(binder_write_read, 48, 48, 24);
ABI_SIZE(binder_version, 4, 4, 4);
ABI_SIZE(binder_node_debug_info, 24, 24, 16);
ABI_SIZE(binder_node_info_for_ref, 24, 24, 24);
ABI_SIZE(binder_freeze_info, 12, 12, 12);
ABI_SIZE(binder_frozen_status_info, 12, 12, 12);
ABI_SIZE(binder_frozen_state_info, 16, 16, 12);
ABI_SIZE(binder_extended_error, 12, 12, 12);
ABI_SIZE(binder_transaction_data, 64, 64, 40);
ABI_SIZE(binder_transaction_data_secctx, 72, 72, 44);
ABI_SIZE(binder_transaction_data_sg, 72, 72, 44);
ABI_SIZE(binder_ptr_cookie, 16, 16, 8);
ABI_SIZE(binder_handle_cookie, 12, 12, 8);
ABI_SIZE(binder_pri_desc, 8, 8, 8);
ABI_SIZE(binder_pri_ptr_cookie, 24, 20, 12);
ABI_SIZE(binderfs_device, 264, 264, 264);

/* The best-known number of all, and the newest codes. */
_Static_assert(BINDER_WRITE_READ == ABI_PICK(0xc0306201, 0xc0306201, 0xc0186201),
	       "BINDER_WRITE_READ differs from upstream");
_Static_assert(BR_FROZEN_BINDER == ABI_PICK(0x80107215, 0x80107215, 0x800c7215),
	       "BR_FROZEN_BINDER differs from mainline");
_Static_assert(BC_FREEZE_NOTIFICATION_DONE ==
	       ABI_PICK(0x40086315, 0x40086315, 0x40046315),
	       "BC_FREEZE_NOTIFICATION_DONE differs from mainline");

static const struct abi_entry rows[] = {
	ABI_ROWS(ABI_COMMON_ITEMS)
	ABI_ROWS(ABI_NEW_ITEMS)
};

const struct abi_table abi_table_ours = {
	.origin = "ours",
	.rows = rows,
	.count = sizeof(rows) / sizeof(rows[0]),
};
