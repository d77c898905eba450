// SPDX-License-Identifier: GPL-2.0-only
/*
 * Death notifications: what is theirs in a notice's life cycle (notice.c).
 *
 * A request fires when the node's owner dies (the node's release walks
 * its refs, kb_node_release()), or at once if it is dead already, then
 * as BR_DEAD_BINDER with the cookie; the read ends there, since the
 * handler may call out in reaction. Clearing a request that is queued
 * lets it be delivered first: BR_CLEAR_DEATH_NOTIFICATION_DONE follows
 * BC_DEAD_BINDER_DONE, and it goes to the clearing thread if that is a
 * looper, as upstream's does.
 */
#include "internal.h"

#include "death.h"
#include "notice.h"

static int kb_death_deliver(struct kb_work *work, struct kb_thread *thread,
			    struct kb_wbuf *out, const union kb_work_snap *snap)
{
	int ret = kb_wbuf_put_u32(out, BR_DEAD_BINDER);

	if (!ret)
		ret = kb_wbuf_put(out, &snap->notice.cookie,
				  sizeof(snap->notice.cookie));
	/* The handler may call out in reaction: end this read here. */
	return ret ? ret : KB_READ_STOP;
}

/* A node whose owner is gone already fires at once, dead process or not. */
static void kb_death_requested(struct kb_notice *n, struct kb_proc *owner)
{
	if (!owner)
		kb_notice_queue(n);
}

static const struct kb_notice_ops kb_death_ops = {
	.notice = {
		.name = "dead binder",
		.take = kb_notice_take,
		.deliver = kb_death_deliver,
		.claim = kb_notice_claim,
		.cancel = kb_notice_cancel,
	},
	.clear_done = {
		.name = "clear death notification done",
		.deliver = kb_notice_clear_deliver,
		.claim = kb_notice_claim,
		.cancel = kb_notice_cancel,
	},
	.requested = kb_death_requested,
	.kind = KB_NOTICE_DEATH,
	.clear_cmd = BR_CLEAR_DEATH_NOTIFICATION_DONE,
	.stats = KB_OBJ_DEATH,
	.clear_replaces_queued = false,
	.clear_done_to_caller = true,
};

/**
 * kb_death_new() - allocate a death notification request
 * @proc: the requesting process
 * @cookie: returned with BR_DEAD_BINDER
 *
 * Return: the request (kb_ref_request_notice() takes it over), or NULL.
 */
struct kb_notice *kb_death_new(struct kb_proc *proc, binder_uintptr_t cookie)
{
	return kb_notice_new(&kb_death_ops, proc, cookie);
}
