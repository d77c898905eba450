// SPDX-License-Identifier: Apache-2.0
/*
 * kbinder's service manager, the dialect of Android 9 and 10's C
 * servicemanager: codes 1-4 (getService, checkService, addService,
 * listServices by index), a handle or nothing in answer, status codes for
 * errors, no Status header.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>

#include "sm_server.h"

enum { PRE11_GET = 1, PRE11_CHECK, PRE11_ADD, PRE11_LIST };

static int pre11_lookup(struct kbinder_sm_server *s, struct kbinder_call *c)
{
	char name[KBINDER_SMS_NAME_MAX + 2];
	struct kbinder_sms_service *svc;

	if (kbinder_view_read_string16(&c->in, name, sizeof(name)))
		return KBINDER_STATUS_BAD_VALUE;
	svc = kbinder_sms_find(s, name);
	if (svc)	/* pre11_add() registers handles only */
		return kbinder_parcel_write_handle(c->reply, svc->binder.handle,
						   FLAT_BINDER_FLAG_ACCEPTS_FDS, false);
	return kbinder_parcel_write_u32(c->reply, 0);
}

/*
 * addService(name, binder, allowIsolated[, dumpPriority]): a handle only,
 * as Android 9 and 10's C servicemanager took (it refuses its own node,
 * which AIDL's manager registers).
 */
static int pre11_add(struct kbinder_sm_server *s, struct kbinder_call *c)
{
	char name[KBINDER_SMS_NAME_MAX + 2];
	struct kbinder_sms_binder b;
	uint32_t isolated = 0, prio = KBINDER_DUMP_FLAG_PRIORITY_DEFAULT;
	int err;

	if (kbinder_view_read_string16(&c->in, name, sizeof(name)) ||
	    !kbinder_sms_valid_name(name))
		return KBINDER_STATUS_BAD_VALUE;
	err = kbinder_sms_read_binder(s, c, &b);
	if (err || b.self)
		return KBINDER_STATUS_BAD_VALUE;
	kbinder_view_read_u32(&c->in, &isolated);
	kbinder_view_read_u32(&c->in, &prio);
	err = kbinder_sms_add(s, name, &b, c->txn->sender_pid, isolated != 0, (int32_t)prio);
	if (err)
		return err;
	return kbinder_parcel_write_u32(c->reply, 0);
}

/* listServices(index[, dumpPriority]): one name, or an error past the end. */
static int pre11_list(struct kbinder_sm_server *s, struct kbinder_call *c)
{
	uint32_t index, prio = KBINDER_DUMP_FLAG_PRIORITY_DEFAULT;
	struct kbinder_sms_service *svc;

	if (kbinder_view_read_u32(&c->in, &index))
		return KBINDER_STATUS_BAD_VALUE;
	kbinder_view_read_u32(&c->in, &prio);
	for (svc = s->services; svc < s->services + KBINDER_SMS_SERVICES; svc++)
		if (svc->used && (svc->dump_priority & (int32_t)prio) && index-- == 0)
			return kbinder_parcel_write_string16(c->reply, svc->name);
	return -ENOENT;
}

int kbinder_sms_pre11(struct kbinder_sm_server *s, uint32_t code, struct kbinder_call *c)
{
	static int (*const methods[])(struct kbinder_sm_server *s, struct kbinder_call *c) = {
		[PRE11_GET] = pre11_lookup,
		[PRE11_CHECK] = pre11_lookup,
		[PRE11_ADD] = pre11_add,
		[PRE11_LIST] = pre11_list,
	};

	if (code >= sizeof(methods) / sizeof(methods[0]) || !methods[code])
		return KBINDER_STATUS_UNKNOWN_TRANSACTION;
	return methods[code](s, c);
}
