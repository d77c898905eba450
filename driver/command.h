/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The write half of BINDER_WRITE_READ: the BC_ command stream.
 */
#ifndef _KB_COMMAND_H
#define _KB_COMMAND_H

#include <linux/types.h>

struct kb_thread;

int kb_thread_write(struct kb_thread *thread, u64 buffer, u64 size,
		    u64 *consumed);

#endif /* _KB_COMMAND_H */
