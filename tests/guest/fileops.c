// SPDX-License-Identifier: Apache-2.0
/*
 * Conformance: file operations. Open, BINDER_VERSION, the read-only receive
 * mapping (writable and second mappings refused), poll, flush, thread exit
 * in an epoll set (the CVE-2019-2215 bug class), and release.
 */
#include "binder_util.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

TEST(version_is_protocol_8)
{
	struct kbinder_proc p;
	int32_t v = -1;

	kbt_open_dev(&p, NULL, 0);
	ASSERT_OK(kbinder_ioctl_version(p.fd, &v));
	ASSERT_EQ(v, 8);
	ASSERT_EQ(BINDER_CURRENT_PROTOCOL_VERSION, 8);
	kbinder_proc_close(&p);
}

TEST(writable_mmap_is_refused)
{
	struct kbinder_proc p;
	void *m;

	kbt_open_dev(&p, NULL, 0);
	m = mmap(NULL, 65536, PROT_READ | PROT_WRITE, MAP_PRIVATE, p.fd, 0);
	ASSERT_TRUE(m == MAP_FAILED);
	ASSERT_EQ(errno, EPERM);
	m = mmap(NULL, 65536, PROT_READ | PROT_WRITE, MAP_SHARED, p.fd, 0);
	ASSERT_TRUE(m == MAP_FAILED);
	ASSERT_EQ(errno, EPERM);
	/* a refused mapping does not use up the one allowed mapping */
	m = mmap(NULL, 65536, PROT_READ, MAP_PRIVATE, p.fd, 0);
	ASSERT_TRUE(m != MAP_FAILED);
	munmap(m, 65536);
	kbinder_proc_close(&p);
}

TEST(read_only_mapping_cannot_become_writable)
{
	struct kbinder_proc p;

	kbt_open_dev(&p, NULL, 65536);
	ASSERT_EQ(mprotect(p.map, 65536, PROT_READ | PROT_WRITE), -1);
	ASSERT_EQ(errno, EACCES);
	kbinder_proc_close(&p);
}

TEST(second_mmap_is_refused)
{
	struct kbinder_proc p;
	void *m;

	kbt_open_dev(&p, NULL, 65536);
	m = mmap(NULL, 65536, PROT_READ, MAP_PRIVATE, p.fd, 0);
	ASSERT_TRUE(m == MAP_FAILED);
	ASSERT_EQ(errno, EBUSY);
	kbinder_proc_close(&p);
}

static void mmap_inherited(void *arg)
{
	int fd = *(int *)arg;
	void *m = mmap(NULL, 65536, PROT_READ, MAP_PRIVATE, fd, 0);

	ASSERT_TRUE(m == MAP_FAILED);
	ASSERT_EQ(errno, EINVAL);
}

/* Only the process that opened the device may map it. */
TEST(mmap_by_another_process_is_refused)
{
	struct kbinder_proc p;

	kbt_open_dev(&p, NULL, 0);
	ASSERT_CHILD_OK(kbt_fork(mmap_inherited, &p.fd));
	kbinder_proc_close(&p);
}

/* Each open is its own binder process: one mapping each. */
TEST(each_open_gets_its_own_mapping)
{
	struct kbinder_proc a, b;

	kbt_open_dev(&a, NULL, 65536);
	kbt_open_dev(&b, NULL, 65536);
	ASSERT_TRUE(a.map != b.map);
	kbinder_proc_close(&a);
	kbinder_proc_close(&b);
}

TEST(open_and_close_leave_fd_table_unchanged)
{
	int before = kbt_fd_count();
	struct kbinder_proc p;
	int i;

	for (i = 0; i < 200; i++) {
		kbt_open(&p);
		kbinder_proc_close(&p);
	}
	ASSERT_FD_COUNT(before);
}

static void send_oneway_on_signal(void *arg)
{
	struct kbt_chan *chan = arg;
	struct kbinder_proc p;
	struct kbinder_thread t;

	ASSERT_WAIT(chan, 'G');
	kbt_client(&p, &t);
	ASSERT_EQ(kbt_call_status(&t, 0, 9, NULL, TF_ONE_WAY),
		  BR_TRANSACTION_COMPLETE);
	kbinder_proc_close(&p);
}

/*
 * The calling thread's work makes its fd readable; nothing else does. (The
 * sender is forked before we open the device: a child holding a copy of
 * our fd would flush it when it exits, and a flush wakes pollers.)
 */
