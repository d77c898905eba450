// SPDX-License-Identifier: GPL-2.0-only
/*
 * Binder worlds (contexts): their life, their context manager, and the
 * misc devices named by devices=, which lead every IPC namespace to its own
 * world.
 */
#include "internal.h"

#include <linux/fs.h>
#include <linux/ipc_namespace.h>
#include <linux/namei.h>
#include <linux/nsproxy.h>
#include <linux/proc_ns.h>
#include <linux/sched.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include "context.h"
#include "node.h"
#include "proc.h"
#include "stats.h"

/**
 * struct kb_device - a misc device named by devices=
 * @miscdev: the character device (its name is the host world's name)
 * @entry: in the module's device list (only touched at init and exit)
 * @host: the world of the initial IPC namespace, and of every opener when
 *	worlds are shared (one reference, dropped at module exit)
 * @lock: protects @contexts, and the entries' transition to a zero count
 * @contexts: the worlds of the other IPC namespaces, each holding a
 *	reference on its namespace; a world leaves the list when its last
 *	process is gone
 */
struct kb_device {
	struct miscdevice miscdev;
	struct list_head entry;
	struct kb_context *host;
	spinlock_t lock; /* protects @contexts */
	struct list_head contexts;
};

static LIST_HEAD(kb_devices);
static bool kb_per_ipc_ns;

static struct kb_context *kb_context_alloc(const char *name)
{
	size_t len = strlen(name);
	struct kb_context *ctx;

	ctx = kzalloc(struct_size(ctx, name, len + 1), GFP_KERNEL_ACCOUNT);
	if (!ctx)
		return NULL;
	memcpy(ctx->name, name, len + 1);
	refcount_set(&ctx->ref, 1);
	ctx->id = kb_new_debug_id();
	mutex_init(&ctx->mgr_lock);
	ctx->mgr_uid = INVALID_UID;
	INIT_LIST_HEAD(&ctx->entry);
	return ctx;
}

/**
 * kb_context_create() - a new binder world, counted as a live object
 * @name: the device name it is reached by (copied)
 *
 * Return: the context with one reference, or NULL (out of memory).
 */
struct kb_context *kb_context_create(const char *name)
{
	struct kb_context *ctx = kb_context_alloc(name);

	if (ctx) {
		ctx->counted = true;
		kb_stats_created(KB_OBJ_CONTEXT);
	}
	return ctx;
}

/**
 * kb_context_get() - take a reference on a context
 * @ctx: the context; the caller holds a reference, or @ctx is reached
 *	through something that does (an open inode)
 *
 * Return: @ctx.
 */
struct kb_context *kb_context_get(struct kb_context *ctx)
{
	refcount_inc(&ctx->ref);
	return ctx;
}

static void kb_context_free(struct kb_context *ctx)
{
	/* The manager's process pinned the context until it let go. */
	WARN_ON_ONCE(rcu_access_pointer(ctx->mgr_node));
	/*
	 * put_ipc_ns() is not exported; the namespace's own operations are
	 * (the same function, reached through its ns_common).
	 */
	if (ctx->ipc_ns)
		ctx->ipc_ns->ns.ops->put(&ctx->ipc_ns->ns);
	if (ctx->counted)
		kb_stats_destroyed(KB_OBJ_CONTEXT);
	mutex_destroy(&ctx->mgr_lock);
	kfree(ctx);
}

/**
 * kb_context_put() - drop a reference; the last one frees the context
 * @ctx: the context
 *
 * Sleeps never: a process's last reference may be dropped anywhere.
 */
void kb_context_put(struct kb_context *ctx)
{
	struct kb_device *dev = ctx->device;
	bool last;

	if (!dev) {
		last = refcount_dec_and_test(&ctx->ref);
	} else if (refcount_dec_not_one(&ctx->ref)) {
		last = false;
	} else {
		/* Off the device's list before a lookup can see it at 0. */
		spin_lock(&dev->lock);
		last = refcount_dec_and_test(&ctx->ref);
		if (last)
			list_del(&ctx->entry);
		spin_unlock(&dev->lock);
	}
	if (last)
		kb_context_free(ctx);
}

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

