// SPDX-License-Identifier: Apache-2.0
/*
 * What a transaction's outcome says to a caller that wanted a normal
 * reply: data, the driver's own answer (a positive BR_ code), or a
 * status-code reply's status_t.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>

#include "internal.h"

int kbinder_thread_check_reply(struct kbinder_thread *t,
			       const struct kbinder_reply *reply)
{
	struct kbinder_view v;
	uint32_t status;
	int err;

	if (reply->status == BR_DEAD_REPLY || reply->status == BR_FAILED_REPLY ||
	    reply->status == BR_FROZEN_REPLY)
		return (int)reply->status;
	if (reply->status != BR_REPLY)
		return -EPROTO;
	if (!(reply->txn.flags & TF_STATUS_CODE))
		return 0;
	kbinder_view_init(&v, &reply->txn);
	err = kbinder_view_read_u32(&v, &status) ? -EBADMSG : (int32_t)status;
	kbinder_thread_free_buffer(t, reply->txn.data.ptr.buffer);
	return err < 0 ? err : -EBADMSG;
}
