/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Every BC_ command and BR_ return of <linux/android/binder.h>, listed
 * once. libkbinder's code tables (lib/src/codes.c), kbfuzz's check of
 * return streams (fuzz/reader.c) and the ABI check's list of what to
 * compare (tests/host/abi_items.h) expand these lists, so a new code is
 * added here and nowhere else.
 *
 * In-tree only, never installed, and not a UAPI header: the UAPI headers
 * stay as upstream has them. Userspace builds find it with -Iinclude as
 * <kbinder/binder_cmds.h>; include <linux/android/binder.h> first (the
 * system's or ours: the lists only name the codes).
 *
 * X-macros: each list calls X once per code, in protocol order, and
 * hands @arg through untouched (for a consumer that needs a context, such
 * as the ABI check's row macro; others pass nothing):
 *
 *	KBINDER_BC_CODES_6_1(X, arg)	X(arg, BC_TRANSACTION) ...
 *	KBINDER_BR_CODES_6_1(X, arg)	X(arg, BR_ERROR, sent) ...
 *
 * _6_1: in Linux 6.1's header (Debian 12's linux-libc-dev); _LATER:
 * added after it (mainline 6.7's BR_TRANSACTION_PENDING_FROZEN, 6.12's
 * freeze notifications); KBINDER_BC_CODES and KBINDER_BR_CODES: both.
 * A return's @sent is 0 for a code the protocol defines but no driver
 * sends (BR_ACQUIRE_RESULT, BR_ATTEMPT_ACQUIRE, BR_FINISHED), else 1.
 * A code's argument size is its own _IOC_SIZE().
 */
#ifndef KBINDER_BINDER_CMDS_H
#define KBINDER_BINDER_CMDS_H

#define KBINDER_BC_CODES_6_1(X, arg)					\
	X(arg, BC_TRANSACTION)						\
	X(arg, BC_REPLY)						\
	X(arg, BC_ACQUIRE_RESULT)					\
	X(arg, BC_FREE_BUFFER)						\
	X(arg, BC_INCREFS)						\
	X(arg, BC_ACQUIRE)						\
	X(arg, BC_RELEASE)						\
	X(arg, BC_DECREFS)						\
	X(arg, BC_INCREFS_DONE)						\
	X(arg, BC_ACQUIRE_DONE)						\
	X(arg, BC_ATTEMPT_ACQUIRE)					\
	X(arg, BC_REGISTER_LOOPER)					\
	X(arg, BC_ENTER_LOOPER)						\
	X(arg, BC_EXIT_LOOPER)						\
	X(arg, BC_REQUEST_DEATH_NOTIFICATION)				\
	X(arg, BC_CLEAR_DEATH_NOTIFICATION)				\
	X(arg, BC_DEAD_BINDER_DONE)					\
	X(arg, BC_TRANSACTION_SG)					\
	X(arg, BC_REPLY_SG)

#define KBINDER_BC_CODES_LATER(X, arg)					\
	X(arg, BC_REQUEST_FREEZE_NOTIFICATION)				\
	X(arg, BC_CLEAR_FREEZE_NOTIFICATION)				\
	X(arg, BC_FREEZE_NOTIFICATION_DONE)

#define KBINDER_BR_CODES_6_1(X, arg)					\
	X(arg, BR_ERROR, 1)						\
	X(arg, BR_OK, 1)						\
	X(arg, BR_TRANSACTION_SEC_CTX, 1)				\
	X(arg, BR_TRANSACTION, 1)					\
	X(arg, BR_REPLY, 1)						\
	X(arg, BR_ACQUIRE_RESULT, 0)					\
	X(arg, BR_DEAD_REPLY, 1)					\
	X(arg, BR_TRANSACTION_COMPLETE, 1)				\
	X(arg, BR_INCREFS, 1)						\
	X(arg, BR_ACQUIRE, 1)						\
	X(arg, BR_RELEASE, 1)						\
	X(arg, BR_DECREFS, 1)						\
	X(arg, BR_ATTEMPT_ACQUIRE, 0)					\
	X(arg, BR_NOOP, 1)						\
	X(arg, BR_SPAWN_LOOPER, 1)					\
	X(arg, BR_FINISHED, 0)						\
	X(arg, BR_DEAD_BINDER, 1)					\
	X(arg, BR_CLEAR_DEATH_NOTIFICATION_DONE, 1)			\
	X(arg, BR_FAILED_REPLY, 1)					\
	X(arg, BR_FROZEN_REPLY, 1)					\
	X(arg, BR_ONEWAY_SPAM_SUSPECT, 1)

#define KBINDER_BR_CODES_LATER(X, arg)					\
	X(arg, BR_TRANSACTION_PENDING_FROZEN, 1)			\
	X(arg, BR_FROZEN_BINDER, 1)					\
	X(arg, BR_CLEAR_FREEZE_NOTIFICATION_DONE, 1)

#define KBINDER_BC_CODES(X, arg)					\
	KBINDER_BC_CODES_6_1(X, arg)					\
	KBINDER_BC_CODES_LATER(X, arg)

#define KBINDER_BR_CODES(X, arg)					\
	KBINDER_BR_CODES_6_1(X, arg)					\
	KBINDER_BR_CODES_LATER(X, arg)

#endif /* KBINDER_BINDER_CMDS_H */
