// SPDX-License-Identifier: Apache-2.0
/*
 * kbinder's service manager, its top: the object that answers as the
 * context manager (the standard transactions, then the dialect of the
 * server's release: sm_aidl.c or sm_pre11.c, over the registry of
 * sm_registry.c), the commands of its thread, and the loop. The codes and
 * answers of each release are the tables of servicemanager.c, the client's.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sm_server.h"

/* ------------------------------------------------------------ the object */

static int kbinder_sms_handle(struct kbinder_object *obj, uint32_t code,
			      struct kbinder_call *call)
{
	struct kbinder_sm_server *s = obj->arg;

	if (kbinder_sm_is_aidl(&s->wire))
		return kbinder_sms_aidl(s, code, call);
	return kbinder_sms_pre11(s, code, call);
}

static int kbinder_sms_dump(struct kbinder_object *obj, int fd, int argc, char **argv)
{
	struct kbinder_sm_server *s = obj->arg;

	(void)argc;
	(void)argv;
	dprintf(fd, "kbinder servicemanager, Android API level %s (Android %s)\n",
		kbinder_wire_name(&s->wire), kbinder_wire_release(&s->wire));
	for (int i = 0; i < KBINDER_SMS_SERVICES; i++)
		if (s->services[i].used)
			dprintf(fd, "  %s (pid %d)%s\n", s->services[i].name,
				(int)s->services[i].pid,
				s->services[i].binder.self ? ": the manager itself" : "");
	return 0;
}

int kbinder_sm_server_event(struct kbinder_thread *t, const struct kbinder_return *ret,
			    void *arg)
{
	struct kbinder_sm_server *s = arg;
	const struct binder_transaction_data *tr = &ret->u.txn;
	int err;

	switch (ret->cmd) {
	case BR_TRANSACTION:
		err = kbinder_object_dispatch(&s->obj, t, tr);
		kbinder_thread_free_buffer(t, tr->data.ptr.buffer);
		return err < 0 ? err : 0;	/* a caller gone is not our failure */
	case BR_DEAD_BINDER:
		kbinder_sms_forget(s, (uint32_t)ret->u.cookie);
		return kbinder_thread_dead_binder_done(t, ret->u.cookie);
	default:
		return kbinder_thread_handle_default(t, ret, NULL);
	}
}

void kbinder_sms_init(struct kbinder_sm_server *s, struct kbinder_thread *t,
		      const struct kbinder_wire *w)
{
	memset(s, 0, sizeof(*s));
	s->thread = t;
	s->wire = *w;
	s->obj.descriptor = KBINDER_SM_DESCRIPTOR;
	s->obj.wire = &s->wire;
	s->obj.handle = kbinder_sms_handle;
	while (kbinder_sm_method_of(&s->wire, s->obj.n_codes + 1) >= 0)
		s->obj.n_codes++;	/* the release's last method */
	s->obj.dump = kbinder_sms_dump;
	s->obj.arg = s;
	s->event = kbinder_sm_server_event;
}

int kbinder_sm_server_new(struct kbinder_sm_server **out, struct kbinder_thread *t,
			  const struct kbinder_wire *w)
{
	*out = malloc(sizeof(**out));
	if (!*out)
		return -ENOMEM;
	kbinder_sms_init(*out, t, w);
	return 0;
}

void kbinder_sm_server_free(struct kbinder_sm_server *srv)
{
	free(srv);
}

void kbinder_sm_server_set_log(struct kbinder_sm_server *srv, kbinder_sm_log_fn fn,
			       void *arg)
{
	srv->log = fn;
	srv->log_arg = arg;
}

int kbinder_sm_server_run(struct kbinder_sm_server *srv)
{
	struct kbinder_return ret;
	int err;

	do {
		err = kbinder_thread_next(srv->thread, &ret, -1);
		if (!err)
			err = kbinder_sm_server_event(srv->thread, &ret, srv);
	} while (!err);
	return err;
}
