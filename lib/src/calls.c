// SPDX-License-Identifier: Apache-2.0
/*
 * Convenience calls built on the writer and the event queue: transact and
 * wait for the outcome, reply, free buffers, looper state, reference
 * counts and death notifications.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <string.h>

#include "internal.h"

int kb_thread_write(struct kb_thread *t, const struct kb_writer *w)
{
	size_t consumed = 0;
	int ret;

	if (w->err)
		return w->err;
	ret = kb_write(t->fd, w->buf, w->len, &consumed);
	if (!ret && consumed != w->len)
		ret = -EIO;
	return ret;
}

/* Write one command with its argument. */
static int kb_write_cmd(struct kb_thread *t, uint32_t cmd, const void *arg,
			size_t size)
{
	uint8_t buf[sizeof(uint32_t) + sizeof(struct binder_transaction_data_sg)];
	struct kb_writer w;

	kb_writer_init(&w, buf, sizeof(buf));
	kb_writer_put(&w, cmd, arg, size);
	return kb_thread_write(t, &w);
}

int kb_free_buffer(struct kb_thread *t, binder_uintptr_t buffer)
{
	return kb_write_cmd(t, BC_FREE_BUFFER, &buffer, sizeof(buffer));
}

int kb_enter_looper(struct kb_thread *t)
{
	return kb_write_cmd(t, BC_ENTER_LOOPER, NULL, 0);
}

int kb_register_looper(struct kb_thread *t)
{
	return kb_write_cmd(t, BC_REGISTER_LOOPER, NULL, 0);
}

int kb_exit_looper(struct kb_thread *t)
{
	return kb_write_cmd(t, BC_EXIT_LOOPER, NULL, 0);
}

int kb_ref(struct kb_thread *t, uint32_t cmd, uint32_t handle)
{
	uint8_t buf[16];
	struct kb_writer w;

	kb_writer_init(&w, buf, sizeof(buf));
	kb_put_handle_cmd(&w, cmd, handle);
	return kb_thread_write(t, &w);
}

int kb_ref_done(struct kb_thread *t, uint32_t cmd, binder_uintptr_t ptr,
		binder_uintptr_t cookie)
{
	uint8_t buf[32];
	struct kb_writer w;

	kb_writer_init(&w, buf, sizeof(buf));
	kb_put_ptr_cookie(&w, cmd, ptr, cookie);
	return kb_thread_write(t, &w);
}

static int kb_death_cmd(struct kb_thread *t, uint32_t cmd, uint32_t handle,
			binder_uintptr_t cookie)
{
	uint8_t buf[32];
	struct kb_writer w;

	kb_writer_init(&w, buf, sizeof(buf));
	kb_put_death(&w, cmd, handle, cookie);
	return kb_thread_write(t, &w);
}

int kb_request_death(struct kb_thread *t, uint32_t handle,
		     binder_uintptr_t cookie)
{
	return kb_death_cmd(t, BC_REQUEST_DEATH_NOTIFICATION, handle, cookie);
}

int kb_clear_death(struct kb_thread *t, uint32_t handle,
		   binder_uintptr_t cookie)
{
	return kb_death_cmd(t, BC_CLEAR_DEATH_NOTIFICATION, handle, cookie);
}

int kb_dead_binder_done(struct kb_thread *t, binder_uintptr_t cookie)
{
	return kb_write_cmd(t, BC_DEAD_BINDER_DONE, &cookie, sizeof(cookie));
}

int kb_handle_default(struct kb_thread *t, const struct kb_return *ret,
		      void *arg)
{
	const struct binder_transaction_data *tr = &ret->u.txn;
	int err;

	(void)arg;
	switch (ret->cmd) {
	case BR_NOOP:
	case BR_SPAWN_LOOPER:
	case BR_RELEASE:
	case BR_DECREFS:
	case BR_OK:
	case BR_CLEAR_DEATH_NOTIFICATION_DONE:
	case BR_ONEWAY_SPAM_SUSPECT:
	case BR_CLEAR_FREEZE_NOTIFICATION_DONE:
		return 0;
	case BR_FROZEN_BINDER:
		return kb_write_cmd(t, BC_FREEZE_NOTIFICATION_DONE,
				    &ret->u.frozen.cookie,
				    sizeof(ret->u.frozen.cookie));
	case BR_INCREFS:
		return kb_ref_done(t, BC_INCREFS_DONE, ret->u.ptr_cookie.ptr,
				   ret->u.ptr_cookie.cookie);
	case BR_ACQUIRE:
		return kb_ref_done(t, BC_ACQUIRE_DONE, ret->u.ptr_cookie.ptr,
				   ret->u.ptr_cookie.cookie);
	case BR_DEAD_BINDER:
		return kb_dead_binder_done(t, ret->u.cookie);
	case BR_TRANSACTION:
		err = kb_free_buffer(t, tr->data.ptr.buffer);
		if (!err && !(tr->flags & TF_ONE_WAY))
			err = kb_send_reply(t, NULL, 0, 5000);
		return err;
	default:
		return -EPROTO;
	}
}

