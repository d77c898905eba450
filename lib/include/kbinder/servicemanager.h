/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libkbinder: a client of the service manager (handle 0), speaking the
 * protocol of the Android release its struct kbinder_wire names: the C
 * servicemanager's before Android 11 (API 28, 29), AIDL IServiceManager
 * from Android 11 (API 30) on, with the transaction codes and the lookup
 * answers of each release (a level, or 35-qpr1 ...: kbinder/android.h),
 * as AOSP's IServiceManager.aidl has them at the release's tag.
 *
 *	struct kbinder_sm sm;
 *	uint32_t handle;
 *
 *	kbinder_sm_init(&sm, &thread, 0);        // default API level
 *	if (kbinder_sm_check(&sm, "my.service", &handle) == 0) {
 *		... call it ...
 *		kbinder_thread_ref(&thread, BC_RELEASE, handle);
 *	}
 */
#ifndef KBINDER_SERVICEMANAGER_H
#define KBINDER_SERVICEMANAGER_H

#include "android.h"
#include "object.h"
#include "thread.h"

KBINDER_BEGIN_DECLS

#define KBINDER_SM_DESCRIPTOR		"android.os.IServiceManager"
#define KBINDER_SM_CALLBACK_DESCRIPTOR	"android.os.IServiceCallback"
/* IServiceCallback.onRegistration(String name, IBinder binder), one-way */
#define KBINDER_SM_CALLBACK_ON_REGISTRATION 1
#define KBINDER_SM_CLIENT_CALLBACK_DESCRIPTOR "android.os.IClientCallback"
/* IClientCallback.onClients(IBinder registered, boolean hasClients), one-way */
#define KBINDER_SM_CLIENT_CALLBACK_ON_CLIENTS 1

/* Dump priorities (IServiceManager.DUMP_FLAG_*). */
#define KBINDER_DUMP_FLAG_PRIORITY_CRITICAL	(1 << 0)
#define KBINDER_DUMP_FLAG_PRIORITY_HIGH		(1 << 1)
#define KBINDER_DUMP_FLAG_PRIORITY_NORMAL	(1 << 2)
#define KBINDER_DUMP_FLAG_PRIORITY_DEFAULT	(1 << 3)
#define KBINDER_DUMP_FLAG_PRIORITY_ALL		15
#define KBINDER_DUMP_FLAG_PROTO			(1 << 4)

/** The service manager's methods, whatever their code at a level. */
enum kbinder_sm_method {
	KBINDER_SM_GET_SERVICE,
	KBINDER_SM_GET_SERVICE2,
	KBINDER_SM_CHECK_SERVICE,
	KBINDER_SM_CHECK_SERVICE2,
	KBINDER_SM_ADD_SERVICE,
	KBINDER_SM_LIST_SERVICES,
	KBINDER_SM_REGISTER_FOR_NOTIFICATIONS,
	KBINDER_SM_UNREGISTER_FOR_NOTIFICATIONS,
	KBINDER_SM_IS_DECLARED,
	KBINDER_SM_GET_DECLARED_INSTANCES,
	KBINDER_SM_UPDATABLE_VIA_APEX,
	KBINDER_SM_GET_UPDATABLE_NAMES,
	KBINDER_SM_GET_CONNECTION_INFO,
	KBINDER_SM_REGISTER_CLIENT_CALLBACK,
	KBINDER_SM_TRY_UNREGISTER_SERVICE,
	KBINDER_SM_GET_SERVICE_DEBUG_INFO,
	KBINDER_SM_CHECK_SERVICE_ACCESS,
	KBINDER_SM_METHODS
};

/** kbinder_sm_code() - @m's transaction code at @w's level; 0 if it has none. */
uint32_t kbinder_sm_code(const struct kbinder_wire *w, enum kbinder_sm_method m);
/** kbinder_sm_method_of() - the method @code names at @w's level, or -1. */
int kbinder_sm_method_of(const struct kbinder_wire *w, uint32_t code);
/** kbinder_sm_method_name() - "getService" etc. */
const char *kbinder_sm_method_name(enum kbinder_sm_method m);
/** kbinder_sm_is_aidl() - true from API 30: AIDL IServiceManager. */
static inline bool kbinder_sm_is_aidl(const struct kbinder_wire *w)
{
	return w->api_level >= 30;
}

/* ------------------------------------------------- the Service union */

/**
 * enum kbinder_sm_service_layout - how a lookup answers with the binder.
 * @KBINDER_SM_SERVICE_PLAIN:    a nullable binder, as every lookup before
 *                               15 QPR1 and getService and (but in 15
 *                               QPR1/QPR2) checkService since
 * @KBINDER_SM_SERVICE_BINDER:   the union Service (int32 1, then its tag),
 *                               member 0 a nullable binder (15 QPR1)
 * @KBINDER_SM_SERVICE_METADATA: the union Service, member 0 the parcelable
 *                               ServiceWithMetadata {nullable binder,
 *                               boolean isLazyService} (15 QPR2 on)
 * In both union layouts member 1 is a nullable binder to an IAccessor,
 * which hands out RPC binder connections to the service.
 */
