// SPDX-License-Identifier: Apache-2.0
/*
 * A binder thread's event queue: reads from the driver into a small buffer
 * and hands back one parsed return command at a time.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <string.h>
#include <time.h>

#include "internal.h"

void kbinder_thread_init(struct kbinder_thread *t, int fd)
{
	memset(t->reserved, 0, sizeof(t->reserved));
	t->fd = fd;
	t->len = 0;
	t->pos = 0;
}

bool kbinder_pending(const struct kbinder_thread *t)
{
	return t->pos < t->len;
}

static int64_t kbinder_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Wait until the driver has work for this thread, or the deadline passes. */
static int kbinder_wait_readable(int fd, int64_t deadline)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	int64_t left;
	int n;

	if (deadline < 0)
		return 0;
	left = deadline - kbinder_now_ms();
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

/*
 * A timed wait must not end in a blocking read: poll() may report work that
 * turns out to have nothing to say (a node update that changes no count),
 * and the read would then sleep past the deadline. So timed reads run with
 * the file O_NONBLOCK. The flag belongs to the open file, shared by all
 * threads: count the timed readers per fd and restore the flag when the
 * last one leaves. A blocking reader that meets -EAGAIN meanwhile polls
 * (kbinder_read()).
 */
#define KBINDER_NB_FDS 1024

static pthread_mutex_t kbinder_nb_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned int kbinder_nb_users[KBINDER_NB_FDS];
static bool kbinder_nb_was_set[KBINDER_NB_FDS];

static void kbinder_nonblock_enter(int fd)
{
	int flags;

	if (fd < 0 || fd >= KBINDER_NB_FDS)
		return;
	pthread_mutex_lock(&kbinder_nb_lock);
	if (kbinder_nb_users[fd]++ == 0) {
		flags = fcntl(fd, F_GETFL);
		kbinder_nb_was_set[fd] = flags >= 0 && (flags & O_NONBLOCK);
		if (flags >= 0 && !kbinder_nb_was_set[fd])
			fcntl(fd, F_SETFL, flags | O_NONBLOCK);
	}
	pthread_mutex_unlock(&kbinder_nb_lock);
}

static void kbinder_nonblock_leave(int fd)
{
	int flags;

	if (fd < 0 || fd >= KBINDER_NB_FDS)
		return;
	pthread_mutex_lock(&kbinder_nb_lock);
	if (--kbinder_nb_users[fd] == 0 && !kbinder_nb_was_set[fd]) {
		flags = fcntl(fd, F_GETFL);
		if (flags >= 0)
			fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
	}
	pthread_mutex_unlock(&kbinder_nb_lock);
}

/* One read attempt that never sleeps in the driver. */
static int kbinder_read_once(struct kbinder_thread *t)
{
	struct binder_write_read bwr = {
		.read_size = sizeof(t->buf),
		.read_buffer = (binder_uintptr_t)(uintptr_t)t->buf,
	};
	int n;

	kbinder_nonblock_enter(t->fd);
	n = kbinder_write_read(t->fd, &bwr);
	kbinder_nonblock_leave(t->fd);
	t->len = bwr.read_consumed;
	return n;
}

int kbinder_next(struct kbinder_thread *t, struct kbinder_return *ret, int timeout_ms)
{
	int64_t deadline = timeout_ms < 0 ? -1 : kbinder_now_ms() + timeout_ms;
	struct kbinder_reader r;
	int n;

	for (;;) {
		if (t->pos < t->len) {
			kbinder_reader_init(&r, t->buf, t->len);
			r.pos = t->pos;
			n = kbinder_reader_next(&r, ret);
			if (n < 0) {
				t->pos = t->len = 0;   /* drop the garbage */
				return n;
			}
			t->pos = r.pos;
			return 0;
		}
		n = kbinder_wait_readable(t->fd, deadline);
		if (n)
			return n;
		t->pos = t->len = 0;
		if (deadline < 0)
			n = kbinder_read(t->fd, t->buf, sizeof(t->buf), &t->len);
		else
			n = kbinder_read_once(t);
		if (n == -EAGAIN && !t->len)
			continue;
		if (n)
			return n;
	}
}
