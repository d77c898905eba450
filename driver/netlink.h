/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Transaction reports over generic netlink: the "binder" family and its
 * "report" multicast group (mainline 6.18 ABI,
 * include/uapi/linux/android/binder_netlink.h).
 */
#ifndef _KB_NETLINK_H
#define _KB_NETLINK_H

#include "internal.h"

/**
 * struct kb_netlink_txn - what one report says about a transaction
 * @context: the name of the device the sender used
 * @error: the BR_ code the sender got (BR_FAILED_REPLY, BR_DEAD_REPLY,
 *	BR_FROZEN_REPLY) or the notice it got (BR_ONEWAY_SPAM_SUSPECT,
 *	BR_TRANSACTION_PENDING_FROZEN)
 * @to_pid: the receiving process as the sender's pid namespace numbers
 *	it, or 0 if the target was not found or that namespace cannot see it
 * @to_tid: the same of the receiving thread, if one was chosen
 * @is_reply: the transaction was a BC_REPLY
 * @flags: the sender's TF_* flags
 * @code: the sender's transaction code
 * @data_size: the sender's payload size in bytes
 *
 * The sender is always the calling thread (current). The caller fills it
 * in from its own objects: this file, low in the driver, knows none of
 * them.
 */
struct kb_netlink_txn {
	const char *context;
	u32 error;
	pid_t to_pid;
	pid_t to_tid;
	bool is_reply;
	u32 flags;
	u32 code;
	u32 data_size;
};

int kb_netlink_init(void);
void kb_netlink_exit(void);
bool kb_netlink_listening(void);
void kb_netlink_report(const struct kb_netlink_txn *r);

#endif /* _KB_NETLINK_H */
