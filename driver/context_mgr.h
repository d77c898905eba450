/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The context manager of a binder world (BINDER_SET_CONTEXT_MGR and its
 * release when the manager dies): context_mgr.c.
 */
#ifndef _KB_CONTEXT_MGR_H
#define _KB_CONTEXT_MGR_H

struct flat_binder_object;
struct kb_proc;

int kb_context_set_mgr(struct kb_proc *proc,
		       const struct flat_binder_object *fbo);
void kb_context_release_mgr(struct kb_proc *proc);

#endif /* _KB_CONTEXT_MGR_H */
