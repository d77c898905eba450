/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The read half of BINDER_WRITE_READ: BR_ commands for the calling thread.
 */
#ifndef _KB_READ_H
#define _KB_READ_H

#include <linux/types.h>

struct kb_thread;

int kb_thread_read(struct kb_thread *thread, u64 buffer, u64 size,
		   u64 *consumed, bool non_block);

#endif /* _KB_READ_H */
