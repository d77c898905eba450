/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Notices: the one life cycle of death notifications (death.c) and freeze
 * notifications (freeze_notify.c). A process asks, per handle, to be told
 * about the node's owner; the request hangs off its ref, fires (is queued
 * on the requester), is delivered and waits for its DONE command; clearing
 * it answers a "clear done".
 */
#ifndef _KB_NOTICE_H
#define _KB_NOTICE_H

#include "internal.h"
#include "proc.h"
#include "stats.h"
#include "work.h"

struct kb_notice;
struct kb_thread;

/**
 * enum kb_notice_kind - the kinds of notice (the index of a ref's requests)
 * @KB_NOTICE_DEATH: BR_DEAD_BINDER: the node's owner died
 * @KB_NOTICE_FREEZE: BR_FROZEN_BINDER: the node's owner was frozen or
 *	thawed (mainline 6.12)
 * @KB_NOTICE_KINDS: number of kinds
 */
enum kb_notice_kind {
	KB_NOTICE_DEATH,
	KB_NOTICE_FREEZE,
	KB_NOTICE_KINDS
};

/**
 * struct kb_notice_ops - what one kind of notice does differently
 * @notice: the work of the notice itself: take kb_notice_take(), claim
 *	kb_notice_claim(), cancel kb_notice_cancel(), the kind's own deliver
 *	and name
 * @clear_done: the work of its "clear done": deliver
 *	kb_notice_clear_deliver(), claim and cancel as @notice, the kind's
 *	name
 * @requested: called when a request is hung off its ref, under the ref's
 *	node's lock, with the node's owner (NULL once it died): fire the
 *	notice if it has something to say already
 * @kind: the kind
 * @clear_cmd: BR_CLEAR_DEATH_NOTIFICATION_DONE or
 *	BR_CLEAR_FREEZE_NOTIFICATION_DONE
 * @stats: the live-object counter of its requests
 * @clear_replaces_queued: clearing a notice that is queued and not yet
 *	delivered turns it into the "clear done" in place (freeze); else it
 *	is delivered, and the "clear done" follows its DONE (death)
 * @clear_done_to_caller: the "clear done" goes to the clearing thread if
 *	it is a looper, else to its process, dead or not (death, as upstream);
 *	else to the process unless it is dead (freeze, as mainline)
 */
struct kb_notice_ops {
	struct kb_work_ops notice;
	struct kb_work_ops clear_done;
	void (*requested)(struct kb_notice *n, struct kb_proc *owner);
	enum kb_notice_kind kind;
	u32 clear_cmd;
	enum kb_obj stats;
	bool clear_replaces_queued;
	bool clear_done_to_caller;
};

/**
 * struct kb_notice - a notification request on a ref
 * @work: queued on the requesting process's todo (the notice), on its
 *	list of delivered notices (waiting for the DONE command), or on a
 *	todo list as the "clear done" (protected by the requesting process's
 *	inner_lock; @work.ops tells which)
 * @delivered: in @proc's index of delivered notices while it is on its
 *	delivered list; holds the requester's cookie (constant) (same lock)
 * @ops: its kind (constant)
 * @proc: the requesting process (constant; it outlives its requests)
 * @state: what the notice reports next (a freeze notice: 1 while the
 *	node's owner is frozen; a death notice: 0) (same lock)
 * @sent_state: @state as it was last delivered (same lock)
 * @sent: delivered, waiting for its DONE command (same lock)
 * @cleared: the request was cleared: it belongs to the list it is on, no
 *	longer to its ref, and is counted in @proc's cleared notes until
 *	freed (written once, same lock)
 *
 * Owned by its ref while the ref points to it, then by the list it is on.
 * A teardown that takes a notice off a list decides which under the lock
 * (kb_notice_claim()), and does not touch one its ref owns after it.
 */
struct kb_notice {
	struct kb_work work;
	struct kb_delivered delivered;
	const struct kb_notice_ops *ops;
	struct kb_proc *proc;
	u32 state;
	u32 sent_state;
	bool sent;
	bool cleared;
};

struct kb_notice *kb_notice_new(const struct kb_notice_ops *ops,
				struct kb_proc *proc, binder_uintptr_t cookie);
void kb_notice_discard(struct kb_notice *n);
void kb_notice_destroy(struct kb_notice *n);

void kb_notice_requested(struct kb_notice *n, struct kb_proc *owner);
void kb_notice_queue(struct kb_notice *n);
void kb_notice_fire(struct kb_notice *n, u32 state);
bool kb_notice_clear(struct kb_notice *n, struct kb_thread *thread);
int kb_notice_done(struct kb_thread *thread, enum kb_notice_kind kind,
		   binder_uintptr_t cookie);
void kb_notice_free(struct kb_notice *n);

void kb_notice_take(struct kb_work *work, struct kb_thread *thread,
		    union kb_work_snap *snap);
bool kb_notice_claim(struct kb_work *work);
void kb_notice_cancel(struct kb_work *work);
int kb_notice_clear_deliver(struct kb_work *work, struct kb_thread *thread,
			    struct kb_wbuf *out,
			    const union kb_work_snap *snap);

/**
 * kb_notice_cookie() - the cookie a notice was requested with
 * @n: the notice
 *
 * Return: the cookie (constant).
 */
static inline binder_uintptr_t kb_notice_cookie(const struct kb_notice *n)
{
	return n->delivered.cookie;
}

#endif /* _KB_NOTICE_H */
