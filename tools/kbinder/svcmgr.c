// SPDX-License-Identifier: Apache-2.0
/*
 * `kbinder servicemanager`: the context manager. It keeps a table of named
 * services, holds a strong reference on each, and drops a service when the
 * driver reports its process dead.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kbinder_tool.h"
#include "svcmgr_proto.h"

#define SVC_MAX 64

struct service {
	char name[SVC_NAME_MAX + 1];
	uint32_t handle;	/* 0: slot free (handle 0 is never a service) */
	pid_t owner;
};

struct svcmgr {
	struct kbinder_thread thread;
	struct service services[SVC_MAX];
	bool verbose;
};

static struct service *registry_find(struct svcmgr *sm, const char *name)
{
	for (int i = 0; i < SVC_MAX; i++)
		if (sm->services[i].handle && !strcmp(sm->services[i].name, name))
			return &sm->services[i];
	return NULL;
}

/* The death cookie of a slot is its index + 1, so 0 never names one. */
static binder_uintptr_t registry_cookie(struct svcmgr *sm, struct service *s)
{
	return (binder_uintptr_t)(s - sm->services) + 1;
}

static void registry_drop(struct svcmgr *sm, struct service *s, bool dead)
{
	if (!dead)
		kbinder_clear_death(&sm->thread, s->handle, registry_cookie(sm, s));
	kbinder_ref(&sm->thread, BC_RELEASE, s->handle);
	if (sm->verbose)
		printf("servicemanager: %s '%s'\n", dead ? "dead" : "replaced",
		       s->name);
	memset(s, 0, sizeof(*s));
}

static int registry_add(struct svcmgr *sm, const char *name, uint32_t handle,
		   pid_t owner)
{
	struct service *s = registry_find(sm, name);
	int err;

	if (s)
		registry_drop(sm, s, false);
	for (s = sm->services; s < sm->services + SVC_MAX && s->handle; s++)
		;
	if (s == sm->services + SVC_MAX)
		return -ENOSPC;
	/* Keep the service alive beyond the transaction buffer's reference. */
	err = kbinder_ref(&sm->thread, BC_ACQUIRE, handle);
	if (err)
		return err;
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->handle = handle;
	s->owner = owner;
	err = kbinder_request_death(&sm->thread, handle, registry_cookie(sm, s));
	if (sm->verbose)
		printf("servicemanager: added '%s' (pid %d)\n", name, (int)owner);
	return err;
}

static int reply_status(struct svcmgr *sm, int32_t status)
{
	struct kbinder_parcel reply;
	int err;

	kbinder_parcel_init(&reply);
	kbinder_parcel_write_u32(&reply, (uint32_t)status);
	err = kbinder_send_reply(&sm->thread, &reply, status ? TF_STATUS_CODE : 0,
			    5000);
	kbinder_parcel_fini(&reply);
	return err;
}

/* Answer one request; the reply is sent here, the buffer freed by the caller. */
static int svcmgr_answer(struct svcmgr *sm, const struct binder_transaction_data *tr)
{
	struct flat_binder_object obj;
	struct kbinder_parcel_view v;
	struct kbinder_parcel reply;
	char name[SVC_NAME_MAX + 1];
	struct service *s;
	uint32_t index;
	int err;

	kbinder_view_init(&v, tr);
	if (check_header(&v, SVCMGR_INTERFACE))
		return reply_status(sm, -EBADMSG);

	switch (tr->code) {
	case SVCMGR_GET_SERVICE:
	case SVCMGR_CHECK_SERVICE:
		if (get_string16(&v, name, sizeof(name)))
			return reply_status(sm, -EBADMSG);
		kbinder_parcel_init(&reply);
		s = registry_find(sm, name);
		if (s)
			kbinder_parcel_write_handle(&reply, s->handle, 0, false);
		else
			kbinder_parcel_write_u32(&reply, 0);
		err = kbinder_send_reply(&sm->thread, &reply, 0, 5000);
		kbinder_parcel_fini(&reply);
		return err;
	case SVCMGR_ADD_SERVICE:
		if (get_string16(&v, name, sizeof(name)) || !name[0])
			return reply_status(sm, -EBADMSG);
		/* Only an object the driver translated counts: never a raw
		 * handle number a client wrote into the data. */
		err = view_next_object(&v, &obj);
		if (err || obj.hdr.type != BINDER_TYPE_HANDLE)
			return reply_status(sm, -EBADMSG);
		err = registry_add(sm, name, obj.handle, tr->sender_pid);
		return reply_status(sm, err);
	case SVCMGR_LIST_SERVICES:
		if (kbinder_view_read_u32(&v, &index))
			return reply_status(sm, -EBADMSG);
		for (s = sm->services; s < sm->services + SVC_MAX; s++)
			if (s->handle && index-- == 0)
				break;
		if (s == sm->services + SVC_MAX)
			return reply_status(sm, -ENOENT);
		kbinder_parcel_init(&reply);
		put_string16(&reply, s->name);
		err = kbinder_send_reply(&sm->thread, &reply, 0, 5000);
		kbinder_parcel_fini(&reply);
		return err;
	default:
		return reply_status(sm, -EOPNOTSUPP);
	}
}

static int svcmgr_event(struct svcmgr *sm, const struct kbinder_return *ret)
{
	const struct binder_transaction_data *tr = &ret->u.txn;
	binder_uintptr_t cookie;
	int err;

	switch (ret->cmd) {
	case BR_TRANSACTION:
		err = 0;
		if (!(tr->flags & TF_ONE_WAY))
			err = svcmgr_answer(sm, tr);
		kbinder_free_buffer(&sm->thread, tr->data.ptr.buffer);
		return err == -EPIPE ? 0 : err;	/* a dead client is not our problem */
	case BR_DEAD_BINDER:
		cookie = ret->u.cookie;
		if (cookie >= 1 && cookie <= SVC_MAX &&
		    sm->services[cookie - 1].handle)
			registry_drop(sm, &sm->services[cookie - 1], true);
		return kbinder_dead_binder_done(&sm->thread, cookie);
	default:
		return kbinder_handle_default(&sm->thread, ret, NULL);
	}
}

int svcmgr_run(const char *device, int ready_fd, bool verbose)
{
	struct svcmgr sm = { .verbose = verbose };
	struct kbinder_return ret;
	struct kbinder_proc proc;
	int err;

	err = kbinder_open(&proc, device, KBINDER_DEFAULT_MAP_SIZE);
	if (err)
		return tool_error(err, "open %s", device ? device : kbinder_default_device());
	err = kbinder_set_context_mgr(proc.fd);
	if (err) {
		kbinder_close(&proc);
		return tool_error(err, "become the context manager");
	}
	kbinder_thread_init(&sm.thread, proc.fd);
	err = kbinder_enter_looper(&sm.thread);
	if (ready_fd >= 0) {
		(void)!write(ready_fd, "R", 1);
		close(ready_fd);
	}
	if (verbose)
		printf("servicemanager: serving on %s\n",
		       device ? device : kbinder_default_device());
	while (!err) {
		err = kbinder_next(&sm.thread, &ret, -1);
		if (!err)
			err = svcmgr_event(&sm, &ret);
	}
	kbinder_close(&proc);
	return tool_error(err, "servicemanager");
}
