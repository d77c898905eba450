// SPDX-License-Identifier: Apache-2.0
/*
 * kbinder's service manager at the wire, release by release: each method
 * of AOSP's IServiceManager, called at its AOSP code with its arguments
 * laid out as that release's client lays them out (from the argument
 * types in tests/host/data/aosp/servicemanager.tab), is answered in the
 * shape AOSP's answer has there, with what the method means: the service
 * a lookup names, the list with it, an onRegistration call to the
 * callback at the callback's AOSP code. A code past the release's last
 * method is UNKNOWN_TRANSACTION. The manager's own node, registered as a
 * service (AOSP's binderLibTest AddManagerToManager), is handed back as
 * that node by every lookup and callback.
 *
 * The dispatcher is libkbinder's own service manager (lib/src/sm_*.c),
 * and the transaction goes through kbinder_object_dispatch() as the driver would
 * deliver it. The library's driver calls are fakes here that record what
 * the service manager sends; no device is opened. One line a method and
 * release: "PASS sm-dispatch/<release>/<code>.<method>".
 *
 *	build/host/sm_dispatch [DATA]
 */
#include <errno.h>
#include <stdlib.h>

#include "aosp_data.h"

#include <stdio.h>
#include <string.h>

#include "sm_server.h"

#define OWNER_PID	4242	/* the registered service's process */
#define SVC_HANDLE	7	/* its handle in the service manager */
#define CB_HANDLE	9	/* a callback object of the caller's */
#define MAX_ARGS	8

/* ------------------------------------------------- the fake driver calls */

/* What the service manager sent: its last reply, its last call out. */
static struct {
	struct kbinder_parcel reply;
	uint32_t reply_flags;
	int replies;
	struct kbinder_parcel call;
	uint32_t call_handle, call_code, call_flags;
	int calls;
} sent;

static void copy_parcel(struct kbinder_parcel *to, const struct kbinder_parcel *from)
{
	kbinder_parcel_reset(to);
	for (size_t i = 0, o = 0; i < from->size;) {
		binder_size_t off = o < from->n_offsets ? from->offsets[o] : from->size;

		if (i == off) {
			kbinder_parcel_write_object(to, from->data + i,
						    sizeof(struct flat_binder_object));
			i += sizeof(struct flat_binder_object);
			o++;
		} else {
			size_t n = (off < from->size ? off : from->size) - i;

			kbinder_parcel_write(to, from->data + i, n);
			i += n;
		}
	}
}

int kbinder_thread_reply(struct kbinder_thread *t, const struct kbinder_parcel *data,
			 uint32_t flags, int timeout_ms)
{
	(void)t;
	(void)timeout_ms;
	copy_parcel(&sent.reply, data);
	sent.reply_flags = flags;
	sent.replies++;
	return 0;
}

/*
 * The service manager a call to handle 0 reaches (NULL: none), so that
 * libkbinder's own client can talk to it in this process.
 */
static struct kbinder_sm_server *loop_sm;

/* A call to handle 0 answered by @loop_sm, as the driver would carry it. */
static int loop_transact(uint32_t code, const struct kbinder_parcel *data,
			 uint32_t flags, struct kbinder_reply *reply)
{
	struct binder_transaction_data tr;

	memset(&tr, 0, sizeof(tr));
	kbinder_parcel_to_txn(data, &tr);
	tr.code = code;
	tr.flags = flags;
	tr.sender_pid = OWNER_PID;
	tr.target.ptr = (binder_uintptr_t)(uintptr_t)&loop_sm->obj;
	sent.replies = 0;
	kbinder_object_dispatch(&loop_sm->obj, loop_sm->thread, &tr);
	memset(reply, 0, sizeof(*reply));
	if (sent.replies != 1) {
		reply->status = BR_FAILED_REPLY;
		return 0;
	}
	reply->status = BR_REPLY;
	kbinder_parcel_to_txn(&sent.reply, &reply->txn);
	reply->txn.flags = sent.reply_flags;
	return 0;
}

