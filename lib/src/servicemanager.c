// SPDX-License-Identifier: Apache-2.0
/*
 * The service manager client, per API level.
 *
 * Transaction codes: AIDL numbers methods from 1 in the order of
 * IServiceManager.aidl, which changed from release to release. The tables
 * below follow AOSP's IServiceManager.aidl (frameworks/native/libs/binder/
 * aidl/android/os) at each release's tag; tests/host/sm_tables.c checks
 * them against the facts in tests/host/data/aosp/servicemanager.tab, which
 * name the tag and blob of each. Before API 30 the C servicemanager's
 * codes 1-4 apply.
 *
 * Two levels are more than one interface (struct kbinder_wire's qpr):
 * 35's first release (android-15.0.0_r1..r5) has Android 14's, its QPR1
 * and QPR2 add getService2 at 2; 36's QPR1 and QPR2 add
 * checkServiceAccess at 17.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <string.h>

#include "internal.h"

#define M(x) KBINDER_SM_##x
#define KBINDER_SM_HANDLE 0
#define KBINDER_SM_NAME_MAX 256

/* Methods in code order (code = index + 1), per interface. */
static const signed char kbinder_sm_pre11[] = {		/* 9, 10 */
	M(GET_SERVICE), M(CHECK_SERVICE), M(ADD_SERVICE), M(LIST_SERVICES), -1,
};
static const signed char kbinder_sm_api30[] = {		/* 11 */
	M(GET_SERVICE), M(CHECK_SERVICE), M(ADD_SERVICE), M(LIST_SERVICES),
	M(REGISTER_FOR_NOTIFICATIONS), M(UNREGISTER_FOR_NOTIFICATIONS),
	M(IS_DECLARED), M(REGISTER_CLIENT_CALLBACK), M(TRY_UNREGISTER_SERVICE), -1,
};
static const signed char kbinder_sm_api31[] = {		/* 12, 12L */
	M(GET_SERVICE), M(CHECK_SERVICE), M(ADD_SERVICE), M(LIST_SERVICES),
	M(REGISTER_FOR_NOTIFICATIONS), M(UNREGISTER_FOR_NOTIFICATIONS),
	M(IS_DECLARED), M(GET_DECLARED_INSTANCES), M(UPDATABLE_VIA_APEX),
	M(REGISTER_CLIENT_CALLBACK), M(TRY_UNREGISTER_SERVICE),
	M(GET_SERVICE_DEBUG_INFO), -1,
};
static const signed char kbinder_sm_api33[] = {		/* 13 */
	M(GET_SERVICE), M(CHECK_SERVICE), M(ADD_SERVICE), M(LIST_SERVICES),
	M(REGISTER_FOR_NOTIFICATIONS), M(UNREGISTER_FOR_NOTIFICATIONS),
	M(IS_DECLARED), M(GET_DECLARED_INSTANCES), M(UPDATABLE_VIA_APEX),
	M(GET_CONNECTION_INFO), M(REGISTER_CLIENT_CALLBACK),
	M(TRY_UNREGISTER_SERVICE), M(GET_SERVICE_DEBUG_INFO), -1,
};
static const signed char kbinder_sm_api34[] = {		/* 14, 15 */
	M(GET_SERVICE), M(CHECK_SERVICE), M(ADD_SERVICE), M(LIST_SERVICES),
	M(REGISTER_FOR_NOTIFICATIONS), M(UNREGISTER_FOR_NOTIFICATIONS),
	M(IS_DECLARED), M(GET_DECLARED_INSTANCES), M(UPDATABLE_VIA_APEX),
	M(GET_UPDATABLE_NAMES), M(GET_CONNECTION_INFO),
	M(REGISTER_CLIENT_CALLBACK), M(TRY_UNREGISTER_SERVICE),
	M(GET_SERVICE_DEBUG_INFO), -1,
};
static const signed char kbinder_sm_api35_qpr[] = {	/* 15 QPR1, QPR2 */
	M(GET_SERVICE), M(GET_SERVICE2), M(CHECK_SERVICE), M(ADD_SERVICE),
	M(LIST_SERVICES), M(REGISTER_FOR_NOTIFICATIONS),
	M(UNREGISTER_FOR_NOTIFICATIONS), M(IS_DECLARED),
	M(GET_DECLARED_INSTANCES), M(UPDATABLE_VIA_APEX),
	M(GET_UPDATABLE_NAMES), M(GET_CONNECTION_INFO),
	M(REGISTER_CLIENT_CALLBACK), M(TRY_UNREGISTER_SERVICE),
	M(GET_SERVICE_DEBUG_INFO), -1,
};
static const signed char kbinder_sm_api36[] = {		/* 16 */
	M(GET_SERVICE), M(GET_SERVICE2), M(CHECK_SERVICE), M(CHECK_SERVICE2),
	M(ADD_SERVICE), M(LIST_SERVICES), M(REGISTER_FOR_NOTIFICATIONS),
	M(UNREGISTER_FOR_NOTIFICATIONS), M(IS_DECLARED),
	M(GET_DECLARED_INSTANCES), M(UPDATABLE_VIA_APEX),
	M(GET_UPDATABLE_NAMES), M(GET_CONNECTION_INFO),
	M(REGISTER_CLIENT_CALLBACK), M(TRY_UNREGISTER_SERVICE),
	M(GET_SERVICE_DEBUG_INFO), -1,
};
static const signed char kbinder_sm_api36_qpr[] = {	/* 16 QPR1, QPR2 */
	M(GET_SERVICE), M(GET_SERVICE2), M(CHECK_SERVICE), M(CHECK_SERVICE2),
	M(ADD_SERVICE), M(LIST_SERVICES), M(REGISTER_FOR_NOTIFICATIONS),
	M(UNREGISTER_FOR_NOTIFICATIONS), M(IS_DECLARED),
	M(GET_DECLARED_INSTANCES), M(UPDATABLE_VIA_APEX),
	M(GET_UPDATABLE_NAMES), M(GET_CONNECTION_INFO),
	M(REGISTER_CLIENT_CALLBACK), M(TRY_UNREGISTER_SERVICE),
	M(GET_SERVICE_DEBUG_INFO), M(CHECK_SERVICE_ACCESS), -1,
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
	[M(CHECK_SERVICE_ACCESS)] = "checkServiceAccess",
};

