/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Death notifications: BC_REQUEST/CLEAR_DEATH_NOTIFICATION, BR_DEAD_BINDER,
 * BC_DEAD_BINDER_DONE and BR_CLEAR_DEATH_NOTIFICATION_DONE. Their life
 * cycle is a notice's (notice.h); this is what is theirs.
 */
#ifndef _KB_DEATH_H
#define _KB_DEATH_H

#include "internal.h"

struct kb_notice;
struct kb_proc;

struct kb_notice *kb_death_new(struct kb_proc *proc, binder_uintptr_t cookie);

#endif /* _KB_DEATH_H */
