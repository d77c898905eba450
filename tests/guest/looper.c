// SPDX-License-Identifier: Apache-2.0
/*
 * Conformance: the thread pool. BC_ENTER_LOOPER / BC_REGISTER_LOOPER,
 * BINDER_SET_MAX_THREADS, BR_SPAWN_LOOPER when every looper is busy and the
 * maximum is not reached, process work only for looper threads, and idle
 * threads picking up work while others are busy.
 */
#include "binder_util.h"

#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>

#include "waits.h"

enum {
	CODE_TID = 1,	/* reply: the serving thread's tid */
	CODE_BLOCK,	/* hold until released through the pipe, reply tid */
};

static void become_manager(struct kbinder_proc *p, struct kbinder_thread *t,
			   uint32_t max_threads)
{
	kbt_open(p);
	if (max_threads)
		ASSERT_OK(kbinder_ioctl_set_max_threads(p->fd, max_threads));
	ASSERT_OK(kbt_become_ctxmgr(p->fd, NULL));
	kbinder_thread_init(t, p->fd);
}

/* The same, and @t enters the looper. */
static void looping_manager(struct kbinder_proc *p, struct kbinder_thread *t,
			    uint32_t max_threads)
{
	become_manager(p, t, max_threads);
	ASSERT_OK(kbinder_thread_enter_looper(t));
}

static void caller(void *arg)
{
	uint32_t code = (uint32_t)(uintptr_t)arg;
	struct kbinder_proc p;
	struct kbinder_thread t;

	kbt_client(&p, &t);
	ASSERT_EQ(kbt_call_status(&t, 0, code, NULL, 0), BR_REPLY);
	kbinder_proc_close(&p);
}

/* Make one waiting looper of the manager leave kbt_serve(). */
static void quitter(void *arg)
{
	struct kbinder_proc p;
	struct kbinder_thread t;

	(void)arg;
	kbt_client(&p, &t);
	kbt_quit(&t, 0);
	kbinder_proc_close(&p);
}

/* Read raw until a BR_TRANSACTION; return the read's first word. */
static uint32_t read_txn(struct kbinder_thread *t, struct kbinder_return *txn)
{
	uint8_t buf[256];
	struct kbinder_reader r;
	struct kbinder_return ret;
	size_t consumed;
	uint32_t first;

	for (;;) {
		ASSERT_OK(kbinder_ioctl_read(t->fd, buf, sizeof(buf), &consumed));
		ASSERT_GE(consumed, 4);
		memcpy(&first, buf, 4);
		kbinder_reader_init(&r, buf, consumed);
		while (kbinder_reader_next(&r, &ret) == 1) {
			if (ret.cmd == BR_TRANSACTION) {
				*txn = ret;
				return first;
			}
		}
	}
}

/*
 * A child calls the manager and @t, its only looper, answers. Return: the
 * first word of the read that brought the call (BR_SPAWN_LOOPER or BR_NOOP).
 */
static uint32_t serve_one_call(struct kbinder_thread *t)
{
	pid_t c = kbt_fork(caller, (void *)(uintptr_t)CODE_TID);
	struct kbinder_return txn;
	uint32_t first = read_txn(t, &txn);

	ASSERT_OK(kbinder_thread_reply(t, NULL, 0, KBT_WAIT_MS));
	ASSERT_OK(kbinder_thread_free_buffer(t, txn.u.txn.data.ptr.buffer));
	ASSERT_CHILD_OK(c);
	return first;
}

TEST(spawn_looper_when_all_busy)
{
	struct kbinder_proc p;
	struct kbinder_thread t;

	looping_manager(&p, &t, 1);
	/* our only looper takes the call: nobody is left waiting */
	ASSERT_EQ(serve_one_call(&t), BR_SPAWN_LOOPER);
	/* only one request is outstanding: the next call asks for none */
	ASSERT_EQ(serve_one_call(&t), BR_NOOP);
	kbinder_proc_close(&p);
}

TEST(no_spawn_looper_when_max_threads_is_zero)
{
	struct kbinder_proc p;
	struct kbinder_thread t;

	looping_manager(&p, &t, 0);
	ASSERT_EQ(serve_one_call(&t), BR_NOOP);
	kbinder_proc_close(&p);
}

/* ---- a pool: the spawned thread serves while the first is busy ---- */

static int release_pipe[2];
static struct kbt_chan *block_started;	/* told when a BLOCK call starts */

static int pool_handler(struct kbinder_thread *t, const struct binder_transaction_data *tr,
			struct kbinder_parcel *reply, void *arg)
{
	char c;

	(void)t;
	(void)arg;
	if (tr->code == CODE_BLOCK) {
		if (block_started)
			ASSERT_SIGNAL(block_started, 'B');
		ASSERT_EQ(read(release_pipe[0], &c, 1), 1);
	}
	kbinder_parcel_write_u32(reply, (uint32_t)kbt_gettid());
	return KBT_REPLY;
}