int kbinder_thread_transact(struct kbinder_thread *t, uint32_t handle, uint32_t code,
			    const struct kbinder_parcel *data, uint32_t flags,
			    struct kbinder_reply *reply, kbinder_event_fn other,
			    void *arg, int timeout_ms)
{
	(void)t;
	(void)other;
	(void)arg;
	(void)timeout_ms;
	if (handle == 0 && loop_sm) {
		struct kbinder_parcel empty;
		int err;

		kbinder_parcel_init(&empty);
		err = loop_transact(code, data ? data : &empty, flags, reply);
		kbinder_parcel_fini(&empty);
		return err;
	}
	copy_parcel(&sent.call, data);
	sent.call_handle = handle;
	sent.call_code = code;
	sent.call_flags = flags;
	sent.calls++;
	memset(reply, 0, sizeof(*reply));
	reply->status = flags & TF_ONE_WAY ? BR_TRANSACTION_COMPLETE : BR_DEAD_REPLY;
	return 0;
}

int kbinder_thread_ref(struct kbinder_thread *t, uint32_t cmd, uint32_t handle)
{
	(void)t;
	(void)cmd;
	(void)handle;
	return 0;
}

int kbinder_thread_request_death(struct kbinder_thread *t, uint32_t handle,
				 binder_uintptr_t cookie)
{
	(void)cookie;
	return kbinder_thread_ref(t, BC_REQUEST_DEATH_NOTIFICATION, handle);
}

int kbinder_thread_clear_death(struct kbinder_thread *t, uint32_t handle,
			       binder_uintptr_t cookie)
{
	return kbinder_thread_request_death(t, handle, cookie);
}

/* BC_FREE_BUFFER, BC_DEAD_BINDER_DONE, ...: nothing to do here. */
int kbinder_thread_command(struct kbinder_thread *t, uint32_t cmd, const void *arg,
			   size_t size)
{
	(void)t;
	(void)cmd;
	(void)arg;
	(void)size;
	return 0;
}

/* Only the service manager holds the service: it may go. */
int kbinder_ioctl_node_info_for_ref(int fd, struct binder_node_info_for_ref *info)
{
	(void)fd;
	info->strong_count = 1;
	return 0;
}

void kbinder_thread_init(struct kbinder_thread *t, int fd)
{
	memset(t, 0, sizeof(*t));
	t->fd = fd;
}

/* What the server's loop needs and this test never runs. */
static void never(const char *what)
{
	printf("FAIL sm-dispatch/(program): %s called\n", what);
	exit(1);
}

int kbinder_thread_next(struct kbinder_thread *t, struct kbinder_return *ret,
			int timeout_ms)
{
	(void)t;
	(void)ret;
	(void)timeout_ms;
	never("kbinder_thread_next");
	return -1;
}

int kbinder_thread_handle_default(struct kbinder_thread *t,
				  const struct kbinder_return *ret, void *arg)
{
	(void)t;
	(void)ret;
	(void)arg;
	never("kbinder_thread_handle_default");
	return -1;
}

/* ------------------------------------------------------------ a call */

/* The values an argument carries, where the sample's own would not do. */
struct arg_values {
	const char *method;
	int from_sdk, to_sdk;
	struct aosp_sample v[MAX_ARGS];
};

static const struct arg_values arg_values[] = {
	/* listServices(index, dumpPriority) before 11: the first name. */
	{ "listServices", 28, 29, { { .num = 0 }, { .num = 15 } } },
	{ "addService", 28, 36, { { .str = "kbinder.added" }, { .handle = 11 },
				  { .flag = false }, { .num = 8 } } },
	{ "checkServiceAccess", 36, 36,
	  { { .str = "u:r:virtualizationmanager:s0", .num = 1000 },
	    { .str = AOSP_SAMPLE_STRING }, { .str = "find" } } },
};

/* The sample for argument @i of @method at @r: a name, the service, the callback. */
static struct aosp_sample arg_sample(const struct aosp_release *r, const char *method,
				     const char *type, int i)
{
	struct aosp_sample v = { .handle = SVC_HANDLE, .num = 15 };

	if (strstr(type, "Callback"))
		v.handle = CB_HANDLE;
	for (size_t k = 0; k < sizeof(arg_values) / sizeof(arg_values[0]); k++)
		if (!strcmp(arg_values[k].method, method) &&
		    r->sdk >= arg_values[k].from_sdk && r->sdk <= arg_values[k].to_sdk)
			return arg_values[k].v[i];
	return v;
}

