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

#include "internal.h"

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
