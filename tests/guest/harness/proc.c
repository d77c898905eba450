// SPDX-License-Identifier: Apache-2.0
/*
 * The processes of a test: kbt_fork() (a child whose fd table is checked
 * as the body's is, and which must have ended, reaped and judged, when
 * its parent returns), waiting for and killing children, the pipe channels
 * between a test and its children, and the clock. See harness.h.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

int64_t kbt_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void kbt_msleep(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/*
 * The kbt_fork() children of this process (each process has its own list:
 * a child starts with an empty one), so that none is left running, or
 * ended badly with nobody looking, when its parent returns.
 */
struct kbt_child {
	pid_t pid;
	const char *name;
};
static struct kbt_child *kbt_children;
static size_t kbt_nchildren, kbt_children_cap;
/* Threads of a test may fork too; a child starts with it unlocked. */
static int kbt_children_lock;

static void kbt_child_add(pid_t pid, const char *name)
{
	bool ok = true;

	while (__atomic_exchange_n(&kbt_children_lock, 1, __ATOMIC_ACQUIRE))
		;
	if (kbt_nchildren == kbt_children_cap) {
		size_t cap = kbt_children_cap ? 2 * kbt_children_cap : 16;
		struct kbt_child *c = realloc(kbt_children, cap * sizeof(*c));

		if (c) {
			kbt_children = c;
			kbt_children_cap = cap;
		}
		ok = c != NULL;
	}
	if (ok) {
		kbt_children[kbt_nchildren].pid = pid;
		kbt_children[kbt_nchildren].name = name;
		kbt_nchildren++;
	}
	__atomic_store_n(&kbt_children_lock, 0, __ATOMIC_RELEASE);
	if (!ok)
		kbt_fail(__FILE__, __LINE__, true, "no memory to track child %s", name);
}

/* How @c ended (wait status @st), as a failure, or nothing if it ended well. */
static void kbt_child_judge(const struct kbt_child *c, int st, const char *who)
{
	if (WIFSIGNALED(st))
		kbt_fail_plain("child %s (pid %d) was killed by signal %d (%s), and %s returned without reaping it",
			       c->name, (int)c->pid, WTERMSIG(st),
			       strsignal(WTERMSIG(st)), who);
	else if (WIFEXITED(st) && WEXITSTATUS(st) != 0 &&
		 WEXITSTATUS(st) != KBT_EXIT_SKIP && !kbt_failed())
		kbt_fail_plain("child %s (pid %d) exited with status %d, and %s returned without reaping it",
			       c->name, (int)c->pid, WEXITSTATUS(st), who);
}

int kbt_grace_ms(void)
{
	const char *env = getenv("KBT_CHILD_GRACE_MS");
	long ms = env ? strtol(env, NULL, 10) : 0;

	return ms > 0 && ms < 60000 ? (int)ms : KBT_CHILD_GRACE_MS;
}

void kbt_children_check(const char *who)
{
	int grace = kbt_grace_ms();
	int64_t deadline = kbt_now_ms() + grace;
	size_t i, left;

	do {
		left = 0;
		for (i = 0; i < kbt_nchildren; i++) {
			struct kbt_child *c = &kbt_children[i];
			int st;
			pid_t r;

			if (!c->pid)
				continue;
			r = waitpid(c->pid, &st, WNOHANG);
			if (r == 0) {
				left++;
				continue;
			}
			if (r == c->pid)
				kbt_child_judge(c, st, who);
			c->pid = 0;	/* judged, or the test reaped it */
		}
		if (left)
			kbt_msleep(5);
	} while (left && kbt_now_ms() < deadline);
	for (i = 0; i < kbt_nchildren; i++) {
		struct kbt_child *c = &kbt_children[i];

		if (!c->pid)
			continue;
		kbt_fail_plain("child %s (pid %d) was still running %d ms after %s returned: what it would still check is lost (reap it with ASSERT_CHILD_OK()/kbt_reap(), or stop it with kbt_kill())",
			       c->name, (int)c->pid, grace, who);
		kill(c->pid, SIGKILL);
		waitpid(c->pid, NULL, 0);
		c->pid = 0;
	}
	kbt_nchildren = 0;
}

