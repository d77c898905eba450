// SPDX-License-Identifier: Apache-2.0
/*
 * `kbinder servicemanager`: the context manager. It speaks the protocol of
 * the API level it was started with: the C servicemanager's of Android 9
 * and 10 (codes 1-4), or AIDL IServiceManager from Android 11 on, with the
 * transaction codes of that release (kbinder/servicemanager.h). It answers
 * the standard transactions every binder object answers, keeps a strong
 * reference on each service and callback, forgets a service or callback
 * when the driver reports its process dead, and calls
 * IServiceCallback.onRegistration for every registration of a watched
 * name.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <kbinder/servicemanager.h>

#include "kbinder_tool.h"

#define SVC_MAX		256
#define WATCH_MAX	256
#define DEATH_MAX	(SVC_MAX + WATCH_MAX)
#define NAME_MAX_LEN	127	/* Android's limit for service names */

struct service {
	char name[NAME_MAX_LEN + 1];
	uint32_t handle;	/* 0: slot free (handle 0 is never a service) */
	uint32_t stability;
	pid_t pid;
	int32_t dump_priority;
	bool allow_isolated;
};

struct watch {
	char name[NAME_MAX_LEN + 1];
	uint32_t handle;	/* the IServiceCallback; 0: slot free */
};

/* One death notification per handle (the driver allows one per ref). */
struct death {
	uint32_t handle;
	unsigned int users;
};

struct svcmgr {
	struct kbinder_thread thread;
	struct kbinder_wire wire;
	struct kbinder_object obj;
	struct service services[SVC_MAX];
	struct watch watches[WATCH_MAX];
	struct death deaths[DEATH_MAX];
	bool verbose;
};

static void sm_log(struct svcmgr *sm, const char *fmt, const char *name,
		   int pid)
{
	if (!sm->verbose)
		return;
	printf("servicemanager: ");
	printf(fmt, name, pid);
	printf("\n");
	fflush(stdout);
}

/* Android's rule: 1-127 characters of [a-zA-Z0-9_-./]. */
static bool valid_name(const char *name)
{
	size_t n = strlen(name);

	if (n == 0 || n > NAME_MAX_LEN)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = name[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '-' ||
		      c == '.' || c == '/'))
			return false;
	}
	return true;
}

/* ------------------------------------------------- references, deaths */

/* Take a strong reference on @handle and watch its death. */
static int hold(struct svcmgr *sm, uint32_t handle)
{
	struct death *free_slot = NULL;
	int err;

	for (int i = 0; i < DEATH_MAX; i++) {
		if (sm->deaths[i].handle == handle) {
			sm->deaths[i].users++;
			return kbinder_ref(&sm->thread, BC_ACQUIRE, handle);
		}
		if (!sm->deaths[i].handle && !free_slot)
			free_slot = &sm->deaths[i];
	}
	if (!free_slot)
		return -ENOSPC;
	err = kbinder_ref(&sm->thread, BC_ACQUIRE, handle);
	if (err)
		return err;
	free_slot->handle = handle;
	free_slot->users = 1;
	/* The cookie is the handle: one notification covers every use. */
	return kbinder_request_death(&sm->thread, handle, handle);
}

/* Drop one use of @handle; @dead: the driver already reported its death. */
static void unhold(struct svcmgr *sm, uint32_t handle, bool dead)
{
	for (int i = 0; i < DEATH_MAX; i++) {
		if (sm->deaths[i].handle != handle)
			continue;
		if (--sm->deaths[i].users == 0) {
			if (!dead)
				kbinder_clear_death(&sm->thread, handle, handle);
			sm->deaths[i].handle = 0;
		}
		break;
	}
	kbinder_ref(&sm->thread, BC_RELEASE, handle);
}

/* ------------------------------------------------------------ registry */

static struct service *find_service(struct svcmgr *sm, const char *name)
{
	for (int i = 0; i < SVC_MAX; i++)
		if (sm->services[i].handle && !strcmp(sm->services[i].name, name))
			return &sm->services[i];
	return NULL;
}

static void drop_service(struct svcmgr *sm, struct service *s, bool dead)
{
	sm_log(sm, dead ? "'%s' died (pid %d)" : "'%s' replaced or removed (pid %d)",
	       s->name, (int)s->pid);
	unhold(sm, s->handle, dead);
	memset(s, 0, sizeof(*s));
}

