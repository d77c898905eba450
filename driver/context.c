// SPDX-License-Identifier: GPL-2.0-only
/*
 * Binder worlds (contexts): their life, and the misc devices named by
 * devices=, which lead every IPC namespace to its own world. Below the
 * processes, which pin their world; the context manager, which needs
 * nodes, is context_mgr.c.
 */
#include "internal.h"

#include <linux/err.h>
#include <linux/fs.h>
#include <linux/device.h>
#include <linux/ipc_namespace.h>
#include <linux/lockdep.h>
#include <linux/mm.h>
#include <linux/nsproxy.h>
#include <linux/percpu.h>
#include <linux/proc_ns.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include "context.h"
#include "counts.h"
#include "profile.h"
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
/* The devices may be opened (kb_devices_enable()). */
static bool kb_devices_enabled;
/* Every world, for the readers of their counters (counts.c). */
static LIST_HEAD(kb_worlds);
static DEFINE_SPINLOCK(kb_worlds_lock);

static struct kb_context *kb_context_alloc(const char *name, u8 profile)
{
	size_t len = strlen(name);
	struct kb_context *ctx;
	u64 id = kb_new_world_id();

	if (!id)
		return ERR_PTR(-ENOSPC);
	ctx = kzalloc(struct_size(ctx, name, len + 1), GFP_KERNEL_ACCOUNT);
	if (!ctx)
		return ERR_PTR(-ENOMEM);
	ctx->counts = alloc_percpu_gfp(struct kb_counts, GFP_KERNEL_ACCOUNT);
	if (!ctx->counts) {
		kfree(ctx);
		return ERR_PTR(-ENOMEM);
	}
	memcpy(ctx->name, name, len + 1);
	refcount_set(&ctx->ref, 1);
	ctx->id = id;
	ctx->profile = profile;
	mutex_init(&ctx->mgr_lock);
	ctx->mgr_uid = INVALID_UID;
	INIT_LIST_HEAD(&ctx->entry);
	spin_lock(&kb_worlds_lock);
	list_add_tail(&ctx->world_entry, &kb_worlds);
	spin_unlock(&kb_worlds_lock);
	return ctx;
}

/**
 * kb_context_create() - a new binder world, counted as a live object
 * @name: the device name it is reached by (copied)
 * @profile: the part of the protocol it accepts (enum kb_profile)
 *
 * Return: the context with one reference, ERR_PTR(-ENOMEM), or
 * ERR_PTR(-ENOSPC) when no world id is left (kb_new_world_id()).
 */
struct kb_context *kb_context_create(const char *name, u8 profile)
{
	struct kb_context *ctx = kb_context_alloc(name, profile);

	if (!IS_ERR(ctx)) {
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
	spin_lock(&kb_worlds_lock);
	list_del(&ctx->world_entry);
	kb_counts_retire(ctx->counts);
	spin_unlock(&kb_worlds_lock);
	free_percpu(ctx->counts);
	mutex_destroy(&ctx->mgr_lock);
	kfree(ctx);
}

/* Worlds kb_context_pin_worlds() takes beyond those it counted first. */
#define KB_PIN_SLACK 16

/*
 * Under kb_worlds_lock: pin the worlds @match accepts into @worlds (room
 * for @room), or only count them if @worlds is NULL. With @total, add the
 * retired counters and those of every world being freed (at 0, still on
 * the list until kb_context_free() retires it under this lock).
 */
static size_t kb_context_pin_locked(bool (*match)(const struct kb_context *,
						  const void *),
				    const void *arg, struct kb_counts *total,
				    struct kb_context **worlds, size_t room)
{
	struct kb_context *ctx;
	size_t n = 0;

	lockdep_assert_held(&kb_worlds_lock);
	if (total)
		kb_counts_add_retired(total);
	list_for_each_entry(ctx, &kb_worlds, world_entry) {
		bool shown = !match || match(ctx, arg);

		if (!worlds) {
			n += shown;
			continue;
		}
		if (shown && n < room && refcount_inc_not_zero(&ctx->ref))
			worlds[n++] = ctx;
		else if (total)
			kb_counts_sum(total, ctx->counts);
	}
	return n;
}

/**
 * kb_context_pin_worlds() - take a reference on each world a reader shows
 * @match: which worlds (NULL: every one); called under a spinlock
 * @arg: handed to @match
 * @total: if not NULL, what the worlds gone and the worlds not returned
 *	counted is added to it in the same section, so that the counters of
 *	the returned worlds added to it count every world once
 * @n: set to the number of worlds returned
 *
 * The list's lock is held only to walk the list and take the references
 * (and, with @total, to sum the few worlds being freed or made meanwhile),
 * never while the caller reads or prints: release with
 * kb_context_unpin_worlds().
 *
 * Return: the worlds (kvfree()d by kb_context_unpin_worlds(); NULL with
 * *@n 0 when there is none), or ERR_PTR(-ENOMEM).
 */
struct kb_context **kb_context_pin_worlds(bool (*match)(const struct kb_context *,
							const void *),
					  const void *arg,
					  struct kb_counts *total, size_t *n)
{
	struct kb_context **worlds;
	size_t room;

