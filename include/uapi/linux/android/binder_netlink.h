/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * kbinder: the "binder" generic netlink family (transaction reports).
 *
 * The driver multicasts one BINDER_CMD_REPORT message to the "report"
 * group for each transaction that fails while being sent, for each one-way
 * call suspected of spam and for each one-way call queued to a frozen
 * process, so a monitor can see them without polling.  The family has no
 * commands.  Family name, group name, command and attribute numbers are
 * ABI (the same as mainline Linux 6.18), checked by tests/host/abi_check.c.
 *
 * kbinder sends a report only to listeners in the sender's network
 * namespace, with pids as the sender's pid namespace numbers them
 * (mainline: always the initial namespaces); see docs/design.md.
 */

#ifndef _LINUX_ANDROID_BINDER_NETLINK_H
#define _LINUX_ANDROID_BINDER_NETLINK_H

#define BINDER_FAMILY_NAME	"binder"
#define BINDER_FAMILY_VERSION	1

/* Name of the multicast group the reports are sent to. */
#define BINDER_MCGRP_REPORT	"report"

/*
 * Attributes of a report:
 * BINDER_A_REPORT_ERROR: u32, the BR_* code the sender got
 *	(BR_FAILED_REPLY, BR_DEAD_REPLY, BR_FROZEN_REPLY,
 *	BR_ONEWAY_SPAM_SUSPECT, BR_TRANSACTION_PENDING_FROZEN)
 * BINDER_A_REPORT_CONTEXT: string, name of the binder device
 * BINDER_A_REPORT_FROM_PID: u32, sender process id
 * BINDER_A_REPORT_FROM_TID: u32, sender thread id
 * BINDER_A_REPORT_TO_PID: u32, target process id (absent if unknown)
 * BINDER_A_REPORT_TO_TID: u32, target thread id (absent if unknown)
 * BINDER_A_REPORT_IS_REPLY: flag, present when the failed transaction
 *	was a reply
 * BINDER_A_REPORT_FLAGS: u32, the transaction's TF_* flags
 * BINDER_A_REPORT_CODE: u32, the transaction's code
 * BINDER_A_REPORT_DATA_SIZE: u32, payload size in bytes
 */
enum {
	BINDER_A_REPORT_ERROR = 1,
	BINDER_A_REPORT_CONTEXT,
	BINDER_A_REPORT_FROM_PID,
	BINDER_A_REPORT_FROM_TID,
	BINDER_A_REPORT_TO_PID,
	BINDER_A_REPORT_TO_TID,
	BINDER_A_REPORT_IS_REPLY,
	BINDER_A_REPORT_FLAGS,
	BINDER_A_REPORT_CODE,
	BINDER_A_REPORT_DATA_SIZE,

	__BINDER_A_REPORT_MAX,
	BINDER_A_REPORT_MAX = (__BINDER_A_REPORT_MAX - 1)
};

/* Commands of the family: one multicast event, the report. */
enum {
	BINDER_CMD_REPORT = 1,

	__BINDER_CMD_MAX,
	BINDER_CMD_MAX = (__BINDER_CMD_MAX - 1)
};

#endif /* _LINUX_ANDROID_BINDER_NETLINK_H */
