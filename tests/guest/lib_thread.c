// SPDX-License-Identifier: Apache-2.0
/*
 * libkbinder's thread layer on a real device: a timed read keeps its
 * deadline whatever the fd's number, and it never changes what another
 * thread's blocking read on the same file does.
 *
 * Before libkbinder 2 the read layer flipped O_NONBLOCK on the shared
 * file around each timed read (and did nothing for fds from 1024 on); the
 * second test fails on that library, on both drivers (built with its names
 * of the time). The first passes there too: a lone timed waiter only overslept when a
 * read the driver started found nothing to say, which neither driver
 * queues for it. What can make a timed read oversleep above fd 1023, in
 * the old layer and on any blocking file, is a race: two threads waiting
 * for the same process work, both woken, and the loser's poll() seeing
 * the work before the winner took it; its read then waits in the driver
 * (lib_thread_nonblock.c covers it, on a KBINDER_PROC_NONBLOCK file).
 *
 * What a read that oversleeps looks like: it sleeps in the driver until
 * new work comes, i.e. for ever in these tests. So a timed read is judged
 * by whether it came back by itself (a rescue thread flushes the file only
 * after RESCUE_MS, far past the deadline, and a read it had to end fails
 * the test), not by a wall-clock bound a loaded host can break; how late
 * it came back is compared with a plain timer started beside it
 * (waits.h), and the synchronisation waits for conditions (a thread asleep
 * in poll() or in the driver), not for fixed times.
 */
#include "binder_util.h"	/* first: it sets _GNU_SOURCE */

#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <stddef.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "harness.h"
#include "waits.h"

#define HIGH_FD		1500	/* above FD_SETSIZE: no per-fd table covers it */
#define DEADLINE_MS	2000	/* the call comes well inside it */
#define SLACK_MS	1000	/* later than the plain timer beside it */
#define RESCUE_MS	10000	/* a read still out then sleeps in the driver */
#define PAGE		4096

/* Flush the file (close a copy) until @done, every 50 ms, for @ms at most. */
static void flush_until(int fd, const int *done, int ms)
{
	for (int i = 0; i < ms / 50 && !__atomic_load_n(done, __ATOMIC_ACQUIRE); i++) {
		int copy = dup(fd);

		if (copy >= 0)
			close(copy);
		kbt_msleep(50);
	}
}

struct rescue {
	int fd;
	int done;
	int flushed;	/* the read had to be ended by a flush */
};

/*
 * A read that slept past its deadline would sleep for ever: RESCUE_MS
 * after the start, end it (and say so: the test fails).
 */
static void *rescue_main(void *arg)
{
	struct rescue *r = arg;

	for (int i = 0; i < RESCUE_MS / 50 && !__atomic_load_n(&r->done, __ATOMIC_ACQUIRE); i++)
		kbt_msleep(50);
	if (!__atomic_load_n(&r->done, __ATOMIC_ACQUIRE))
		__atomic_store_n(&r->flushed, 1, __ATOMIC_RELEASE);
	flush_until(r->fd, &r->done, 5000);
	return NULL;
}

/* The verdict on a timed wait of DEADLINE_MS that took @took ms. */
static void judge_wait(const char *who, int64_t took, int64_t control_late, bool flushed)
{
	kbt_log("%s: back after %lld ms (deadline %d ms); a plain %d ms timer beside it "
		"was %lld ms late", who, (long long)took, DEADLINE_MS, DEADLINE_MS,
		(long long)control_late);
	if (flushed)
		kbt_fail(__FILE__, __LINE__, false,
			 "%s slept in the driver past its deadline: a flush %d ms after it began ended it",
			 who, RESCUE_MS);
	EXPECT_GE(took, DEADLINE_MS);
	EXPECT_LE(took - DEADLINE_MS, control_late + SLACK_MS);
}

#define CALL_CODE	5

struct trigger {
	struct kbt_chan *chan;
	pid_t reader;
};

/*
 * Once the reader waits (in poll(); a layer that waits in the driver waits
 * in its read), tell the caller to call.
 */