static int sm_event(struct kbinder_thread *t, const struct kbinder_return *ret,
		    void *arg);

/*
 * IServiceCallback.onRegistration(name, binder) to every watcher of @s, or
 * only to watch slot @only (>= 0).
 */
static void notify_watchers(struct svcmgr *sm, const struct service *s, int only)
{
	struct kbinder_parcel data;
	struct kbinder_reply reply;
	char name[NAME_MAX_LEN + 1];
	uint32_t handle = s->handle, stability = s->stability;

	/* @s may change under nested calls: work on copies. */
	snprintf(name, sizeof(name), "%s", s->name);
	for (int i = 0; i < WATCH_MAX; i++) {
		struct watch *w = &sm->watches[i];

		if (!w->handle || strcmp(w->name, name) || (only >= 0 && i != only))
			continue;
		kbinder_parcel_init(&data);
		kbinder_parcel_write_token(&data, &sm->wire,
					   KBINDER_SM_CALLBACK_DESCRIPTOR);
		kbinder_parcel_write_string16(&data, name);
		kbinder_parcel_write_strong_handle(&data, &sm->wire, handle, stability);
		if (!data.err)
			kbinder_transact(&sm->thread, w->handle,
					 KBINDER_SM_CALLBACK_ON_REGISTRATION, &data,
					 TF_ONE_WAY, &reply, sm_event, sm,
					 TOOL_TIMEOUT_MS);
		kbinder_parcel_fini(&data);
		sm_log(sm, "told a watcher of '%s' (%d)", name, (int)i);
	}
}

static int add_service(struct svcmgr *sm, const char *name, uint32_t handle,
		       uint32_t stability, pid_t pid, bool allow_isolated,
		       int32_t dump_priority)
{
	struct service *s = find_service(sm, name);
	int err;

	/* Hold the new one before letting go of the old (it may be the same). */
	err = hold(sm, handle);
	if (err)
		return err;
	if (s) {
		drop_service(sm, s, false);
	} else {
		for (s = sm->services; s < sm->services + SVC_MAX && s->handle; s++)
			;
		if (s == sm->services + SVC_MAX) {
			unhold(sm, handle, false);
			return -ENOSPC;
		}
	}
	snprintf(s->name, sizeof(s->name), "%.*s", NAME_MAX_LEN, name);
	s->handle = handle;
	s->stability = stability;
	s->pid = pid;
	s->allow_isolated = allow_isolated;
	s->dump_priority = dump_priority;
	sm_log(sm, "added '%s' (pid %d)", name, (int)pid);
	notify_watchers(sm, s, -1);
	return 0;
}

static void forget_handle(struct svcmgr *sm, uint32_t handle)
{
	for (int i = 0; i < SVC_MAX; i++)
		if (sm->services[i].handle == handle)
			drop_service(sm, &sm->services[i], true);
	for (int i = 0; i < WATCH_MAX; i++) {
		if (sm->watches[i].handle == handle) {
			sm_log(sm, "a watcher of '%s' died (%d)", sm->watches[i].name, i);
			unhold(sm, handle, true);
			memset(&sm->watches[i], 0, sizeof(sm->watches[i]));
		}
	}
}

/* ------------------------------------------------------ the AIDL side */

static int ok(struct kbinder_call *c)
{
	return kbinder_parcel_write_status(c->reply, KBINDER_EX_NONE, NULL, 0);
}

static int fail(struct kbinder_call *c, int32_t ex, const char *msg)
{
	return kbinder_parcel_write_status(c->reply, ex, msg, 0);
}

/* A String16 argument; false (and a BAD_VALUE reply) if it does not parse. */
static bool arg_name(struct kbinder_call *c, char *name, size_t size)
{
	return kbinder_view_read_string16(&c->in, name, size) == 0;
}