TEST(poll_reports_pending_work)
{
	struct kbinder_proc p;
	struct kbinder_thread t;
	struct kbt_chan chan;
	struct pollfd pfd;
	struct kbinder_return ret;
	pid_t c;

	kbt_chan_init(&chan);
	c = kbt_fork(send_oneway_on_signal, &chan);
	kbt_manager(&p, &t, NULL);
	pfd.fd = p.fd;
	pfd.events = POLLIN;
	ASSERT_EQ(poll(&pfd, 1, 100), 0);
	ASSERT_SIGNAL(&chan, 'G');
	ASSERT_EQ(poll(&pfd, 1, KBT_WAIT_MS), 1);
	ASSERT_TRUE(pfd.revents & POLLIN);
	kbt_expect(&t, BR_TRANSACTION, &ret);
	ASSERT_EQ(ret.u.txn.code, 9);
	ASSERT_OK(kbinder_thread_free_buffer(&t, ret.u.txn.data.ptr.buffer));
	ASSERT_CHILD_OK(c);
	/* drained: not readable any more */
	ASSERT_EQ(poll(&pfd, 1, 100), 0);
	kbt_chan_close(&chan);
	kbinder_proc_close(&p);
}

/*
 * A flush (close of any copy of the fd) makes every thread readable: its
 * next poll() returns at once. (A thread blocked in poll() during the
 * flush is not woken, by either driver: the flush wakes only readers.)
 */
TEST(flush_makes_every_thread_readable)
{
	struct kbinder_proc p;
	struct kbinder_thread t;
	struct pollfd pfd;
	int dup_fd;

	kbt_client(&p, &t);
	ASSERT_OK(kbinder_thread_enter_looper(&t));
	pfd.fd = p.fd;
	pfd.events = POLLIN;
	ASSERT_EQ(poll(&pfd, 1, 100), 0);
	dup_fd = dup(p.fd);
	close(dup_fd);
	ASSERT_EQ(poll(&pfd, 1, KBT_WAIT_MS), 1);
	kbinder_proc_close(&p);
}

/*
 * CVE-2019-2215 class: a thread registers the fd in an epoll set (which
 * hooks the binder thread's wait queue), then BINDER_THREAD_EXIT frees the
 * binder thread; removing the fd from the set, closing the epoll and using
 * the fd afterwards must be safe.
 */
TEST(thread_exit_in_epoll_is_safe)
{
	struct kbinder_proc p;
	struct epoll_event ev = { .events = EPOLLIN };
	int ep, i;
	int32_t v;

	for (i = 0; i < 20; i++) {
		kbt_open(&p);
		ep = epoll_create1(EPOLL_CLOEXEC);
		ASSERT_GE(ep, 0);
		ASSERT_EQ(epoll_ctl(ep, EPOLL_CTL_ADD, p.fd, &ev), 0);
		ASSERT_OK(kbinder_ioctl_thread_exit(p.fd));
		if (i & 1) {
			ASSERT_EQ(epoll_ctl(ep, EPOLL_CTL_DEL, p.fd, &ev), 0);
			close(ep);
		} else {
			close(ep);	/* unhooks on close instead */
		}
		/* the process still works */
		ASSERT_OK(kbinder_ioctl_version(p.fd, &v));
		kbinder_proc_close(&p);
	}
}

static void *epoll_thread(void *arg)
{
	int *fds = arg;	/* fds[0] binder, fds[1] epoll */
	struct epoll_event ev = { .events = EPOLLIN };

	EXPECT_EQ(epoll_ctl(fds[1], EPOLL_CTL_ADD, fds[0], &ev), 0);
	EXPECT_OK(kbinder_ioctl_thread_exit(fds[0]));
	return NULL;
}

/* The same when the exiting thread is gone and another thread cleans up. */
TEST(thread_exit_in_epoll_cleaned_up_by_other_thread_is_safe)
{
	struct kbinder_proc p;
	struct epoll_event out;
	pthread_t th;
	int fds[2];

	kbt_open(&p);
	fds[0] = p.fd;
	fds[1] = epoll_create1(EPOLL_CLOEXEC);
	ASSERT_GE(fds[1], 0);
	ASSERT_EQ(pthread_create(&th, NULL, epoll_thread, fds), 0);
	pthread_join(th, NULL);
	/* waiting on the set must not touch the freed wait queue */
	ASSERT_GE(epoll_wait(fds[1], &out, 1, 50), 0);
	close(fds[1]);
	kbinder_proc_close(&p);
}

/* Thread exit while a transaction is pending on the thread's stack. */
TEST(thread_exit_with_transaction_pending_fails_the_caller)
{
	struct kbinder_proc p;
	struct kbinder_thread t;
	struct kbinder_return ret;
	pid_t c;

	kbt_manager(&p, &t, NULL);
	c = fork();
	ASSERT_GE(c, 0);
	if (c == 0) {
		struct kbinder_proc cp;
		struct kbinder_thread ct;
		uint32_t st;

		kbt_client(&cp, &ct);
		st = kbt_call_status(&ct, 0, 5, NULL, 0);
		_exit(st == BR_DEAD_REPLY ? 0 : 1);
	}
	kbt_expect(&t, BR_TRANSACTION, &ret);
	ASSERT_OK(kbinder_thread_free_buffer(&t, ret.u.txn.data.ptr.buffer));
	/* the serving thread leaves without replying */
	ASSERT_OK(kbinder_ioctl_thread_exit(p.fd));
	ASSERT_CHILD_OK(c);
	kbinder_proc_close(&p);
}

