/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * References: a process's handles on nodes of other processes.
 */
#ifndef _KB_REF_H
#define _KB_REF_H

#include <linux/list.h>
#include <linux/rbtree.h>

#include "internal.h"
#include "node.h"
#include "notice.h"

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
 * @link: in the node's refs, with the ref's death and freeze notification
 *	requests (&struct kb_ref_link: protected by node->lock, the
 *	requests written under proc->refs_lock too)
 * @desc: the handle value (protected by proc->refs_lock)
 * @strong: strong count (protected by proc->refs_lock)
 * @weak: weak count (protected by proc->refs_lock)
 */
struct kb_ref {
	int debug_id;
	struct kb_proc *proc;
	struct kb_node *node;
	struct rb_node rb_desc;
	struct rb_node rb_node;
	struct kb_ref_link link;
	u32 desc;
	int strong;
	int weak;
};

/**
 * kb_ref_of_link() - the ref a node's link belongs to
 * @link: a link in a node's refs
 *
 * Return: the ref.
 */
static inline struct kb_ref *kb_ref_of_link(struct kb_ref_link *link)
{
	return container_of(link, struct kb_ref, link);
}

struct kb_ref *kb_ref_lookup_locked(struct kb_proc *proc, u32 desc,
				    bool need_strong);
int kb_ref_hold_node_for_call(struct kb_proc *proc, u32 desc,
			      struct kb_node **node, int *node_id,
			      struct kb_proc **owner);
struct kb_node *kb_ref_get_node(struct kb_proc *proc, u32 desc,
				bool need_strong);
int kb_ref_inc_for_node(struct kb_proc *proc, struct kb_node *node,
			bool strong, struct kb_thread *thread, u32 *desc);
int kb_ref_update(struct kb_proc *proc, u32 desc, bool increment,
		  bool strong);
void kb_proc_release_refs(struct kb_proc *proc);
int kb_ref_node_info(struct kb_proc *proc,
		     struct binder_node_info_for_ref *info);
int kb_ref_request_notice(struct kb_ref *ref, struct kb_notice *n);
int kb_ref_clear_notice(struct kb_thread *thread, struct kb_ref *ref,
			enum kb_notice_kind kind, binder_uintptr_t cookie);

#endif /* _KB_REF_H */
