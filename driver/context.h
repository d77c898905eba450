/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Binder devices: one misc device, and one binder "world", per name.
 */
#ifndef _KB_CONTEXT_H
#define _KB_CONTEXT_H

#include <linux/list.h>
#include <linux/miscdevice.h>
#include <linux/mutex.h>
#include <linux/uidgid.h>

struct kb_node;

/**
 * struct kb_context - one binder device and its context manager
 * @miscdev: the character device (its name is the device name)
 * @entry: in the module's device list (only touched at init and exit)
 * @mgr_lock: serialises setting and clearing the context manager
 * @mgr_node: the context manager's node, the target of handle 0, or NULL
 *	(set and cleared under @mgr_lock; the context holds a memory
 *	reference, dropped an RCU grace period after clearing, so the
 *	transaction path reads it under RCU and pins the node without the
 *	mutex)
 * @mgr_uid: the euid that first became context manager; only it may become
 *	manager again (protected by @mgr_lock)
 * @name: the device name, storage for @miscdev.name
 */
struct kb_context {
	struct miscdevice miscdev;
	struct list_head entry;
	struct mutex mgr_lock; /* see kernel-doc above */
	struct kb_node __rcu *mgr_node;
	kuid_t mgr_uid;
	char name[];
};

struct flat_binder_object;
struct kb_proc;

int kb_context_set_mgr(struct kb_proc *proc,
		       const struct flat_binder_object *fbo);
void kb_context_release_mgr(struct kb_proc *proc);
int kb_devices_create(const char *names, umode_t mode);
void kb_devices_destroy(void);

#endif /* _KB_CONTEXT_H */
