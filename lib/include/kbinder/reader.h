/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libkbinder, reader: BR_ return streams parsed without reading past their
 * end (kbinder_reader_*), and what the BR_ codes are (kbinder_return_*).
 */
#ifndef KBINDER_READER_H
#define KBINDER_READER_H

#include "common.h"

KBINDER_BEGIN_DECLS

/**
 * struct kbinder_frozen_state - the argument of BR_FROZEN_BINDER (mainline
 * 6.12's struct binder_frozen_state_info, same layout), declared here so the
 * header builds against older kernel headers (Debian 12's 6.1).
 * @cookie:    the cookie given with BC_REQUEST_FREEZE_NOTIFICATION
 * @is_frozen: 1 if the process is frozen
 * @reserved:  0
 */
struct kbinder_frozen_state {
	binder_uintptr_t cookie;
	uint32_t is_frozen;
	uint32_t reserved;
};

/**
 * struct kbinder_return - one parsed return command.
 * @cmd: the BR_ code
 * @u:   its argument; which member is valid depends on @cmd
 */
struct kbinder_return {
	uint32_t cmd;
	union {
		int32_t error;                            /* BR_ERROR */
		struct binder_transaction_data txn;       /* BR_TRANSACTION, BR_REPLY */
		struct binder_transaction_data_secctx txn_secctx; /* BR_TRANSACTION_SEC_CTX */
		struct binder_ptr_cookie ptr_cookie;      /* BR_INCREFS..BR_DECREFS */
		struct binder_pri_ptr_cookie pri_ptr_cookie; /* BR_ATTEMPT_ACQUIRE */
		binder_uintptr_t cookie;   /* BR_DEAD_BINDER, BR_CLEAR_DEATH_NOTIFICATION_DONE,
					      BR_CLEAR_FREEZE_NOTIFICATION_DONE */
		struct kbinder_frozen_state frozen;  /* BR_FROZEN_BINDER */
		uint64_t space[16];        /* room for larger arguments */
	} u;
};

/**
 * struct kbinder_reader - cursor over a BR_ stream.
 * @buf:  stream start
 * @size: valid bytes (read_consumed)
 * @pos:  offset of the next command
 */
struct kbinder_reader {
	const uint8_t *buf;
	size_t size;
	size_t pos;
	uint64_t reserved[2];
};

void kbinder_reader_init(struct kbinder_reader *r, const void *buf, size_t size);
/**
 * kbinder_reader_next() - parse the next command.
 *
 * Return: 1 and @ret filled, 0 at the end of the stream, -EPROTO for an
 * unknown command, -EBADMSG for a command truncated by the end of the
 * stream. On error @r->pos is left at the bad command.
 */
int kbinder_reader_next(struct kbinder_reader *r, struct kbinder_return *ret);
/** kbinder_return_size() - argument size of a BR_ code, or -EPROTO if unknown. */
int kbinder_return_size(uint32_t cmd);
/** kbinder_return_name() - "BR_REPLY" etc, or "BR_?" if unknown. */
const char *kbinder_return_name(uint32_t cmd);

KBINDER_END_DECLS

#endif /* KBINDER_READER_H */
