// SPDX-License-Identifier: GPL-2.0-only
/*
 * Creation and removal of the binder misc devices named by devices=.
 */
#include "internal.h"

#include <linux/fs.h>
#include <linux/namei.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "context.h"
#include "node.h"
#include "proc.h"

static LIST_HEAD(kb_devices);

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
	spin_lock(&node->lock);
	node->inner.local_strong++;
	node->inner.local_weak++;
	node->inner.has_strong_ref = true;
	node->inner.has_weak_ref = true;
	node->inner.is_mgr = true;
	spin_unlock(&node->lock);
	refcount_inc(&node->mem);
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
		owned = node->inner.owner == proc;
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

/*
 * misc_register() with a name that already exists fails only after sysfs
 * has printed a warning with a stack dump; look for the name first so that
 * a clash (e.g. the reference driver owns "binder") is reported cleanly.
 */
static bool kb_device_name_taken(const char *name)
{
	struct path path;
	char *sysname;
	bool taken;

	sysname = kasprintf(GFP_KERNEL, "/sys/class/misc/%s", name);
	if (!sysname)
		return false;
	taken = !kern_path(sysname, LOOKUP_FOLLOW, &path);
	if (taken)
		path_put(&path);
	kfree(sysname);
	return taken;
}

static int kb_device_create(const char *name, umode_t mode)
{
	struct kb_context *ctx;
	size_t len = strlen(name);
	int ret;

	if (!len || len > 64 || strchr(name, '/')) {
		pr_err("invalid device name \"%s\"\n", name);
		return -EINVAL;
	}
	if (kb_device_name_taken(name)) {
		pr_err("device name \"%s\" is already taken (is another binder driver loaded?)\n",
		       name);
		return -EEXIST;
	}
	ctx = kzalloc(struct_size(ctx, name, len + 1), GFP_KERNEL);
	if (!ctx)
		return -ENOMEM;
	memcpy(ctx->name, name, len + 1);
	mutex_init(&ctx->mgr_lock);
	ctx->mgr_uid = INVALID_UID;
	ctx->miscdev.minor = MISC_DYNAMIC_MINOR;
	ctx->miscdev.name = ctx->name;
	ctx->miscdev.fops = &kb_proc_fops;
	ctx->miscdev.mode = mode;
	ret = misc_register(&ctx->miscdev);
	if (ret) {
		pr_err("cannot register device \"%s\": %d\n", name, ret);
		kfree(ctx);
		return ret;
	}
	list_add_tail(&ctx->entry, &kb_devices);
	return 0;
}

/**
 * kb_devices_create() - create one binder device per name
 * @names: comma-separated device names
 * @mode: their permissions (owner root)
 *
 * On failure every device created so far is removed again.
 *
 * Return: 0 or a negative errno.
 */
int kb_devices_create(const char *names, umode_t mode)
{
	char *copy, *cursor, *name;
	int ret = 0;

	copy = kstrdup(names, GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	cursor = copy;
	while ((name = strsep(&cursor, ",")) != NULL) {
		if (!*name)
			continue;
		ret = kb_device_create(name, mode);
		if (ret)
			break;
	}
	kfree(copy);
	if (!ret && list_empty(&kb_devices)) {
		pr_err("no device names given\n");
		ret = -EINVAL;
	}
	if (ret)
		kb_devices_destroy();
	return ret;
}

/**
 * kb_devices_destroy() - remove every binder device
 *
 * Called at module exit, when no file is open any more (each open file
 * holds a module reference).
 */
void kb_devices_destroy(void)
{
	struct kb_context *ctx, *tmp;

	list_for_each_entry_safe(ctx, tmp, &kb_devices, entry) {
		misc_deregister(&ctx->miscdev);
		list_del(&ctx->entry);
		kfree(ctx);
	}
}
