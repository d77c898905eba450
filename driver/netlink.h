/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Transaction reports over generic netlink: the "binder" family and its
 * "report" multicast group (mainline 6.18 ABI,
 * include/uapi/linux/android/binder_netlink.h).
 */
#ifndef _KB_NETLINK_H
#define _KB_NETLINK_H

#include "internal.h"

struct kb_context;
struct kb_proc;
struct kb_thread;

/**
 * struct kb_netlink_txn - what one report says about a transaction
 * @ctx: the device the sender used (its name is the report's context)
 * @error: the BR_ code the sender got (BR_FAILED_REPLY, BR_DEAD_REPLY,
 *	BR_FROZEN_REPLY) or the notice it got (BR_ONEWAY_SPAM_SUSPECT,
 *	BR_TRANSACTION_PENDING_FROZEN)
 * @to_proc: the receiving process, or NULL if the target was not found
 * @to_thread: the receiving thread if one was chosen, or NULL
 * @is_reply: the transaction was a BC_REPLY
 * @flags: the sender's TF_* flags
 * @code: the sender's transaction code
 * @data_size: the sender's payload size in bytes
 *
 * The sender is always the calling thread (current).
 */
struct kb_netlink_txn {
	const struct kb_context *ctx;
	u32 error;
	struct kb_proc *to_proc;
	struct kb_thread *to_thread;
	bool is_reply;
	u32 flags;
	u32 code;
	u32 data_size;
};

int kb_netlink_init(void);
void kb_netlink_exit(void);
void kb_netlink_report(const struct kb_netlink_txn *r);

#endif /* _KB_NETLINK_H */
