// SPDX-License-Identifier: Apache-2.0
/*
 * The service manager client, per API level.
 *
 * Transaction codes: AIDL numbers methods from 1 in the order of
 * IServiceManager.aidl, which changed from release to release. The tables
 * below follow AOSP's IServiceManager.aidl (frameworks/native/libs/binder/
 * aidl/android/os) and libgbinder's aidl3/aidl5/aidl6 presets (which fix
 * getService2 at 2 from API 35 and checkService2 at 4 from API 36).
 * Before API 30 the C servicemanager's codes 1-4 apply.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <string.h>

#include <kbinder/servicemanager.h>
#include "internal.h"

#define M(x) KBINDER_SM_##x
#define KBINDER_SM_HANDLE 0
#define KBINDER_SM_NAME_MAX 256

/* Methods in code order (code = index + 1), per group of levels. */
static const signed char kbinder_sm_pre11[] = {
	M(GET_SERVICE), M(CHECK_SERVICE), M(ADD_SERVICE), M(LIST_SERVICES), -1,
};
static const signed char kbinder_sm_api30[] = {
	M(GET_SERVICE), M(CHECK_SERVICE), M(ADD_SERVICE), M(LIST_SERVICES),
	M(REGISTER_FOR_NOTIFICATIONS), M(UNREGISTER_FOR_NOTIFICATIONS),
	M(IS_DECLARED), M(REGISTER_CLIENT_CALLBACK), M(TRY_UNREGISTER_SERVICE), -1,
};
static const signed char kbinder_sm_api31[] = {
	M(GET_SERVICE), M(CHECK_SERVICE), M(ADD_SERVICE), M(LIST_SERVICES),
	M(REGISTER_FOR_NOTIFICATIONS), M(UNREGISTER_FOR_NOTIFICATIONS),
	M(IS_DECLARED), M(GET_DECLARED_INSTANCES), M(UPDATABLE_VIA_APEX),
	M(REGISTER_CLIENT_CALLBACK), M(TRY_UNREGISTER_SERVICE),
	M(GET_SERVICE_DEBUG_INFO), -1,
};
static const signed char kbinder_sm_api33[] = {
	M(GET_SERVICE), M(CHECK_SERVICE), M(ADD_SERVICE), M(LIST_SERVICES),
	M(REGISTER_FOR_NOTIFICATIONS), M(UNREGISTER_FOR_NOTIFICATIONS),
	M(IS_DECLARED), M(GET_DECLARED_INSTANCES), M(UPDATABLE_VIA_APEX),
	M(GET_UPDATABLE_NAMES), M(GET_CONNECTION_INFO),
	M(REGISTER_CLIENT_CALLBACK), M(TRY_UNREGISTER_SERVICE),
	M(GET_SERVICE_DEBUG_INFO), -1,
};
static const signed char kbinder_sm_api35[] = {
	M(GET_SERVICE), M(GET_SERVICE2), M(CHECK_SERVICE), M(ADD_SERVICE),
	M(LIST_SERVICES), M(REGISTER_FOR_NOTIFICATIONS),
	M(UNREGISTER_FOR_NOTIFICATIONS), M(IS_DECLARED),
	M(GET_DECLARED_INSTANCES), M(UPDATABLE_VIA_APEX),
	M(GET_UPDATABLE_NAMES), M(GET_CONNECTION_INFO),
	M(REGISTER_CLIENT_CALLBACK), M(TRY_UNREGISTER_SERVICE),
	M(GET_SERVICE_DEBUG_INFO), -1,
};
static const signed char kbinder_sm_api36[] = {
	M(GET_SERVICE), M(GET_SERVICE2), M(CHECK_SERVICE), M(CHECK_SERVICE2),
	M(ADD_SERVICE), M(LIST_SERVICES), M(REGISTER_FOR_NOTIFICATIONS),
	M(UNREGISTER_FOR_NOTIFICATIONS), M(IS_DECLARED),
	M(GET_DECLARED_INSTANCES), M(UPDATABLE_VIA_APEX),
	M(GET_UPDATABLE_NAMES), M(GET_CONNECTION_INFO),
	M(REGISTER_CLIENT_CALLBACK), M(TRY_UNREGISTER_SERVICE),
	M(GET_SERVICE_DEBUG_INFO), -1,
};