/* The service manager of @w's release with one service in it. */
static void fresh(struct kbinder_sm_server *sm, const struct kbinder_wire *w)
{
	static struct kbinder_thread thread;

	kbinder_thread_init(&thread, -1);
	kbinder_sms_init(sm, &thread, w);
	snprintf(sm->services[0].name, sizeof(sm->services[0].name), "%s",
		 AOSP_SAMPLE_STRING);
	sm->services[0].used = true;
	sm->services[0].binder.handle = SVC_HANDLE;
	sm->services[0].binder.stability = KBINDER_STABILITY_SYSTEM;
	sm->services[0].pid = OWNER_PID;
	sm->services[0].dump_priority = KBINDER_DUMP_FLAG_PRIORITY_DEFAULT;
	sm->deaths[0].handle = SVC_HANDLE;
	sm->deaths[0].users = 1;
	/* ... and a callback watching it, for unregisterForNotifications. */
	snprintf(sm->watches[0].name, sizeof(sm->watches[0].name), "%s",
		 AOSP_SAMPLE_STRING);
	sm->watches[0].handle = CB_HANDLE;
	sm->deaths[1].handle = CB_HANDLE;
	sm->deaths[1].users = 1;
	kbinder_parcel_reset(&sent.reply);
	kbinder_parcel_reset(&sent.call);
	sent.replies = sent.calls = 0;
}

/* Deliver @req as code @code from the service's own process; 0 or why not. */
static int deliver(struct kbinder_sm_server *sm, uint32_t code, struct kbinder_parcel *req)
{
	struct binder_transaction_data tr;

	memset(&tr, 0, sizeof(tr));
	kbinder_parcel_to_txn(req, &tr);
	tr.code = code;
	tr.sender_pid = OWNER_PID;
	tr.target.ptr = (binder_uintptr_t)(uintptr_t)&sm->obj;
	return kbinder_object_dispatch(&sm->obj, sm->thread, &tr);
}

/* The callback onRegistration went to, as AOSP numbers it at @r. */
static void check_notified(struct aosp_check *c, const struct aosp_release *r,
			   const struct kbinder_wire *w)
{
	const char *keys[] = { "IServiceCallback" };
	struct kbinder_view v;
	char name[64];
	int want = 0;

	for (int i = 0; i < aosp_n_lines; i++)
		if (!strcmp(aosp_lines[i].w[0], "code") &&
		    !strcmp(aosp_lines[i].w[1], keys[0]))
			want = aosp_code(&aosp_lines[i], r->col);
	if (sent.calls != 1 || sent.call_handle != CB_HANDLE ||
	    !(sent.call_flags & TF_ONE_WAY) || (int)sent.call_code != want) {
		aosp_fail(c, "%d calls out; onRegistration should be one one-way call of code %d to the callback (%s)",
			  sent.calls, want, aosp_where(r, "IServiceCallback.aidl"));
		return;
	}
	aosp_view_of(&sent.call, &v);
	if (kbinder_view_check_token(&v, w, KBINDER_SM_CALLBACK_DESCRIPTOR) ||
	    kbinder_view_read_string16(&v, name, sizeof(name)) ||
	    strcmp(name, AOSP_SAMPLE_STRING))
		aosp_fail(c, "onRegistration does not carry the token and the name");
}

/* What AOSP's answer at @r must say beyond its shape, for a few methods. */
static void check_meaning(struct aosp_check *c, const struct aosp_release *r,
			  const struct kbinder_wire *w, struct kbinder_sm_server *sm,
			  const char *method, uint32_t binder, const char *str)
{
	if (!strcmp(method, "getService") || !strcmp(method, "getService2") ||
	    !strcmp(method, "checkService") || !strcmp(method, "checkService2")) {
		if (binder != SVC_HANDLE)
			aosp_fail(c, "%s answers handle %u, not the service (%u)", method,
				  binder, SVC_HANDLE);
	} else if (!strcmp(method, "listServices") || !strcmp(method, "getServiceDebugInfo")) {
		if (strcmp(str, AOSP_SAMPLE_STRING))
			aosp_fail(c, "%s answers '%s', not the service's name", method, str);
	} else if (!strcmp(method, "addService")) {
		if (!kbinder_sms_find(sm, "kbinder.added"))
			aosp_fail(c, "addService did not register the name");
	} else if (!strcmp(method, "tryUnregisterService")) {
		if (kbinder_sms_find(sm, AOSP_SAMPLE_STRING))
			aosp_fail(c, "tryUnregisterService left the service");
	} else if (!strcmp(method, "registerForNotifications")) {
		check_notified(c, r, w);
	}
}

