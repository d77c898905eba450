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

/* The process (and this fd) is still usable: a ping gets its pong. */
static void fd_still_works(int fd)
{
	struct kbinder_thread t;

	kbinder_thread_init(&t, fd);
	cve_ping(&t, 0);
}

TEST(epoll_del_after_thread_exit_is_safe)
{
	struct epoll_event ev = { .events = EPOLLIN };
	struct cve_server s;
	struct kbinder_thread t;
	struct kbinder_proc p;
	int ep, i;

	cve_registry_start(&s);
	kbt_open(&p);
	for (i = 0; i < 50; i++) {
		ep = epoll_create1(EPOLL_CLOEXEC);
		ASSERT_GE(ep, 0);
		ASSERT_EQ(epoll_ctl(ep, EPOLL_CTL_ADD, p.fd, &ev), 0);
		ASSERT_OK(kbinder_ioctl_thread_exit(p.fd));
		/* the bug: DEL unlinked an entry from the freed wait queue */
		ASSERT_EQ(epoll_ctl(ep, EPOLL_CTL_DEL, p.fd, &ev), 0);
		ASSERT_EQ(close(ep), 0);
	}
	fd_still_works(p.fd);
	kbinder_thread_init(&t, p.fd);
	cve_server_stop(&t, &s);
	kbinder_proc_close(&p);
}

TEST(epoll_close_after_thread_exit_is_safe)
{
	struct epoll_event ev = { .events = EPOLLIN }, out;
	struct cve_server s;
	struct kbinder_thread t;
	struct kbinder_proc p;
	int ep, i;

	cve_registry_start(&s);
	kbt_open(&p);
	for (i = 0; i < 50; i++) {
		ep = epoll_create1(EPOLL_CLOEXEC);
		ASSERT_GE(ep, 0);
		ASSERT_EQ(epoll_ctl(ep, EPOLL_CTL_ADD, p.fd, &ev), 0);
		ASSERT_OK(kbinder_ioctl_thread_exit(p.fd));
		/* waiting on the set must not touch the freed queue either */
		ASSERT_GE(epoll_wait(ep, &out, 1, 0), 0);
		ASSERT_EQ(close(ep), 0);	/* ep_free unhooks every entry */
	}
	fd_still_works(p.fd);
	kbinder_thread_init(&t, p.fd);
	cve_server_stop(&t, &s);
	kbinder_proc_close(&p);
}

TEST(binder_close_before_epoll_after_thread_exit_is_safe)
{
	struct epoll_event ev = { .events = EPOLLIN }, out;
	struct kbinder_proc p;
	int ep, i;

	for (i = 0; i < 50; i++) {
		kbt_open(&p);
		ep = epoll_create1(EPOLL_CLOEXEC);
		ASSERT_GE(ep, 0);
		ASSERT_EQ(epoll_ctl(ep, EPOLL_CTL_ADD, p.fd, &ev), 0);
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
	struct cve_server s;
	struct kbinder_thread t;
	struct kbinder_proc p;
	int ep1, ep2, i;

	cve_registry_start(&s);
	kbt_open(&p);
	for (i = 0; i < 30; i++) {
		ep1 = epoll_create1(EPOLL_CLOEXEC);
		ep2 = epoll_create1(EPOLL_CLOEXEC);
		ASSERT_GE(ep1, 0);
		ASSERT_GE(ep2, 0);
		ASSERT_EQ(epoll_ctl(ep1, EPOLL_CTL_ADD, p.fd, &ev), 0);
		ASSERT_EQ(epoll_ctl(ep2, EPOLL_CTL_ADD, p.fd, &ev), 0);
		ASSERT_OK(kbinder_ioctl_thread_exit(p.fd));
		ASSERT_EQ(epoll_ctl(ep2, EPOLL_CTL_DEL, p.fd, &ev), 0);
		ASSERT_EQ(close(ep1), 0);
		ASSERT_EQ(close(ep2), 0);
	}
	fd_still_works(p.fd);
	kbinder_thread_init(&t, p.fd);
	cve_server_stop(&t, &s);
	kbinder_proc_close(&p);
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
	struct cve_server s;
	struct kbinder_thread t;
	struct kbinder_proc p;
	pthread_t th[4];
	int i, j;

	cve_registry_start(&s);
	kbt_open(&p);
	for (i = 0; i < 25; i++) {
		for (j = 0; j < 4; j++) {
			a[j].fd = p.fd;
			a[j].ep = epoll_create1(EPOLL_CLOEXEC);
			ASSERT_GE(a[j].ep, 0);
			ASSERT_EQ(pthread_create(&th[j], NULL, hook_and_exit,
						 &a[j]), 0);
		}
		for (j = 0; j < 4; j++) {
			pthread_join(th[j], NULL);
			ASSERT_EQ(epoll_ctl(a[j].ep, EPOLL_CTL_DEL, p.fd, &ev), 0);
			ASSERT_EQ(close(a[j].ep), 0);
		}
	}
	fd_still_works(p.fd);
	kbinder_thread_init(&t, p.fd);
	cve_server_stop(&t, &s);
	kbinder_proc_close(&p);
}

/* After the exit, the fd can be hooked again and reports pending work. */
TEST(epoll_works_again_after_thread_exit)
{
	struct epoll_event ev = { .events = EPOLLIN }, out;
	struct cve_server s;
	struct kbinder_thread t;
	struct kbinder_proc p;
	struct kbt_txn x = { .code = CVE_NOP, .flags = TF_ONE_WAY };
	int ep;

	cve_registry_start(&s);
	kbt_open(&p);
	ep = epoll_create1(EPOLL_CLOEXEC);
	ASSERT_GE(ep, 0);
	ASSERT_EQ(epoll_ctl(ep, EPOLL_CTL_ADD, p.fd, &ev), 0);
	ASSERT_OK(kbinder_ioctl_thread_exit(p.fd));
	ASSERT_EQ(epoll_ctl(ep, EPOLL_CTL_DEL, p.fd, &ev), 0);
	ASSERT_EQ(epoll_ctl(ep, EPOLL_CTL_ADD, p.fd, &ev), 0);
	/* a one-way call leaves BR_TRANSACTION_COMPLETE for this thread */
	kbinder_thread_init(&t, p.fd);
	kbt_write_txn(p.fd, &x);
	ASSERT_EQ(epoll_wait(ep, &out, 1, KBT_WAIT_MS), 1);
	ASSERT_TRUE(out.events & EPOLLIN);
	ASSERT_EQ(kbt_outcome(&t, true, NULL, KBT_WAIT_MS), BR_TRANSACTION_COMPLETE);
	ASSERT_OK(kbinder_ioctl_thread_exit(p.fd));
	ASSERT_EQ(close(ep), 0);
	fd_still_works(p.fd);
	kbinder_thread_init(&t, p.fd);
	cve_server_stop(&t, &s);
	kbinder_proc_close(&p);
}
