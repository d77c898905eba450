// SPDX-License-Identifier: Apache-2.0
/*
 * kbinder's service manager, the AIDL dialect (Android 11 on): each method
 * of IServiceManager at the server's release, with the codes and the lookup
 * answers servicemanager.c's tables give, and Android's error answers.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "sm_server.h"

/* Room for a name one longer than Android allows, so that one is refused. */
#define KBINDER_SMS_ARG_LEN (KBINDER_SMS_NAME_MAX + 2)

static int ok(struct kbinder_call *c)
{
	return kbinder_parcel_write_status(c->reply, KBINDER_EX_NONE, NULL, 0);
}

static int fail(struct kbinder_call *c, int32_t ex, const char *msg)
{
	return kbinder_parcel_write_status(c->reply, ex, msg, 0);
}

/* A String16 argument; false (and a BAD_VALUE reply) if it does not parse. */
static bool arg_name(struct kbinder_call *c, char *name)
{
	return kbinder_view_read_string16(&c->in, name, KBINDER_SMS_ARG_LEN) == 0;
}

/*
 * The (name, binder) arguments most methods start with: the binder is a
 * handle of the manager's or the manager's own node (kbinder_sms_read_binder());
 * @null_binder when it is null, or nothing the registry can hold.
 */
struct aidl_args {
	char name[KBINDER_SMS_ARG_LEN];
	struct kbinder_sms_binder binder;
	bool null_binder;
};

/* Read them. Return: 0, or BAD_VALUE when they do not parse. */
static int arg_name_binder(struct kbinder_sm_server *s, struct kbinder_call *c,
			   struct aidl_args *a)
{
	int err;

	if (!arg_name(c, a->name))
		return KBINDER_STATUS_BAD_VALUE;
	err = kbinder_sms_read_binder(s, c, &a->binder);
	if (err < 0)
		return KBINDER_STATUS_BAD_VALUE;
	a->null_binder = err == KBINDER_NULL;
	return 0;
}

/* After the arguments are read: 1 for a name Android takes, else the answer. */
static int check_name(struct kbinder_call *c, const char *name)
{
	if (kbinder_sms_valid_name(name))
		return 1;
	return fail(c, KBINDER_EX_ILLEGAL_ARGUMENT, "Invalid service name");
}

/* (name, binder) as the method's only arguments: 1, or the answer to send. */
static int args_name_binder(struct kbinder_sm_server *s, struct kbinder_call *c,
			    struct aidl_args *a)
{
	int err = arg_name_binder(s, c, a);

	return err ? err : check_name(c, a->name);
}

/*
 * getService, checkService and, where the release has them, getService2
 * and checkService2: the binder, or the Service union the release answers
 * these with (kbinder_sm_answer_layout()). Never an accessor: nothing
 * here is an RPC binder service. The manager's own node goes back as
 * that node, which the driver makes the caller's handle 0.
 */
static int aidl_lookup(struct kbinder_sm_server *s, struct kbinder_call *c, int method)
{
	char name[KBINDER_SMS_ARG_LEN];
	struct kbinder_sms_service *svc;
	struct flat_binder_object obj;

	if (!arg_name(c, name))
		return KBINDER_STATUS_BAD_VALUE;
	svc = kbinder_sms_find(s, name);
	ok(c);
	if (!svc)
		return kbinder_sm_write_service(c->reply, &s->wire,
						kbinder_sm_answer_layout(&s->wire, method),
						KBINDER_SM_SERVICE_TAG_SERVICE, NULL, 0, false);
	kbinder_sms_object(&svc->binder, &obj);
	return kbinder_sm_write_service(c->reply, &s->wire,
					kbinder_sm_answer_layout(&s->wire, method),
					KBINDER_SM_SERVICE_TAG_SERVICE, &obj, svc->binder.stability,
					svc->dump_priority & KBINDER_SM_FLAG_IS_LAZY_SERVICE);
}

static int aidl_add(struct kbinder_sm_server *s, struct kbinder_call *c)
{
	struct aidl_args a;
	uint32_t isolated, prio;
	int err;

	err = arg_name_binder(s, c, &a);
	if (err)
		return err;
	if (kbinder_view_read_u32(&c->in, &isolated) || kbinder_view_read_u32(&c->in, &prio))
		return KBINDER_STATUS_BAD_VALUE;
	err = check_name(c, a.name);
	if (err != 1)
		return err;
	if (a.null_binder)
		return fail(c, KBINDER_EX_ILLEGAL_ARGUMENT, "Null binder");
	err = kbinder_sms_add(s, a.name, &a.binder, c->txn->sender_pid,
			      isolated != 0, (int32_t)prio);
	if (err)
		return fail(c, KBINDER_EX_ILLEGAL_STATE, "Registry full");
	return ok(c);
}

/* Fill in the count word at @count_at once the entries are written. */
static int aidl_end_list(struct kbinder_call *c, size_t count_at, uint32_t n)
{
	if (!c->reply->err)
		memcpy(c->reply->data + count_at, &n, sizeof(n));
	return c->reply->err;
}