static const char *const kbinder_sm_names[KBINDER_SM_METHODS] = {
	[M(GET_SERVICE)] = "getService",
	[M(GET_SERVICE2)] = "getService2",
	[M(CHECK_SERVICE)] = "checkService",
	[M(CHECK_SERVICE2)] = "checkService2",
	[M(ADD_SERVICE)] = "addService",
	[M(LIST_SERVICES)] = "listServices",
	[M(REGISTER_FOR_NOTIFICATIONS)] = "registerForNotifications",
	[M(UNREGISTER_FOR_NOTIFICATIONS)] = "unregisterForNotifications",
	[M(IS_DECLARED)] = "isDeclared",
	[M(GET_DECLARED_INSTANCES)] = "getDeclaredInstances",
	[M(UPDATABLE_VIA_APEX)] = "updatableViaApex",
	[M(GET_UPDATABLE_NAMES)] = "getUpdatableNames",
	[M(GET_CONNECTION_INFO)] = "getConnectionInfo",
	[M(REGISTER_CLIENT_CALLBACK)] = "registerClientCallback",
	[M(TRY_UNREGISTER_SERVICE)] = "tryUnregisterService",
	[M(GET_SERVICE_DEBUG_INFO)] = "getServiceDebugInfo",
};

static const signed char *kbinder_sm_table(const struct kbinder_wire *w)
{
	if (w->api_level < 30)
		return kbinder_sm_pre11;
	if (w->api_level == 30)
		return kbinder_sm_api30;
	if (w->api_level <= 32)
		return kbinder_sm_api31;
	if (w->api_level <= 34)
		return kbinder_sm_api33;
	if (w->api_level == 35)
		return kbinder_sm_api35;
	return kbinder_sm_api36;
}

uint32_t kbinder_sm_code(const struct kbinder_wire *w, enum kbinder_sm_method m)
{
	const signed char *t = kbinder_sm_table(w);

	for (uint32_t i = 0; t[i] >= 0; i++)
		if (t[i] == (signed char)m)
			return i + 1;
	return 0;
}

int kbinder_sm_method_of(const struct kbinder_wire *w, uint32_t code)
{
	const signed char *t = kbinder_sm_table(w);

	for (uint32_t i = 0; t[i] >= 0; i++)
		if (i + 1 == code)
			return t[i];
	return -1;
}

const char *kbinder_sm_method_name(enum kbinder_sm_method m)
{
	return (unsigned int)m < KBINDER_SM_METHODS ? kbinder_sm_names[m] : "?";
}

bool kbinder_sm_is_aidl(const struct kbinder_wire *w)
{
	return w->api_level >= 30;
}

int kbinder_sm_init(struct kbinder_sm *sm, struct kbinder_thread *t,
		    int api_level)
{
	memset(sm, 0, sizeof(*sm));
	sm->thread = t;
	sm->timeout_ms = 5000;
	return kbinder_wire_init(&sm->wire, api_level);
}

int kbinder_exception_errno(int32_t exception)
{
	switch (exception) {
	case KBINDER_EX_NONE:
		return 0;
	case KBINDER_EX_SECURITY:
		return -EPERM;
	case KBINDER_EX_ILLEGAL_ARGUMENT:
		return -EINVAL;
	case KBINDER_EX_NULL_POINTER:
		return -EFAULT;
	case KBINDER_EX_ILLEGAL_STATE:
		return -EBUSY;
	case KBINDER_EX_UNSUPPORTED_OPERATION:
		return -EOPNOTSUPP;
	default:
		return -EREMOTEIO;
	}
}

int kbinder_sm_reply_error(struct kbinder_thread *t,
			   const struct kbinder_reply *reply)
{
	struct kbinder_parcel_view v;
	uint32_t status;
	int err;

	switch (reply->status) {
	case BR_REPLY:
		break;
	case BR_DEAD_REPLY:
		return -EPIPE;
	case BR_FROZEN_REPLY:
		return -EAGAIN;
	default:
		return -EIO;
	}
	if (!(reply->txn.flags & TF_STATUS_CODE))
		return 0;
	kbinder_view_init(&v, &reply->txn);
	err = kbinder_view_read_u32(&v, &status) ? -EBADMSG : (int32_t)status;
	kbinder_free_buffer(t, reply->txn.data.ptr.buffer);
	return err < 0 ? err : -EIO;
}