/*
 * registerClientCallback: kbinder's service manager counts no clients and
 * says so (EX_UNSUPPORTED_OPERATION), where Android's answers void.
 */
static int32_t expected_exception(const char *method)
{
	return strcmp(method, "registerClientCallback") ? KBINDER_EX_NONE :
	       KBINDER_EX_UNSUPPORTED_OPERATION;
}

/* The method libkbinder's table names at @code, for the reasons. */
static const char *took_for(const struct kbinder_wire *w, int code)
{
	int m = kbinder_sm_method_of(w, (uint32_t)code);

	return m < 0 ? "nothing" : kbinder_sm_method_name(m);
}

static void check_method(const struct aosp_release *r, const struct kbinder_wire *w,
			 const struct aosp_line *code_row)
{
	const char *method = code_row->w[2];
	const char *keys[] = { "IServiceManager", method };
	const struct aosp_line *args = aosp_find("args", keys, 2, r->col);
	const struct aosp_line *answer = aosp_find("answer", keys, 2, r->col);
	char types[MAX_ARGS][AOSP_WORD_LEN], name[AOSP_WORD_LEN + 16], str[256];
	int code = aosp_code(code_row, r->col), n;
	struct kbinder_view v;
	struct aosp_check c = { .n = 0 };
	struct kbinder_parcel req;
	static struct kbinder_sm_server sm;
	int32_t ex = 0, scode;
	uint32_t binder = 0;

	snprintf(name, sizeof(name), "%d.%s", code, method);
	kbinder_parcel_init(&req);
	if (!args || !answer) {
		aosp_fail(&c, "the data has no args or answer for %s at %s", method, r->key);
		goto out;
	}
	fresh(&sm, w);
	kbinder_parcel_write_token(&req, w, KBINDER_SM_DESCRIPTOR);
	n = aosp_split(args->w[3], types, MAX_ARGS);
	for (int i = 0; i < n; i++) {
		struct aosp_sample s = arg_sample(r, method, types[i], i);

		if (aosp_encode(&req, w, types[i], r->col, &s))
			aosp_fail(&c, "the data cannot lay out argument %s", types[i]);
	}
	if (c.n || deliver(&sm, (uint32_t)code, &req) || sent.replies != 1) {
		aosp_fail(&c, "no reply to code %d", code);
		goto out;
	}
	if (sent.reply_flags & TF_STATUS_CODE) {
		memcpy(&scode, sent.reply.data, sizeof(scode));
		aosp_fail(&c, "code %d (%s in AOSP's %s) answered status %d; kbinder takes it for %s",
			  code, method, r->key, scode, took_for(w, code));
		goto out;
	}
	aosp_view_of(&sent.reply, &v);
	if (kbinder_sm_is_aidl(w) && kbinder_view_read_status(&v, &ex, &scode, NULL, 0)) {
		aosp_fail(&c, "the answer has no Status header");
		goto out;
	}
	if (ex != expected_exception(method)) {
		aosp_fail(&c, "code %d (%s in AOSP's %s) answered exception %d; kbinder takes it for %s",
			  code, method, r->key, ex, took_for(w, code));
		goto out;
	}
	if (ex)
		goto out;	/* the documented refusal: nothing follows it */
	if (aosp_decode(&v, w, answer->w[3], r->col, &binder, str, sizeof(str)) ||
	    v.pos != v.size) {
		aosp_fail(&c, "code %d (%s) did not answer AOSP's %s (%zu of %zu bytes read; %s); kbinder takes it for %s",
			  code, method, answer->w[3], v.pos, v.size,
			  aosp_where(r, aosp_sm_file(r)), took_for(w, code));
		goto out;
	}
	check_meaning(&c, r, w, &sm, method, binder, str);
out:
	kbinder_parcel_fini(&req);
	aosp_report("sm-dispatch", r->key, name, &c);
}

