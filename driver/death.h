/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Death notifications: BC_REQUEST/CLEAR_DEATH_NOTIFICATION, BR_DEAD_BINDER,
 * BC_DEAD_BINDER_DONE and BR_CLEAR_DEATH_NOTIFICATION_DONE.
 */
#ifndef _KB_DEATH_H
#define _KB_DEATH_H

#include "internal.h"
#include "proc.h"
#include "work.h"

struct kb_proc;
struct kb_ref;
struct kb_thread;

/**
 * struct kb_death - a death notification request on a ref
 * @work: queued on the requesting process's todo (BR_DEAD_BINDER), on its
 *	delivered_death list (waiting for BC_DEAD_BINDER_DONE), or on a
 *	todo list as BR_CLEAR_DEATH_NOTIFICATION_DONE (protected by the
 *	requesting process's inner_lock; @work.ops tells which)
 * @cookie: the requester's cookie (constant)
 * @clear_pending: cleared while BR_DEAD_BINDER was queued or delivered:
 *	BC_DEAD_BINDER_DONE then sends BR_CLEAR_DEATH_NOTIFICATION_DONE
 *	(protected by the requesting process's inner_lock)
 * @proc: the requesting process (constant; it outlives its requests)
 * @cleared: the request was cleared; counted in @proc's cleared notes
 *	until freed (written once, under the requesting process's inner_lock)
 * @delivered: in @proc's index of delivered notices while on its
 *	delivered_death list (same lock)
 *
 * Owned by its ref while the ref points to it, then by the list it is on.
 */
struct kb_death {
	struct kb_work work;
	struct kb_cookie_node delivered;
	binder_uintptr_t cookie;
	bool clear_pending;
	struct kb_proc *proc;
	bool cleared;
};

struct kb_death *kb_death_new(struct kb_proc *proc, binder_uintptr_t cookie);
int kb_death_request(struct kb_ref *ref, struct kb_death *death);
int kb_death_clear(struct kb_thread *thread, struct kb_ref *ref,
		   binder_uintptr_t cookie);
int kb_death_done(struct kb_thread *thread, binder_uintptr_t cookie);
void kb_death_notify(struct kb_ref *ref);
void kb_death_free(struct kb_proc *proc, struct kb_death *death);

#endif /* _KB_DEATH_H */