/*
 * Send @data (freed here) as method @m and wait; on success @v views the
 * reply after its Status header (AIDL) and the caller frees its buffer.
 */
static int kbinder_sm_call(struct kbinder_sm *sm, enum kbinder_sm_method m,
			   struct kbinder_parcel *data,
			   struct kbinder_reply *reply,
			   struct kbinder_parcel_view *v)
{
	uint32_t code = kbinder_sm_code(&sm->wire, m);
	int32_t ex, scode;
	int err;

	err = data->err;
	if (!code)
		err = -EOPNOTSUPP;
	if (!err)
		err = kbinder_transact(sm->thread, KBINDER_SM_HANDLE, code, data,
				       0, reply, sm->other, sm->arg,
				       sm->timeout_ms);
	kbinder_parcel_fini(data);
	if (!err)
		err = kbinder_sm_reply_error(sm->thread, reply);
	if (err)
		return err;
	kbinder_view_init(v, &reply->txn);
	if (!kbinder_sm_is_aidl(&sm->wire))
		return 0;
	if (kbinder_view_read_status(v, &ex, &scode, NULL, 0))
		err = -EBADMSG;
	else
		err = kbinder_exception_errno(ex);
	sm->exception = ex;
	if (err)
		kbinder_free_buffer(sm->thread, reply->txn.data.ptr.buffer);
	return err;
}

static void kbinder_sm_request(struct kbinder_sm *sm, struct kbinder_parcel *p)
{
	kbinder_parcel_init(p);
	kbinder_parcel_write_token(p, &sm->wire, KBINDER_SM_DESCRIPTOR);
}

static int kbinder_sm_lookup(struct kbinder_sm *sm, enum kbinder_sm_method m,
			     const char *name, uint32_t *handle)
{
	struct flat_binder_object obj;
	struct kbinder_parcel_view v;
	struct kbinder_parcel data;
	struct kbinder_reply reply;
	int err;

	kbinder_sm_request(sm, &data);
	kbinder_parcel_write_string16(&data, name);
	err = kbinder_sm_call(sm, m, &data, &reply, &v);
	if (err)
		return err;
	if (kbinder_sm_is_aidl(&sm->wire)) {
		err = kbinder_view_read_strong_binder(&v, &sm->wire, &obj, NULL);
		if (err == KBINDER_NULL)
			err = -ENOENT;
	} else {
		/* The pre-11 manager answers an unknown name without an object. */
		err = kbinder_view_object(&v, 0, &obj) ? -ENOENT : 0;
	}
	if (!err && obj.hdr.type != BINDER_TYPE_HANDLE)
		err = -EBADMSG;
	if (!err) {
		/* Our own reference: the buffer's goes away when it is freed. */
		err = kbinder_ref(sm->thread, BC_ACQUIRE, obj.handle);
		*handle = obj.handle;
	}
	kbinder_free_buffer(sm->thread, reply.txn.data.ptr.buffer);
	return err;
}

int kbinder_sm_check(struct kbinder_sm *sm, const char *name, uint32_t *handle)
{
	return kbinder_sm_lookup(sm, M(CHECK_SERVICE), name, handle);
}

int kbinder_sm_get(struct kbinder_sm *sm, const char *name, uint32_t *handle)
{
	return kbinder_sm_lookup(sm, M(GET_SERVICE), name, handle);
}

int kbinder_sm_add(struct kbinder_sm *sm, const char *name,
		   binder_uintptr_t ptr, binder_uintptr_t cookie,
		   bool allow_isolated, int32_t dump_priority)
{
	struct kbinder_parcel_view v;
	struct kbinder_parcel data;
	struct kbinder_reply reply;
	int err;

	kbinder_sm_request(sm, &data);
	kbinder_parcel_write_string16(&data, name);
	kbinder_parcel_write_strong_binder(&data, &sm->wire, ptr, cookie);
	kbinder_parcel_write_u32(&data, allow_isolated);
	kbinder_parcel_write_u32(&data, (uint32_t)dump_priority);
	err = kbinder_sm_call(sm, M(ADD_SERVICE), &data, &reply, &v);
	if (!err)
		kbinder_free_buffer(sm->thread, reply.txn.data.ptr.buffer);
	return err;
}

