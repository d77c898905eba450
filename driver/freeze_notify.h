/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Freeze notifications (mainline 6.12): BC_REQUEST/CLEAR_FREEZE_NOTIFICATION,
 * BR_FROZEN_BINDER, BC_FREEZE_NOTIFICATION_DONE and
 * BR_CLEAR_FREEZE_NOTIFICATION_DONE. Their life cycle is a notice's
 * (notice.h); this is what is theirs.
 */
#ifndef _KB_FREEZE_NOTIFY_H
#define _KB_FREEZE_NOTIFY_H

#include "internal.h"

struct kb_notice;
struct kb_proc;

struct kb_notice *kb_freeze_notify_new(struct kb_proc *proc,
				       binder_uintptr_t cookie);

#endif /* _KB_FREEZE_NOTIFY_H */
