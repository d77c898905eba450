// SPDX-License-Identifier: Apache-2.0
/*
 * The calls made on a thread, built on the writer and the event queue:
 * transact and wait for the outcome, reply, free buffers, looper state,
 * reference counts and death notifications. An outcome the driver gives
 * (BR_DEAD_REPLY, BR_FAILED_REPLY, BR_FROZEN_REPLY) is a result, never an
 * errno: the caller decides what a dead peer means.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <string.h>

#include "internal.h"

/* How long the default handler waits for its empty reply to complete. */
#define KBINDER_DEFAULT_REPLY_MS 5000

/* A stream of one command, for the typed writer calls that check its code. */
struct kbinder_one {
	struct kbinder_writer w;
	uint8_t buf[32];
};

static struct kbinder_writer *kbinder_one(struct kbinder_one *o)
{
	kbinder_writer_init(&o->w, o->buf, sizeof(o->buf));
	return &o->w;
}

int kbinder_thread_ref(struct kbinder_thread *t, uint32_t cmd, uint32_t handle)
{
	struct kbinder_one o;

	kbinder_writer_put_handle(kbinder_one(&o), cmd, handle);
	return kbinder_thread_write(t, &o.w);
}

int kbinder_thread_ref_done(struct kbinder_thread *t, uint32_t cmd,
			    binder_uintptr_t ptr, binder_uintptr_t cookie)
{
	struct kbinder_one o;

	kbinder_writer_put_ptr_cookie(kbinder_one(&o), cmd, ptr, cookie);
	return kbinder_thread_write(t, &o.w);
}

static int kbinder_thread_death(struct kbinder_thread *t, uint32_t cmd,
				uint32_t handle, binder_uintptr_t cookie)
{
	struct kbinder_one o;

	kbinder_writer_put_death(kbinder_one(&o), cmd, handle, cookie);
	return kbinder_thread_write(t, &o.w);
}

int kbinder_thread_request_death(struct kbinder_thread *t, uint32_t handle,
				 binder_uintptr_t cookie)
{
	return kbinder_thread_death(t, BC_REQUEST_DEATH_NOTIFICATION, handle, cookie);
}

int kbinder_thread_clear_death(struct kbinder_thread *t, uint32_t handle,
			       binder_uintptr_t cookie)
{
	return kbinder_thread_death(t, BC_CLEAR_DEATH_NOTIFICATION, handle, cookie);
}

/* An unexpected BR_TRANSACTION: free it, and reply empty if it waits. */
static int kbinder_thread_refuse(struct kbinder_thread *t,
				 const struct binder_transaction_data *tr)
{
	int err = kbinder_thread_free_buffer(t, tr->data.ptr.buffer);

	if (!err && !(tr->flags & TF_ONE_WAY))
		err = kbinder_thread_reply(t, NULL, 0, KBINDER_DEFAULT_REPLY_MS);
	return err < 0 ? err : 0;	/* a caller gone is not our failure */
}

int kbinder_thread_handle_default(struct kbinder_thread *t,
				  const struct kbinder_return *ret, void *arg)
{
	const struct binder_ptr_cookie *pc = &ret->u.ptr_cookie;

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
		return kbinder_thread_command(t, BC_FREEZE_NOTIFICATION_DONE,
					      &ret->u.frozen.cookie,
					      sizeof(ret->u.frozen.cookie));
	case BR_INCREFS:
		return kbinder_thread_ref_done(t, BC_INCREFS_DONE, pc->ptr, pc->cookie);
	case BR_ACQUIRE:
		return kbinder_thread_ref_done(t, BC_ACQUIRE_DONE, pc->ptr, pc->cookie);
	case BR_DEAD_BINDER:
		return kbinder_thread_dead_binder_done(t, ret->u.cookie);
	case BR_TRANSACTION:
		return kbinder_thread_refuse(t, &ret->u.txn);
	default:
		return -EPROTO;
	}
}

static bool kbinder_is_outcome(uint32_t cmd)
{
	return cmd == BR_REPLY || cmd == BR_DEAD_REPLY ||
	       cmd == BR_FAILED_REPLY || cmd == BR_FROZEN_REPLY;
}

static bool kbinder_is_complete(uint32_t cmd)
{
	return cmd == BR_TRANSACTION_COMPLETE || cmd == BR_TRANSACTION_PENDING_FROZEN;
}

/* Wait for the outcome of the transaction or reply just written. */
static int kbinder_thread_wait_outcome(struct kbinder_thread *t, bool want_reply,
				       struct kbinder_reply *reply,
				       kbinder_event_fn other, void *arg,
				       int timeout_ms)
{
	struct kbinder_return ret;
	bool complete = false;
	int err;

	if (!other)
		other = kbinder_thread_handle_default;
	for (;;) {
		err = kbinder_thread_next(t, &ret, timeout_ms);
		if (err)
			return err;
		if (kbinder_is_complete(ret.cmd) && !complete) {
			complete = true;
			if (!want_reply) {
				reply->status = ret.cmd;
				return 0;
			}
			continue;
		}
		if (kbinder_is_outcome(ret.cmd) && (want_reply || ret.cmd != BR_REPLY)) {
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

/* BC_TRANSACTION or BC_REPLY of @data. */
static int kbinder_thread_send(struct kbinder_thread *t, uint32_t cmd,
			       uint32_t handle, uint32_t code,
			       const struct kbinder_parcel *data, uint32_t flags)
{
	struct binder_transaction_data tr;

	memset(&tr, 0, sizeof(tr));
	tr.target.handle = handle;
	tr.code = code;
	tr.flags = flags;
	if (data) {
		if (data->err)
			return data->err;
		kbinder_parcel_to_txn(data, &tr);
	}
	return kbinder_thread_command(t, cmd, &tr, sizeof(tr));
}

int kbinder_thread_transact(struct kbinder_thread *t, uint32_t handle, uint32_t code,
			    const struct kbinder_parcel *data, uint32_t flags,
			    struct kbinder_reply *reply, kbinder_event_fn other,
			    void *arg, int timeout_ms)
{
	int err;

	memset(reply, 0, sizeof(*reply));
	err = kbinder_thread_send(t, BC_TRANSACTION, handle, code, data, flags);
	if (err)
		return err;
	return kbinder_thread_wait_outcome(t, !(flags & TF_ONE_WAY), reply, other,
					   arg, timeout_ms);
}

int kbinder_thread_reply(struct kbinder_thread *t, const struct kbinder_parcel *data,
			 uint32_t flags, int timeout_ms)
{
	struct kbinder_reply reply;
	int err;

	memset(&reply, 0, sizeof(reply));
	err = kbinder_thread_send(t, BC_REPLY, 0, 0, data, flags);
	if (!err)
		err = kbinder_thread_wait_outcome(t, false, &reply, NULL, NULL, timeout_ms);
	if (err)
		return err;
	return reply.status == BR_TRANSACTION_COMPLETE ? 0 : (int)reply.status;
}

int kbinder_thread_wait_for(struct kbinder_thread *t, uint32_t cmd,
			    struct kbinder_return *ret, kbinder_event_fn other,
			    void *arg, int timeout_ms)
{
	int err;

	if (!other)
		other = kbinder_thread_handle_default;
	for (;;) {
		err = kbinder_thread_next(t, ret, timeout_ms);
		if (err)
			return err;
		if (ret->cmd == cmd)
			return 0;
		err = other(t, ret, arg);
		if (err)
			return err;
	}
}