static int aidl_list(struct kbinder_sm_server *s, struct kbinder_call *c)
{
	uint32_t prio, n = 0;
	size_t count_at;

	if (kbinder_view_read_u32(&c->in, &prio))
		return KBINDER_STATUS_BAD_VALUE;
	ok(c);
	count_at = c->reply->size;
	kbinder_parcel_write_u32(c->reply, 0);
	for (int i = 0; i < KBINDER_SMS_SERVICES; i++) {
		struct kbinder_sms_service *svc = &s->services[i];

		if (!svc->used || !(svc->dump_priority & (int32_t)prio))
			continue;
		kbinder_parcel_write_string16(c->reply, svc->name);
		n++;
	}
	return aidl_end_list(c, count_at, n);
}

static int aidl_watch(struct kbinder_sm_server *s, struct kbinder_call *c, bool on)
{
	struct kbinder_sms_service *svc;
	struct kbinder_sms_watch *w;
	struct aidl_args a;
	int err = args_name_binder(s, c, &a);

	if (err != 1)
		return err;
	if (a.null_binder)
		return fail(c, KBINDER_EX_NULL_POINTER, "Null callback");
	/* The manager calls no callback of its own; Android's cannot link to its death. */
	if (a.binder.self)
		return fail(c, KBINDER_EX_ILLEGAL_STATE,
			    on ? "Couldn't linkToDeath (the manager itself)" : "Not registered");
	w = kbinder_sms_watch_slot(s, on ? 0 : a.binder.handle, a.name);
	if (!w)
		return fail(c, KBINDER_EX_ILLEGAL_STATE,
			    on ? "Too many callbacks" : "Not registered");
	if (!on) {
		kbinder_sms_unhold(s, w->handle, false);
		memset(w, 0, sizeof(*w));
		kbinder_sms_log(s, "stopped watching '%s' (%d)", a.name, (int)(w - s->watches));
		return ok(c);
	}
	if (kbinder_sms_hold(s, a.binder.handle))
		return fail(c, KBINDER_EX_ILLEGAL_STATE, "Too many callbacks");
	snprintf(w->name, sizeof(w->name), "%.*s", KBINDER_SMS_NAME_MAX, a.name);
	w->handle = a.binder.handle;
	kbinder_sms_log(s, "watching '%s' (%d)", a.name, (int)(w - s->watches));
	ok(c);
	/* Already there: tell it at once, as Android does. */
	svc = kbinder_sms_find(s, a.name);
	if (svc)
		kbinder_sms_notify(s, svc, (int)(w - s->watches));
	return c->reply->err;
}

/* registerClientCallback and tryUnregisterService: name + the service. */
static int aidl_own_service(struct kbinder_sm_server *s, struct kbinder_call *c,
			    struct kbinder_sms_service **out)
{
	struct aidl_args a;
	int err = args_name_binder(s, c, &a);

	if (err != 1)
		return err;
	*out = kbinder_sms_find(s, a.name);
	if (!*out)
		return fail(c, KBINDER_EX_ILLEGAL_STATE, "Requested service is not registered");
	if (a.null_binder || !kbinder_sms_same(&a.binder, &(*out)->binder))
		return fail(c, KBINDER_EX_ILLEGAL_ARGUMENT, "Service doesn't match");
	if (c->txn->sender_pid != (*out)->pid)
		return fail(c, KBINDER_EX_SECURITY, "Only the registering process may do this");
	return 1;
}

static int aidl_try_unregister(struct kbinder_sm_server *s, struct kbinder_call *c)
{
	struct binder_node_info_for_ref info;
	struct kbinder_sms_service *svc;
	int err = aidl_own_service(s, c, &svc);

	if (err != 1)
		return err;
	/* Every process holds the manager (its handle 0): it always has clients. */
	if (svc->binder.self)
		return fail(c, KBINDER_EX_ILLEGAL_STATE, "Can't unregister, known client");
	/* Clients other than us hold the node: refuse, as Android does. */
	memset(&info, 0, sizeof(info));
	info.handle = svc->binder.handle;
	if (!kbinder_ioctl_node_info_for_ref(s->thread->fd, &info) &&
	    info.strong_count > 1)
		return fail(c, KBINDER_EX_ILLEGAL_STATE, "Can't unregister, pending client");
	kbinder_sms_drop(s, svc, false);
	return ok(c);
}

static int aidl_client_callback(struct kbinder_sm_server *s, struct kbinder_call *c)
{
	struct kbinder_sms_service *svc;
	int err = aidl_own_service(s, c, &svc);

	if (err != 1)
		return err;
	return fail(c, KBINDER_EX_UNSUPPORTED_OPERATION,
		    "kbinder's servicemanager does not count clients");
}