/* The first code past the release's last method: UNKNOWN_TRANSACTION. */
static void check_past_the_end(const struct aosp_release *r, const struct kbinder_wire *w)
{
	struct aosp_check c = { .n = 0 };
	struct kbinder_parcel req;
	static struct kbinder_sm_server sm;
	int32_t status = 0;
	int last = 0;

	for (int i = 0; i < aosp_n_lines; i++)
		if (!strcmp(aosp_lines[i].w[0], "code") &&
		    !strcmp(aosp_lines[i].w[1], "IServiceManager") &&
		    aosp_code(&aosp_lines[i], r->col) > last)
			last = aosp_code(&aosp_lines[i], r->col);
	fresh(&sm, w);
	kbinder_parcel_init(&req);
	kbinder_parcel_write_token(&req, w, KBINDER_SM_DESCRIPTOR);
	kbinder_parcel_write_string16(&req, AOSP_SAMPLE_STRING);
	deliver(&sm, (uint32_t)last + 1, &req);
	if (sent.replies == 1 && (sent.reply_flags & TF_STATUS_CODE))
		memcpy(&status, sent.reply.data, sizeof(status));
	if (status != KBINDER_STATUS_UNKNOWN_TRANSACTION)
		aosp_fail(&c, "code %d answered %s, not UNKNOWN_TRANSACTION", last + 1,
			  sent.reply_flags & TF_STATUS_CODE ? "a status" : "a reply");
	kbinder_parcel_fini(&req);
	aosp_report("sm-dispatch", r->key, "past-the-last-code", &c);
}

/* ------------------------------------------ the manager as a service */

#define SELF_NAME	"kbinder.self"

/*
 * Deliver code @m of @w's release with (@name, @obj) as its first
 * arguments (the rest as addService's), from the service's process; the
 * reply's exception, or a status code as a negative number. @obj goes as
 * libbinder writes it: an object with an offset when its binder/handle
 * word is nonzero, else bytes alone (handle 0, the manager).
 */
static int32_t call_with_binder(struct kbinder_sm_server *sm, const struct kbinder_wire *w,
				enum kbinder_sm_method m, const char *name,
				const struct flat_binder_object *obj, struct kbinder_view *v)
{
	struct kbinder_parcel req;
	int32_t ex = 0, scode;

	kbinder_parcel_init(&req);
	kbinder_parcel_write_token(&req, w, KBINDER_SM_DESCRIPTOR);
	kbinder_parcel_write_string16(&req, name);
	if (obj) {
		kbinder_parcel_write_android_object(&req, w, obj, w->stability);
		if (!obj->binder)
			req.n_offsets--;
		if (m == KBINDER_SM_ADD_SERVICE) {
			kbinder_parcel_write_u32(&req, 0);	/* allowIsolated */
			kbinder_parcel_write_u32(&req, KBINDER_DUMP_FLAG_PRIORITY_DEFAULT);
		}
	}
	sent.replies = sent.calls = 0;
	if (deliver(sm, kbinder_sm_code(w, m), &req) || sent.replies != 1)
		ex = -1000;
	else if (sent.reply_flags & TF_STATUS_CODE)
		memcpy(&ex, sent.reply.data, sizeof(ex));
	else if (kbinder_sm_is_aidl(w)) {
		aosp_view_of(&sent.reply, v);
		if (kbinder_view_read_status(v, &ex, &scode, NULL, 0))
			ex = -1001;
	}
	kbinder_parcel_fini(&req);
	return ex;
}

/* The node deliver() names the manager by: what the driver hands it for handle 0. */
static void own_node(const struct kbinder_sm_server *sm, struct flat_binder_object *obj)
{
	kbinder_android_object(obj, BINDER_TYPE_BINDER, (binder_uintptr_t)(uintptr_t)&sm->obj, 0);
}

/* Is @obj the manager's own node, as an object the driver will translate? */
static bool is_own_node(const struct kbinder_sm_server *sm, const struct flat_binder_object *obj)
{
	return obj->hdr.type == BINDER_TYPE_BINDER &&
	       obj->binder == (binder_uintptr_t)(uintptr_t)&sm->obj && obj->cookie == 0;
}