/*
 * A pool thread on @fd serving pool_handler: a spawned one (asked for by
 * BR_SPAWN_LOOPER) registers, the others enter the looper.
 */
struct pool_thread {
	int fd;
	bool spawned;
};

static void *pool_thread(void *arg)
{
	const struct pool_thread *pt = arg;
	struct kbinder_thread t;

	kbinder_thread_init(&t, pt->fd);
	EXPECT_OK(pt->spawned ? kbinder_thread_register_looper(&t) :
				kbinder_thread_enter_looper(&t));
	kbt_serve(&t, pool_handler, NULL);
	return NULL;
}

static void call_tid(struct kbinder_thread *t, void *arg)
{
	struct kbt_chan *chan = arg;
	struct kbinder_reply r;

	kbt_call(t, 0, (uint32_t)(chan ? CODE_TID : CODE_BLOCK), NULL, &r);
	if (chan) {
		uint32_t tid = kbt_txn_u32(&r.txn, 0);

		ASSERT_OK(kbt_send(chan, &tid, sizeof(tid)));
	}
	kbinder_thread_free_buffer(t, r.txn.data.ptr.buffer);
}

/*
 * The main thread serves a blocking call; the spawned (registered) looper
 * answers another call meanwhile.
 */
TEST(spawned_looper_serves_while_others_are_busy)
{
	struct kbinder_proc p;
	struct kbinder_thread t;
	struct kbinder_return txn;
	struct pool_thread spawned = { .spawned = true };
	struct kbt_chan chan;
	pthread_t th;
	uint32_t tid;
	pid_t blocker, c;
	char go = 'g';

	ASSERT_EQ(pipe(release_pipe), 0);
	looping_manager(&p, &t, 1);
	blocker = kbt_fork_client(call_tid, NULL);
	ASSERT_EQ(read_txn(&t, &txn), BR_SPAWN_LOOPER);
	ASSERT_EQ(txn.u.txn.code, CODE_BLOCK);
	spawned.fd = p.fd;
	ASSERT_EQ(pthread_create(&th, NULL, pool_thread, &spawned), 0);
	/* while we hold the blocking call, another call is served */
	kbt_chan_init(&chan);
	c = kbt_fork_client(call_tid, &chan);
	ASSERT_OK(kbt_recv(&chan, &tid, sizeof(tid), KBT_WAIT_MS));
	ASSERT_NE(tid, kbt_gettid());
	ASSERT_CHILD_OK(c);
	/* now answer the blocked one from the main thread */
	{
		struct kbinder_parcel reply;

		kbinder_parcel_init(&reply);
		kbinder_parcel_write_u32(&reply, (uint32_t)kbt_gettid());
		ASSERT_OK(kbinder_thread_reply(&t, &reply, 0, KBT_WAIT_MS));
		kbinder_parcel_fini(&reply);
	}
	ASSERT_OK(kbinder_thread_free_buffer(&t, txn.u.txn.data.ptr.buffer));
	ASSERT_CHILD_OK(blocker);
	(void)go;
	/* the spawned looper is the only one waiting: it takes the quit */
	ASSERT_CHILD_OK(kbt_fork(quitter, NULL));
	ASSERT_EQ(pthread_join(th, NULL), 0);
	kbt_chan_close(&chan);
	close(release_pipe[0]);
	close(release_pipe[1]);
	kbinder_proc_close(&p);
}

/* Two loopers: one blocked in a call, the idle one takes the next call. */
static void pool_server(void *arg)
{
	struct kbt_chan *chan = arg;
	struct pool_thread pt = { .spawned = false };
	struct kbinder_proc p;
	pthread_t th[2];

	ASSERT_EQ(pipe(release_pipe), 0);
	block_started = chan;
	kbt_open(&p);
	ASSERT_OK(kbt_become_ctxmgr(p.fd, NULL));
	pt.fd = p.fd;
	ASSERT_EQ(pthread_create(&th[0], NULL, pool_thread, &pt), 0);
	ASSERT_EQ(pthread_create(&th[1], NULL, pool_thread, &pt), 0);
	ASSERT_SIGNAL(chan, 'R');
	ASSERT_WAIT(chan, 'Q');
	ASSERT_EQ(write(release_pipe[1], "x", 1), 1);
	ASSERT_WAIT(chan, 'E');
	/* the test made each pool thread leave kbt_serve() by then */
	ASSERT_EQ(pthread_join(th[0], NULL), 0);
	ASSERT_EQ(pthread_join(th[1], NULL), 0);
	close(release_pipe[0]);
	close(release_pipe[1]);
	kbinder_proc_close(&p);
}