static int aidl_lookup(struct svcmgr *sm, struct kbinder_call *c, int method)
{
	char name[NAME_MAX_LEN + 2];
	struct service *s;

	if (!arg_name(c, name, sizeof(name)))
		return KBINDER_STATUS_BAD_VALUE;
	s = find_service(sm, name);
	ok(c);
	if (method == KBINDER_SM_GET_SERVICE2 || method == KBINDER_SM_CHECK_SERVICE2) {
		/* union Service: tag 0, the binder (API 35); from API 36 tag 0
		 * is ServiceWithMetadata {IBinder service; boolean isLazy}. */
		kbinder_parcel_write_u32(c->reply, 0);
		if (sm->wire.api_level >= 36) {
			size_t start;

			kbinder_parcel_write_u32(c->reply, 1);	/* non-null */
			start = c->reply->size;
			kbinder_parcel_write_u32(c->reply, 0);	/* size, below */
			if (s)
				kbinder_parcel_write_strong_handle(c->reply, &sm->wire,
								   s->handle, s->stability);
			else
				kbinder_parcel_write_strong_binder(c->reply, &sm->wire, 0, 0);
			kbinder_parcel_write_u32(c->reply, 0);	/* isLazyService */
			if (!c->reply->err) {
				uint32_t size = (uint32_t)(c->reply->size - start);

				memcpy(c->reply->data + start, &size, sizeof(size));
			}
			return c->reply->err;
		}
	}
	if (s)
		return kbinder_parcel_write_strong_handle(c->reply, &sm->wire,
							  s->handle, s->stability);
	return kbinder_parcel_write_strong_binder(c->reply, &sm->wire, 0, 0);
}

static int aidl_add(struct svcmgr *sm, struct kbinder_call *c)
{
	char name[NAME_MAX_LEN + 2];
	struct flat_binder_object obj;
	uint32_t stability, isolated, prio;
	int err;

	if (!arg_name(c, name, sizeof(name)))
		return KBINDER_STATUS_BAD_VALUE;
	err = kbinder_view_read_strong_binder(&c->in, &sm->wire, &obj, &stability);
	if (err < 0 || kbinder_view_read_u32(&c->in, &isolated) ||
	    kbinder_view_read_u32(&c->in, &prio))
		return KBINDER_STATUS_BAD_VALUE;
	if (!valid_name(name))
		return fail(c, KBINDER_EX_ILLEGAL_ARGUMENT, "Invalid service name");
	/* Only an object the driver translated counts; never our own node. */
	if (err == KBINDER_NULL || obj.hdr.type != BINDER_TYPE_HANDLE)
		return fail(c, KBINDER_EX_ILLEGAL_ARGUMENT, "Null binder");
	err = add_service(sm, name, obj.handle, stability, c->txn->sender_pid,
			  isolated != 0, (int32_t)prio);
	if (err)
		return fail(c, KBINDER_EX_ILLEGAL_STATE, "Registry full");
	return ok(c);
}

static int aidl_list(struct svcmgr *sm, struct kbinder_call *c)
{
	uint32_t prio, n = 0;
	size_t count_at;

	if (kbinder_view_read_u32(&c->in, &prio))
		return KBINDER_STATUS_BAD_VALUE;
	ok(c);
	count_at = c->reply->size;
	kbinder_parcel_write_u32(c->reply, 0);
	for (int i = 0; i < SVC_MAX; i++) {
		struct service *s = &sm->services[i];

		if (!s->handle || !(s->dump_priority & (int32_t)prio))
			continue;
		kbinder_parcel_write_string16(c->reply, s->name);
		n++;
	}
	if (!c->reply->err)
		memcpy(c->reply->data + count_at, &n, sizeof(n));
	return c->reply->err;
}

