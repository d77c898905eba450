/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Freezing: BINDER_FREEZE and BINDER_GET_FROZEN_INFO (as upstream 6.1).
 */
#ifndef _KB_FREEZE_H
#define _KB_FREEZE_H

#include "internal.h"

struct kb_proc;

int kb_freeze_add_proc(struct kb_proc *proc);
void kb_freeze_remove_proc(struct kb_proc *proc);
/**
 * struct kb_proc_visitor - what kb_freeze_visit_procs() does per process
 * @visit: called on each process (embed the visitor to carry state)
 */
struct kb_proc_visitor {
	void (*visit)(struct kb_proc *proc, struct kb_proc_visitor *v);
};

void kb_freeze_visit_procs(struct kb_proc_visitor *v);
int kb_freeze_ioctl(struct kb_proc *caller,
		    const struct binder_freeze_info *info);
int kb_freeze_get_info(struct kb_proc *caller,
		       struct binder_frozen_status_info *info);

#endif /* _KB_FREEZE_H */
