/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Freeze notifications (mainline 6.12): BC_REQUEST/CLEAR_FREEZE_NOTIFICATION,
 * BR_FROZEN_BINDER, BC_FREEZE_NOTIFICATION_DONE and
 * BR_CLEAR_FREEZE_NOTIFICATION_DONE.
 */
#ifndef _KB_FREEZE_NOTIFY_H
#define _KB_FREEZE_NOTIFY_H

#include "internal.h"
#include "proc.h"
#include "work.h"

struct kb_proc;
struct kb_ref;
struct kb_thread;

/**
 * struct kb_freeze_note - a freeze notification request on a ref
 * @work: queued on the requesting process's todo (BR_FROZEN_BINDER), on
 *	its delivered_freeze list (waiting for BC_FREEZE_NOTIFICATION_DONE),
 *	or on its todo as BR_CLEAR_FREEZE_NOTIFICATION_DONE (protected by
 *	the requesting process's inner_lock; @work.ops tells which)
 * @cookie: the requester's cookie (constant)
 * @is_frozen: the owner's latest state (protected by the requesting
 *	process's inner_lock)
 * @sent_frozen: the state last delivered (same lock)
 * @sent: delivered, waiting for BC_FREEZE_NOTIFICATION_DONE (same lock)
 * @cleared: the request was cleared; the note belongs to the list it is
 *	on, no longer to its ref, and is counted in @proc's cleared notes
 *	until freed (same lock)
 * @proc: the requesting process (constant; it outlives its requests)
 * @delivered: in @proc's index of delivered notices while on its
 *	delivered_freeze list (same lock)
 *
 * Owned by its ref while the ref points to it, then by the list it is on.
 */
struct kb_freeze_note {
	struct kb_work work;
	struct kb_cookie_node delivered;
	binder_uintptr_t cookie;
	bool is_frozen;
	bool sent_frozen;
	bool sent;
	bool cleared;
	struct kb_proc *proc;
};

struct kb_freeze_note *kb_freeze_notify_new(struct kb_proc *proc,
					    binder_uintptr_t cookie);
int kb_freeze_notify_request(struct kb_ref *ref, struct kb_freeze_note *note);
int kb_freeze_notify_clear(struct kb_thread *thread, struct kb_ref *ref,
			   binder_uintptr_t cookie);
int kb_freeze_notify_done(struct kb_thread *thread, binder_uintptr_t cookie);
void kb_freeze_notify_changed(struct kb_proc *proc, bool frozen);
void kb_freeze_notify_free(struct kb_proc *proc, struct kb_freeze_note *note);

#endif /* _KB_FREEZE_NOTIFY_H */
