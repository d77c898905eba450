// SPDX-License-Identifier: Apache-2.0
/*
 * kbinder's service manager, its bottom: the registry both dialects
 * share, the references and death notifications that keep it true, the
 * callbacks of watched names. Above it: the dialects (sm_aidl.c, sm_pre11.c)
 * and the server they make up (sm_server.c).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sm_server.h"

#define KBINDER_SMS_TIMEOUT_MS 5000

void kbinder_sms_log(struct kbinder_sm_server *s, const char *fmt, ...)
{
	char line[256];
	va_list ap;

	if (!s->log)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	s->log(s->log_arg, line);
}

/* Android's rule: 1-127 characters of [a-zA-Z0-9_-./]. */
bool kbinder_sms_valid_name(const char *name)
{
	size_t n = strlen(name);

	if (n == 0 || n > KBINDER_SMS_NAME_MAX)
		return false;
	return strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789_-./") == n;
}

/*
 * A binder argument of @c's at the cursor into @b: a handle of ours, or
 * the manager's own node. A client's handle 0 reaches the manager in one
 * of two forms: as libbinder writes it, bytes with no offset that the
 * driver leaves alone (handle 0 names the context manager everywhere),
 * or as an object the driver translated into the manager's node, named as
 * the call's target is. Return: 0; KBINDER_NULL for the null binder, or
 * for any other node of the manager's process (the server answers every
 * call as the manager, so it can hold none); or -EBADMSG if malformed.
 */
int kbinder_sms_read_binder(struct kbinder_sm_server *s, struct kbinder_call *c,
			    struct kbinder_sms_binder *b)
{
	struct flat_binder_object obj;
	int err;

	memset(b, 0, sizeof(*b));
	err = kbinder_view_read_strong_binder(&c->in, &s->wire, &obj, &b->stability);
	if (err)
		return err;
	if (obj.hdr.type == BINDER_TYPE_HANDLE && obj.handle) {
		b->handle = obj.handle;
		return 0;
	}
	if (obj.hdr.type == BINDER_TYPE_BINDER &&
	    (obj.binder != c->txn->target.ptr || obj.cookie != c->txn->cookie))
		return KBINDER_NULL;
	b->self = true;
	b->ptr = c->txn->target.ptr;
	b->cookie = c->txn->cookie;
	b->stability = s->wire.stability;	/* a local binder's, as it is written back */
	return 0;
}

bool kbinder_sms_same(const struct kbinder_sms_binder *a, const struct kbinder_sms_binder *b)
{
	return a->self == b->self && (a->self || a->handle == b->handle);
}

/* The object that hands @b to a client: the driver makes it the client's handle. */
void kbinder_sms_object(const struct kbinder_sms_binder *b, struct flat_binder_object *obj)
{
	if (b->self)
		kbinder_android_object(obj, BINDER_TYPE_BINDER, b->ptr, b->cookie);
	else
		kbinder_android_object(obj, BINDER_TYPE_HANDLE, b->handle, 0);
}

/* Take a strong reference on @handle and watch its death. */
int kbinder_sms_hold(struct kbinder_sm_server *s, uint32_t handle)
{
	struct kbinder_sms_death *free_slot = NULL;
	int err;

	for (int i = 0; i < KBINDER_SMS_DEATHS; i++) {
		if (s->deaths[i].handle == handle) {
			s->deaths[i].users++;
			return kbinder_thread_ref(s->thread, BC_ACQUIRE, handle);
		}
		if (!s->deaths[i].handle && !free_slot)
			free_slot = &s->deaths[i];
	}
	if (!free_slot)
		return -ENOSPC;
	err = kbinder_thread_ref(s->thread, BC_ACQUIRE, handle);
	if (err)
		return err;
	free_slot->handle = handle;
	free_slot->users = 1;
	/* The cookie is the handle: one notification covers every use. */
	return kbinder_thread_request_death(s->thread, handle, handle);
}

/* Drop one use of @handle; @dead: the driver already reported its death. */
void kbinder_sms_unhold(struct kbinder_sm_server *s, uint32_t handle, bool dead)
{
	for (int i = 0; i < KBINDER_SMS_DEATHS; i++) {
		if (s->deaths[i].handle != handle)
			continue;
		if (--s->deaths[i].users == 0) {
			if (!dead)
				kbinder_thread_clear_death(s->thread, handle, handle);
			s->deaths[i].handle = 0;
		}
		break;
	}
	kbinder_thread_ref(s->thread, BC_RELEASE, handle);
}

struct kbinder_sms_service *kbinder_sms_find(struct kbinder_sm_server *s,
					     const char *name)
{
	for (int i = 0; i < KBINDER_SMS_SERVICES; i++)
		if (s->services[i].used && !strcmp(s->services[i].name, name))
			return &s->services[i];
	return NULL;
}

