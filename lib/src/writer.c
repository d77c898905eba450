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
#include <sys/ioctl.h>

#include "internal.h"

static const struct kbinder_code kbinder_commands[] = {
	{ BC_TRANSACTION, "BC_TRANSACTION" },
	{ BC_REPLY, "BC_REPLY" },
	{ BC_ACQUIRE_RESULT, "BC_ACQUIRE_RESULT" },
	{ BC_FREE_BUFFER, "BC_FREE_BUFFER" },
	{ BC_INCREFS, "BC_INCREFS" },
	{ BC_ACQUIRE, "BC_ACQUIRE" },
	{ BC_RELEASE, "BC_RELEASE" },
	{ BC_DECREFS, "BC_DECREFS" },
	{ BC_INCREFS_DONE, "BC_INCREFS_DONE" },
	{ BC_ACQUIRE_DONE, "BC_ACQUIRE_DONE" },
	{ BC_ATTEMPT_ACQUIRE, "BC_ATTEMPT_ACQUIRE" },
	{ BC_REGISTER_LOOPER, "BC_REGISTER_LOOPER" },
	{ BC_ENTER_LOOPER, "BC_ENTER_LOOPER" },
	{ BC_EXIT_LOOPER, "BC_EXIT_LOOPER" },
	{ BC_REQUEST_DEATH_NOTIFICATION, "BC_REQUEST_DEATH_NOTIFICATION" },
	{ BC_CLEAR_DEATH_NOTIFICATION, "BC_CLEAR_DEATH_NOTIFICATION" },
	{ BC_DEAD_BINDER_DONE, "BC_DEAD_BINDER_DONE" },
	{ BC_TRANSACTION_SG, "BC_TRANSACTION_SG" },
	{ BC_REPLY_SG, "BC_REPLY_SG" },
	{ BC_REQUEST_FREEZE_NOTIFICATION, "BC_REQUEST_FREEZE_NOTIFICATION" },
	{ BC_CLEAR_FREEZE_NOTIFICATION, "BC_CLEAR_FREEZE_NOTIFICATION" },
	{ BC_FREEZE_NOTIFICATION_DONE, "BC_FREEZE_NOTIFICATION_DONE" },
};

static const struct kbinder_code *kbinder_find_command(uint32_t cmd)
{
	size_t i;

	for (i = 0; i < KBINDER_ARRAY_SIZE(kbinder_commands); i++)
		if (kbinder_commands[i].code == cmd)
			return &kbinder_commands[i];
	return NULL;
}

int kbinder_command_size(uint32_t cmd)
{
	return kbinder_find_command(cmd) ? (int)_IOC_SIZE(cmd) : -EINVAL;
}

const char *kbinder_command_name(uint32_t cmd)
{
	const struct kbinder_code *c = kbinder_find_command(cmd);

	return c ? c->name : "BC_?";
}

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

int kbinder_put_txn(struct kbinder_writer *w, uint32_t cmd,
	       const struct binder_transaction_data *tr)
{
	if (cmd != BC_TRANSACTION && cmd != BC_REPLY)
		return w->err ? w->err : (w->err = -EINVAL);
	return kbinder_writer_put(w, cmd, tr, sizeof(*tr));
}

int kbinder_put_txn_sg(struct kbinder_writer *w, uint32_t cmd,
		  const struct binder_transaction_data_sg *tr)
{
	if (cmd != BC_TRANSACTION_SG && cmd != BC_REPLY_SG)
		return w->err ? w->err : (w->err = -EINVAL);
	return kbinder_writer_put(w, cmd, tr, sizeof(*tr));
}

int kbinder_put_free_buffer(struct kbinder_writer *w, binder_uintptr_t buffer)
{
	return kbinder_writer_put(w, BC_FREE_BUFFER, &buffer, sizeof(buffer));
}

int kbinder_put_handle_cmd(struct kbinder_writer *w, uint32_t cmd, uint32_t handle)
{
	if (cmd != BC_INCREFS && cmd != BC_ACQUIRE && cmd != BC_RELEASE &&
	    cmd != BC_DECREFS)
		return w->err ? w->err : (w->err = -EINVAL);
	return kbinder_writer_put(w, cmd, &handle, sizeof(handle));
}

int kbinder_put_ptr_cookie(struct kbinder_writer *w, uint32_t cmd,
		      binder_uintptr_t ptr, binder_uintptr_t cookie)
{
	struct binder_ptr_cookie pc = { .ptr = ptr, .cookie = cookie };

	if (cmd != BC_INCREFS_DONE && cmd != BC_ACQUIRE_DONE)
		return w->err ? w->err : (w->err = -EINVAL);
	return kbinder_writer_put(w, cmd, &pc, sizeof(pc));
}

int kbinder_put_death(struct kbinder_writer *w, uint32_t cmd, uint32_t handle,
		 binder_uintptr_t cookie)
{
	struct binder_handle_cookie hc = { .handle = handle, .cookie = cookie };

	if (cmd != BC_REQUEST_DEATH_NOTIFICATION &&
	    cmd != BC_CLEAR_DEATH_NOTIFICATION)
		return w->err ? w->err : (w->err = -EINVAL);
	return kbinder_writer_put(w, cmd, &hc, sizeof(hc));
}

int kbinder_put_dead_binder_done(struct kbinder_writer *w, binder_uintptr_t cookie)
{
	return kbinder_writer_put(w, BC_DEAD_BINDER_DONE, &cookie, sizeof(cookie));
}

int kbinder_put_looper(struct kbinder_writer *w, uint32_t cmd)
{
	if (cmd != BC_REGISTER_LOOPER && cmd != BC_ENTER_LOOPER &&
	    cmd != BC_EXIT_LOOPER)
		return w->err ? w->err : (w->err = -EINVAL);
	return kbinder_writer_put(w, cmd, NULL, 0);
}