	spin_lock(&kb_worlds_lock);
	room = kb_context_pin_locked(match, arg, NULL, NULL, 0) + KB_PIN_SLACK;
	spin_unlock(&kb_worlds_lock);
	worlds = kvmalloc_array(room, sizeof(*worlds), GFP_KERNEL_ACCOUNT);
	if (!worlds)
		return ERR_PTR(-ENOMEM);
	spin_lock(&kb_worlds_lock);
	*n = kb_context_pin_locked(match, arg, total, worlds, room);
	spin_unlock(&kb_worlds_lock);
	return worlds;
}

/**
 * kb_context_unpin_worlds() - drop what kb_context_pin_worlds() took
 * @worlds: its return value
 * @n: the number of worlds it returned
 *
 * May free worlds (the last reference), so it may sleep.
 */
void kb_context_unpin_worlds(struct kb_context **worlds, size_t n)
{
	while (n--) {
		kb_context_put(worlds[n]);
		cond_resched();
	}
	kvfree(worlds);
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
 * Return: the context with a reference for the caller, ERR_PTR(-ENODEV)
 * before kb_devices_enable(), or ERR_PTR(-ENOMEM) or ERR_PTR(-ENOSPC)
 * (kb_context_create()).
 */
struct kb_context *kb_device_context(struct miscdevice *misc)
{
	struct kb_device *dev = container_of(misc, struct kb_device, miscdev);
	struct ipc_namespace *ns = current->nsproxy->ipc_ns;
	struct kb_context *ctx, *spare;

	/* Pairs with kb_devices_enable(): the start-up is complete. */
	if (!smp_load_acquire(&kb_devices_enabled))
		return ERR_PTR(-ENODEV);
	if (!kb_per_ipc_ns || ns->ns.inum == PROC_IPC_INIT_INO)
		return kb_context_get(dev->host);

	spin_lock(&dev->lock);
	ctx = kb_device_find(dev, ns);
	spin_unlock(&dev->lock);
	if (ctx)
		return ctx;

	spare = kb_context_create(dev->host->name, dev->host->profile);
	if (IS_ERR(spare))
		return spare;
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

/* /sys/class/misc/<device>/profile: the device's profile, for anyone. */
static ssize_t profile_show(struct device *d, struct device_attribute *attr,
			    char *buf)
{
	struct miscdevice *misc = dev_get_drvdata(d);
	struct kb_device *dev = container_of(misc, struct kb_device, miscdev);

	return sysfs_emit(buf, "%s\n", kb_profile_name(dev->host->profile));
}
static DEVICE_ATTR_RO(profile);

static struct attribute *kb_device_attrs[] = {
	&dev_attr_profile.attr,
	NULL
};
ATTRIBUTE_GROUPS(kb_device);

/* @entry: "name" or "name:profile" (cut at the colon here). */
static int kb_device_create(char *entry, const struct file_operations *fops,
			    umode_t mode)
{
	struct kb_device *dev;
	size_t len;
	char *name = entry;
	int profile, ret;

	profile = kb_profile_split(entry, strlen(entry), &len);
	name[len] = '\0';
	if (profile < 0) {
		pr_err("device \"%s\": unknown profile (devices=name:full or name:aidl)\n",
		       name);
		return -EINVAL;
	}
	if (!len || len > 64 || strchr(name, '/')) {
		pr_err("invalid device name \"%s\"\n", name);
		return -EINVAL;
	}
	dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	if (!dev)
		return -ENOMEM;
	dev->host = kb_context_alloc(name, profile);
	if (IS_ERR(dev->host)) {
		ret = PTR_ERR(dev->host);
		kfree(dev);
		return ret;
	}
	spin_lock_init(&dev->lock);
	INIT_LIST_HEAD(&dev->contexts);
	dev->miscdev.minor = MISC_DYNAMIC_MINOR;
	dev->miscdev.name = dev->host->name;
	dev->miscdev.fops = fops;
	dev->miscdev.mode = mode;
	dev->miscdev.groups = kb_device_groups;
	/*
	 * Linux 6.1 checks no name here: a taken one fails in sysfs, which
	 * logs the clash with a stack dump, and misc_register() returns
	 * -EEXIST. Say what it means for the parameter.
	 */
	ret = misc_register(&dev->miscdev);
	if (ret) {
		if (ret == -EEXIST)
			pr_err("device name \"%s\" is already taken (devices=): is another binder driver loaded?\n",
			       name);
		else
			pr_err("cannot register device \"%s\" (devices=): %d\n",
			       name, ret);
		kb_context_put(dev->host);
		kfree(dev);
		return ret;
	}
	list_add_tail(&dev->entry, &kb_devices);
	return 0;
}

/**
 * kb_devices_create() - create one binder misc device per name, closed
 *	(an open fails with -ENODEV until kb_devices_enable())
 * @names: comma-separated device names, each optionally followed by
 *	":profile" (profile.h; full without)
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
 * kb_devices_enable() - let the misc devices be opened
 *
 * The start-up's last step, once nothing can fail any more: a failed
 * start-up frees the module without waiting for the files opened on it.
 * Until then an open fails; misc_open() calls ours under misc_mtx, which
 * misc_deregister() takes too, so once kb_devices_destroy() returns no
 * open is in flight either.
 */
void kb_devices_enable(void)
{
	/* Pairs with kb_device_context(): what the start-up made is seen. */
	smp_store_release(&kb_devices_enabled, true);
}

/**
 * kb_devices_disable() - refuse new opens again (module exit)
 */
void kb_devices_disable(void)
{
	WRITE_ONCE(kb_devices_enabled, false);
}

/**
 * kb_devices_destroy() - remove every binder misc device
 *
 * Called at module exit, after the last process was torn down: open files
 * pin the module, and their processes pin the worlds of other namespaces,
 * so none of those is left. Called also when the start-up fails after
 * kb_devices_create(): the devices were closed, so no process exists.
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