static int aidl_watch(struct svcmgr *sm, struct kbinder_call *c, bool on)
{
	char name[NAME_MAX_LEN + 2];
	struct flat_binder_object obj;
	struct service *s;
	int err;

	if (!arg_name(c, name, sizeof(name)))
		return KBINDER_STATUS_BAD_VALUE;
	err = kbinder_view_read_strong_binder(&c->in, &sm->wire, &obj, NULL);
	if (err < 0)
		return KBINDER_STATUS_BAD_VALUE;
	if (!valid_name(name))
		return fail(c, KBINDER_EX_ILLEGAL_ARGUMENT, "Invalid service name");
	if (err == KBINDER_NULL || obj.hdr.type != BINDER_TYPE_HANDLE)
		return fail(c, KBINDER_EX_NULL_POINTER, "Null callback");
	for (int i = 0; i < WATCH_MAX; i++) {
		struct watch *w = &sm->watches[i];

		if (on && !w->handle) {
			if (hold(sm, obj.handle))
				return fail(c, KBINDER_EX_ILLEGAL_STATE, "Too many callbacks");
			snprintf(w->name, sizeof(w->name), "%.*s", NAME_MAX_LEN, name);
			w->handle = obj.handle;
			sm_log(sm, "watching '%s' (%d)", name, i);
			ok(c);
			/* Already there: tell it at once, as Android does. */
			s = find_service(sm, name);
			if (s)
				notify_watchers(sm, s, i);
			return c->reply->err;
		}
		if (!on && w->handle == obj.handle && !strcmp(w->name, name)) {
			unhold(sm, w->handle, false);
			memset(w, 0, sizeof(*w));
			sm_log(sm, "stopped watching '%s' (%d)", name, i);
			return ok(c);
		}
	}
	return on ? fail(c, KBINDER_EX_ILLEGAL_STATE, "Too many callbacks") :
		    fail(c, KBINDER_EX_ILLEGAL_STATE, "Not registered");
}

/* registerClientCallback and tryUnregisterService: name + the service. */
static int aidl_own_service(struct svcmgr *sm, struct kbinder_call *c,
			    struct service **out)
{
	char name[NAME_MAX_LEN + 2];
	struct flat_binder_object obj;
	int err;

	if (!arg_name(c, name, sizeof(name)))
		return KBINDER_STATUS_BAD_VALUE;
	err = kbinder_view_read_strong_binder(&c->in, &sm->wire, &obj, NULL);
	if (err < 0)
		return KBINDER_STATUS_BAD_VALUE;
	if (!valid_name(name))
		return fail(c, KBINDER_EX_ILLEGAL_ARGUMENT, "Invalid service name");
	*out = find_service(sm, name);
	if (!*out)
		return fail(c, KBINDER_EX_ILLEGAL_STATE, "Requested service is not registered");
	if (err == KBINDER_NULL || obj.handle != (*out)->handle)
		return fail(c, KBINDER_EX_ILLEGAL_ARGUMENT, "Service doesn't match");
	if (c->txn->sender_pid != (*out)->pid)
		return fail(c, KBINDER_EX_SECURITY, "Only the registering process may do this");
	return 1;
}

static int aidl_try_unregister(struct svcmgr *sm, struct kbinder_call *c)
{
	struct binder_node_info_for_ref info;
	struct service *s;
	int err = aidl_own_service(sm, c, &s);

	if (err != 1)
		return err;
	/* Clients other than us hold the node: refuse, as Android does. */
	memset(&info, 0, sizeof(info));
	info.handle = s->handle;
	if (!kbinder_get_node_info_for_ref(sm->thread.fd, &info) &&
	    info.strong_count > 1)
		return fail(c, KBINDER_EX_ILLEGAL_STATE, "Can't unregister, pending client");
	drop_service(sm, s, false);
	return ok(c);
}

static int aidl_debug_info(struct svcmgr *sm, struct kbinder_call *c)
{
	uint32_t n = 0, size;
	size_t count_at, start;

	ok(c);
	count_at = c->reply->size;
	kbinder_parcel_write_u32(c->reply, 0);
	for (int i = 0; i < SVC_MAX; i++) {
		struct service *s = &sm->services[i];

		if (!s->handle)
			continue;
		/* parcelable ServiceDebugInfo { String name; int debugPid; } */
		kbinder_parcel_write_u32(c->reply, 1);
		start = c->reply->size;
		kbinder_parcel_write_u32(c->reply, 0);
		kbinder_parcel_write_string16(c->reply, s->name);
		kbinder_parcel_write_u32(c->reply, (uint32_t)s->pid);
		if (c->reply->err)
			return c->reply->err;
		size = (uint32_t)(c->reply->size - start);
		memcpy(c->reply->data + start, &size, sizeof(size));
		n++;
	}
	if (!c->reply->err)
		memcpy(c->reply->data + count_at, &n, sizeof(n));
	return c->reply->err;
}

