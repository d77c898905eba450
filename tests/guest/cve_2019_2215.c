// SPDX-License-Identifier: Apache-2.0
/*
 * CVE-2019-2215 ("Bad Binder"): epoll on a binder fd hooks the calling
 * binder thread's wait queue; BINDER_THREAD_EXIT freed that thread while
 * the epoll entry still pointed into it, and a later EPOLL_CTL_DEL or close
 * of the epoll fd wrote into freed memory. The fix wakes the queue with
 * POLLFREE when the thread goes, so epoll unhooks first.
 *
 * Each test does the exact sequence (epoll_ctl ADD, THREAD_EXIT, then DEL or
 * close in every order, from the same or another thread, many times) and
 * asserts that each call succeeds, the kernel log stays clean and the same
 * binder fd still carries a transaction afterwards.
 */
#include "cve_common.h"

#include <sys/epoll.h>

/* The registry, and this process on the device (no binder thread yet). */
struct world {
	struct cve_server s;
	struct kbinder_proc p;
};

static int world_up(struct world *w)
{
	cve_registry_start(&w->s);
	kbt_open(&w->p);
	return w->p.fd;
}

/* The process (and its fd) is still usable: a ping gets its pong. */
static void world_down(struct world *w)
{
	struct kbinder_thread t;

	kbinder_thread_init(&t, w->p.fd);
	cve_ping(&t, 0);
	cve_server_stop(&t, &w->s);
	kbinder_proc_close(&w->p);
}

/* A new epoll set watching @fd. */
static int epoll_on(int fd)
{
	struct epoll_event ev = { .events = EPOLLIN };
	int ep = epoll_create1(EPOLL_CLOEXEC);

	ASSERT_GE(ep, 0);
	ASSERT_EQ(epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev), 0);
	return ep;
}

TEST(epoll_del_after_thread_exit_is_safe)
{
	struct epoll_event ev = { .events = EPOLLIN };
	struct world w;
	int fd = world_up(&w);

	for (int i = 0; i < 50; i++) {
		int ep = epoll_on(fd);

		ASSERT_OK(kbinder_ioctl_thread_exit(fd));
		/* the bug: DEL unlinked an entry from the freed wait queue */
		ASSERT_EQ(epoll_ctl(ep, EPOLL_CTL_DEL, fd, &ev), 0);
		ASSERT_EQ(close(ep), 0);
	}
	world_down(&w);
}

TEST(epoll_close_after_thread_exit_is_safe)
{
	struct epoll_event out;
	struct world w;
	int fd = world_up(&w);

	for (int i = 0; i < 50; i++) {
		int ep = epoll_on(fd);

		ASSERT_OK(kbinder_ioctl_thread_exit(fd));
		/* waiting on the set must not touch the freed queue either */
		ASSERT_GE(epoll_wait(ep, &out, 1, 0), 0);
		ASSERT_EQ(close(ep), 0);	/* ep_free unhooks every entry */
	}
	world_down(&w);
}

TEST(binder_close_before_epoll_after_thread_exit_is_safe)
{
	struct epoll_event out;
	struct kbinder_proc p;

	for (int i = 0; i < 50; i++) {
		int ep;

		kbt_open(&p);
		ep = epoll_on(p.fd);
		ASSERT_OK(kbinder_ioctl_thread_exit(p.fd));
		kbinder_proc_close(&p);	/* the binder file goes first */
		ASSERT_GE(epoll_wait(ep, &out, 1, 0), 0);
		ASSERT_EQ(close(ep), 0);
	}
}

/* The thread is hooked into two epoll sets, then exits. */
TEST(thread_in_two_epoll_sets_exits_safely)
{
	struct epoll_event ev = { .events = EPOLLIN };
	struct world w;
	int fd = world_up(&w);

	for (int i = 0; i < 30; i++) {
		int ep1 = epoll_on(fd), ep2 = epoll_on(fd);

		ASSERT_OK(kbinder_ioctl_thread_exit(fd));
		ASSERT_EQ(epoll_ctl(ep2, EPOLL_CTL_DEL, fd, &ev), 0);
		ASSERT_EQ(close(ep1), 0);
		ASSERT_EQ(close(ep2), 0);
	}
	world_down(&w);
}

struct hook_arg {
	int fd;
	int ep;
};

/* Hooks its binder thread into the set and exits it; the OS thread ends. */
static void *hook_and_exit(void *arg)
{
	struct hook_arg *a = arg;
	struct epoll_event ev = { .events = EPOLLIN };

	EXPECT_EQ(epoll_ctl(a->ep, EPOLL_CTL_ADD, a->fd, &ev), 0);
	EXPECT_OK(kbinder_ioctl_thread_exit(a->fd));
	return NULL;
}

/*
 * The shape of the public exploit: a second thread hooks and exits, the
 * main thread then unlinks the entry; repeated from several threads.
 */
TEST(thread_exit_then_del_from_another_thread_is_safe)
{
	struct epoll_event ev = { .events = EPOLLIN };
	struct hook_arg a[4];
	pthread_t th[4];
	struct world w;
	int fd = world_up(&w);

	for (int i = 0; i < 25; i++) {
		for (int j = 0; j < 4; j++) {
			a[j].fd = fd;
			a[j].ep = epoll_create1(EPOLL_CLOEXEC);
			ASSERT_GE(a[j].ep, 0);
			ASSERT_EQ(pthread_create(&th[j], NULL, hook_and_exit,
						 &a[j]), 0);
		}
		for (int j = 0; j < 4; j++) {
			pthread_join(th[j], NULL);
			ASSERT_EQ(epoll_ctl(a[j].ep, EPOLL_CTL_DEL, fd, &ev), 0);
			ASSERT_EQ(close(a[j].ep), 0);
		}
	}
	world_down(&w);
}

/* After the exit, the fd can be hooked again and reports pending work. */
TEST(epoll_works_again_after_thread_exit)
{
	struct epoll_event ev = { .events = EPOLLIN }, out;
	struct kbt_txn x = { .code = CVE_NOP, .flags = TF_ONE_WAY };
	struct kbinder_thread t;
	struct world w;
	int fd = world_up(&w);
	int ep = epoll_on(fd);

	ASSERT_OK(kbinder_ioctl_thread_exit(fd));
	ASSERT_EQ(epoll_ctl(ep, EPOLL_CTL_DEL, fd, &ev), 0);
	ASSERT_EQ(epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev), 0);
	/* a one-way call leaves BR_TRANSACTION_COMPLETE for this thread */
	kbinder_thread_init(&t, fd);
	kbt_write_txn(fd, &x);
	ASSERT_EQ(epoll_wait(ep, &out, 1, KBT_WAIT_MS), 1);
	ASSERT_TRUE(out.events & EPOLLIN);
	ASSERT_EQ(kbt_outcome(&t, true, NULL, KBT_WAIT_MS), BR_TRANSACTION_COMPLETE);
	ASSERT_OK(kbinder_ioctl_thread_exit(fd));
	ASSERT_EQ(close(ep), 0);
	world_down(&w);
}
