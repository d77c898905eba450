// SPDX-License-Identifier: Apache-2.0
/*
 * A binder thread's event queue: reads from the driver into a small buffer
 * and hands back one parsed return command at a time; and the writes every
 * call on the thread is made of.
 *
 * The library keeps no state but the struct kbinder_thread its caller
 * owns, and never changes the file's flags. A blocking read (no deadline)
 * is one BINDER_WRITE_READ, asleep in the driver, where the driver counts
 * the thread as an idle looper. A timed read waits in poll(): binder's
 * poll reports, for the calling thread, its own work (what was queued to
 * it: a reply, a nested call, the completion of its call) or, when the
 * thread could take process work (no call of its own in progress, nothing
 * queued to it), the process's work. Own work stays the thread's; process
 * work may be taken by another thread, and some work has nothing to say
 * when it is read (a node update that changes no count). Either way a
 * read that the driver started would go back to sleep inside the driver.
 * So the timed read starts the stream itself (read_consumed 8, two BR_NOOP
 * placeholders): both drivers only wait again when the stream holds just
 * their own BR_NOOP, so this read returns instead, and the wait goes back
 * to poll() with what is left of the deadline. What no flag-free read can
 * bound is the driver's first wait: process work that poll() reported and
 * another thread took before this read began (KBINDER_PROC_NONBLOCK does).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <poll.h>
#include <string.h>

#include "internal.h"

/* Where a timed read's stream starts: two placeholders of ours. */
#define KBINDER_THREAD_STARTED (2 * sizeof(uint32_t))

/* ------------------------------------------------------------ writing */

int kbinder_thread_write(struct kbinder_thread *t, const struct kbinder_writer *w)
{
	size_t consumed = 0;
	int ret;

	if (w->err)
		return w->err;
	ret = kbinder_ioctl_write(t->fd, w->buf, w->len, &consumed);
	if (!ret && consumed != w->len)
		ret = -EIO;
	return ret;
}

int kbinder_thread_command(struct kbinder_thread *t, uint32_t cmd, const void *arg,
			   size_t size)
{
	uint8_t buf[sizeof(uint32_t) + sizeof(struct binder_transaction_data_sg)];
	struct kbinder_writer w;

	kbinder_writer_init(&w, buf, sizeof(buf));
	kbinder_writer_put(&w, cmd, arg, size);
	return kbinder_thread_write(t, &w);
}

/* ------------------------------------------------------------ reading */

void kbinder_thread_init(struct kbinder_thread *t, int fd)
{
	memset(t->reserved, 0, sizeof(t->reserved));
	t->fd = fd;
	t->len = 0;
	t->pos = 0;
}

/* Wait until poll() says the thread has work, or @deadline passes. */
static int kbinder_thread_poll(int fd, int64_t deadline)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	int64_t left;
	int n;

	for (;;) {
		left = deadline - kbinder_now_ms();
		if (left < 0)
			left = 0;
		n = poll(&pfd, 1, left > 1000000 ? 1000000 : (int)left);
		if (n > 0)
			return pfd.revents & POLLNVAL ? -EBADF :
			       pfd.revents & POLLERR ? -EIO : 0;
		if (n < 0 && errno != EINTR)
			return -errno;
		if (n == 0 && left < 1000000)
			return -ETIMEDOUT;
	}
}

/*
 * One read after poll() reported work, started by us so that the driver
 * returns when it finds nothing to say. Leaves @t->len 0 when the read
 * failed with EAGAIN (a non-blocking file) or EINTR: poll() again.
 */
static int kbinder_thread_read_started(struct kbinder_thread *t)
{
	const uint32_t noop = BR_NOOP;
	struct binder_write_read bwr = {
		.read_size = sizeof(t->buf),
		.read_consumed = KBINDER_THREAD_STARTED,
		.read_buffer = kbinder_ptr(t->buf),
	};
	int err;

	memcpy(t->buf, &noop, sizeof(noop));
	memcpy(t->buf + sizeof(noop), &noop, sizeof(noop));
	err = kbinder_ioctl_write_read(t->fd, &bwr);
	if (err)
		return err == -EAGAIN || err == -EINTR ? 0 : err;
	if (bwr.read_consumed < KBINDER_THREAD_STARTED ||
	    bwr.read_consumed > sizeof(t->buf))
		return -EPROTO;
	/*
	 * The first word stands for the driver's own BR_NOOP (it may have put
	 * BR_SPAWN_LOOPER there); drop the second. A read that found nothing
	 * to say returns that BR_NOOP alone, as a blocking one would.
	 */
	memmove(t->buf + sizeof(noop), t->buf + KBINDER_THREAD_STARTED,
		bwr.read_consumed - KBINDER_THREAD_STARTED);
	t->len = bwr.read_consumed - sizeof(noop);
	return 0;
}

/* Return the command at @t->pos; garbage empties the buffer. */
static int kbinder_thread_parse(struct kbinder_thread *t, struct kbinder_return *ret)
{
	struct kbinder_reader r;
	int n;

	kbinder_reader_init(&r, t->buf, t->len);
	r.pos = t->pos;
	n = kbinder_reader_next(&r, ret);
	if (n < 0) {
		t->pos = t->len = 0;
		return n;
	}
	t->pos = r.pos;
	return 0;
}

int kbinder_thread_next(struct kbinder_thread *t, struct kbinder_return *ret,
			int timeout_ms)
{
	int64_t deadline = timeout_ms < 0 ? -1 : kbinder_now_ms() + timeout_ms;
	int err;

	while (t->pos >= t->len) {	/* nothing parsed left */
		t->pos = t->len = 0;
		if (deadline < 0) {
			err = kbinder_ioctl_read(t->fd, t->buf, sizeof(t->buf), &t->len);
		} else {
			err = kbinder_thread_poll(t->fd, deadline);
			if (!err)
				err = kbinder_thread_read_started(t);
		}
		if (err)
			return err;
	}
	return kbinder_thread_parse(t, ret);
}