static void *trigger_main(void *arg)
{
	struct trigger *g = arg;

	EXPECT_OK(kbt_wait_asleep_in(g->reader, KBT_ANY_SYSCALL, KBT_WAIT_MS));
	EXPECT_OK(kbt_signal(g->chan, 'G'));
	return NULL;
}

/* The call arrives within the deadline; then nothing, until the deadline. */
TEST(timed_read_on_a_high_fd_keeps_its_deadline)
{
	struct rescue rescue = { .done = 0 };
	struct kbt_control_timer control;
	struct kbt_chan chan;
	struct kbt_oneway_call call = { &chan, CALL_CODE, 0 };
	struct trigger trigger = { &chan, kbt_gettid() };
	struct kbinder_proc p;
	struct kbinder_thread t;
	struct kbinder_return ret;
	pthread_t th, tg;
	int64_t start, took;
	int calls = 0;
	pid_t c;
	int err;

	ASSERT_OK(kbt_allow_fd(HIGH_FD));
	kbt_chan_init(&chan);
	c = kbt_fork(kbt_oneway_caller, &call);
	kbt_manager(&p, &t, NULL);
	ASSERT_EQ(dup2(p.fd, HIGH_FD), HIGH_FD);
	kbinder_thread_init(&t, HIGH_FD);
	rescue.fd = HIGH_FD;
	ASSERT_EQ(pthread_create(&th, NULL, rescue_main, &rescue), 0);
	ASSERT_EQ(pthread_create(&tg, NULL, trigger_main, &trigger), 0);
	kbt_control_start(&control, DEADLINE_MS);
	start = kbt_now_ms();
	do {
		int64_t left = start + DEADLINE_MS - kbt_now_ms();

		err = kbinder_thread_next(&t, &ret, left > 0 ? (int)left : 0);
		if (!err && ret.cmd == BR_TRANSACTION && ret.u.txn.code == CALL_CODE) {
			calls++;
			ASSERT_OK(kbinder_thread_free_buffer(&t, ret.u.txn.data.ptr.buffer));
		} else if (!err && ret.cmd != BR_NOOP) {
			kbt_default_event(&t, &ret, NULL);
		}
	} while (!err && !__atomic_load_n(&rescue.flushed, __ATOMIC_ACQUIRE));
	took = kbt_now_ms() - start;
	__atomic_store_n(&rescue.done, 1, __ATOMIC_RELEASE);
	pthread_join(th, NULL);
	pthread_join(tg, NULL);
	kbt_log("the wait on fd %d returned %d, %d call(s)", HIGH_FD, err, calls);
	judge_wait("the timed read", took, kbt_control_late(&control), rescue.flushed);
	ASSERT_CHILD_OK(c);
	ASSERT_EQ(calls, 1);
	ASSERT_EQ(err, -ETIMEDOUT);
	close(HIGH_FD);
	kbt_chan_close(&chan);
	kbinder_proc_close(&p);
}

/* The second thread: a plain blocking BINDER_WRITE_READ of its own. */
struct blocker {
	int fd;
	int go;
	int done;
	int err;
	pid_t tid;
	size_t consumed;
};

