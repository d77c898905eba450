// SPDX-License-Identifier: Apache-2.0
/*
 * Local binder objects: the standard transactions every Android binder
 * object answers (BBinder::transact and BBinder::onTransact in libbinder),
 * and the interface-token check AIDL's generated stubs make before a user
 * code reaches the object.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

#define KBINDER_DUMP_ARGS_MAX	64
#define KBINDER_DUMP_ARG_LEN	256
/* How long a reply may take to complete. */
#define KBINDER_OBJECT_REPLY_MS	5000

int kbinder_thread_reply_status(struct kbinder_thread *t, int32_t status,
				int timeout_ms)
{
	struct kbinder_parcel reply;
	int err;

	kbinder_parcel_init(&reply);
	kbinder_parcel_write_u32(&reply, (uint32_t)status);
	err = kbinder_thread_reply(t, &reply, TF_STATUS_CODE, timeout_ms);
	kbinder_parcel_fini(&reply);
	return err;
}

/* DUMP_TRANSACTION: an fd, an int32 count, that many String16 arguments. */
static int kbinder_object_dump(struct kbinder_object *obj,
			       struct kbinder_view *in)
{
	char *argv[KBINDER_DUMP_ARGS_MAX + 1];
	int32_t argc = 0;
	uint32_t n;
	int fd, err = 0, i;

	fd = kbinder_view_read_fd(in);
	if (fd < 0)
		return KBINDER_STATUS_BAD_TYPE;
	if (!kbinder_view_read_u32(in, &n))
		argc = n > KBINDER_DUMP_ARGS_MAX ? KBINDER_DUMP_ARGS_MAX : (int32_t)n;
	for (i = 0; i < argc; i++) {
		argv[i] = malloc(KBINDER_DUMP_ARG_LEN);
		if (!argv[i] ||
		    kbinder_view_read_string16(in, argv[i], KBINDER_DUMP_ARG_LEN) < 0) {
			free(argv[i]);
			argc = i;
			break;
		}
	}
	argv[argc] = NULL;
	if (obj->dump)
		err = obj->dump(obj, fd, argc, argv);
	else
		dprintf(fd, "%s (pid %d)\n", obj->descriptor, (int)getpid());
	for (i = 0; i < argc; i++)
		free(argv[i]);
	close(fd);	/* the driver installed it for us */
	return err < 0 ? err : 0;
}

/* Answer @tr into @reply; a negative return is a status_t for the caller. */
static int kbinder_object_answer(struct kbinder_object *obj,
				 struct kbinder_call *call)
{
	const struct binder_transaction_data *tr = call->txn;

	switch (tr->code) {
	case KBINDER_PING_TRANSACTION:
	case KBINDER_SYSPROPS_TRANSACTION:
		return 0;
	case KBINDER_INTERFACE_TRANSACTION:
		return kbinder_parcel_write_string16(call->reply, obj->descriptor);
	case KBINDER_DEBUG_PID_TRANSACTION:
		return kbinder_parcel_write_u32(call->reply, (uint32_t)getpid());
	case KBINDER_EXTENSION_TRANSACTION:
		return kbinder_parcel_write_strong_binder(call->reply, call->wire, 0, 0);
	case KBINDER_DUMP_TRANSACTION:
		return kbinder_object_dump(obj, &call->in);
	}
	if (tr->code < KBINDER_FIRST_CALL_TRANSACTION ||
	    tr->code > KBINDER_LAST_CALL_TRANSACTION || !obj->handle ||
	    (obj->n_codes && tr->code > obj->n_codes))
		return KBINDER_STATUS_UNKNOWN_TRANSACTION;
	if (kbinder_view_check_token(&call->in, call->wire, obj->descriptor))
		return KBINDER_STATUS_BAD_TYPE;
	return obj->handle(obj, tr->code, call);
}

int kbinder_object_dispatch(struct kbinder_object *obj,
			    struct kbinder_thread *t,
			    const struct binder_transaction_data *tr)
{
	struct kbinder_parcel reply;
	struct kbinder_call call;
	struct kbinder_wire w;
	int status, err = 0;

	kbinder_parcel_init(&reply);
	memset(&call, 0, sizeof(call));
	call.thread = t;
	call.txn = tr;
	call.reply = &reply;
	call.wire = obj->wire;
	if (!call.wire) {
		kbinder_wire_init(&w, 0);
		call.wire = &w;
	}
	kbinder_view_init(&call.in, tr);
	status = kbinder_object_answer(obj, &call);
	if (!status && reply.err)
		status = reply.err;
	if (!(tr->flags & TF_ONE_WAY)) {
		if (status < 0)
			err = kbinder_thread_reply_status(t, status, KBINDER_OBJECT_REPLY_MS);
		else
			err = kbinder_thread_reply(t, &reply, 0, KBINDER_OBJECT_REPLY_MS);
	}
	kbinder_parcel_fini(&reply);
	return err;
}