static struct kb_context *kb_device_find(struct kb_device *dev,
					 struct ipc_namespace *ns)
	__must_hold(&dev->lock)
{
	struct kb_context *ctx;

	lockdep_assert_held(&dev->lock);
	list_for_each_entry(ctx, &dev->contexts, entry) {
		/* A listed context has a count: it drops to 0 under the lock. */
		if (ctx->ipc_ns == ns)
			return kb_context_get(ctx);
	}
	return NULL;
}

/**
 * kb_device_context() - the world an opener of a misc device enters
 * @misc: the device being opened
 *
 * The initial IPC namespace (and everyone, when worlds are shared) gets the
 * device's host world; any other IPC namespace gets its own, made on its
 * first open and freed when its last process is gone. The world holds a
 * reference on its namespace, so the namespace, the key, cannot be freed
 * and its address reused for another while the world exists.
 *
 * Return: the context with a reference for the caller, or
 * ERR_PTR(-ENOMEM).
 */
struct kb_context *kb_device_context(struct miscdevice *misc)
{
	struct kb_device *dev = container_of(misc, struct kb_device, miscdev);
	struct ipc_namespace *ns = current->nsproxy->ipc_ns;
	struct kb_context *ctx, *spare;

	if (!kb_per_ipc_ns || ns->ns.inum == PROC_IPC_INIT_INO)
		return kb_context_get(dev->host);

	spin_lock(&dev->lock);
	ctx = kb_device_find(dev, ns);
	spin_unlock(&dev->lock);
	if (ctx)
		return ctx;

	spare = kb_context_create(dev->host->name);
	if (!spare)
		return ERR_PTR(-ENOMEM);
	spin_lock(&dev->lock);
	ctx = kb_device_find(dev, ns);
	if (!ctx) {
		/* Our own namespace: current holds it, so it is alive. */
		spare->ipc_ns = get_ipc_ns(ns);
		spare->device = dev;
		list_add(&spare->entry, &dev->contexts);
		ctx = spare;
		spare = NULL;
	}
	spin_unlock(&dev->lock);
	if (spare)
		kb_context_put(spare);
	return ctx;
}

static int kb_device_create(const char *name,
			    const struct file_operations *fops, umode_t mode)
{
	struct kb_device *dev;
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
	dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	if (!dev)
		return -ENOMEM;
	dev->host = kb_context_alloc(name);
	if (!dev->host) {
		kfree(dev);
		return -ENOMEM;
	}
	spin_lock_init(&dev->lock);
	INIT_LIST_HEAD(&dev->contexts);
	dev->miscdev.minor = MISC_DYNAMIC_MINOR;
	dev->miscdev.name = dev->host->name;
	dev->miscdev.fops = fops;
	dev->miscdev.mode = mode;
	ret = misc_register(&dev->miscdev);
	if (ret) {
		pr_err("cannot register device \"%s\": %d\n", name, ret);
		kb_context_put(dev->host);
		kfree(dev);
		return ret;
	}
	list_add_tail(&dev->entry, &kb_devices);
	return 0;
}

/**
 * kb_devices_create() - create one binder misc device per name
 * @names: comma-separated device names
 * @fops: the file operations of an open device (the file layer's)
 * @per_ipc_ns: give each IPC namespace its own world (else one shared
 *	world per device, as upstream)
 * @mode: their permissions (owner root)
 *
 * On failure every device created so far is removed again.
 *
 * Return: 0 or a negative errno.
 */
int kb_devices_create(const char *names, const struct file_operations *fops,
		      bool per_ipc_ns, umode_t mode)
{
	char *copy, *cursor, *name;
	int ret = 0;

	kb_per_ipc_ns = per_ipc_ns;
	copy = kstrdup(names, GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	cursor = copy;
	while ((name = strsep(&cursor, ",")) != NULL) {
		if (!*name)
			continue;
		ret = kb_device_create(name, fops, mode);
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
 * kb_devices_destroy() - remove every binder misc device
 *
 * Called at module exit, after the last process was torn down: open files
 * pin the module, and their processes pin the worlds of other namespaces,
 * so none of those is left.
 */
void kb_devices_destroy(void)
{
	struct kb_device *dev, *tmp;

	list_for_each_entry_safe(dev, tmp, &kb_devices, entry) {
		misc_deregister(&dev->miscdev);
		list_del(&dev->entry);
		WARN_ON_ONCE(!list_empty(&dev->contexts));
		kb_context_put(dev->host);
		kfree(dev);
	}
}