static int aidl_handle(struct svcmgr *sm, uint32_t code, struct kbinder_call *c)
{
	char name[NAME_MAX_LEN + 2];
	struct service *s;
	int method = kbinder_sm_method_of(&sm->wire, code);
	int err;

	switch (method) {
	case KBINDER_SM_GET_SERVICE:
	case KBINDER_SM_CHECK_SERVICE:
	case KBINDER_SM_GET_SERVICE2:
	case KBINDER_SM_CHECK_SERVICE2:
		return aidl_lookup(sm, c, method);
	case KBINDER_SM_ADD_SERVICE:
		return aidl_add(sm, c);
	case KBINDER_SM_LIST_SERVICES:
		return aidl_list(sm, c);
	case KBINDER_SM_REGISTER_FOR_NOTIFICATIONS:
	case KBINDER_SM_UNREGISTER_FOR_NOTIFICATIONS:
		return aidl_watch(sm, c, method == KBINDER_SM_REGISTER_FOR_NOTIFICATIONS);
	case KBINDER_SM_IS_DECLARED:
	case KBINDER_SM_UPDATABLE_VIA_APEX:
	case KBINDER_SM_GET_CONNECTION_INFO:
	case KBINDER_SM_GET_DECLARED_INSTANCES:
	case KBINDER_SM_GET_UPDATABLE_NAMES:
		/* No VINTF manifest, no APEX, no RPC: what Android answers
		 * for a name none of them mentions. */
		if (!arg_name(c, name, sizeof(name)))
			return KBINDER_STATUS_BAD_VALUE;
		ok(c);
		if (method == KBINDER_SM_UPDATABLE_VIA_APEX)
			return kbinder_parcel_write_string16(c->reply, NULL);
		return kbinder_parcel_write_u32(c->reply, 0);	/* false, [], null */
	case KBINDER_SM_REGISTER_CLIENT_CALLBACK:
		err = aidl_own_service(sm, c, &s);
		if (err != 1)
			return err;
		return fail(c, KBINDER_EX_UNSUPPORTED_OPERATION,
			    "kbinder's servicemanager does not count clients");
	case KBINDER_SM_TRY_UNREGISTER_SERVICE:
		return aidl_try_unregister(sm, c);
	case KBINDER_SM_GET_SERVICE_DEBUG_INFO:
		return aidl_debug_info(sm, c);
	default:
		return KBINDER_STATUS_UNKNOWN_TRANSACTION;
	}
}

/* ----------------------------------------------- before Android 11 */

static int pre11_handle(struct svcmgr *sm, uint32_t code, struct kbinder_call *c)
{
	char name[NAME_MAX_LEN + 2];
	struct flat_binder_object obj;
	uint32_t index, isolated = 0, prio = KBINDER_DUMP_FLAG_PRIORITY_DEFAULT;
	struct service *s;
	int err;

	switch (code) {
	case 1:	/* getService */
	case 2:	/* checkService */
		if (!arg_name(c, name, sizeof(name)))
			return KBINDER_STATUS_BAD_VALUE;
		s = find_service(sm, name);
		if (s)
			return kbinder_parcel_write_handle(c->reply, s->handle,
							   FLAT_BINDER_FLAG_ACCEPTS_FDS, false);
		return kbinder_parcel_write_u32(c->reply, 0);
	case 3:	/* addService(name, binder, allowIsolated[, dumpPriority]) */
		if (!arg_name(c, name, sizeof(name)) || !valid_name(name))
			return KBINDER_STATUS_BAD_VALUE;
		err = kbinder_view_read_strong_binder(&c->in, &sm->wire, &obj, NULL);
		if (err || obj.hdr.type != BINDER_TYPE_HANDLE)
			return KBINDER_STATUS_BAD_VALUE;
		kbinder_view_read_u32(&c->in, &isolated);
		kbinder_view_read_u32(&c->in, &prio);
		err = add_service(sm, name, obj.handle, KBINDER_STABILITY_UNDECLARED,
				  c->txn->sender_pid, isolated != 0, (int32_t)prio);
		if (err)
			return err;
		return kbinder_parcel_write_u32(c->reply, 0);
	case 4:	/* listServices(index[, dumpPriority]) */
		if (kbinder_view_read_u32(&c->in, &index))
			return KBINDER_STATUS_BAD_VALUE;
		kbinder_view_read_u32(&c->in, &prio);
		for (s = sm->services; s < sm->services + SVC_MAX; s++)
			if (s->handle && (s->dump_priority & (int32_t)prio) &&
			    index-- == 0)
				break;
		if (s == sm->services + SVC_MAX)
			return -ENOENT;
		return kbinder_parcel_write_string16(c->reply, s->name);
	default:
		return KBINDER_STATUS_UNKNOWN_TRANSACTION;
	}
}