/* Every lookup of @w's release answers @name with the manager's node. */
static void check_self_lookups(struct aosp_check *c, struct kbinder_sm_server *sm,
			       const struct kbinder_wire *w, const char *name)
{
	static const enum kbinder_sm_method lookups[] = {
		KBINDER_SM_GET_SERVICE, KBINDER_SM_CHECK_SERVICE,
		KBINDER_SM_GET_SERVICE2, KBINDER_SM_CHECK_SERVICE2,
	};

	for (size_t i = 0; i < sizeof(lookups) / sizeof(lookups[0]); i++) {
		enum kbinder_sm_method m = lookups[i];
		struct kbinder_sm_service svc;
		struct kbinder_view v;
		int32_t ex;

		if (!kbinder_sm_code(w, m))
			continue;
		ex = call_with_binder(sm, w, m, name, NULL, &v);
		if (ex) {
			aosp_fail(c, "%s(%s) answered %d", kbinder_sm_method_name(m), name, ex);
			continue;
		}
		if (kbinder_view_read_sm_service(&v, w, kbinder_sm_answer_layout(w, m), &svc) ||
		    !is_own_node(sm, &svc.obj) || v.pos != v.size)
			aosp_fail(c, "%s(%s) does not answer the manager's own node (type 0x%x)",
				  kbinder_sm_method_name(m), name, svc.obj.hdr.type);
	}
}

/* The one onRegistration call out: to @handle, for @name, with the manager's node. */
static void check_self_told(struct aosp_check *c, struct kbinder_sm_server *sm,
			    const struct kbinder_wire *w, uint32_t handle, const char *name)
{
	struct flat_binder_object obj;
	struct kbinder_view v;
	char got[64];

	aosp_view_of(&sent.call, &v);
	if (sent.calls != 1 || sent.call_handle != handle ||
	    kbinder_view_check_token(&v, w, KBINDER_SM_CALLBACK_DESCRIPTOR) ||
	    kbinder_view_read_string16(&v, got, sizeof(got)) || strcmp(got, name) ||
	    kbinder_view_read_strong_binder(&v, w, &obj, NULL) || !is_own_node(sm, &obj))
		aosp_fail(c, "onRegistration(%s) did not carry the manager's own node (%d calls)",
			  name, sent.calls);
}

/*
 * At an AIDL release: the manager's own binder registers, as the driver
 * translates a client's handle 0 (the manager's node) and as libbinder
 * sends it (handle 0 as bytes); a watcher is told with the node, every
 * lookup answers it, its own registrant cannot unregister it (the manager
 * always has clients), and a service registered under the name
 * afterwards replaces it. Before 11, refused as Android 9 and 10's C
 * servicemanager refused any binder but a translated handle.
 */
static void check_self(const struct aosp_release *r, const struct kbinder_wire *w)
{
	struct aosp_check c = { .n = 0 };
	static struct kbinder_sm_server sm;
	struct flat_binder_object self, handle0, svc;
	struct kbinder_view v;
	int32_t ex;

	fresh(&sm, w);
	own_node(&sm, &self);
	kbinder_android_object(&handle0, BINDER_TYPE_HANDLE, 0, 0);
	if (!kbinder_sm_is_aidl(w)) {
		ex = call_with_binder(&sm, w, KBINDER_SM_ADD_SERVICE, SELF_NAME, &self, &v);
		if (ex == KBINDER_STATUS_BAD_VALUE)
			ex = call_with_binder(&sm, w, KBINDER_SM_ADD_SERVICE, SELF_NAME,
					      &handle0, &v);
		if (ex != KBINDER_STATUS_BAD_VALUE || kbinder_sms_find(&sm, SELF_NAME))
			aosp_fail(&c, "addService(the manager) at %s answered %d, not BAD_VALUE",
				  r->key, ex);
		goto out;
	}
	ex = call_with_binder(&sm, w, KBINDER_SM_ADD_SERVICE, AOSP_SAMPLE_STRING, &self, &v);
	if (ex) {
		aosp_fail(&c, "addService(%s, the manager's own node) answered %d",
			  AOSP_SAMPLE_STRING, ex);
		goto out;
	}
	check_self_told(&c, &sm, w, CB_HANDLE, AOSP_SAMPLE_STRING);
	check_self_lookups(&c, &sm, w, AOSP_SAMPLE_STRING);
	if (call_with_binder(&sm, w, KBINDER_SM_ADD_SERVICE, SELF_NAME, &handle0, &v))
		aosp_fail(&c, "addService(%s, handle 0 as libbinder sends it) failed", SELF_NAME);
	check_self_lookups(&c, &sm, w, SELF_NAME);
	ex = call_with_binder(&sm, w, KBINDER_SM_TRY_UNREGISTER_SERVICE, SELF_NAME, &self, &v);
	if (kbinder_sm_code(w, KBINDER_SM_TRY_UNREGISTER_SERVICE) &&
	    (ex != KBINDER_EX_ILLEGAL_STATE || !kbinder_sms_find(&sm, SELF_NAME)))
		aosp_fail(&c, "tryUnregisterService(the manager) answered %d", ex);
	/* A real service under the name: the handle replaces the node. */
	kbinder_android_object(&svc, BINDER_TYPE_HANDLE, 11, 0);
	if (call_with_binder(&sm, w, KBINDER_SM_ADD_SERVICE, SELF_NAME, &svc, &v))
		aosp_fail(&c, "addService(%s, handle 11) over the manager failed", SELF_NAME);
	ex = call_with_binder(&sm, w, KBINDER_SM_CHECK_SERVICE, SELF_NAME, NULL, &v);
	if (ex)
		aosp_fail(&c, "checkService(%s) answered %d", SELF_NAME, ex);
	else if (kbinder_view_read_sm_service(&v, w, kbinder_sm_answer_layout(w, KBINDER_SM_CHECK_SERVICE),
						  &(struct kbinder_sm_service){ .tag = 0 }) ||
		 !kbinder_sms_find(&sm, SELF_NAME))
		aosp_fail(&c, "checkService(%s) after the replacement is not an answer", SELF_NAME);
	/* The manager's node is no callback: it cannot watch a name. */
	ex = call_with_binder(&sm, w, KBINDER_SM_REGISTER_FOR_NOTIFICATIONS, SELF_NAME, &self, &v);
	if (ex != KBINDER_EX_ILLEGAL_STATE)
		aosp_fail(&c, "registerForNotifications(the manager as callback) answered %d", ex);
out:
	aosp_report("sm-dispatch", r->key, "the-manager-as-a-service", &c);
}

