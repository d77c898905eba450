/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libkbinder: a listener for binder transaction reports, the generic
 * netlink family "binder" and its multicast group "report" (mainline Linux
 * 6.18; kbinder implements it, Debian's 6.1 binder does not).
 *
 * Raw netlink, no libnl:
 *
 *	struct kbinder_report_listener l;
 *	struct kbinder_report r;
 *
 *	if (kbinder_report_open(&l) == 0) {
 *		while (kbinder_report_next(&l, &r, -1) == 0)
 *			printf("%s on %s\n", kbinder_return_name(r.error), r.context);
 *		kbinder_report_close(&l);
 *	}
 *
 * Same error convention as the rest (kbinder/common.h): 0 or a negative errno.
 */
#ifndef KBINDER_REPORT_H
#define KBINDER_REPORT_H

#include "common.h"

KBINDER_BEGIN_DECLS

/**
 * struct kbinder_report_listener - a netlink socket that joined "report".
 * @fd:     the NETLINK_GENERIC socket, -1 when closed
 * @family: the family id of "binder" in this network namespace
 * @group:  the multicast group id of "report"
 */
struct kbinder_report_listener {
	int fd;
	uint16_t family;
	uint32_t group;
	uint64_t reserved[2];
};

/**
 * struct kbinder_report - one parsed BINDER_CMD_REPORT.
 * @error:      the BR_ code the sender got (BR_FAILED_REPLY, BR_DEAD_REPLY,
 *              BR_FROZEN_REPLY, BR_ONEWAY_SPAM_SUSPECT,
 *              BR_TRANSACTION_PENDING_FROZEN)
 * @context:    the binder device's name (NUL-terminated, cut if longer)
 * @from_pid:   sending process
 * @from_tid:   sending thread
 * @to_pid:     receiving process, 0 when the report has none
 * @to_tid:     receiving thread, 0 when the report has none
 * @is_reply:   the failed transaction was a reply
 * @flags:      its TF_* flags
 * @code:       its code
 * @data_size:  its payload size in bytes
 */
struct kbinder_report {
	uint32_t error;
	char context[64];
	uint32_t from_pid;
	uint32_t from_tid;
	uint32_t to_pid;
	uint32_t to_tid;
	bool is_reply;
	uint32_t flags;
	uint32_t code;
	uint32_t data_size;
	uint64_t reserved[2];
};

/**
 * kbinder_report_open() - open a listener: resolve "binder"/"report" with
 * CTRL_CMD_GETFAMILY and join the group.
 *
 * Return: 0, -ENOENT if no driver registered the family (the module is not
 * loaded, or the binder driver predates 6.18), or -errno.
 */
int kbinder_report_open(struct kbinder_report_listener *l);

/** kbinder_report_close() - close the socket; safe to call twice. */
void kbinder_report_close(struct kbinder_report_listener *l);

/**
 * kbinder_report_next() - wait for the next report.
 * @timeout_ms: -1 waits forever, 0 only takes one already queued
 *
 * Messages of the socket that are not reports are skipped.
 * Return: 0 with @r filled, -ETIMEDOUT, -ENOBUFS if reports were lost
 * because the socket's queue overflowed (the listener still works), or
 * -errno.
 */
int kbinder_report_next(struct kbinder_report_listener *l, struct kbinder_report *r,
		   int timeout_ms);

/**
 * kbinder_report_parse() - parse one netlink message (header included).
 * @family: the family id the message must carry
 *
 * Return: 0, -EBADMSG if it is truncated or lacks a mandatory attribute,
 * -ENOMSG if it is not a BINDER_CMD_REPORT of @family.
 */
int kbinder_report_parse(const void *msg, size_t len, uint16_t family,
		    struct kbinder_report *r);

KBINDER_END_DECLS

#endif /* KBINDER_REPORT_H */