TEST(work_is_picked_by_idle_thread)
{
	struct kbt_chan srv, chan;
	uint32_t tid1, tid2;
	pid_t s, blocker, c;

	s = kbt_fork_ready(pool_server, &srv);
	kbt_msleep(100);	/* both threads are waiting */
	blocker = kbt_fork_client(call_tid, NULL);
	ASSERT_WAIT(&srv, 'B');		/* one thread is busy now */
	kbt_chan_init(&chan);
	c = kbt_fork_client(call_tid, &chan);
	ASSERT_OK(kbt_recv(&chan, &tid1, sizeof(tid1), KBT_WAIT_MS));
	ASSERT_CHILD_OK(c);
	c = kbt_fork_client(call_tid, &chan);
	ASSERT_OK(kbt_recv(&chan, &tid2, sizeof(tid2), KBT_WAIT_MS));
	ASSERT_CHILD_OK(c);
	/* both served by the same (the idle) thread */
	ASSERT_EQ(tid1, tid2);
	ASSERT_SIGNAL(&srv, 'Q');
	ASSERT_CHILD_OK(blocker);
	/* one quit per pool thread, one after the other */
	ASSERT_CHILD_OK(kbt_fork(quitter, NULL));
	ASSERT_CHILD_OK(kbt_fork(quitter, NULL));
	ASSERT_SIGNAL(&srv, 'E');
	ASSERT_CHILD_OK(s);
	kbt_chan_close(&chan);
	kbt_chan_close(&srv);
}

static void caller_on_signal(void *arg)
{
	struct kbt_chan *chan = arg;

	ASSERT_WAIT(chan, 'G');
	caller((void *)(uintptr_t)CODE_TID);
}

/*
 * Process work goes to any idle thread: the reference does not require
 * BC_ENTER_LOOPER first (it only logs a user error), and clients that read
 * without entering the looper rely on that.
 */
TEST(process_work_reaches_thread_without_looper)
{
	struct kbinder_proc p;
	struct kbinder_thread t;
	struct kbinder_return ret;
	struct kbt_chan chan;
	pid_t c;

	kbt_chan_init(&chan);
	c = kbt_fork(caller_on_signal, &chan);
	become_manager(&p, &t, 0);
	ASSERT_SIGNAL(&chan, 'G');
	ASSERT_OK(kbinder_thread_wait_for(&t, BR_TRANSACTION, &ret, kbt_default_event,
					  NULL, KBT_WAIT_MS));
	ASSERT_EQ(ret.u.txn.code, CODE_TID);
	ASSERT_EQ(ret.u.txn.sender_pid, c);
	ASSERT_OK(kbinder_thread_reply(&t, NULL, 0, KBT_WAIT_MS));
	ASSERT_OK(kbinder_thread_free_buffer(&t, ret.u.txn.data.ptr.buffer));
	ASSERT_CHILD_OK(c);
	kbt_chan_close(&chan);
	kbinder_proc_close(&p);
}

TEST(set_max_threads_with_bad_pointer_fails)
{
	struct kbinder_proc p;

	kbt_open_dev(&p, NULL, 0);
	ASSERT_EQ(ioctl(p.fd, BINDER_SET_MAX_THREADS, (void *)16), -1);
	ASSERT_TRUE(errno == EINVAL || errno == EFAULT);
	ASSERT_OK(kbinder_ioctl_set_max_threads(p.fd, 15));
	kbinder_proc_close(&p);
}

/* ---- looper misuse: accepted, but never counted as a spawned thread ---- */

/* A thread that sends BC_REGISTER_LOOPER, then leaves the driver. */
static void *register_and_leave(void *arg)
{
	struct kbinder_proc *p = arg;
	struct kbinder_thread t;

	kbinder_thread_init(&t, p->fd);
	EXPECT_OK(kbinder_thread_register_looper(&t));	/* accepted, even when wrong */
	EXPECT_OK(kbinder_ioctl_thread_exit(p->fd));
	return NULL;
}

static void register_in_a_thread(struct kbinder_proc *p)
{
	pthread_t th;

	ASSERT_EQ(pthread_create(&th, NULL, register_and_leave, p), 0);
	ASSERT_EQ(pthread_join(th, NULL), 0);
}

/*
 * BC_REGISTER_LOOPER after BC_ENTER_LOOPER is a user error: accepted, the
 * thread still serves, and it does not count as the spawned thread the
 * driver asks for, so the pool (max 1) still asks for one.
 */
TEST(register_looper_after_enter_is_tolerated_and_not_counted)
{
	struct kbinder_proc p;
	struct kbinder_thread t;

	looping_manager(&p, &t, 1);
	ASSERT_OK(kbinder_thread_register_looper(&t));
	ASSERT_EQ(serve_one_call(&t), BR_SPAWN_LOOPER);
	kbinder_proc_close(&p);
}

