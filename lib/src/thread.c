// SPDX-License-Identifier: Apache-2.0
/*
 * A binder thread's event queue: reads from the driver into a small buffer
 * and hands back one parsed return command at a time.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <time.h>

#include "internal.h"

void kb_thread_init(struct kb_thread *t, int fd)
{
	t->fd = fd;
	t->len = 0;
	t->pos = 0;
}

bool kb_pending(const struct kb_thread *t)
{
	return t->pos < t->len;
}

static int64_t kb_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Wait until the driver has work for this thread, or the deadline passes. */
static int kb_wait_readable(int fd, int64_t deadline)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	int64_t left;
	int n;

	if (deadline < 0)
		return 0;
	left = deadline - kb_now_ms();
	if (left <= 0)
		return -ETIMEDOUT;
	n = poll(&pfd, 1, left > 1000000 ? 1000000 : (int)left);
	if (n < 0)
		return errno == EINTR ? 0 : -errno;
	if (n == 0)
		return -ETIMEDOUT;
	if (pfd.revents & (POLLERR | POLLNVAL))
		return -EIO;
	return 0;
}

int kb_next(struct kb_thread *t, struct kb_return *ret, int timeout_ms)
{
	int64_t deadline = timeout_ms < 0 ? -1 : kb_now_ms() + timeout_ms;
	struct kb_reader r;
	int n;

	for (;;) {
		if (t->pos < t->len) {
			kb_reader_init(&r, t->buf, t->len);
			r.pos = t->pos;
			n = kb_reader_next(&r, ret);
			if (n < 0) {
				t->pos = t->len = 0;   /* drop the garbage */
				return n;
			}
			t->pos = r.pos;
			return 0;
		}
		n = kb_wait_readable(t->fd, deadline);
		if (n)
			return n;
		t->pos = t->len = 0;
		n = kb_read(t->fd, t->buf, sizeof(t->buf), &t->len);
		if (n == -EAGAIN)
			continue;
		if (n)
			return n;
	}
}