static bool kb_is_outcome(uint32_t cmd)
{
	return cmd == BR_REPLY || cmd == BR_DEAD_REPLY ||
	       cmd == BR_FAILED_REPLY || cmd == BR_FROZEN_REPLY;
}

/* Wait for the outcome of the transaction or reply just written. */
static int kb_wait_outcome(struct kb_thread *t, bool want_reply,
			   struct kb_reply *reply, kb_event_fn other,
			   void *arg, int timeout_ms)
{
	struct kb_return ret;
	bool complete = false;
	int err;

	if (!other)
		other = kb_handle_default;
	for (;;) {
		err = kb_next(t, &ret, timeout_ms);
		if (err)
			return err;
		if ((ret.cmd == BR_TRANSACTION_COMPLETE ||
		     ret.cmd == BR_TRANSACTION_PENDING_FROZEN) && !complete) {
			complete = true;
			if (!want_reply) {
				reply->status = ret.cmd;
				return 0;
			}
			continue;
		}
		if (kb_is_outcome(ret.cmd) &&
		    (want_reply || ret.cmd != BR_REPLY)) {
			reply->status = ret.cmd;
			if (ret.cmd == BR_REPLY)
				reply->txn = ret.u.txn;
			return 0;
		}
		err = other(t, &ret, arg);
		if (err)
			return err;
	}
}

int kb_transact(struct kb_thread *t, uint32_t handle, uint32_t code,
		const struct kb_parcel *data, uint32_t flags,
		struct kb_reply *reply, kb_event_fn other, void *arg,
		int timeout_ms)
{
	struct binder_transaction_data tr;
	int err;

	memset(&tr, 0, sizeof(tr));
	memset(reply, 0, sizeof(*reply));
	tr.target.handle = handle;
	tr.code = code;
	tr.flags = flags;
	if (data) {
		if (data->err)
			return data->err;
		kb_parcel_to_txn(data, &tr);
	}
	err = kb_write_cmd(t, BC_TRANSACTION, &tr, sizeof(tr));
	if (err)
		return err;
	return kb_wait_outcome(t, !(flags & TF_ONE_WAY), reply, other, arg,
			       timeout_ms);
}

int kb_send_reply(struct kb_thread *t, const struct kb_parcel *data,
		  uint32_t flags, int timeout_ms)
{
	struct binder_transaction_data tr;
	struct kb_reply reply;
	int err;

	memset(&tr, 0, sizeof(tr));
	tr.flags = flags;
	if (data) {
		if (data->err)
			return data->err;
		kb_parcel_to_txn(data, &tr);
	}
	err = kb_write_cmd(t, BC_REPLY, &tr, sizeof(tr));
	if (err)
		return err;
	err = kb_wait_outcome(t, false, &reply, NULL, NULL, timeout_ms);
	if (err)
		return err;
	if (reply.status == BR_DEAD_REPLY)
		return -EPIPE;
	if (reply.status != BR_TRANSACTION_COMPLETE)
		return -EIO;
	return 0;
}

int kb_wait_for(struct kb_thread *t, uint32_t cmd, struct kb_return *ret,
		kb_event_fn other, void *arg, int timeout_ms)
{
	int err;

	if (!other)
		other = kb_handle_default;
	for (;;) {
		err = kb_next(t, ret, timeout_ms);
		if (err)
			return err;
		if (ret->cmd == cmd)
			return 0;
		err = other(t, ret, arg);
		if (err)
			return err;
	}
}