void kbinder_sms_drop(struct kbinder_sm_server *s, struct kbinder_sms_service *svc,
		      bool dead)
{
	kbinder_sms_log(s, dead ? "'%s' died (pid %d)" : "'%s' replaced or removed (pid %d)",
			svc->name, (int)svc->pid);
	if (!svc->binder.self)
		kbinder_sms_unhold(s, svc->binder.handle, dead);
	memset(svc, 0, sizeof(*svc));
}

/* IServiceCallback.onRegistration(name, binder) to the watcher @w. */
static void kbinder_sms_tell(struct kbinder_sm_server *s, uint32_t watcher,
			     const char *name, const struct kbinder_sms_binder *b)
{
	struct flat_binder_object obj;
	struct kbinder_parcel data;
	struct kbinder_reply reply;

	kbinder_sms_object(b, &obj);
	kbinder_parcel_init(&data);
	kbinder_parcel_write_token(&data, &s->wire, KBINDER_SM_CALLBACK_DESCRIPTOR);
	kbinder_parcel_write_string16(&data, name);
	kbinder_parcel_write_android_object(&data, &s->wire, &obj, b->stability);
	if (!data.err)
		kbinder_thread_transact(s->thread, watcher,
					KBINDER_SM_CALLBACK_ON_REGISTRATION, &data,
					TF_ONE_WAY, &reply, s->event, s,
					KBINDER_SMS_TIMEOUT_MS);
	kbinder_parcel_fini(&data);
}

/* Tell every watcher of @svc, or only watch slot @only (>= 0). */
void kbinder_sms_notify(struct kbinder_sm_server *s,
			const struct kbinder_sms_service *svc, int only)
{
	char name[KBINDER_SMS_NAME_MAX + 1];
	struct kbinder_sms_binder b = svc->binder;

	/* @svc may change under nested calls: work on copies. */
	snprintf(name, sizeof(name), "%s", svc->name);
	for (int i = 0; i < KBINDER_SMS_WATCHES; i++) {
		struct kbinder_sms_watch *w = &s->watches[i];

		if (!w->handle || strcmp(w->name, name) || (only >= 0 && i != only))
			continue;
		kbinder_sms_tell(s, w->handle, name, &b);
		kbinder_sms_log(s, "told a watcher of '%s' (%d)", name, i);
	}
}

int kbinder_sms_add(struct kbinder_sm_server *s, const char *name,
		    const struct kbinder_sms_binder *b, pid_t pid, bool allow_isolated,
		    int32_t dump_priority)
{
	struct kbinder_sms_service *svc = kbinder_sms_find(s, name);
	int err;

	/* Hold the new one before letting go of the old (it may be the same). */
	err = b->self ? 0 : kbinder_sms_hold(s, b->handle);
	if (err)
		return err;
	if (svc) {
		kbinder_sms_drop(s, svc, false);
	} else {
		for (svc = s->services; svc < s->services + KBINDER_SMS_SERVICES &&
		     svc->used; svc++)
			;
		if (svc == s->services + KBINDER_SMS_SERVICES) {
			if (!b->self)
				kbinder_sms_unhold(s, b->handle, false);
			return -ENOSPC;
		}
	}
	snprintf(svc->name, sizeof(svc->name), "%.*s", KBINDER_SMS_NAME_MAX, name);
	svc->used = true;
	svc->binder = *b;
	svc->pid = pid;
	svc->allow_isolated = allow_isolated;
	svc->dump_priority = dump_priority;
	kbinder_sms_log(s, "added '%s' (pid %d)", name, (int)pid);
	kbinder_sms_notify(s, svc, -1);
	return 0;
}

/* The watch slot of (@handle, @name), or a free one for handle 0. */
struct kbinder_sms_watch *kbinder_sms_watch_slot(struct kbinder_sm_server *s,
						 uint32_t handle, const char *name)
{
	for (int i = 0; i < KBINDER_SMS_WATCHES; i++) {
		struct kbinder_sms_watch *w = &s->watches[i];

		if (w->handle == handle && (!handle || !strcmp(w->name, name)))
			return w;
	}
	return NULL;
}

void kbinder_sms_forget(struct kbinder_sm_server *s, uint32_t handle)
{
	for (int i = 0; i < KBINDER_SMS_SERVICES; i++)
		if (s->services[i].used && !s->services[i].binder.self &&
		    s->services[i].binder.handle == handle)
			kbinder_sms_drop(s, &s->services[i], true);
	for (int i = 0; i < KBINDER_SMS_WATCHES; i++) {
		if (s->watches[i].handle == handle) {
			kbinder_sms_log(s, "a watcher of '%s' died (%d)", s->watches[i].name, i);
			kbinder_sms_unhold(s, handle, true);
			memset(&s->watches[i], 0, sizeof(s->watches[i]));
		}
	}
}

