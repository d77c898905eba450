// SPDX-License-Identifier: Apache-2.0
/*
 * Parsing BR_ return streams. Every length is checked against the bytes the
 * driver said it wrote (read_consumed); nothing past that is ever read.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>

#include "internal.h"

static const struct kbinder_code kbinder_returns[] = {
	{ BR_ERROR, "BR_ERROR" },
	{ BR_OK, "BR_OK" },
	{ BR_TRANSACTION_SEC_CTX, "BR_TRANSACTION_SEC_CTX" },
	{ BR_TRANSACTION, "BR_TRANSACTION" },
	{ BR_REPLY, "BR_REPLY" },
	{ BR_ACQUIRE_RESULT, "BR_ACQUIRE_RESULT" },
	{ BR_DEAD_REPLY, "BR_DEAD_REPLY" },
	{ BR_TRANSACTION_COMPLETE, "BR_TRANSACTION_COMPLETE" },
	{ BR_INCREFS, "BR_INCREFS" },
	{ BR_ACQUIRE, "BR_ACQUIRE" },
	{ BR_RELEASE, "BR_RELEASE" },
	{ BR_DECREFS, "BR_DECREFS" },
	{ BR_ATTEMPT_ACQUIRE, "BR_ATTEMPT_ACQUIRE" },
	{ BR_NOOP, "BR_NOOP" },
	{ BR_SPAWN_LOOPER, "BR_SPAWN_LOOPER" },
	{ BR_FINISHED, "BR_FINISHED" },
	{ BR_DEAD_BINDER, "BR_DEAD_BINDER" },
	{ BR_CLEAR_DEATH_NOTIFICATION_DONE, "BR_CLEAR_DEATH_NOTIFICATION_DONE" },
	{ BR_FAILED_REPLY, "BR_FAILED_REPLY" },
	{ BR_FROZEN_REPLY, "BR_FROZEN_REPLY" },
	{ BR_ONEWAY_SPAM_SUSPECT, "BR_ONEWAY_SPAM_SUSPECT" },
	{ BR_TRANSACTION_PENDING_FROZEN, "BR_TRANSACTION_PENDING_FROZEN" },
	{ BR_FROZEN_BINDER, "BR_FROZEN_BINDER" },
	{ BR_CLEAR_FREEZE_NOTIFICATION_DONE, "BR_CLEAR_FREEZE_NOTIFICATION_DONE" },
};

static const struct kbinder_code *kbinder_find_return(uint32_t cmd)
{
	size_t i;

	for (i = 0; i < KBINDER_ARRAY_SIZE(kbinder_returns); i++)
		if (kbinder_returns[i].code == cmd)
			return &kbinder_returns[i];
	return NULL;
}

int kbinder_return_size(uint32_t cmd)
{
	return kbinder_find_return(cmd) ? (int)_IOC_SIZE(cmd) : -EPROTO;
}

const char *kbinder_return_name(uint32_t cmd)
{
	const struct kbinder_code *c = kbinder_find_return(cmd);

	return c ? c->name : "BR_?";
}

void kbinder_reader_init(struct kbinder_reader *r, const void *buf, size_t size)
{
	memset(r, 0, sizeof(*r));
	r->buf = buf;
	r->size = buf ? size : 0;
	r->pos = 0;
}

int kbinder_reader_next(struct kbinder_reader *r, struct kbinder_return *ret)
{
	size_t left;
	uint32_t cmd;
	int size;

	if (r->pos >= r->size)
		return 0;
	left = r->size - r->pos;
	if (left < sizeof(cmd))
		return -EBADMSG;
	memcpy(&cmd, r->buf + r->pos, sizeof(cmd));
	size = kbinder_return_size(cmd);
	if (size < 0)
		return size;
	if ((size_t)size > sizeof(ret->u))
		return -EPROTO;
	if (left - sizeof(cmd) < (size_t)size)
		return -EBADMSG;
	memset(ret, 0, sizeof(*ret));
	ret->cmd = cmd;
	memcpy(&ret->u, r->buf + r->pos + sizeof(cmd), (size_t)size);
	r->pos += sizeof(cmd) + (size_t)size;
	return 1;
}