enum kbinder_sm_service_layout {
	KBINDER_SM_SERVICE_PLAIN,
	KBINDER_SM_SERVICE_BINDER,
	KBINDER_SM_SERVICE_METADATA,
};

#define KBINDER_SM_SERVICE_TAG_SERVICE	0	/* binder / serviceWithMetadata */
#define KBINDER_SM_SERVICE_TAG_ACCESSOR	1
/* addService's dumpPriority flag for a lazy service (15 QPR2 on), which
 * getService2 and checkService2 answer as isLazyService. */
#define KBINDER_SM_FLAG_IS_LAZY_SERVICE	(1 << 30)

/**
 * kbinder_sm_answer_layout() - how method @m answers at @w's release:
 * getService2 and checkService2, and checkService in 15 QPR1/QPR2, with a
 * Service union; every other method, and a method the release does not
 * have, KBINDER_SM_SERVICE_PLAIN.
 */
enum kbinder_sm_service_layout
kbinder_sm_answer_layout(const struct kbinder_wire *w, enum kbinder_sm_method m);

/**
 * struct kbinder_sm_service - a lookup's answer.
 * @obj:       the binder (a null one reads as KBINDER_NULL)
 * @stability: its stability field
 * @tag:       KBINDER_SM_SERVICE_TAG_SERVICE, or _ACCESSOR when @obj is an
 *             IAccessor for the service
 * @is_lazy:   ServiceWithMetadata.isLazyService (METADATA layout)
 * @reserved:  zero
 */
struct kbinder_sm_service {
	struct flat_binder_object obj;
	uint32_t stability;
	uint32_t tag;
	bool is_lazy;
	uint32_t reserved[4];
};

/**
 * kbinder_parcel_write_sm_service() - a lookup's answer in @layout: the
 * remote object @handle (0: the null binder) with @stability, as member
 * @tag, with @is_lazy where the layout carries it.
 */
int kbinder_parcel_write_sm_service(struct kbinder_parcel *p,
				    const struct kbinder_wire *w,
				    enum kbinder_sm_service_layout layout,
				    uint32_t tag, uint32_t handle,
				    uint32_t stability, bool is_lazy);
/**
 * kbinder_view_read_sm_service() - read a lookup's answer in @layout.
 * Return: 0, KBINDER_NULL for a null binder, -EBADMSG if malformed (a
 * null union, an unknown tag, a ServiceWithMetadata whose size runs past
 * the data); the cursor stays put on an error.
 */
int kbinder_view_read_sm_service(struct kbinder_view *v,
				 const struct kbinder_wire *w,
				 enum kbinder_sm_service_layout layout,
				 struct kbinder_sm_service *out);

/**
 * struct kbinder_sm - a service manager client on one thread.
 * @thread:     the calling thread
 * @wire:       the protocol (API level)
 * @other:      handler for commands that arrive during a call (NULL:
 *              kbinder_thread_handle_default)
 * @arg:        for @other
 * @timeout_ms: bound on each wait (default 5000)
 * @exception:  the AIDL exception of the last call that failed with one
 * @reserved:   zero
 */
struct kbinder_sm {
	struct kbinder_thread *thread;
	struct kbinder_wire wire;
	kbinder_event_fn other;
	void *arg;
	int timeout_ms;
	int32_t exception;
	uint64_t reserved[4];
};

/** kbinder_sm_init() - a client at @api_level (0: the default). 0 or -EINVAL. */
int kbinder_sm_init(struct kbinder_sm *sm, struct kbinder_thread *t,
		    int api_level);

/*
 * The calls return 0; a positive BR_ code when the driver answered for the
 * service manager: BR_DEAD_REPLY when there is none (or it died),
 * BR_FAILED_REPLY, BR_FROZEN_REPLY; or a negative errno: -ENOENT for a
 * name it does not know, -EINVAL
 * (EX_ILLEGAL_ARGUMENT), -EPERM (EX_SECURITY), -EFAULT (EX_NULL_POINTER),
 * -EBUSY (EX_ILLEGAL_STATE), -EOPNOTSUPP (EX_UNSUPPORTED_OPERATION or a
 * method the level does not have), -EBADMSG (a reply that does not parse),
 * or the status code a status-code reply carried.
 */

/**
 * kbinder_sm_check() - look @name up (checkService). On success *@handle
 * holds a strong reference of ours: BC_RELEASE it when done. -EOPNOTSUPP
 * when the answer is an IAccessor (an RPC binder service, 15 QPR1 on).
 */
int kbinder_sm_check(struct kbinder_sm *sm, const char *name, uint32_t *handle);
/** kbinder_sm_get() - the same with getService (the older, blocking name). */
int kbinder_sm_get(struct kbinder_sm *sm, const char *name, uint32_t *handle);
/** kbinder_sm_add() - register local object (@ptr, @cookie) as @name. */
int kbinder_sm_add(struct kbinder_sm *sm, const char *name,
		   binder_uintptr_t ptr, binder_uintptr_t cookie,
		   bool allow_isolated, int32_t dump_priority);
