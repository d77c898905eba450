/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Translation of the objects embedded in a transaction's payload: binder
 * objects and handles, file descriptors (installed by the receiver when it
 * reads the transaction), fd arrays and scatter-gather buffers.
 */
#ifndef _KB_OBJECTS_H
#define _KB_OBJECTS_H

#include <linux/list.h>

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
 * @user_data: the sender's own copy of the data (its user address)
 * @accept_fds: the receiver accepts file descriptors (the node's flag for
 *	a call, TF_ACCEPT_FDS of the call for a reply)
 * @fd_fixups: where the files to install in the receiver are collected
 *	(&struct kb_fd_fixup, owned by the transaction)
 * @done: number of objects translated so far (released on failure)
 * @sg_off: where the next scatter-gather buffer is copied in @buffer
 * @sg_end: end of the scatter-gather area in @buffer
 * @sg_reserved: bytes at the end of the extra buffers area that are not
 *	for scatter-gather (the sender's security context)
 * @last_fixup_obj: offset of the buffer object that was fixed up last (0:
 *	none yet); later fixups must go into it or its ancestors
 * @last_fixup_min: the lowest offset in @last_fixup_obj a later fixup may
 *	use
 * @delivered: on release: the receiver read the transaction, so the
 *	descriptors of fd arrays are its own and are closed
 */
struct kb_objects_ctx {
	struct kb_proc *proc;
	struct kb_thread *thread;
	struct kb_proc *target;
	struct kb_buffer *buffer;
	u64 user_data;
	bool accept_fds;
	struct list_head *fd_fixups;
	size_t done;
	size_t sg_off;
	size_t sg_end;
	size_t sg_reserved;
	size_t last_fixup_obj;
	size_t last_fixup_min;
	bool delivered;
};

/**
 * struct kb_fd_fixup - a file to install in the receiver when it reads
 * @entry: in the transaction's fd_fixups list
 * @file: the sender's file (a reference is held)
 * @offset: where in the buffer the new descriptor number goes (an area is
 *	at most 4 MiB)
 * @fd: the descriptor reserved for it while the receiver installs them
 *
 * Descriptors are installed by the receiving thread itself, in its own
 * file table, when it reads the transaction; until then only the file
 * reference travels. 32 bytes each, charged to the sender's memory cgroup.
 */
struct kb_fd_fixup {
	struct list_head entry;
	struct file *file;
	u32 offset;
	int fd;
};

struct kb_status kb_objects_translate(struct kb_objects_ctx *ctx);
void kb_objects_release(struct kb_proc *proc, struct kb_buffer *buffer,
			size_t count, bool delivered);
int kb_objects_install_fds(struct kb_proc *proc, struct kb_buffer *buffer,
			   struct list_head *fd_fixups);
void kb_objects_free_fd_fixups(struct list_head *fd_fixups);

#endif /* _KB_OBJECTS_H */