/* ------------------------------------------------ libkbinder's client */

/* Do columns @a and @b describe the same interface (codes, answers, types)? */
static bool same_interface(int a, int b)
{
	for (int i = 0; i < aosp_n_lines; i++) {
		const struct aosp_line *l = &aosp_lines[i];
		const char *k = l->w[0];

		if (!strcmp(k, "code") && aosp_code(l, a) != aosp_code(l, b))
			return false;
		if ((!strcmp(k, "answer") || !strcmp(k, "args") || !strcmp(k, "field") ||
		     !strcmp(k, "kind")) &&
		    aosp_in_range(l->w[l->n - 1], a) != aosp_in_range(l->w[l->n - 1], b))
			return false;
	}
	return true;
}

/* The release whose level is libkbinder's @w, or -1. */
static int col_of_wire(const struct kbinder_wire *w)
{
	for (int col = 0; col < aosp_n_cols; col++) {
		struct aosp_release r;

		if (aosp_release(col, &r) && !strcmp(r.level, kbinder_wire_name(w)))
			return col;
	}
	return -1;
}

struct names {
	int n;
	bool seen;
};

static int collect(const char *name, void *arg)
{
	struct names *st = arg;

	st->n++;
	st->seen |= !strcmp(name, AOSP_SAMPLE_STRING);
	return 0;
}

/*
 * libkbinder's client at the service manager of release @r finds the
 * service by both lookups, lists it, and finds no other: it reads what
 * the service manager writes, Service union included.
 */
static void check_client(const struct aosp_release *r, const struct kbinder_wire *w)
{
	struct aosp_check c = { .n = 0 };
	struct names st = { 0, false };
	static struct kbinder_sm_server sm;
	struct kbinder_thread t;
	struct kbinder_sm client;
	uint32_t handle = 0;
	int err;

	fresh(&sm, w);
	loop_sm = &sm;
	kbinder_thread_init(&t, -1);
	kbinder_sm_init(&client, &t, 0);
	client.wire = *w;
	err = kbinder_sm_check(&client, AOSP_SAMPLE_STRING, &handle);
	if (err || handle != SVC_HANDLE)
		aosp_fail(&c, "checkService: %d, handle %u", err, handle);
	err = kbinder_sm_get(&client, AOSP_SAMPLE_STRING, &handle);
	if (err || handle != SVC_HANDLE)
		aosp_fail(&c, "getService: %d, handle %u", err, handle);
	err = kbinder_sm_check(&client, "kbinder.nobody", &handle);
	if (err != -ENOENT)
		aosp_fail(&c, "checkService of nobody: %d, not -ENOENT", err);
	err = kbinder_sm_list(&client, KBINDER_DUMP_FLAG_PRIORITY_ALL, collect, &st);
	if (err || st.n != 1 || !st.seen)
		aosp_fail(&c, "listServices: %d, %d names", err, st.n);
	if (kbinder_sm_is_aidl(w) && kbinder_sm_is_declared(&client, AOSP_SAMPLE_STRING) != 0)
		aosp_fail(&c, "isDeclared: not false");
	loop_sm = NULL;
	aosp_report("sm-dispatch", r->key, "client", &c);
}

