// SPDX-License-Identifier: GPL-2.0-only
/*
 * The context manager of a binder world: the process whose node is handle
 * 0 for everyone in it. Above the nodes (it makes and holds one); the
 * world itself is context.c.
 */
#include "internal.h"

#include <linux/cred.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/security.h>

#include "context.h"
#include "context_mgr.h"
#include "node.h"
#include "proc.h"

/**
 * kb_context_set_mgr() - BINDER_SET_CONTEXT_MGR(_EXT)
 * @proc: the process that becomes context manager of its device
 * @fbo: the node's pointer, cookie and flags (all zero for the plain ioctl)
 *
 * The manager's node is held by the kernel (strong and weak) until the
 * process dies. Once an euid was manager, only that euid (of the caller,
 * at the time of the call) may be again.
 *
 * Return: 0, -EBUSY (there is one), -EPERM, or -ENOMEM.
 */
int kb_context_set_mgr(struct kb_proc *proc,
		       const struct flat_binder_object *fbo)
{
	struct kb_context *ctx = proc->ctx;
	kuid_t euid = current_euid();
	struct kb_node *node;
	int ret;

	mutex_lock(&ctx->mgr_lock);
	if (rcu_access_pointer(ctx->mgr_node)) {
		ret = -EBUSY;
		goto out;
	}
	ret = security_binder_set_context_mgr(proc->cred);
	if (ret)
		goto out;
	if (uid_valid(ctx->mgr_uid) && !uid_eq(ctx->mgr_uid, euid)) {
		ret = -EPERM;
		goto out;
	}
	node = kb_node_get_or_create(proc, fbo);
	if (!node) {
		ret = -ENOMEM;
		goto out;
	}
	kb_node_set_mgr(node);
	rcu_assign_pointer(ctx->mgr_node, node);
	ctx->mgr_uid = euid;
	kb_node_unpin(node);
out:
	mutex_unlock(&ctx->mgr_lock);
	return ret;
}

/**
 * kb_context_release_mgr() - a dying process stops being context manager
 * @proc: the process
 */
void kb_context_release_mgr(struct kb_proc *proc)
{
	struct kb_context *ctx = proc->ctx;
	struct kb_node *node;
	bool owned = false;

	mutex_lock(&ctx->mgr_lock);
	node = rcu_dereference_protected(ctx->mgr_node,
					 lockdep_is_held(&ctx->mgr_lock));
	if (node) {
		spin_lock(&node->lock);
		owned = kb_node_owner_locked(node) == proc;
		spin_unlock(&node->lock);
	}
	if (owned)
		RCU_INIT_POINTER(ctx->mgr_node, NULL);
	mutex_unlock(&ctx->mgr_lock);
	if (owned) {
		/* A sender that found the node under RCU has pinned it now. */
		synchronize_rcu();
		kb_node_put_mem(node);
	}
}
