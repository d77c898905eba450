/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kbinder's service manager, inside the library, bottom up: the registry
 * the two dialects share (sm_registry.c), the dialects, AIDL
 * IServiceManager (sm_aidl.c) and the C servicemanager's (sm_pre11.c), and
 * the server they make up (sm_server.c). The registry calls nothing above
 * it: the handler for the commands that arrive during its own calls is
 * the server's, passed down in @event.
 */
#ifndef KBINDER_SM_SERVER_H
#define KBINDER_SM_SERVER_H

#include <sys/types.h>

#include "internal.h"

#define KBINDER_SMS_SERVICES	256
#define KBINDER_SMS_WATCHES	256
#define KBINDER_SMS_DEATHS	(KBINDER_SMS_SERVICES + KBINDER_SMS_WATCHES)
#define KBINDER_SMS_NAME_MAX	127	/* Android's limit for service names */

/*
 * The binder a service was registered with: a reference of the manager's
 * to another process's node (@handle; the driver numbers those from 1),
 * or the manager's own node (@self), which a client registers by sending
 * its handle 0 and which the driver hands the manager as BINDER_TYPE_BINDER
 * (@ptr, @cookie: the node as the transactions to the manager name it).
 * Written back, that object becomes each client's handle 0 again. The
 * manager takes no reference and asks for no death notice on its own node.
 */
struct kbinder_sms_binder {
	bool self;
	uint32_t handle;
	binder_uintptr_t ptr, cookie;
	uint32_t stability;	/* its stability field, as written back */
};

struct kbinder_sms_service {
	char name[KBINDER_SMS_NAME_MAX + 1];
	bool used;		/* false: a free slot */
	struct kbinder_sms_binder binder;
	pid_t pid;
	int32_t dump_priority;
	bool allow_isolated;
};

struct kbinder_sms_watch {
	char name[KBINDER_SMS_NAME_MAX + 1];
	uint32_t handle;	/* the IServiceCallback; 0: slot free */
};

/* One death notification per handle (the driver allows one per ref). */
struct kbinder_sms_death {
	uint32_t handle;
	unsigned int users;
};

struct kbinder_sm_server {
	struct kbinder_thread *thread;
	struct kbinder_wire wire;
	struct kbinder_object obj;
	kbinder_event_fn event;
	kbinder_sm_log_fn log;
	void *log_arg;
	struct kbinder_sms_service services[KBINDER_SMS_SERVICES];
	struct kbinder_sms_watch watches[KBINDER_SMS_WATCHES];
	struct kbinder_sms_death deaths[KBINDER_SMS_DEATHS];
};

/* sm_server.c: kbinder_sms_init() is kbinder_sm_server_new() in place */
void kbinder_sms_init(struct kbinder_sm_server *s, struct kbinder_thread *t,
		      const struct kbinder_wire *w);

/* sm_registry.c */
void kbinder_sms_log(struct kbinder_sm_server *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
bool kbinder_sms_valid_name(const char *name);
int kbinder_sms_read_binder(struct kbinder_sm_server *s, struct kbinder_call *c,
			    struct kbinder_sms_binder *b);
bool kbinder_sms_same(const struct kbinder_sms_binder *a, const struct kbinder_sms_binder *b);
void kbinder_sms_object(const struct kbinder_sms_binder *b, struct flat_binder_object *obj);
int kbinder_sms_hold(struct kbinder_sm_server *s, uint32_t handle);
void kbinder_sms_unhold(struct kbinder_sm_server *s, uint32_t handle, bool dead);
struct kbinder_sms_service *kbinder_sms_find(struct kbinder_sm_server *s,
					     const char *name);
void kbinder_sms_drop(struct kbinder_sm_server *s, struct kbinder_sms_service *svc,
		      bool dead);
int kbinder_sms_add(struct kbinder_sm_server *s, const char *name,
		    const struct kbinder_sms_binder *b, pid_t pid, bool allow_isolated,
		    int32_t dump_priority);
void kbinder_sms_notify(struct kbinder_sm_server *s,
			const struct kbinder_sms_service *svc, int only);
struct kbinder_sms_watch *kbinder_sms_watch_slot(struct kbinder_sm_server *s,
						 uint32_t handle, const char *name);
void kbinder_sms_forget(struct kbinder_sm_server *s, uint32_t handle);

/* the dialects: answer user code @code into @c->reply (a kbinder_object handle) */
int kbinder_sms_aidl(struct kbinder_sm_server *s, uint32_t code, struct kbinder_call *c);
int kbinder_sms_pre11(struct kbinder_sm_server *s, uint32_t code, struct kbinder_call *c);

#endif /* KBINDER_SM_SERVER_H */