/*
 * A thread that registers without being asked to (past max threads, or
 * before any BR_SPAWN_LOOPER) is not counted either; one that answers the
 * request is, and then the pool (max 1) is full: no more requests, even
 * when more threads register past the maximum.
 */
TEST(register_looper_past_max_threads_is_not_counted)
{
	struct kbinder_proc p;
	struct kbinder_thread t;

	looping_manager(&p, &t, 1);
	register_in_a_thread(&p);		/* not asked for: not counted */
	ASSERT_EQ(serve_one_call(&t), BR_SPAWN_LOOPER);
	register_in_a_thread(&p);		/* answers the request */
	ASSERT_EQ(serve_one_call(&t), BR_NOOP);
	register_in_a_thread(&p);		/* past the maximum */
	register_in_a_thread(&p);
	ASSERT_EQ(serve_one_call(&t), BR_NOOP);
	kbinder_proc_close(&p);
}

/* ---- a looper whose read a signal ended is not idle any more ---- */

static void sig_ignore(int sig)
{
	(void)sig;
}

struct sig_looper {
	int fd;
	pid_t tid;
	int err;
	int done[2];	/* the looper's read ended */
	int hold[2];	/* it waits here, outside binder, until told */
};

static void *sig_looper(void *arg)
{
	struct sig_looper *sl = arg;
	struct kbinder_thread t;
	uint8_t buf[256];
	struct binder_write_read bwr = {
		.read_size = sizeof(buf),
		.read_buffer = (binder_uintptr_t)(uintptr_t)buf,
	};
	char c = 'd';

	kbinder_thread_init(&t, sl->fd);
	EXPECT_OK(kbinder_thread_enter_looper(&t));
	__atomic_store_n(&sl->tid, kbt_gettid(), __ATOMIC_RELEASE);
	/* not the library's read, which tries again after EINTR */
	sl->err = ioctl(sl->fd, BINDER_WRITE_READ, &bwr) < 0 ? -errno : 0;
	EXPECT_EQ(write(sl->done[1], &c, 1), 1);
	EXPECT_EQ(read(sl->hold[0], &c, 1), 1);
	return NULL;
}

/*
 * An idle looper's read ends by a signal; the thread then does something
 * else. A call that comes next is for the process (no looper is idle),
 * not for that thread: another thread of the process sees it.
 */
TEST(signalled_looper_is_not_chosen_for_process_work)
{
	struct sigaction sa = { .sa_handler = sig_ignore }, old;
	struct sig_looper sl = { 0 };
	struct kbinder_proc p;
	struct kbinder_thread t;
	struct kbinder_return txn;
	struct pollfd pfd;
	pthread_t th;
	pid_t c;
	char go = 'g';

	ASSERT_EQ(sigaction(SIGUSR1, &sa, &old), 0);	/* no SA_RESTART */
	ASSERT_EQ(pipe(sl.done), 0);
	ASSERT_EQ(pipe(sl.hold), 0);
	become_manager(&p, &t, 0);
	sl.fd = p.fd;
	ASSERT_EQ(pthread_create(&th, NULL, sig_looper, &sl), 0);
	while (!__atomic_load_n(&sl.tid, __ATOMIC_ACQUIRE))
		usleep(1000);
	ASSERT_OK(kbt_wait_asleep_in(sl.tid, SYS_ioctl, KBT_WAIT_MS));
	ASSERT_EQ(pthread_kill(th, SIGUSR1), 0);
	ASSERT_EQ(read(sl.done[0], &go, 1), 1);
	ASSERT_EQ(sl.err, -EINTR);
	/* the call is queued once its caller sleeps for the reply */
	c = kbt_fork(caller, (void *)(uintptr_t)CODE_TID);
	ASSERT_OK(kbt_wait_asleep_in(c, SYS_poll, KBT_WAIT_MS));
	pfd = (struct pollfd){ .fd = p.fd, .events = POLLIN };
	ASSERT_EQ(poll(&pfd, 1, 2000), 1);
	read_txn(&t, &txn);
	ASSERT_OK(kbinder_thread_reply(&t, NULL, 0, KBT_WAIT_MS));
	ASSERT_OK(kbinder_thread_free_buffer(&t, txn.u.txn.data.ptr.buffer));
	ASSERT_CHILD_OK(c);
	go = 'g';
	ASSERT_EQ(write(sl.hold[1], &go, 1), 1);
	ASSERT_EQ(pthread_join(th, NULL), 0);
	kbinder_proc_close(&p);
	close(sl.done[0]);
	close(sl.done[1]);
	close(sl.hold[0]);
	close(sl.hold[1]);
	ASSERT_EQ(sigaction(SIGUSR1, &old, NULL), 0);
}