pid_t kbt_fork_named(void (*fn)(void *arg), void *arg, const char *name)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		kbt_fail(__FILE__, __LINE__, true, "fork: %s", strerror(errno));
	if (pid == 0) {
		struct kbt_fd_snap before;
		char who[128];
		int ret;

		/* its parent's children are not its own */
		kbt_nchildren = 0;
		__atomic_store_n(&kbt_children_lock, 0, __ATOMIC_RELAXED);
		ret = kbt_fd_snapshot(&before);
		if (ret)
			kbt_fail(__FILE__, __LINE__, true,
				 "fd snapshot of child %s: %s", name,
				 kbt_strerr(ret));
		fn(arg);
		snprintf(who, sizeof(who), "child %s", name);
		kbt_fd_check(&before, who);
		kbt_children_check(who);
		_exit(kbt_failed() ? KBT_EXIT_FAIL : 0);
	}
	kbt_child_add(pid, name);
	return pid;
}

pid_t kbt_fork_ready_named(void (*fn)(void *arg), struct kbt_chan *chan,
			   const char *name)
{
	pid_t pid;

	kbt_chan_init(chan);
	pid = kbt_fork_named(fn, chan, name);
	ASSERT_WAIT(chan, 'R');
	return pid;
}

int kbt_reap(pid_t pid, int timeout_ms)
{
	int64_t deadline = kbt_now_ms() + timeout_ms;
	int status;

	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r < 0)
			return -errno;
		if (r == pid)
			break;
		if (kbt_now_ms() >= deadline)
			return -ETIMEDOUT;
		kbt_msleep(2);
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

int kbt_kill(pid_t pid)
{
	kill(pid, SIGKILL);
	return kbt_reap(pid, 10000);
}

size_t kbt_read_all(int fd, char *buf, size_t size)
{
	char drop[256];
	size_t len = 0;
	ssize_t n;

	for (;;) {
		bool room = len + 1 < size;

		n = room ? read(fd, buf + len, size - 1 - len) :
			   read(fd, drop, sizeof(drop));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (room)
			len += (size_t)n;
	}
	buf[len] = '\0';
	return len;
}

void kbt_chan_init(struct kbt_chan *c)
{
	if (pipe2(c->up, O_CLOEXEC) || pipe2(c->down, O_CLOEXEC))
		kbt_fail(__FILE__, __LINE__, true, "pipe: %s", strerror(errno));
	c->parent = getpid();
}

void kbt_chan_close(struct kbt_chan *c)
{
	close(c->up[0]);
	close(c->up[1]);
	close(c->down[0]);
	close(c->down[1]);
}

int kbt_send(struct kbt_chan *c, const void *buf, size_t n)
{
	int fd = getpid() == c->parent ? c->down[1] : c->up[1];
	const char *p = buf;

	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int kbt_recv(struct kbt_chan *c, void *buf, size_t n, int timeout_ms)
{
	int fd = getpid() == c->parent ? c->up[0] : c->down[0];
	int64_t deadline = kbt_now_ms() + timeout_ms;
	char *p = buf;

	while (n) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		int64_t left = deadline - kbt_now_ms();
		ssize_t r;

		if (left <= 0)
			return -ETIMEDOUT;
		r = poll(&pfd, 1, (int)left);
		if (r == 0)
			return -ETIMEDOUT;
		if (r > 0)
			r = read(fd, p, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			return -EPIPE;
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

int kbt_signal(struct kbt_chan *c, char token)
{
	return kbt_send(c, &token, 1);
}

int kbt_wait(struct kbt_chan *c, char token, int timeout_ms)
{
	char got;
	int ret = kbt_recv(c, &got, 1, timeout_ms);

	if (ret)
		return ret;
	return got == token ? 0 : -EPROTO;
}