static int blocked_reader_done;

static void *blocked_reader(void *arg)
{
	struct kbinder_proc *p = arg;
	uint8_t buf[256];
	size_t consumed = 0;
	uint32_t first;

	/* a looper thread blocks: nothing for it to do */
	{
		struct kbinder_thread t;

		kbinder_thread_init(&t, p->fd);
		EXPECT_OK(kbinder_thread_enter_looper(&t));
	}
	EXPECT_OK(kbinder_ioctl_read(p->fd, buf, sizeof(buf), &consumed));
	EXPECT_EQ(consumed, 4);
	memcpy(&first, buf, 4);
	EXPECT_EQ(first, BR_NOOP);
	__atomic_store_n(&blocked_reader_done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* close() of any fd of the file (flush) wakes blocked readers empty-handed. */
TEST(flush_wakes_blocked_reader)
{
	struct kbinder_proc p;
	pthread_t th;
	int dup_fd, i;

	kbt_open(&p);
	ASSERT_EQ(pthread_create(&th, NULL, blocked_reader, &p), 0);
	/*
	 * A flush only reaches threads the driver already knows, and we cannot
	 * see when the reader has blocked: flush again until it wakes (a flush
	 * that came too early is lost, one that finds it blocked must wake it).
	 */
	for (i = 0; i < 200 && !__atomic_load_n(&blocked_reader_done,
						__ATOMIC_ACQUIRE); i++) {
		dup_fd = dup(p.fd);
		ASSERT_GE(dup_fd, 0);
		close(dup_fd);
		kbt_msleep(50);
	}
	ASSERT_EQ(__atomic_load_n(&blocked_reader_done, __ATOMIC_ACQUIRE), 1);
	pthread_join(th, NULL);
	kbinder_proc_close(&p);
}

/* A process that is torn down releases its manager role. */
TEST(release_frees_context_manager_role)
{
	struct kbt_server s;
	struct kbinder_proc p;
	struct kbinder_thread t;
	int i;

	kbt_client(&p, &t);
	for (i = 0; i < 3; i++) {
		kbt_start_ctxmgr(&s, NULL, NULL);
		kbt_stop_ctxmgr(&t, &s);
	}
	/* and this process can take it once the last one is gone */
	kbinder_proc_close(&p);
	kbt_open(&p);
	ASSERT_OK(kbt_become_ctxmgr(p.fd, NULL));
	kbinder_proc_close(&p);
}

/*
 * The mapping cannot grow (VM_DONTEXPAND): mremap() tricks of the
 * CVE-2019-2213 family, which move the area where the driver does not
 * expect it, are refused. Upstream 6.1 lets it grow.
 */
TEST(mapping_cannot_grow)
{
	struct kbinder_proc p;
	void *m;

	REQUIRE_KBINDER("upstream 6.1's mapping lacks VM_DONTEXPAND");
	kbt_open_dev(&p, NULL, 65536);
	m = mremap(p.map, 65536, 2 * 65536, MREMAP_MAYMOVE);
	if (m != MAP_FAILED) {
		p.map = m;	/* for kbinder_proc_close() to unmap */
		p.map_size = 2 * 65536;
	}
	EXPECT_TRUE(m == MAP_FAILED);
	EXPECT_EQ(errno, EFAULT);
	kbinder_proc_close(&p);
}

static void unmapped_manager(void *arg)
{
	struct kbt_chan *chan = arg;
	struct kbinder_proc p;
	struct kbinder_thread t;

	kbt_manager(&p, &t, NULL);
	ASSERT_EQ(munmap(p.map, p.map_size), 0);
	p.map = NULL;
	ASSERT_SIGNAL(chan, 'U');
	ASSERT_WAIT(chan, 'q');
	kbinder_proc_close(&p);
}

/*
 * A process that unmapped its area can never read what is sent to it
 * again (it cannot map it twice): calls to it fail at once with
 * BR_DEAD_REPLY, as upstream's do (no area to allocate from).
 */
TEST(call_to_a_process_that_unmapped_its_area_gets_dead_reply)
{
	struct kbt_chan chan;
	struct kbinder_proc p;
	struct kbinder_thread t;
	pid_t pid;

	kbt_chan_init(&chan);
	pid = kbt_fork(unmapped_manager, &chan);
	ASSERT_WAIT(&chan, 'U');
	kbt_client(&p, &t);
	EXPECT_EQ(kbt_call_status(&t, 0, 1, NULL, 0), BR_DEAD_REPLY);
	EXPECT_EQ(kbt_call_status(&t, 0, 1, NULL, TF_ONE_WAY), BR_DEAD_REPLY);
	ASSERT_SIGNAL(&chan, 'q');
	ASSERT_CHILD_OK(pid);
	kbt_chan_close(&chan);
	kbinder_proc_close(&p);
}
