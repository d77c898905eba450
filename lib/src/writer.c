// SPDX-License-Identifier: Apache-2.0
/*
 * Building BC_ command streams: a command code followed by its argument,
 * packed with no padding, exactly as the driver reads them.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <string.h>

#include "internal.h"

void kbinder_writer_init(struct kbinder_writer *w, void *buf, size_t cap)
{
	memset(w, 0, sizeof(*w));
	w->buf = buf;
	w->cap = cap;
	w->len = 0;
	w->err = 0;
}

int kbinder_writer_put(struct kbinder_writer *w, uint32_t cmd, const void *arg,
		  size_t size)
{
	int want = kbinder_command_size(cmd);

	if (w->err)
		return w->err;
	if (want < 0 || (size_t)want != size || (size && !arg)) {
		w->err = -EINVAL;
		return w->err;
	}
	if (w->cap - w->len < sizeof(cmd) || w->cap - w->len - sizeof(cmd) < size) {
		w->err = -ENOSPC;
		return w->err;
	}
	memcpy(w->buf + w->len, &cmd, sizeof(cmd));
	if (size)
		memcpy(w->buf + w->len + sizeof(cmd), arg, size);
	w->len += sizeof(cmd) + size;
	return 0;
}

/* Put @cmd if it is @a or @b (0: no other choice), else the sticky -EINVAL. */
static int kbinder_writer_put_one_of(struct kbinder_writer *w, uint32_t cmd,
				     uint32_t a, uint32_t b, const void *arg,
				     size_t size)
{
	if (cmd != a && (!b || cmd != b))
		return w->err ? w->err : (w->err = -EINVAL);
	return kbinder_writer_put(w, cmd, arg, size);
}

int kbinder_writer_put_txn(struct kbinder_writer *w, uint32_t cmd,
			   const struct binder_transaction_data *tr)
{
	return kbinder_writer_put_one_of(w, cmd, BC_TRANSACTION, BC_REPLY, tr, sizeof(*tr));
}

int kbinder_writer_put_txn_sg(struct kbinder_writer *w, uint32_t cmd,
			      const struct binder_transaction_data_sg *tr)
{
	return kbinder_writer_put_one_of(w, cmd, BC_TRANSACTION_SG, BC_REPLY_SG,
					 tr, sizeof(*tr));
}

int kbinder_writer_put_handle(struct kbinder_writer *w, uint32_t cmd, uint32_t handle)
{
	if (cmd == BC_RELEASE || cmd == BC_DECREFS)
		return kbinder_writer_put(w, cmd, &handle, sizeof(handle));
	return kbinder_writer_put_one_of(w, cmd, BC_INCREFS, BC_ACQUIRE, &handle,
					 sizeof(handle));
}

int kbinder_writer_put_ptr_cookie(struct kbinder_writer *w, uint32_t cmd,
				  binder_uintptr_t ptr, binder_uintptr_t cookie)
{
	struct binder_ptr_cookie pc = { .ptr = ptr, .cookie = cookie };

	return kbinder_writer_put_one_of(w, cmd, BC_INCREFS_DONE, BC_ACQUIRE_DONE,
					 &pc, sizeof(pc));
}

int kbinder_writer_put_death(struct kbinder_writer *w, uint32_t cmd, uint32_t handle,
			     binder_uintptr_t cookie)
{
	struct binder_handle_cookie hc = { .handle = handle, .cookie = cookie };

	return kbinder_writer_put_one_of(w, cmd, BC_REQUEST_DEATH_NOTIFICATION,
					 BC_CLEAR_DEATH_NOTIFICATION, &hc, sizeof(hc));
}

int kbinder_writer_put_looper(struct kbinder_writer *w, uint32_t cmd)
{
	if (cmd == BC_EXIT_LOOPER)
		return kbinder_writer_put(w, cmd, NULL, 0);
	return kbinder_writer_put_one_of(w, cmd, BC_REGISTER_LOOPER, BC_ENTER_LOOPER,
					 NULL, 0);
}