static int aidl_debug_info(struct kbinder_sm_server *s, struct kbinder_call *c)
{
	uint32_t n = 0;
	size_t count_at, at;

	ok(c);
	count_at = c->reply->size;
	kbinder_parcel_write_u32(c->reply, 0);
	for (int i = 0; i < KBINDER_SMS_SERVICES; i++) {
		struct kbinder_sms_service *svc = &s->services[i];

		if (!svc->used)
			continue;
		/* parcelable ServiceDebugInfo { String name; int debugPid; } */
		at = kbinder_parcel_begin_parcelable(c->reply);
		kbinder_parcel_write_string16(c->reply, svc->name);
		kbinder_parcel_write_u32(c->reply, (uint32_t)svc->pid);
		kbinder_parcel_end_parcelable(c->reply, at);
		n++;
	}
	return aidl_end_list(c, count_at, n);
}

/*
 * checkServiceAccess(in CallerContext {String sidName; int debugPid; int
 * uid;}, String name, String permission) (16 QPR1): may the process the
 * caller acts for "find", "add" or "list" @name? kbinder's service manager
 * has no SELinux policy and lets every caller do each itself, so it
 * answers true; it keeps Android's answers for what no policy changes:
 * EX_SECURITY for an empty argument and for a permission other than
 * those three (Android's check of its own caller fails on it first).
 */
static int aidl_check_access(struct kbinder_call *c)
{
	char sid[256], name[KBINDER_SMS_ARG_LEN], perm[16];
	size_t end;
	int err;

	err = kbinder_view_begin_parcelable(&c->in, &end);
	if (err)
		return KBINDER_STATUS_BAD_VALUE;	/* null or malformed */
	sid[0] = '\0';
	if (kbinder_view_has_field(&c->in, end) &&
	    kbinder_view_read_string16(&c->in, sid, sizeof(sid)) < 0)
		return KBINDER_STATUS_BAD_VALUE;
	/* debugPid and uid: a policy would look at them; ours has none. */
	if (kbinder_view_end_parcelable(&c->in, end) || !arg_name(c, name))
		return KBINDER_STATUS_BAD_VALUE;
	err = kbinder_view_read_string16(&c->in, perm, sizeof(perm));
	if (err == -EBADMSG)
		return KBINDER_STATUS_BAD_VALUE;
	if (err == -ENOBUFS)
		snprintf(perm, sizeof(perm), "?");	/* longer than any we know */
	if (!sid[0] || !name[0] || !perm[0])
		return fail(c, KBINDER_EX_SECURITY,
			    "Call to checkServiceAccess has incomplete arguments.");
	if (strcmp(perm, "find") && strcmp(perm, "add") && strcmp(perm, "list"))
		return fail(c, KBINDER_EX_SECURITY,
			    "Caller is not allowed to delegate this check to servicemanager.");
	ok(c);
	return kbinder_parcel_write_u32(c->reply, 1);
}

/*
 * isDeclared, updatableViaApex, getConnectionInfo, getDeclaredInstances,
 * getUpdatableNames: no VINTF manifest, no APEX, no RPC, so what Android
 * answers for a name none of them mentions.
 */
static int aidl_undeclared(struct kbinder_call *c, int method)
{
	char name[KBINDER_SMS_ARG_LEN];

	if (!arg_name(c, name))
		return KBINDER_STATUS_BAD_VALUE;
	ok(c);
	if (method == KBINDER_SM_UPDATABLE_VIA_APEX)
		return kbinder_parcel_write_string16(c->reply, NULL);
	return kbinder_parcel_write_u32(c->reply, 0);	/* false, [], null */
}

int kbinder_sms_aidl(struct kbinder_sm_server *s, uint32_t code, struct kbinder_call *c)
{
	int method = kbinder_sm_method_of(&s->wire, code);

	switch (method) {
	case KBINDER_SM_GET_SERVICE:
	case KBINDER_SM_CHECK_SERVICE:
	case KBINDER_SM_GET_SERVICE2:
	case KBINDER_SM_CHECK_SERVICE2:
		return aidl_lookup(s, c, method);
	case KBINDER_SM_ADD_SERVICE:
		return aidl_add(s, c);
	case KBINDER_SM_LIST_SERVICES:
		return aidl_list(s, c);
	case KBINDER_SM_REGISTER_FOR_NOTIFICATIONS:
	case KBINDER_SM_UNREGISTER_FOR_NOTIFICATIONS:
		return aidl_watch(s, c, method == KBINDER_SM_REGISTER_FOR_NOTIFICATIONS);
	case KBINDER_SM_IS_DECLARED:
	case KBINDER_SM_UPDATABLE_VIA_APEX:
	case KBINDER_SM_GET_CONNECTION_INFO:
	case KBINDER_SM_GET_DECLARED_INSTANCES:
	case KBINDER_SM_GET_UPDATABLE_NAMES:
		return aidl_undeclared(c, method);
	case KBINDER_SM_REGISTER_CLIENT_CALLBACK:
		return aidl_client_callback(s, c);
	case KBINDER_SM_TRY_UNREGISTER_SERVICE:
		return aidl_try_unregister(s, c);
	case KBINDER_SM_GET_SERVICE_DEBUG_INFO:
		return aidl_debug_info(s, c);
	case KBINDER_SM_CHECK_SERVICE_ACCESS:
		return aidl_check_access(c);
	default:
		return KBINDER_STATUS_UNKNOWN_TRANSACTION;
	}
}
