// SPDX-License-Identifier: Apache-2.0
/*
 * Security regressions: the transaction stack (issue 10, defects 1 and 2).
 *
 * A synchronous call queued on an idle looper's own todo stays there when
 * the looper reads with a buffer too small for it (or its read is
 * interrupted). If the looper could then send a synchronous call of its
 * own, its next read would stack the queued call above that outgoing call,
 * and the reply to the outgoing call would find the caller's stack top is
 * not the call it answers. kbinder freed the answered call then, although it
 * was still linked below the top: the looper's exit walked freed memory
 * (KASAN: use-after-free in kb_transaction_thread_exit). And a reply whose
 * payload copy was slow committed without looking at the caller's stack
 * again, dropping whatever had been stacked meanwhile: the dropped call's
 * sender waited forever.
 *
 * Both drivers must refuse the looper's own synchronous call while a call
 * waits on its todo (the upstream driver logs "new transaction not allowed
 * when there is a transaction on thread todo"), answer it BR_FAILED_REPLY,
 * and leave the queued call deliverable.
 *
 * The processes, as in the issue: P is the context manager with one looper
 * L (this test's main thread); Q has two threads, X (calls handle 0) and Y
 * (Q's looper); Q has given P a handle to one of its nodes.
 */
#include "binder_util.h"

#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <sys/mman.h>

#define Q_NODE		0x5ec0
#define CODE_REG	0x100	/* X -> P: here is Q's node */
#define CODE_PING	0x101	/* X -> P: the call that waits on L's todo */
#define CODE_CALLQ	0x102	/* L -> Q: L's own synchronous call */

/* What P asks Q's main thread (Y) to do, over the channel. */
#define STEP_GO		'G'	/* make X call handle 0 (after a pause) */
#define STEP_READ	'Y'	/* Y: read P's call, if any, and keep it */
#define STEP_REPLY	'P'	/* Y: reply to it */
#define STEP_REPORT	'X'	/* report X's outcome */

/* Time X waits after STEP_GO, so that L blocks in its read first. */
#define X_DELAY_MS	500
/* How long Y looks for L's call before deciding it was refused. */
#define Y_READ_MS	1500

struct q_state {
	struct kbt_chan chan;
	bool stall_reply;	/* Y's reply payload faults (userfaultfd) */
	/* in Q */
	int fd;
	int go[2];		/* Y -> X: make the PING call */
	uint32_t x_status;	/* outcome of X's PING */
	int x_err;
	int uffd;
	void *stall_page;
};

/* ---- Q ---- */

static void *q_x_main(void *arg)
{
	struct q_state *q = arg;
	struct kbinder_parcel data;
	struct kbinder_thread t;
	struct kbinder_reply r;
	char c;

	kbinder_thread_init(&t, q->fd);
	kbinder_parcel_init(&data);
	kbinder_parcel_write_binder(&data, Q_NODE, Q_NODE + 1, 0, false);
	kbt_call(&t, 0, CODE_REG, &data, &r);
	ASSERT_OK(kbinder_thread_free_buffer(&t, r.txn.data.ptr.buffer));
	kbinder_parcel_fini(&data);

	if (read(q->go[0], &c, 1) != 1)
		return NULL;
	kbt_msleep(X_DELAY_MS);
	q->x_err = kbinder_thread_transact(&t, 0, CODE_PING, NULL, 0, &r,
					   kbt_default_event, NULL, KBT_WAIT_MS);
	q->x_status = q->x_err ? 0 : r.status;
	if (!q->x_err && r.status == BR_REPLY)
		kbinder_thread_free_buffer(&t, r.txn.data.ptr.buffer);
	return NULL;
}

/* The userfaultfd handler: tell P the reply's copy is stalled, then
 * resolve the fault once P has done its read.
 */
static void *q_uffd_main(void *arg)
{
	struct q_state *q = arg;
	struct uffdio_copy copy;
	struct uffd_msg msg;
	struct pollfd pfd = { .fd = q->uffd, .events = POLLIN };
	static char page[4096] __attribute__((aligned(4096)));

	if (poll(&pfd, 1, 20000) != 1 ||
	    read(q->uffd, &msg, sizeof(msg)) != sizeof(msg) ||
	    msg.event != UFFD_EVENT_PAGEFAULT)
		return NULL;
	kbt_signal(&q->chan, 'S');
	kbt_wait(&q->chan, 'C', 20000);
	memset(page, 0x5a, sizeof(page));
	memset(&copy, 0, sizeof(copy));
	copy.dst = (uintptr_t)q->stall_page;
	copy.src = (uintptr_t)page;
	copy.len = sizeof(page);
	ioctl(q->uffd, UFFDIO_COPY, &copy);
	return NULL;
}

