// SPDX-License-Identifier: GPL-2.0-only
/*
 * Freeze notifications (mainline 6.12): what is theirs in a notice's life
 * cycle (notice.c).
 *
 * A process asks, per handle, to be told when the process owning the
 * handle's node is frozen or thawed. The current state is sent at once
 * (unless the node's owner is gone), then again after every successful
 * BINDER_FREEZE or thaw of the owner (freeze.c walks the owner's nodes,
 * kb_node_fire_notices()), as BR_FROZEN_BINDER with the cookie and the
 * state; a change while a notice is out is sent after its
 * BC_FREEZE_NOTIFICATION_DONE. Clearing a request turns a notice still
 * queued into BR_CLEAR_FREEZE_NOTIFICATION_DONE in place; nothing is
 * queued to a dead process.
 */
#include "internal.h"

#include <linux/spinlock.h>

#include "freeze_notify.h"
#include "notice.h"
#include "proc.h"

static int kb_freeze_notify_deliver(struct kb_work *work,
				    struct kb_thread *thread,
				    struct kb_wbuf *out,
				    const union kb_work_snap *snap)
{
	struct binder_frozen_state_info info = {
		.cookie = snap->notice.cookie,
		.is_frozen = snap->notice.state,
	};
	int ret = kb_wbuf_put_u32(out, BR_FROZEN_BINDER);

	return ret ? ret : kb_wbuf_put(out, &info, sizeof(info));
}

/*
 * The owner's state now, unless the owner is gone. Its lock is dropped
 * before the requester's is taken: never two processes' at once.
 */
static void kb_freeze_notify_requested(struct kb_notice *n,
				       struct kb_proc *owner)
{
	bool frozen;

	if (!owner)
		return;
	spin_lock(&owner->inner_lock);
	frozen = kb_proc_is_frozen_locked(owner);
	spin_unlock(&owner->inner_lock);
	kb_notice_fire(n, frozen);
}

static const struct kb_notice_ops kb_freeze_notify_ops = {
	.notice = {
		.name = "frozen binder",
		.take = kb_notice_take,
		.deliver = kb_freeze_notify_deliver,
		.claim = kb_notice_claim,
		.cancel = kb_notice_cancel,
	},
	.clear_done = {
		.name = "clear freeze notification done",
		.deliver = kb_notice_clear_deliver,
		.claim = kb_notice_claim,
		.cancel = kb_notice_cancel,
	},
	.requested = kb_freeze_notify_requested,
	.kind = KB_NOTICE_FREEZE,
	.clear_cmd = BR_CLEAR_FREEZE_NOTIFICATION_DONE,
	.stats = KB_OBJ_WORK,
	.clear_replaces_queued = true,
	.clear_done_to_caller = false,
};

/**
 * kb_freeze_notify_new() - allocate a freeze notification request
 * @proc: the requesting process
 * @cookie: returned with BR_FROZEN_BINDER
 *
 * Return: the request (kb_ref_request_notice() takes it over), or NULL.
 */
struct kb_notice *kb_freeze_notify_new(struct kb_proc *proc,
				       binder_uintptr_t cookie)
{
	return kb_notice_new(&kb_freeze_notify_ops, proc, cookie);
}
