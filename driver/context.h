/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Binder worlds (contexts) and the misc devices that lead to them.
 *
 * A context is one binder world: its own context manager, and so its own
 * nodes and handles (a process only ever reaches nodes of its own
 * context, through handle 0 first). A context is refcounted: every process
 * opened on it pins it, and so does whatever created it (a misc device, a
 * binderfs inode). A misc device leads each IPC namespace to its own
 * context (or every opener to one shared context, with the module
 * parameter that asks for upstream's behaviour). Setting and releasing
 * the context manager is context_mgr.h's.
 */
#ifndef _KB_CONTEXT_H
#define _KB_CONTEXT_H

#include <linux/fs.h>
#include <linux/list.h>
#include <linux/miscdevice.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/uidgid.h>

struct ipc_namespace;
struct kb_counts;
struct kb_device;
struct kb_node;

/**
 * struct kb_context - one binder world
 * @ref: the openers (one per process) and the creator (a misc device for
 *	its initial-namespace context, a binderfs inode); the last put frees
 *	the context
 * @id: the world's id, unique (kb_new_world_id()), naming it in debug
 *	output (never an address) (constant)
 * @fs_id: the id of the binderfs mount whose binder-control made it, or 0
 *	for the plain devices' worlds; never another mount's (constant after
 *	creation; the domain of kb_context_same_domain(), and what that
 *	mount's binder_logs/ shows)
 * @counted: made at run time (binderfs, another IPC namespace), so counted
 *	in the live-object table (constant)
 * @profile: the part of the protocol the world accepts (enum kb_profile,
 *	profile.h; constant)
 * @counts: the world's use counters (counts.h; per CPU)
 * @world_entry: in the list of every world (kb_context_pin_worlds())
 * @mgr_lock: serialises setting and clearing the context manager
 * @mgr_node: the context manager's node, the target of handle 0, or NULL
 *	(set and cleared under @mgr_lock; the context holds a memory
 *	reference, dropped an RCU grace period after clearing, so the
 *	transaction path reads it under RCU and pins the node without the
 *	mutex)
 * @mgr_uid: the euid that first became context manager; only it may become
 *	manager again (protected by @mgr_lock)
 * @device: for a context a misc device made for one IPC namespace, that
 *	device (it outlives the context); else NULL (constant)
 * @ipc_ns: the IPC namespace that @device made this context for, a
 *	reference held until the context is freed; else NULL (constant)
 * @entry: in @device's list of per-namespace contexts (protected by the
 *	device's lock)
 * @name: the device name (constant)
 */
struct kb_context {
	refcount_t ref;
	u64 id;
	u64 fs_id;
	bool counted;
	u8 profile;
	struct kb_counts __percpu *counts;
	struct list_head world_entry;
	struct mutex mgr_lock; /* see kernel-doc above */
	struct kb_node __rcu *mgr_node;
	kuid_t mgr_uid;
	struct kb_device *device;
	struct ipc_namespace *ipc_ns;
	struct list_head entry;
	char name[];
};

/**
 * kb_context_same_domain() - whether two worlds are of one container
 * @a: a world
 * @b: another
 *
 * The worlds of one binderfs mount (its devices) are one domain, and so
 * are the plain devices' worlds of one IPC namespace (the initial one's
 * too, and everyone's with isolate_ipc_ns=N). What acts on a task by pid
 * (BINDER_FREEZE) stays in the caller's domain.
 *
 * Return: true if @a and @b are of the same domain.
 */
static inline bool kb_context_same_domain(const struct kb_context *a,
					  const struct kb_context *b)
{
	return a->fs_id == b->fs_id && a->ipc_ns == b->ipc_ns;
}

struct kb_context *kb_context_create(const char *name, u8 profile);
struct kb_context *kb_context_get(struct kb_context *ctx);
void kb_context_put(struct kb_context *ctx);
struct kb_context **kb_context_pin_worlds(bool (*match)(const struct kb_context *,
							const void *),
					  const void *arg,
					  struct kb_counts *total, size_t *n);
void kb_context_unpin_worlds(struct kb_context **worlds, size_t n);

struct kb_context *kb_device_context(struct miscdevice *misc);
int kb_devices_create(const char *names, const struct file_operations *fops,
		      bool per_ipc_ns, umode_t mode);
void kb_devices_enable(void);
void kb_devices_disable(void);
void kb_devices_destroy(void);

#endif /* _KB_CONTEXT_H */