/* A reply payload whose first page faults into q_uffd_main(). */
static int q_setup_stall(struct q_state *q)
{
	struct uffdio_register reg;
	struct uffdio_api api = { .api = UFFD_API };

	q->uffd = (int)syscall(__NR_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (q->uffd < 0)
		return -errno;
	q->stall_page = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (q->stall_page == MAP_FAILED)
		return -errno;
	memset(&reg, 0, sizeof(reg));
	reg.range.start = (uintptr_t)q->stall_page;
	reg.range.len = 4096;
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	if (ioctl(q->uffd, UFFDIO_API, &api) || ioctl(q->uffd, UFFDIO_REGISTER, &reg))
		return -errno;
	return 0;
}

/* Y: read until P's looper's call arrives (kept in *tr) or Y_READ_MS pass. */
static bool q_y_read_call(struct kbinder_thread *t, struct binder_transaction_data *tr)
{
	int64_t deadline = kbt_now_ms() + Y_READ_MS;
	struct kbinder_return ret;

	for (;;) {
		int64_t left = deadline - kbt_now_ms();

		if (left <= 0 || kbinder_thread_next(t, &ret, (int)left))
			return false;
		if (ret.cmd == BR_TRANSACTION && ret.u.txn.code == CODE_CALLQ) {
			*tr = ret.u.txn;
			return true;
		}
		if (ret.cmd != BR_NOOP)
			kbt_default_event(t, &ret, NULL);
	}
}

static int q_y_reply(struct q_state *q, struct kbinder_thread *t)
{
	struct binder_transaction_data tr;
	uint8_t wbuf[128];
	struct kbinder_writer w;
	struct kbinder_return ret;

	if (!q->stall_reply)
		return kbinder_thread_reply(t, NULL, 0, KBT_WAIT_MS);
	/* BC_REPLY whose payload the driver faults on while copying it. */
	memset(&tr, 0, sizeof(tr));
	tr.data_size = 4096;
	tr.data.ptr.buffer = (uintptr_t)q->stall_page;
	kbinder_writer_init(&w, wbuf, sizeof(wbuf));
	kbinder_writer_put_txn(&w, BC_REPLY, &tr);
	ASSERT_OK(kbinder_ioctl_write(t->fd, wbuf, w.len, NULL));
	for (;;) {
		ASSERT_OK(kbinder_thread_next(t, &ret, KBT_WAIT_MS));
		if (ret.cmd == BR_TRANSACTION_COMPLETE)
			return 0;
		if (ret.cmd == BR_FAILED_REPLY || ret.cmd == BR_DEAD_REPLY)
			return (int)ret.cmd;
		if (ret.cmd != BR_NOOP)
			kbt_default_event(t, &ret, NULL);
	}
}

static void q_main(void *arg)
{
	struct q_state *q = arg;
	struct binder_transaction_data tr = { 0 };
	pthread_t x, uffd_thread;
	struct kbinder_thread t;
	struct kbinder_proc p;
	bool got = false, replied = false;
	uint32_t word;
	char step;

	kbt_open(&p);
	q->fd = p.fd;
	q->uffd = -1;
	ASSERT_EQ(pipe(q->go), 0);
	kbinder_thread_init(&t, p.fd);
	ASSERT_OK(kbinder_thread_enter_looper(&t));
	if (q->stall_reply) {
		int err = q_setup_stall(q);

		ASSERT_OK(kbt_send(&q->chan, &err, sizeof(err)));
		if (err)
			goto out;
		ASSERT_EQ(pthread_create(&uffd_thread, NULL, q_uffd_main, q), 0);
	}
	ASSERT_EQ(pthread_create(&x, NULL, q_x_main, q), 0);

	for (;;) {
		if (kbt_recv(&q->chan, &step, 1, 30000))
			break;
		if (step == STEP_GO) {
			ASSERT_EQ(write(q->go[1], "g", 1), 1);
		} else if (step == STEP_READ) {
			got = q_y_read_call(&t, &tr);
			ASSERT_SIGNAL(&q->chan, got ? 'T' : 'N');
		} else if (step == STEP_REPLY) {
			int err = q_y_reply(q, &t);

			replied = true;
			kbinder_thread_free_buffer(&t, tr.data.ptr.buffer);
			ASSERT_OK(kbt_send(&q->chan, &err, sizeof(err)));
		} else if (step == STEP_REPORT) {
			ASSERT_EQ(pthread_join(x, NULL), 0);
			word = q->x_err ? (uint32_t)q->x_err : q->x_status;
			ASSERT_OK(kbt_send(&q->chan, &word, sizeof(word)));
			break;
		}
	}
	if (q->stall_reply) {
		/* Never faulted (L's call was refused): stop waiting. */
		if (!replied)
			pthread_cancel(uffd_thread);
		pthread_join(uffd_thread, NULL);
	}
out:
	if (q->uffd >= 0)
		close(q->uffd);
	close(q->go[0]);
	close(q->go[1]);
	kbinder_proc_close(&p);
}

/* ---- P ---- */

/* The raw read of L with a buffer of @size bytes: Return: bytes read. */
static size_t l_read_raw(int fd, void *buf, size_t size)
{
	struct binder_write_read bwr;

	memset(&bwr, 0, sizeof(bwr));
	bwr.read_buffer = (uintptr_t)buf;
	bwr.read_size = size;
	ASSERT_OK(kbinder_ioctl_write_read(fd, &bwr));
	return bwr.read_consumed;
}

/* L: the REG call of X: keep a strong reference on Q's node. */
static uint32_t l_take_q_node(struct kbinder_thread *t)
{
	struct flat_binder_object obj;
	struct kbinder_return ret;
	uint32_t h;

	kbt_expect(t, BR_TRANSACTION, &ret);
	ASSERT_EQ(ret.u.txn.code, CODE_REG);
	kbt_txn_object(&ret.u.txn, 0, &obj);
	ASSERT_EQ(obj.hdr.type, BINDER_TYPE_HANDLE);
	h = obj.handle;
	ASSERT_OK(kbinder_thread_ref(t, BC_INCREFS, h));
	ASSERT_OK(kbinder_thread_ref(t, BC_ACQUIRE, h));
	ASSERT_OK(kbinder_thread_reply(t, NULL, 0, KBT_WAIT_MS));
	ASSERT_OK(kbinder_thread_free_buffer(t, ret.u.txn.data.ptr.buffer));
	return h;
}

/*
 * L blocks reading with an 8-byte buffer while X calls handle 0: the call
 * is queued on L's own todo, and the read returns BR_NOOP alone (the call
 * does not fit).
 */
static void l_read_small(struct q_state *q, int fd)
{
	uint32_t buf[2];
	size_t n;

	ASSERT_SIGNAL(&q->chan, STEP_GO);
	n = l_read_raw(fd, buf, sizeof(buf));
	ASSERT_EQ(n, sizeof(uint32_t));
	ASSERT_EQ(buf[0], BR_NOOP);
}

/* L's own synchronous call to Q's node, written without reading. */
static void l_call_q(int fd, uint32_t h)
{
	struct kbt_txn x = { .handle = h, .code = CODE_CALLQ };

	kbt_write_txn(fd, &x);
}

/*
 * L reads with a normal buffer until X's call arrives (it is kept, not
 * answered; its buffer is freed once L's own call has an outcome: the
 * upstream driver consumes no command while a thread's error is unread);
 * *failed is set if its own call's BR_FAILED_REPLY came too.
 */
static binder_uintptr_t l_read_ping(struct kbinder_thread *t, bool *failed)
{
	struct kbinder_return ret;

	for (;;) {
		ASSERT_OK(kbinder_thread_next(t, &ret, KBT_WAIT_MS));
		if (ret.cmd == BR_FAILED_REPLY) {
			*failed = true;
		} else if (ret.cmd == BR_TRANSACTION) {
			ASSERT_EQ(ret.u.txn.code, CODE_PING);
			return ret.u.txn.data.ptr.buffer;
		} else if (ret.cmd != BR_NOOP &&
			   ret.cmd != BR_TRANSACTION_COMPLETE) {
			/* (the completion of L's call, if it was taken) */
			kbt_default_event(t, &ret, NULL);
		}
	}
}

/* The outcome of L's own call: a BR_ code, or 0 if none came in 3 s. */
static uint32_t l_call_outcome(struct kbinder_thread *t)
{
	int64_t deadline = kbt_now_ms() + 3000;
	struct kbinder_return ret;

	for (;;) {
		int64_t left = deadline - kbt_now_ms();

		if (left <= 0 || kbinder_thread_next(t, &ret, (int)left))
			return 0;
		if (ret.cmd == BR_REPLY) {
			kbinder_thread_free_buffer(t, ret.u.txn.data.ptr.buffer);
			return ret.cmd;
		}
		if (ret.cmd == BR_FAILED_REPLY || ret.cmd == BR_DEAD_REPLY)
			return ret.cmd;
		if (ret.cmd != BR_NOOP && ret.cmd != BR_TRANSACTION_COMPLETE)
			kbt_default_event(t, &ret, NULL);
	}
}

/*
 * The sequence. With @stall_reply, Y's reply stalls in the copy of
 * its payload (userfaultfd) and L reads X's call exactly then.
 */
static void run_sequence(bool stall_reply)
{
	static struct q_state q;
	bool y_got, l_failed = false;
	struct kbinder_thread l;
	struct kbinder_proc p;
	uint32_t h, l_status = 0, x_word;
	binder_uintptr_t ping_buf = 0;
	int y_err = 0;
	pid_t pid;
	char got;

	memset(&q, 0, sizeof(q));
	q.stall_reply = stall_reply;
	kbt_manager(&p, &l, NULL);
	kbt_chan_init(&q.chan);
	pid = kbt_fork(q_main, &q);

	if (stall_reply) {
		int err;

		ASSERT_OK(kbt_recv(&q.chan, &err, sizeof(err), 10000));
		if (err) {
			ASSERT_CHILD_OK(pid);
			kbt_chan_close(&q.chan);
			kbinder_proc_close(&p);
			SKIP("userfaultfd: %s", kbt_strerr(err));
		}
	}
	h = l_take_q_node(&l);
	l_read_small(&q, p.fd);
	l_call_q(p.fd, h);

	ASSERT_SIGNAL(&q.chan, STEP_READ);
	ASSERT_OK(kbt_recv(&q.chan, &got, 1, 10000));
	y_got = got == 'T';
	if (!stall_reply || !y_got)
		ping_buf = l_read_ping(&l, &l_failed);
	if (y_got) {
		ASSERT_SIGNAL(&q.chan, STEP_REPLY);
		if (stall_reply) {
			/* Y's reply is in the middle of its copy: L reads now. */
			ASSERT_WAIT(&q.chan, 'S');
			ping_buf = l_read_ping(&l, &l_failed);
			ASSERT_SIGNAL(&q.chan, 'C');
		}
		ASSERT_OK(kbt_recv(&q.chan, &y_err, sizeof(y_err), 20000));
	}
	if (!l_failed)
		l_status = l_call_outcome(&l);
	else
		l_status = BR_FAILED_REPLY;
	ASSERT_OK(kbinder_thread_free_buffer(&l, ping_buf));
	/* L exits its thread; X's call, on L's stack, fails. */
	ASSERT_OK(kbinder_ioctl_thread_exit(p.fd));
	ASSERT_SIGNAL(&q.chan, STEP_REPORT);
	ASSERT_OK(kbt_recv(&q.chan, &x_word, sizeof(x_word), 20000));
	ASSERT_CHILD_OK(pid);
	kbt_chan_close(&q.chan);
	kbinder_proc_close(&p);

	kbt_log("Y %s L's call (Y's reply: %s), L's call: %s, X's call: %s",
		y_got ? "received" : "did not receive", kbt_outcome_str(y_err),
		l_status ? kbinder_return_name(l_status) : "no outcome",
		(int32_t)x_word < 0 ? kbt_strerr((int32_t)x_word) :
		kbinder_return_name(x_word));
	EXPECT_FALSE(y_got);
	EXPECT_EQ(l_status, BR_FAILED_REPLY);
	/* Not dropped: X's call was on L's stack when L exited. */
	EXPECT_EQ(x_word, BR_DEAD_REPLY);
}

/* Defect 1: the exact sequence of the issue; L's exit walked freed memory. */
TEST_TIMEOUT(looper_call_refused_while_call_waits_on_its_todo, 60)
{
	run_sequence(false);
}

/*
 * Defect 2: the reply's commit must look at the caller's stack again. Y's
 * reply stalls in its payload copy (deterministically, on a userfaultfd
 * page) while L takes X's call; a commit that does not re-check dropped X's
 * call from L's stack, and X waited forever.
 */
TEST_TIMEOUT(reply_commit_does_not_drop_a_call_stacked_meanwhile, 60)
{
	run_sequence(true);
}