static void *blocker_main(void *arg)
{
	struct blocker *b = arg;
	struct binder_write_read bwr;
	uint8_t buf[256];
	struct kbinder_thread t;

	b->tid = kbt_gettid();
	kbinder_thread_init(&t, b->fd);
	/* A first ioctl: the driver's new thread returns at once from its first read. */
	EXPECT_OK(kbinder_thread_enter_looper(&t));
	__atomic_store_n(&b->go, 1, __ATOMIC_RELEASE);
	while (__atomic_load_n(&b->go, __ATOMIC_ACQUIRE) != 2)
		kbt_msleep(5);
	memset(&bwr, 0, sizeof(bwr));
	bwr.read_buffer = (binder_uintptr_t)(uintptr_t)buf;
	bwr.read_size = sizeof(buf);
	b->err = kbinder_ioctl_write_read(b->fd, &bwr);
	b->consumed = bwr.read_consumed;
	__atomic_store_n(&b->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* The timed reader, whose read buffer is a page nobody has touched yet. */
struct timed {
	struct kbinder_thread *t;
	int err;
	struct kbinder_return ret;
};

static void *timed_main(void *arg)
{
	struct timed *tr = arg;

	tr->err = kbinder_thread_next(tr->t, &tr->ret, RESCUE_MS);
	return NULL;
}

/* Wait until @uffd reports a fault (the timed read stopped on its buffer). */
static bool fault_seen(int uffd)
{
	struct pollfd pfd = { .fd = uffd, .events = POLLIN };
	struct uffd_msg msg;

	return poll(&pfd, 1, KBT_WAIT_MS) == 1 &&
	       read(uffd, &msg, sizeof(msg)) == sizeof(msg) &&
	       msg.event == UFFD_EVENT_PAGEFAULT;
}

/*
 * Two pages: the thread's fields on the first, its read buffer from the
 * second on, which faults into @uffd at the first byte written to it.
 */
static struct kbinder_thread *thread_on_a_stall_page(int *uffd, uint8_t **page2)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg;
	uint8_t *pages;

	*uffd = (int)syscall(__NR_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (*uffd < 0)
		SKIP("no userfaultfd: %s", kbt_strerr(-errno));
	pages = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		     -1, 0);
	ASSERT_TRUE(pages != MAP_FAILED);
	memset(pages, 0, PAGE);
	memset(&reg, 0, sizeof(reg));
	reg.range.start = (uintptr_t)pages + PAGE;
	reg.range.len = PAGE;
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	ASSERT_OK(ioctl(*uffd, UFFDIO_API, &api) ? -errno : 0);
	ASSERT_OK(ioctl(*uffd, UFFDIO_REGISTER, &reg) ? -errno : 0);
	*page2 = pages + PAGE;
	return (struct kbinder_thread *)(pages + PAGE - offsetof(struct kbinder_thread, buf));
}

/*
 * While a timed read is held up (its buffer faults into userfaultfd, so
 * it stays inside its read for as long as the test likes), another thread
 * starts a blocking read of the same file: it must block, not see EAGAIN.
 */
TEST(blocking_read_never_sees_eagain_while_another_thread_waits)
{
	struct blocker b = { .go = 0 };
	struct uffdio_zeropage zero;
	struct timed tr;
	struct kbinder_proc p;
	pthread_t bth, tth;
	int64_t deadline;
	uint8_t *page2;
	int uffd;

	kbt_open(&p);
	b.fd = p.fd;
	tr.t = thread_on_a_stall_page(&uffd, &page2);
	kbinder_thread_init(tr.t, p.fd);
	ASSERT_EQ(pthread_create(&bth, NULL, blocker_main, &b), 0);
	while (!__atomic_load_n(&b.go, __ATOMIC_ACQUIRE))
		kbt_msleep(5);
	ASSERT_EQ(pthread_create(&tth, NULL, timed_main, &tr), 0);
	ASSERT_TRUE(fault_seen(uffd));
	__atomic_store_n(&b.go, 2, __ATOMIC_RELEASE);
	/* the blocking read has begun (asleep in the driver), or came back */
	deadline = kbt_now_ms() + KBT_WAIT_MS;
	while (!__atomic_load_n(&b.done, __ATOMIC_ACQUIRE) &&
	       kbt_wait_asleep_in(b.tid, SYS_ioctl, 10) && kbt_now_ms() < deadline)
		;
	memset(&zero, 0, sizeof(zero));
	zero.range.start = (uintptr_t)page2;
	zero.range.len = PAGE;
	ASSERT_OK(ioctl(uffd, UFFDIO_ZEROPAGE, &zero) ? -errno : 0);
	pthread_join(tth, NULL);
	flush_until(p.fd, &b.done, 5000);
	pthread_join(bth, NULL);
	kbt_log("timed read: %d (%s); blocking read: %d, %zu bytes", tr.err,
		kbinder_return_name(tr.ret.cmd), b.err, b.consumed);
	ASSERT_EQ(b.err, 0);
	ASSERT_EQ(tr.err, 0);
	close(uffd);
	kbinder_proc_close(&p);
}