static int sm_handle(struct kbinder_object *obj, uint32_t code,
		     struct kbinder_call *call)
{
	struct svcmgr *sm = obj->arg;

	if (kbinder_sm_is_aidl(&sm->wire))
		return aidl_handle(sm, code, call);
	return pre11_handle(sm, code, call);
}

static int sm_dump(struct kbinder_object *obj, int fd, int argc, char **argv)
{
	struct svcmgr *sm = obj->arg;

	(void)argc;
	(void)argv;
	dprintf(fd, "kbinder servicemanager, Android API level %d (Android %s)\n",
		sm->wire.api_level, kbinder_wire_android_version(sm->wire.api_level));
	for (int i = 0; i < SVC_MAX; i++)
		if (sm->services[i].handle)
			dprintf(fd, "  %s (pid %d)\n", sm->services[i].name,
				(int)sm->services[i].pid);
	return 0;
}

/* ------------------------------------------------------------ the loop */

static int sm_event(struct kbinder_thread *t, const struct kbinder_return *ret,
		    void *arg)
{
	struct svcmgr *sm = arg;
	const struct binder_transaction_data *tr = &ret->u.txn;
	int err;

	switch (ret->cmd) {
	case BR_TRANSACTION:
		err = kbinder_object_dispatch(&sm->obj, t, tr);
		kbinder_free_buffer(t, tr->data.ptr.buffer);
		return err == -EPIPE ? 0 : err;	/* a dead client is not our problem */
	case BR_DEAD_BINDER:
		forget_handle(sm, (uint32_t)ret->u.cookie);
		return kbinder_dead_binder_done(t, ret->u.cookie);
	default:
		return kbinder_handle_default(t, ret, NULL);
	}
}

/* The previous manager of a device is released asynchronously: retry. */
static int become_manager(int fd)
{
	struct timespec ts = { 0, 50 * 1000 * 1000 };
	int err;

	for (int i = 0; i < 100; i++) {
		err = kbinder_set_context_mgr(fd);
		if (err != -EBUSY)
			break;
		nanosleep(&ts, NULL);
	}
	return err;
}

int svcmgr_run(const char *device, int ready_fd, bool verbose)
{
	static struct svcmgr sm;
	struct kbinder_return ret;
	struct kbinder_proc proc;
	int err;

	memset(&sm, 0, sizeof(sm));
	sm.verbose = verbose;
	err = kbinder_wire_init(&sm.wire, tool_api_level);
	if (err)
		return tool_error(err, "API level %d", tool_api_level);
	sm.obj.descriptor = KBINDER_SM_DESCRIPTOR;
	sm.obj.wire = &sm.wire;
	sm.obj.handle = sm_handle;
	while (kbinder_sm_method_of(&sm.wire, sm.obj.n_codes + 1) >= 0)
		sm.obj.n_codes++;	/* the level's last method */
	sm.obj.dump = sm_dump;
	sm.obj.arg = &sm;
	err = tool_open(&proc, device);
	if (err)
		return err;
	err = become_manager(proc.fd);
	if (err) {
		kbinder_close(&proc);
		return tool_error(err, "become the context manager of %s",
				  device ? device : kbinder_default_device());
	}
	kbinder_thread_init(&sm.thread, proc.fd);
	err = kbinder_enter_looper(&sm.thread);
	if (ready_fd >= 0) {
		(void)!write(ready_fd, "R", 1);
		close(ready_fd);
	}
	if (verbose) {
		printf("servicemanager: serving on %s, Android API level %d (Android %s, %s)\n",
		       device ? device : kbinder_default_device(), sm.wire.api_level,
		       kbinder_wire_android_version(sm.wire.api_level),
		       kbinder_sm_is_aidl(&sm.wire) ? "AIDL IServiceManager" :
		       "the C servicemanager's protocol");
		fflush(stdout);
	}
	while (!err) {
		err = kbinder_next(&sm.thread, &ret, -1);
		if (!err)
			err = sm_event(&sm.thread, &ret, &sm);
	}
	kbinder_close(&proc);
	return tool_error(err, "servicemanager");
}