/*
 * One release's IServiceManager: its methods, and how its lookups answer.
 * getService2 and checkService2 answer the union Service wherever they
 * exist; checkService did too in 15 QPR1 and QPR2 only (16 restored its
 * plain binder and added checkService2). The union's member 0 was a
 * binder in 15 QPR1 and is ServiceWithMetadata from 15 QPR2 on.
 */
struct kbinder_sm_iface {
	const signed char *methods;
	enum kbinder_sm_service_layout service;
	bool check_answers_service;
};

static const struct kbinder_sm_iface kbinder_sm_if_pre11 = { kbinder_sm_pre11, KBINDER_SM_SERVICE_PLAIN, false };
static const struct kbinder_sm_iface kbinder_sm_if_api30 = { kbinder_sm_api30, KBINDER_SM_SERVICE_PLAIN, false };
static const struct kbinder_sm_iface kbinder_sm_if_api31 = { kbinder_sm_api31, KBINDER_SM_SERVICE_PLAIN, false };
static const struct kbinder_sm_iface kbinder_sm_if_api33 = { kbinder_sm_api33, KBINDER_SM_SERVICE_PLAIN, false };
static const struct kbinder_sm_iface kbinder_sm_if_api34 = { kbinder_sm_api34, KBINDER_SM_SERVICE_PLAIN, false };
static const struct kbinder_sm_iface kbinder_sm_if_api35_qpr1 = {
	kbinder_sm_api35_qpr, KBINDER_SM_SERVICE_BINDER, true };
static const struct kbinder_sm_iface kbinder_sm_if_api35_qpr2 = {
	kbinder_sm_api35_qpr, KBINDER_SM_SERVICE_METADATA, true };
static const struct kbinder_sm_iface kbinder_sm_if_api36 = {
	kbinder_sm_api36, KBINDER_SM_SERVICE_METADATA, false };
static const struct kbinder_sm_iface kbinder_sm_if_api36_qpr = {
	kbinder_sm_api36_qpr, KBINDER_SM_SERVICE_METADATA, false };

