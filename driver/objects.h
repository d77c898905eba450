/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Translation of the objects embedded in a transaction's payload (binder
 * objects and handles today; file descriptors, fd arrays and scatter-gather
 * buffers have their table entries reserved).
 */
#ifndef _KB_OBJECTS_H
#define _KB_OBJECTS_H

#include "internal.h"

struct kb_buffer;
struct kb_proc;
struct kb_thread;

/**
 * struct kb_objects_ctx - one payload being translated
 * @proc: the sending process
 * @thread: the sending thread
 * @target: the receiving process, whose buffer holds the payload
 * @buffer: the buffer (data, then offsets)
 * @done: number of objects translated so far (released on failure)
 */
struct kb_objects_ctx {
	struct kb_proc *proc;
	struct kb_thread *thread;
	struct kb_proc *target;
	struct kb_buffer *buffer;
	size_t done;
};

struct kb_status kb_objects_translate(struct kb_objects_ctx *ctx);
void kb_objects_release(struct kb_proc *proc, struct kb_buffer *buffer,
			size_t count);

#endif /* _KB_OBJECTS_H */
