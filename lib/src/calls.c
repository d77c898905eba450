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

int kbinder_thread_write(struct kbinder_thread *t, const struct kbinder_writer *w)
{
	size_t consumed = 0;
	int ret;

	if (w->err)
		return w->err;
	ret = kbinder_write(t->fd, w->buf, w->len, &consumed);
	if (!ret && consumed != w->len)
		ret = -EIO;
	return ret;
}

/* Write one command with its argument. */
static int kbinder_write_cmd(struct kbinder_thread *t, uint32_t cmd, const void *arg,
			size_t size)
{
	uint8_t buf[sizeof(uint32_t) + sizeof(struct binder_transaction_data_sg)];
	struct kbinder_writer w;

	kbinder_writer_init(&w, buf, sizeof(buf));
	kbinder_writer_put(&w, cmd, arg, size);
	return kbinder_thread_write(t, &w);
}

int kbinder_free_buffer(struct kbinder_thread *t, binder_uintptr_t buffer)
{
	return kbinder_write_cmd(t, BC_FREE_BUFFER, &buffer, sizeof(buffer));
}

int kbinder_enter_looper(struct kbinder_thread *t)
{
	return kbinder_write_cmd(t, BC_ENTER_LOOPER, NULL, 0);
}

int kbinder_register_looper(struct kbinder_thread *t)
{
	return kbinder_write_cmd(t, BC_REGISTER_LOOPER, NULL, 0);
}

int kbinder_exit_looper(struct kbinder_thread *t)
{
	return kbinder_write_cmd(t, BC_EXIT_LOOPER, NULL, 0);
}

int kbinder_ref(struct kbinder_thread *t, uint32_t cmd, uint32_t handle)
{
	uint8_t buf[16];
	struct kbinder_writer w;

	kbinder_writer_init(&w, buf, sizeof(buf));
	kbinder_put_handle_cmd(&w, cmd, handle);
	return kbinder_thread_write(t, &w);
}

int kbinder_ref_done(struct kbinder_thread *t, uint32_t cmd, binder_uintptr_t ptr,
		binder_uintptr_t cookie)
{
	uint8_t buf[32];
	struct kbinder_writer w;

	kbinder_writer_init(&w, buf, sizeof(buf));
	kbinder_put_ptr_cookie(&w, cmd, ptr, cookie);
	return kbinder_thread_write(t, &w);
}

static int kbinder_death_cmd(struct kbinder_thread *t, uint32_t cmd, uint32_t handle,
			binder_uintptr_t cookie)
{
	uint8_t buf[32];
	struct kbinder_writer w;

	kbinder_writer_init(&w, buf, sizeof(buf));
	kbinder_put_death(&w, cmd, handle, cookie);
	return kbinder_thread_write(t, &w);
}

int kbinder_request_death(struct kbinder_thread *t, uint32_t handle,
		     binder_uintptr_t cookie)
{
	return kbinder_death_cmd(t, BC_REQUEST_DEATH_NOTIFICATION, handle, cookie);
}

int kbinder_clear_death(struct kbinder_thread *t, uint32_t handle,
		   binder_uintptr_t cookie)
{
	return kbinder_death_cmd(t, BC_CLEAR_DEATH_NOTIFICATION, handle, cookie);
}

int kbinder_dead_binder_done(struct kbinder_thread *t, binder_uintptr_t cookie)
{
	return kbinder_write_cmd(t, BC_DEAD_BINDER_DONE, &cookie, sizeof(cookie));
}

int kbinder_handle_default(struct kbinder_thread *t, const struct kbinder_return *ret,
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
		return kbinder_write_cmd(t, BC_FREEZE_NOTIFICATION_DONE,
				    &ret->u.frozen.cookie,
				    sizeof(ret->u.frozen.cookie));
	case BR_INCREFS:
		return kbinder_ref_done(t, BC_INCREFS_DONE, ret->u.ptr_cookie.ptr,
				   ret->u.ptr_cookie.cookie);
	case BR_ACQUIRE:
		return kbinder_ref_done(t, BC_ACQUIRE_DONE, ret->u.ptr_cookie.ptr,
				   ret->u.ptr_cookie.cookie);
	case BR_DEAD_BINDER:
		return kbinder_dead_binder_done(t, ret->u.cookie);
	case BR_TRANSACTION:
		err = kbinder_free_buffer(t, tr->data.ptr.buffer);
		if (!err && !(tr->flags & TF_ONE_WAY))
			err = kbinder_send_reply(t, NULL, 0, 5000);
		return err;
	default:
		return -EPROTO;
	}
}

static bool kbinder_is_outcome(uint32_t cmd)
{
	return cmd == BR_REPLY || cmd == BR_DEAD_REPLY ||
	       cmd == BR_FAILED_REPLY || cmd == BR_FROZEN_REPLY;
}

/* Wait for the outcome of the transaction or reply just written. */
static int kbinder_wait_outcome(struct kbinder_thread *t, bool want_reply,
			   struct kbinder_reply *reply, kbinder_event_fn other,
			   void *arg, int timeout_ms)
{
	struct kbinder_return ret;
	bool complete = false;
	int err;

	if (!other)
		other = kbinder_handle_default;
	for (;;) {
		err = kbinder_next(t, &ret, timeout_ms);
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
		if (kbinder_is_outcome(ret.cmd) &&
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

int kbinder_transact(struct kbinder_thread *t, uint32_t handle, uint32_t code,
		const struct kbinder_parcel *data, uint32_t flags,
		struct kbinder_reply *reply, kbinder_event_fn other, void *arg,
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
		kbinder_parcel_to_txn(data, &tr);
	}
	err = kbinder_write_cmd(t, BC_TRANSACTION, &tr, sizeof(tr));
	if (err)
		return err;
	return kbinder_wait_outcome(t, !(flags & TF_ONE_WAY), reply, other, arg,
			       timeout_ms);
}

int kbinder_send_reply(struct kbinder_thread *t, const struct kbinder_parcel *data,
		  uint32_t flags, int timeout_ms)
{
	struct binder_transaction_data tr;
	struct kbinder_reply reply;
	int err;

	memset(&tr, 0, sizeof(tr));
	tr.flags = flags;
	if (data) {
		if (data->err)
			return data->err;
		kbinder_parcel_to_txn(data, &tr);
	}
	err = kbinder_write_cmd(t, BC_REPLY, &tr, sizeof(tr));
	if (err)
		return err;
	err = kbinder_wait_outcome(t, false, &reply, NULL, NULL, timeout_ms);
	if (err)
		return err;
	if (reply.status == BR_DEAD_REPLY)
		return -EPIPE;
	if (reply.status != BR_TRANSACTION_COMPLETE)
		return -EIO;
	return 0;
}

int kbinder_wait_for(struct kbinder_thread *t, uint32_t cmd, struct kbinder_return *ret,
		kbinder_event_fn other, void *arg, int timeout_ms)
{
	int err;

	if (!other)
		other = kbinder_handle_default;
	for (;;) {
		err = kbinder_next(t, ret, timeout_ms);
		if (err)
			return err;
		if (ret->cmd == cmd)
			return 0;
		err = other(t, ret, arg);
		if (err)
			return err;
	}
}