static const struct kbinder_sm_iface *kbinder_sm_iface(const struct kbinder_wire *w)
{
	if (w->api_level < 30)
		return &kbinder_sm_if_pre11;
	if (w->api_level == 30)
		return &kbinder_sm_if_api30;
	if (w->api_level <= 32)
		return &kbinder_sm_if_api31;
	if (w->api_level == 33)
		return &kbinder_sm_if_api33;
	if (w->api_level == 34 || (w->api_level == 35 && !w->qpr))
		return &kbinder_sm_if_api34;
	if (w->api_level == 35)
		return w->qpr == 1 ? &kbinder_sm_if_api35_qpr1 : &kbinder_sm_if_api35_qpr2;
	if (!w->qpr)
		return &kbinder_sm_if_api36;
	return &kbinder_sm_if_api36_qpr;
}

static const signed char *kbinder_sm_table(const struct kbinder_wire *w)
{
	return kbinder_sm_iface(w)->methods;
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

enum kbinder_sm_service_layout
kbinder_sm_answer_layout(const struct kbinder_wire *w, enum kbinder_sm_method m)
{
	const struct kbinder_sm_iface *iface = kbinder_sm_iface(w);

	if (!kbinder_sm_code(w, m))
		return KBINDER_SM_SERVICE_PLAIN;
	if (m == M(GET_SERVICE2) || m == M(CHECK_SERVICE2) ||
	    (m == M(CHECK_SERVICE) && iface->check_answers_service))
		return iface->service;
	return KBINDER_SM_SERVICE_PLAIN;
}

int kbinder_sm_write_service(struct kbinder_parcel *p, const struct kbinder_wire *w,
			     enum kbinder_sm_service_layout layout, uint32_t tag,
			     const struct flat_binder_object *obj, uint32_t stability,
			     bool is_lazy)
{
	size_t at = 0;

	if (layout == KBINDER_SM_SERVICE_PLAIN || tag == KBINDER_SM_SERVICE_TAG_ACCESSOR) {
		if (layout != KBINDER_SM_SERVICE_PLAIN) {
			kbinder_parcel_write_u32(p, 1);		/* a non-null Service */
			kbinder_parcel_write_u32(p, tag);
		}
		return kbinder_parcel_write_android_object(p, w, obj, stability);
	}
	if (tag != KBINDER_SM_SERVICE_TAG_SERVICE)
		return p->err = -EINVAL;
	kbinder_parcel_write_u32(p, 1);
	kbinder_parcel_write_u32(p, tag);
	if (layout == KBINDER_SM_SERVICE_METADATA)
		at = kbinder_parcel_begin_parcelable(p);
	kbinder_parcel_write_android_object(p, w, obj, stability);
	if (layout != KBINDER_SM_SERVICE_METADATA)
		return p->err;
	kbinder_parcel_write_u32(p, is_lazy);
	return kbinder_parcel_end_parcelable(p, at);
}

int kbinder_parcel_write_sm_service(struct kbinder_parcel *p,
				    const struct kbinder_wire *w,
				    enum kbinder_sm_service_layout layout,
				    uint32_t tag, uint32_t handle,
				    uint32_t stability, bool is_lazy)
{
	struct flat_binder_object obj;

	kbinder_android_object(&obj, BINDER_TYPE_HANDLE, handle, 0);
	return kbinder_sm_write_service(p, w, layout, tag, handle ? &obj : NULL,
					stability, is_lazy);
}

/* ServiceWithMetadata {@nullable IBinder service; boolean isLazyService;} */
static int kbinder_view_read_sm_metadata(struct kbinder_view *v,
					 const struct kbinder_wire *w,
					 struct kbinder_sm_service *out)
{
	int err, is_null = 1;
	uint32_t lazy = 0;
	size_t end;

	err = kbinder_view_begin_parcelable(v, &end);
	if (err)
		return -EBADMSG;	/* a null one, where the union holds one */
	if (kbinder_view_has_field(v, end)) {
		is_null = kbinder_view_read_strong_binder(v, w, &out->obj,
							  &out->stability);
		if (is_null < 0)
			return -EBADMSG;
	}
	if (kbinder_view_has_field(v, end) && kbinder_view_read_u32(v, &lazy))
		return -EBADMSG;
	out->is_lazy = lazy != 0;
	if (kbinder_view_end_parcelable(v, end))
		return -EBADMSG;
	return is_null;
}

int kbinder_view_read_sm_service(struct kbinder_view *v,
				 const struct kbinder_wire *w,
				 enum kbinder_sm_service_layout layout,
				 struct kbinder_sm_service *out)
{
	size_t save = v->pos;
	uint32_t present;
	int err;

	memset(out, 0, sizeof(*out));
	if (layout == KBINDER_SM_SERVICE_PLAIN)
		return kbinder_view_read_strong_binder(v, w, &out->obj, &out->stability);
	err = -EBADMSG;
	if (kbinder_view_read_u32(v, &present) || present != 1 ||
	    kbinder_view_read_u32(v, &out->tag))
		goto fail;
	if (out->tag == KBINDER_SM_SERVICE_TAG_ACCESSOR ||
	    layout == KBINDER_SM_SERVICE_BINDER)
		err = kbinder_view_read_strong_binder(v, w, &out->obj, &out->stability);
	else
		err = kbinder_view_read_sm_metadata(v, w, out);
	if (out->tag > KBINDER_SM_SERVICE_TAG_ACCESSOR)
		err = -EBADMSG;
	if (err >= 0)
		return err;
fail:
	v->pos = save;
	memset(out, 0, sizeof(*out));
	return -EBADMSG;
}

const char *kbinder_sm_method_name(enum kbinder_sm_method m)
{
	return (unsigned int)m < KBINDER_SM_METHODS ? kbinder_sm_names[m] : "?";
}

int kbinder_sm_init(struct kbinder_sm *sm, struct kbinder_thread *t,
		    int api_level)
{
	memset(sm, 0, sizeof(*sm));
	sm->thread = t;
	sm->timeout_ms = 5000;
	return kbinder_wire_init(&sm->wire, api_level);
}

/*
 * Send @data (freed here) as method @m and wait; on success @v views the
 * reply after its Status header (AIDL) and the caller frees its buffer.
 */
static int kbinder_sm_call(struct kbinder_sm *sm, enum kbinder_sm_method m,
			   struct kbinder_parcel *data,
			   struct kbinder_reply *reply,
			   struct kbinder_view *v)
{
	uint32_t code = kbinder_sm_code(&sm->wire, m);
	int32_t ex, scode;
	int err;

	err = data->err;
	if (!code)
		err = -EOPNOTSUPP;
	if (!err)
		err = kbinder_thread_transact(sm->thread, KBINDER_SM_HANDLE, code, data,
				       0, reply, sm->other, sm->arg,
				       sm->timeout_ms);
	kbinder_parcel_fini(data);
	if (!err)
		err = kbinder_thread_check_reply(sm->thread, reply);
	if (err)
		return err;
	kbinder_view_init(v, &reply->txn);
	if (!kbinder_sm_is_aidl(&sm->wire))
		return 0;
	if (kbinder_view_read_status(v, &ex, &scode, NULL, 0))
		err = -EBADMSG;
	else
		err = kbinder_status_errno(ex);
	sm->exception = ex;
	if (err)
		kbinder_thread_free_buffer(sm->thread, reply->txn.data.ptr.buffer);
	return err;
}

static void kbinder_sm_request(struct kbinder_sm *sm, struct kbinder_parcel *p)
{
	kbinder_parcel_init(p);
	kbinder_parcel_write_token(p, &sm->wire, KBINDER_SM_DESCRIPTOR);
}

/* A request whose first argument is a service name. */
static void kbinder_sm_request_name(struct kbinder_sm *sm, struct kbinder_parcel *p,
				    const char *name)
{
	kbinder_sm_request(sm, p);
	kbinder_parcel_write_string16(p, name);
}

/* A call whose answer is its Status alone. */
static int kbinder_sm_call_void(struct kbinder_sm *sm, enum kbinder_sm_method m,
				struct kbinder_parcel *data)
{
	struct kbinder_view v;
	struct kbinder_reply reply;
	int err = kbinder_sm_call(sm, m, data, &reply, &v);

	if (!err)
		kbinder_thread_free_buffer(sm->thread, reply.txn.data.ptr.buffer);
	return err;
}

static int kbinder_sm_lookup(struct kbinder_sm *sm, enum kbinder_sm_method m,
			     const char *name, uint32_t *handle)
{
	struct kbinder_sm_service svc;
	struct kbinder_view v;
	struct kbinder_parcel data;
	struct kbinder_reply reply;
	int err;

	kbinder_sm_request_name(sm, &data, name);
	err = kbinder_sm_call(sm, m, &data, &reply, &v);
	if (err)
		return err;
	if (kbinder_sm_is_aidl(&sm->wire)) {
		err = kbinder_view_read_sm_service(&v, &sm->wire,
						   kbinder_sm_answer_layout(&sm->wire, m),
						   &svc);
		if (err == KBINDER_NULL)
			err = -ENOENT;
		/* An IAccessor hands out RPC binder connections: not ours to use. */
		if (!err && svc.tag == KBINDER_SM_SERVICE_TAG_ACCESSOR)
			err = -EOPNOTSUPP;
	} else {
		/* The pre-11 manager answers an unknown name without an object. */
		err = kbinder_view_get_object(&v, 0, &svc.obj) ? -ENOENT : 0;
	}
	if (!err && svc.obj.hdr.type != BINDER_TYPE_HANDLE)
		err = -EBADMSG;
	if (!err) {
		/* Our own reference: the buffer's goes away when it is freed. */
		err = kbinder_thread_ref(sm->thread, BC_ACQUIRE, svc.obj.handle);
		*handle = svc.obj.handle;
	}
	kbinder_thread_free_buffer(sm->thread, reply.txn.data.ptr.buffer);
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
	struct kbinder_parcel data;

	kbinder_sm_request_name(sm, &data, name);
	kbinder_parcel_write_strong_binder(&data, &sm->wire, ptr, cookie);
	kbinder_parcel_write_u32(&data, allow_isolated);
	kbinder_parcel_write_u32(&data, (uint32_t)dump_priority);
	return kbinder_sm_call_void(sm, M(ADD_SERVICE), &data);
}

/* Before Android 11: one name per call, by index, until an error. */
static int kbinder_sm_list_pre11(struct kbinder_sm *sm, int32_t dump_priority,
				 int (*fn)(const char *name, void *arg),
				 void *arg)
{
	char name[KBINDER_SM_NAME_MAX];
	struct kbinder_view v;
	struct kbinder_parcel data;
	struct kbinder_reply reply;
	int err;

	for (uint32_t i = 0;; i++) {
		kbinder_sm_request(sm, &data);
		kbinder_parcel_write_u32(&data, i);
		kbinder_parcel_write_u32(&data, (uint32_t)dump_priority);
		err = kbinder_sm_call(sm, M(LIST_SERVICES), &data, &reply, &v);
		if (err)
			return err > 0 ? err : 0;	/* an error answer ends the list */
		err = kbinder_view_read_string16(&v, name, sizeof(name));
		kbinder_thread_free_buffer(sm->thread, reply.txn.data.ptr.buffer);
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
	struct kbinder_view v;
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
	kbinder_thread_free_buffer(sm->thread, reply.txn.data.ptr.buffer);
	return err;
}

int kbinder_sm_notify(struct kbinder_sm *sm, const char *name, bool on,
		      binder_uintptr_t ptr, binder_uintptr_t cookie)
{
	struct kbinder_parcel data;

	kbinder_sm_request_name(sm, &data, name);
	kbinder_parcel_write_strong_binder(&data, &sm->wire, ptr, cookie);
	return kbinder_sm_call_void(sm, on ? M(REGISTER_FOR_NOTIFICATIONS) :
				    M(UNREGISTER_FOR_NOTIFICATIONS), &data);
}

int kbinder_sm_is_declared(struct kbinder_sm *sm, const char *name)
{
	struct kbinder_view v;
	struct kbinder_parcel data;
	struct kbinder_reply reply;
	uint32_t b;
	int err;

	kbinder_sm_request_name(sm, &data, name);
	err = kbinder_sm_call(sm, M(IS_DECLARED), &data, &reply, &v);
	if (err)
		return err;
	err = kbinder_view_read_u32(&v, &b) ? -EBADMSG : b != 0;
	kbinder_thread_free_buffer(sm->thread, reply.txn.data.ptr.buffer);
	return err;
}

int kbinder_sm_ping(struct kbinder_sm *sm)
{
	struct kbinder_reply reply;
	int err;

	err = kbinder_thread_transact(sm->thread, KBINDER_SM_HANDLE,
			       KBINDER_PING_TRANSACTION, NULL, 0, &reply,
			       sm->other, sm->arg, sm->timeout_ms);
	if (!err)
		err = kbinder_thread_check_reply(sm->thread, &reply);
	if (!err)
		kbinder_thread_free_buffer(sm->thread, reply.txn.data.ptr.buffer);
	return err;
}

/* ------------------------------------------------------------ detection */

#define KBINDER_SM_PROBE_NAME	"kbinder.detect.nobody"
#define KBINDER_SM_PROBE_MAX	32

/*
 * A call at @code to handle 0 with @w's token and @name (NULL: nothing
 * after the token, so no method gets its arguments and none runs).
 * *@status is the status of a status-code reply, else 0, and then the
 * reply's buffer is the caller's in @reply (freed here if @reply is NULL).
 * Return: 0, the driver's outcome (BR_DEAD_REPLY ..., positive), or -errno.
 */
static int kbinder_sm_probe(struct kbinder_sm *sm, const struct kbinder_wire *w,
			    uint32_t code, const char *name, int32_t *status,
			    struct kbinder_reply *reply)
{
	struct kbinder_view v;
	struct kbinder_parcel data;
	struct kbinder_reply r;
	uint32_t st = (uint32_t)KBINDER_STATUS_BAD_VALUE;
	int err;

	kbinder_parcel_init(&data);
	kbinder_parcel_write_token(&data, w, KBINDER_SM_DESCRIPTOR);
	if (name)
		kbinder_parcel_write_string16(&data, name);
	err = data.err;
	if (!err)
		err = kbinder_thread_transact(sm->thread, KBINDER_SM_HANDLE, code, &data, 0,
				       &r, sm->other, sm->arg, sm->timeout_ms);
	kbinder_parcel_fini(&data);
	if (err)
		return err;
	if (r.status != BR_REPLY)
		return kbinder_thread_check_reply(sm->thread, &r);
	*status = 0;
	if (r.txn.flags & TF_STATUS_CODE) {
		kbinder_view_init(&v, &r.txn);
		kbinder_view_read_u32(&v, &st);
		*status = (int32_t)st;
	}
	if (reply && !*status)
		*reply = r;
	else
		kbinder_thread_free_buffer(sm->thread, r.txn.data.ptr.buffer);
	return 0;
}

/*
 * Is there a method at @code (*@has)? An AIDL stub answers
 * UNKNOWN_TRANSACTION past its last one, whatever the token.
 * Return: as kbinder_sm_probe().
 */
static int kbinder_sm_has_code(struct kbinder_sm *sm, uint32_t code, bool *has)
{
	int32_t status;
	int err = kbinder_sm_probe(sm, &sm->wire, code, NULL, &status, NULL);

	*has = !err && status != KBINDER_STATUS_UNKNOWN_TRANSACTION;
	return err;
}

/*
 * Which token header the service manager takes, of the four libbinder
 * builds write (@w's first): the one for which checkService (at its code
 * in @w's release) of a name nobody has answers at all, where the others
 * get BAD_TYPE. Sets @w's marker.
 */
static int kbinder_sm_detect_header(struct kbinder_sm *sm, struct kbinder_wire *w)
{
	const uint32_t markers[] = {
		w->marker, KBINDER_MARKER_SYSTEM, KBINDER_MARKER_VENDOR,
		KBINDER_MARKER_RECOVERY, KBINDER_MARKER_HOST,
	};
	uint32_t code = kbinder_sm_code(w, M(CHECK_SERVICE));

	for (size_t i = 0; i < KBINDER_ARRAY_SIZE(markers); i++) {
		int32_t status;
		int err;

		w->marker = markers[i];
		err = kbinder_sm_probe(sm, w, code, KBINDER_SM_PROBE_NAME, &status, NULL);
		if (err)
			return err;
		if (!status)
			return 0;
	}
	w->marker = markers[0];
	return -EPROTONOSUPPORT;
}

/* 15 QPR1 or QPR2: how checkService (3) lays out its union, with @w's token. */
static int kbinder_sm_detect_union(struct kbinder_sm *sm, struct kbinder_wire *w)
{
	struct kbinder_view v;
	struct kbinder_reply r;
	uint32_t present, tag, next;
	int32_t ex, code;
	int err;

	err = kbinder_sm_probe(sm, w, 3, KBINDER_SM_PROBE_NAME, &code, &r);
	if (err)
		return err;
	if (code)
		return -EPROTONOSUPPORT;
	kbinder_view_init(&v, &r.txn);
	err = -EPROTONOSUPPORT;
	/* The union, then a binder (QPR1) or a non-null parcelable (QPR2). */
	if (!kbinder_view_read_status(&v, &ex, &code, NULL, 0) && !ex &&
	    !kbinder_view_read_u32(&v, &present) && present == 1 &&
	    !kbinder_view_read_u32(&v, &tag) && tag == KBINDER_SM_SERVICE_TAG_SERVICE &&
	    !kbinder_view_read_u32(&v, &next)) {
		if (next == 1) {
			w->qpr = 2;	/* a non-null ServiceWithMetadata */
			err = 0;
		} else if (next == BINDER_TYPE_BINDER || next == BINDER_TYPE_HANDLE) {
			w->qpr = 1;	/* the binder itself (a null one is TYPE_BINDER) */
			err = 0;
		}
	}
	kbinder_thread_free_buffer(sm->thread, r.txn.data.ptr.buffer);
	return err;
}

/* 9 or 10: which token the C servicemanager (or kbinder's at 28, 29) takes. */
static int kbinder_sm_detect_pre11(struct kbinder_sm *sm, struct kbinder_wire *w)
{
	for (int l = 29; l >= 28; l--) {
		int32_t status;
		int err;

		w->api_level = l;
		err = kbinder_sm_probe(sm, w, 2, KBINDER_SM_PROBE_NAME, &status, NULL);
		if (err)
			return err;
		if (!status)
			return 0;
	}
	return -EPROTONOSUPPORT;
}

/* The level among @first..@last, keeping @w's when it is one of them. */
static int kbinder_sm_keep(const struct kbinder_wire *w, int first, int last)
{
	return w->api_level >= first && w->api_level <= last ? w->api_level : first;
}

/*
 * How many methods (*@n): the first code an AIDL stub does not know, less
 * one. Return: as kbinder_sm_probe().
 */
static int kbinder_sm_count(struct kbinder_sm *sm, int *n)
{
	bool has;
	int err = kbinder_sm_has_code(sm, KBINDER_LAST_CALL_TRANSACTION, &has);

	*n = KBINDER_SM_PROBE_MAX + 1;			/* answers any code */
	if (err || has)
		return err;
	for (*n = 0; *n < KBINDER_SM_PROBE_MAX; ++*n) {
		err = kbinder_sm_has_code(sm, (uint32_t)*n + 1, &has);
		if (err || !has)
			return err;
	}
	return 0;
}

int kbinder_sm_detect(struct kbinder_sm *sm)
{
	struct kbinder_wire w = sm->wire;
	int n, err;

	err = kbinder_sm_count(sm, &n);
	if (err)
		return err;
	w.qpr = 0;
	switch (n) {
	case 4:				/* kbinder's at 28, 29 */
	case KBINDER_SM_PROBE_MAX + 1:	/* the C servicemanager: no AIDL stub */
		err = kbinder_sm_detect_pre11(sm, &w);
		if (!err)
			sm->wire = w;
		return err;
	case 9:
		w.api_level = 30;
		break;
	case 12:
		w.api_level = kbinder_sm_keep(&sm->wire, 31, 32);
		break;
	case 13:
		w.api_level = 33;
		break;
	case 14:
		w.api_level = kbinder_sm_keep(&sm->wire, 34, 35);
		break;
	case 15:
		w.api_level = 35;
		w.qpr = 2;		/* for now: the codes are QPR1's too */
		break;
	case 16:
		w.api_level = 36;
		break;
	case 17:
		w.api_level = 36;
		w.qpr = sm->wire.api_level == 36 && sm->wire.qpr ? sm->wire.qpr : 1;
		break;
	default:
		return -EPROTONOSUPPORT;
	}
	err = kbinder_sm_detect_header(sm, &w);
	if (!err && n == 15)
		err = kbinder_sm_detect_union(sm, &w);
	if (!err)
		sm->wire = w;
	return err;
}
