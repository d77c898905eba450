/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * References: a process's handles on nodes of other processes.
 */
#ifndef _KB_REF_H
#define _KB_REF_H

#include <linux/list.h>
#include <linux/rbtree.h>

#include "internal.h"

struct kb_death;
struct kb_freeze_note;
struct kb_node;
struct kb_proc;
struct kb_thread;

/**
 * struct kb_ref - one handle of a process
 * @debug_id: unique id for debug output
 * @proc: the process holding the handle (constant)
 * @node: the node it refers to (constant; the ref is in its refs list)
 * @rb_desc: in proc->refs_by_desc (protected by proc->refs_lock)
 * @rb_node: in proc->refs_by_node (protected by proc->refs_lock)
 * @node_entry: in node->inner.refs (protected by node->lock)
 * @desc: the handle value (protected by proc->refs_lock)
 * @strong: strong count (protected by proc->refs_lock)
 * @weak: weak count (protected by proc->refs_lock)
 * @death: the death notification request, or NULL (written under
 *	proc->refs_lock and node->lock; read under either: the node's
 *	death walk, kb_death_notify(), holds only node->lock)
 * @freeze: the freeze notification request, or NULL (written under
 *	proc->refs_lock and node->lock; read under either)
 */
struct kb_ref {
	int debug_id;
	struct kb_proc *proc;
	struct kb_node *node;
	struct rb_node rb_desc;
	struct rb_node rb_node;
	struct hlist_node node_entry;
	u32 desc;
	int strong;
	int weak;
	struct kb_death *death;
	struct kb_freeze_note *freeze;
};

struct kb_ref *kb_ref_lookup_locked(struct kb_proc *proc, u32 desc,
				    bool need_strong);
struct kb_node *kb_ref_get_node(struct kb_proc *proc, u32 desc,
				bool need_strong);
int kb_ref_inc_for_node(struct kb_proc *proc, struct kb_node *node,
			bool strong, struct kb_thread *thread, u32 *desc);
int kb_ref_update(struct kb_proc *proc, u32 desc, bool increment,
		  bool strong);
void kb_proc_release_refs(struct kb_proc *proc);
int kb_ref_node_info(struct kb_proc *proc,
		     struct binder_node_info_for_ref *info);

#endif /* _KB_REF_H */