/**
 * kbinder_sm_list() - call @fn for each service name whose dump priority
 * matches @dump_priority; stops at @fn's first non-zero return (returned).
 */
int kbinder_sm_list(struct kbinder_sm *sm, int32_t dump_priority,
		    int (*fn)(const char *name, void *arg), void *arg);
/**
 * kbinder_sm_notify() - registerForNotifications (@on) or
 * unregisterForNotifications for @name with local callback object
 * (@ptr, @cookie): it gets IServiceCallback.onRegistration (one-way, code
 * KBINDER_SM_CALLBACK_ON_REGISTRATION: token, String16 name, binder). API 30+.
 */
int kbinder_sm_notify(struct kbinder_sm *sm, const char *name, bool on,
		      binder_uintptr_t ptr, binder_uintptr_t cookie);
/** kbinder_sm_is_declared() - isDeclared: 1 or 0. API 30+. */
int kbinder_sm_is_declared(struct kbinder_sm *sm, const char *name);
/** kbinder_sm_ping() - PING_TRANSACTION to the service manager. */
int kbinder_sm_ping(struct kbinder_sm *sm);
/**
 * kbinder_sm_detect() - find out which release's interface the service
 * manager at handle 0 has, and set @sm's wire to it. It counts the
 * methods (an AIDL stub answers UNKNOWN_TRANSACTION past its last one,
 * whatever the token), finds the token header it takes (of 'SYST',
 * 'VNDR', 'RECO', 'UNKN', @sm's first) and tells 15 QPR1 from QPR2 by how
 * checkService lays out its union, and 9 from 10 by the token their C
 * servicemanager takes. The probes carry no arguments, so no method runs,
 * except checkService of a name nobody registers. Interfaces that are the same cannot be
 * told apart: 12 from 12L, 14 from 15's first release, 16 QPR1 from
 * QPR2; @sm's level is kept if it is one of them, else the first is
 * taken. The parcel conventions of the result are the level's, which the
 * service manager's answers do not show (31 and 32 write the stability
 * field as a category).
 * Return: 0, -EPROTONOSUPPORT for an interface no table has (the wire is
 * left as it was), the driver's outcome (BR_DEAD_REPLY: no service
 * manager), or -errno.
 */
int kbinder_sm_detect(struct kbinder_sm *sm);

/* ------------------------------------------------- the service manager */

/*
 * kbinder's own service manager, the context manager side of the same
 * protocols: AIDL IServiceManager with the codes and answers of the
 * server's release (API 30 on), or the C servicemanager's (28, 29). It
 * keeps a strong reference on each service and callback, forgets them
 * when the driver reports their process dead, calls
 * IServiceCallback.onRegistration for every registration of a watched
 * name, and takes a service's binder only from an object the driver
 * translated. At the AIDL releases it also takes its own binder (a
 * client's handle 0, translated or as the bytes libbinder sends), as
 * Android's does, and hands it back to every client as the client's
 * handle 0; the C servicemanager's protocol refuses it, as Android 9 and
 * 10's did. It answers the standard transactions as any object does.
 *
 *	kbinder_ioctl_set_context_mgr(fd);
 *	kbinder_thread_init(&t, fd);
 *	kbinder_sm_server_new(&srv, &t, &wire);
 *	kbinder_thread_enter_looper(&t);
 *	err = kbinder_sm_server_run(srv);     // until an error
 *	kbinder_sm_server_free(srv);
 */
struct kbinder_sm_server;

/** typedef kbinder_sm_log_fn - one line of what the server did, no newline. */
typedef void (*kbinder_sm_log_fn)(void *arg, const char *line);

/**
 * kbinder_sm_server_new() - an empty registry speaking @w's release,
 * answering on @t (the context manager's thread).
 * Return: 0 and *@out, or -ENOMEM.
 */
int kbinder_sm_server_new(struct kbinder_sm_server **out, struct kbinder_thread *t,
			  const struct kbinder_wire *w);
/** kbinder_sm_server_free() - drop the registry (not its references: close the fd). */
void kbinder_sm_server_free(struct kbinder_sm_server *srv);
/** kbinder_sm_server_set_log() - call @fn for every registration, death, watch. */
void kbinder_sm_server_set_log(struct kbinder_sm_server *srv, kbinder_sm_log_fn fn,
			       void *arg);
/**
 * kbinder_sm_server_event() - handle one command read on the server's
 * thread (a kbinder_event_fn, @arg the server): a transaction to the
 * manager, a death, else kbinder_thread_handle_default().
 * Return: 0, or -errno (a caller that died before its reply is not one).
 */
int kbinder_sm_server_event(struct kbinder_thread *t, const struct kbinder_return *ret,
			    void *arg);
/** kbinder_sm_server_run() - read and handle commands until an error, returned. */
int kbinder_sm_server_run(struct kbinder_sm_server *srv);

KBINDER_END_DECLS

#endif /* KBINDER_SERVICEMANAGER_H */