/* Before Android 11: one name per call, by index, until an error. */
static int kbinder_sm_list_pre11(struct kbinder_sm *sm, int32_t dump_priority,
				 int (*fn)(const char *name, void *arg),
				 void *arg)
{
	char name[KBINDER_SM_NAME_MAX];
	struct kbinder_parcel_view v;
	struct kbinder_parcel data;
	struct kbinder_reply reply;
	int err;

	for (uint32_t i = 0;; i++) {
		kbinder_sm_request(sm, &data);
		kbinder_parcel_write_u32(&data, i);
		kbinder_parcel_write_u32(&data, (uint32_t)dump_priority);
		err = kbinder_sm_call(sm, M(LIST_SERVICES), &data, &reply, &v);
		if (err)
			return err == -EPIPE || err == -EIO ? err : 0;
		err = kbinder_view_read_string16(&v, name, sizeof(name));
		kbinder_free_buffer(sm->thread, reply.txn.data.ptr.buffer);
		if (err)
			return err < 0 ? err : -EBADMSG;
		err = fn(name, arg);
		if (err)
			return err;
	}
}

int kbinder_sm_list(struct kbinder_sm *sm, int32_t dump_priority,
		    int (*fn)(const char *name, void *arg), void *arg)
{
	char name[KBINDER_SM_NAME_MAX];
	struct kbinder_parcel_view v;
	struct kbinder_parcel data;
	struct kbinder_reply reply;
	uint32_t n;
	int err;

	if (!kbinder_sm_is_aidl(&sm->wire))
		return kbinder_sm_list_pre11(sm, dump_priority, fn, arg);
	kbinder_sm_request(sm, &data);
	kbinder_parcel_write_u32(&data, (uint32_t)dump_priority);
	err = kbinder_sm_call(sm, M(LIST_SERVICES), &data, &reply, &v);
	if (err)
		return err;
	if (kbinder_view_read_u32(&v, &n) || n > INT32_MAX)
		err = -EBADMSG;
	for (uint32_t i = 0; !err && i < n; i++) {
		err = kbinder_view_read_string16(&v, name, sizeof(name));
		if (err)
			err = err < 0 ? err : -EBADMSG;
		else
			err = fn(name, arg);
	}
	kbinder_free_buffer(sm->thread, reply.txn.data.ptr.buffer);
	return err;
}

int kbinder_sm_notify(struct kbinder_sm *sm, const char *name, bool on,
		      binder_uintptr_t ptr, binder_uintptr_t cookie)
{
	struct kbinder_parcel_view v;
	struct kbinder_parcel data;
	struct kbinder_reply reply;
	int err;

	kbinder_sm_request(sm, &data);
	kbinder_parcel_write_string16(&data, name);
	kbinder_parcel_write_strong_binder(&data, &sm->wire, ptr, cookie);
	err = kbinder_sm_call(sm, on ? M(REGISTER_FOR_NOTIFICATIONS) :
			      M(UNREGISTER_FOR_NOTIFICATIONS), &data, &reply, &v);
	if (!err)
		kbinder_free_buffer(sm->thread, reply.txn.data.ptr.buffer);
	return err;
}

int kbinder_sm_is_declared(struct kbinder_sm *sm, const char *name)
{
	struct kbinder_parcel_view v;
	struct kbinder_parcel data;
	struct kbinder_reply reply;
	uint32_t b;
	int err;

	kbinder_sm_request(sm, &data);
	kbinder_parcel_write_string16(&data, name);
	err = kbinder_sm_call(sm, M(IS_DECLARED), &data, &reply, &v);
	if (err)
		return err;
	err = kbinder_view_read_u32(&v, &b) ? -EBADMSG : b != 0;
	kbinder_free_buffer(sm->thread, reply.txn.data.ptr.buffer);
	return err;
}

int kbinder_sm_ping(struct kbinder_sm *sm)
{
	struct kbinder_reply reply;
	int err;

	err = kbinder_transact(sm->thread, KBINDER_SM_HANDLE,
			       KBINDER_PING_TRANSACTION, NULL, 0, &reply,
			       sm->other, sm->arg, sm->timeout_ms);
	if (!err)
		err = kbinder_sm_reply_error(sm->thread, &reply);
	if (!err)
		kbinder_free_buffer(sm->thread, reply.txn.data.ptr.buffer);
	return err;
}
