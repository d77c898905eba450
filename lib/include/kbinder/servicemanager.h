/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libkbinder: a client of the service manager (handle 0), speaking the
 * protocol of the Android release its struct kbinder_wire names: the C
 * servicemanager's before Android 11 (API 28, 29), AIDL IServiceManager
 * from Android 11 (API 30) on, with the transaction codes of each level.
 *
 *	struct kbinder_sm sm;
 *	uint32_t handle;
 *
 *	kbinder_sm_init(&sm, &thread, 0);        // default API level
 *	if (kbinder_sm_check(&sm, "my.service", &handle) == 0) {
 *		... call it ...
 *		kbinder_ref(&thread, BC_RELEASE, handle);
 *	}
 */
#ifndef KBINDER_SERVICEMANAGER_H
#define KBINDER_SERVICEMANAGER_H

#include <kbinder/android.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) && !defined(KBINDER_NO_VISIBILITY)
#pragma GCC visibility push(default)
#endif

#define KBINDER_SM_DESCRIPTOR		"android.os.IServiceManager"
#define KBINDER_SM_CALLBACK_DESCRIPTOR	"android.os.IServiceCallback"
/* IServiceCallback.onRegistration(String name, IBinder binder), one-way */
#define KBINDER_SM_CALLBACK_ON_REGISTRATION 1

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
	KBINDER_SM_METHODS
};

/** kbinder_sm_code() - @m's transaction code at @w's level; 0 if it has none. */
uint32_t kbinder_sm_code(const struct kbinder_wire *w, enum kbinder_sm_method m);
/** kbinder_sm_method_of() - the method @code names at @w's level, or -1. */
int kbinder_sm_method_of(const struct kbinder_wire *w, uint32_t code);
/** kbinder_sm_method_name() - "getService" etc. */
const char *kbinder_sm_method_name(enum kbinder_sm_method m);
/** kbinder_sm_is_aidl() - true from API 30: AIDL IServiceManager. */
bool kbinder_sm_is_aidl(const struct kbinder_wire *w);

/**
 * struct kbinder_sm - a service manager client on one thread.
 * @thread:     the calling thread
 * @wire:       the protocol (API level)
 * @other:      handler for commands that arrive during a call (NULL:
 *              kbinder_handle_default)
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
 * The calls return 0 or a negative errno: -EPIPE when there is no service
 * manager (a dead reply), -ENOENT for a name it does not know, -EINVAL
 * (EX_ILLEGAL_ARGUMENT), -EPERM (EX_SECURITY), -EFAULT (EX_NULL_POINTER),
 * -EBUSY (EX_ILLEGAL_STATE), -EOPNOTSUPP (EX_UNSUPPORTED_OPERATION or a
 * method the level does not have), -EBADMSG (a reply that does not parse),
 * or the status code a status-code reply carried.
 */

/**
 * kbinder_sm_check() - look @name up (checkService). On success *@handle
 * holds a strong reference of ours: BC_RELEASE it when done.
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
 * kbinder_sm_reply_error() - the -errno for a reply: BR_DEAD_REPLY -EPIPE,
 * BR_FAILED_REPLY -EIO, BR_FROZEN_REPLY -EAGAIN; a status-code reply its
 * status. Return 0 if @reply is a normal BR_REPLY (whose buffer the caller
 * still owns); otherwise the buffer was freed.
 */
int kbinder_sm_reply_error(struct kbinder_thread *t, const struct kbinder_reply *reply);
/** kbinder_exception_errno() - the -errno kbinder_sm_* use for an AIDL exception. */
int kbinder_exception_errno(int32_t exception);

#if defined(__GNUC__) && !defined(KBINDER_NO_VISIBILITY)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif /* KBINDER_SERVICEMANAGER_H */