/*
 * kbinder_sm_detect() from a client at 33 (the default) and at the
 * release itself finds the release, or one whose interface is the same;
 * from the release itself exactly that one.
 */
static void check_detect(const struct aosp_release *r, const struct kbinder_wire *w)
{
	static const char *const starts[] = { "33", NULL };
	struct aosp_check c = { .n = 0 };
	static struct kbinder_sm_server sm;
	struct kbinder_thread t;

	for (size_t i = 0; i < sizeof(starts) / sizeof(starts[0]); i++) {
		const char *start = starts[i] ? starts[i] : r->level;
		struct kbinder_sm client;
		int err, got;

		fresh(&sm, w);
		loop_sm = &sm;
		kbinder_thread_init(&t, -1);
		kbinder_sm_init(&client, &t, 0);
		kbinder_wire_init_name(&client.wire, start);
		err = kbinder_sm_detect(&client);
		got = col_of_wire(&client.wire);
		if (err)
			aosp_fail(&c, "from %s: %d", start, err);
		else if (got < 0 || !same_interface(got, r->col))
			aosp_fail(&c, "from %s: found %s, whose interface is not %s's", start,
				  kbinder_wire_name(&client.wire), r->key);
		else if (!starts[i] && got != r->col)
			aosp_fail(&c, "from %s itself: found %s", start,
				  kbinder_wire_name(&client.wire));
	}
	/* A recovery image's service manager: its header is found too. */
	if (kbinder_sm_is_aidl(w)) {
		struct kbinder_wire reco = *w;
		struct kbinder_sm client;
		int err;

		reco.marker = KBINDER_MARKER_RECOVERY;
		fresh(&sm, &reco);
		loop_sm = &sm;
		kbinder_thread_init(&t, -1);
		kbinder_sm_init(&client, &t, 0);
		kbinder_wire_init_name(&client.wire, r->level);
		err = kbinder_sm_detect(&client);
		if (err || client.wire.marker != KBINDER_MARKER_RECOVERY ||
		    strcmp(kbinder_wire_name(&client.wire), r->level))
			aosp_fail(&c, "a 'RECO' manager: %d, found %s with header 0x%08x", err,
				  kbinder_wire_name(&client.wire), client.wire.marker);
	}
	loop_sm = NULL;
	aosp_report("sm-dispatch", r->key, "detect", &c);
}

int main(int argc, char **argv)
{
	if (!aosp_load_args("sm-dispatch", argc, argv))
		return 1;
	kbinder_parcel_init(&sent.reply);
	kbinder_parcel_init(&sent.call);
	for (int col = 0; col < aosp_n_cols; col++) {
		struct aosp_release r;
		struct kbinder_wire w;

		if (!aosp_release(col, &r) || kbinder_wire_init_name(&w, r.level)) {
			printf("FAIL sm-dispatch/%s/level: no such release in libkbinder\n",
			       aosp_cols[col]);
			continue;
		}
		for (int i = 0; i < aosp_n_lines; i++)
			if (!strcmp(aosp_lines[i].w[0], "code") &&
			    !strcmp(aosp_lines[i].w[1], "IServiceManager") &&
			    aosp_code(&aosp_lines[i], col))
				check_method(&r, &w, &aosp_lines[i]);
		check_past_the_end(&r, &w);
		check_self(&r, &w);
		check_client(&r, &w);
		check_detect(&r, &w);
	}
	kbinder_parcel_fini(&sent.reply);
	kbinder_parcel_fini(&sent.call);
	return aosp_failures() ? 1 : 0;
}
