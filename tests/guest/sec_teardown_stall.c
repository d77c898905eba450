// SPDX-License-Identifier: Apache-2.0
/*
 * Security regression (issue 10, defect 3): a process's teardown must not
 * wait for userspace. A sender can be stalled for as long as it likes in
 * the copy of its payload into the receiver's area (the payload on a
 * userfaultfd or FUSE page that nobody serves); while it is, the
 * receiver's death must still be delivered and the references it held
 * must still be dropped. kbinder used to wait in its release workqueue
 * for every such sender: deaths never came, and enough of them blocked
 * the workqueue and rmmod.
 */
#include "binder_util.h"
#include "driver_features.h"
#include "kdelay.h"
#include "live.h"

#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#define NODE_PTR 0x5e5000
#define NODE_COOKIE 0x5e5001
#define DEATH_COOKIE 0xdead5e5
#define STALL_MS 5000

struct stalled {
	int fd;
	void *page;
	uint32_t handle;	/* whom the call goes to */
	bool oneway;		/* a one-way call, else a synchronous one */
	bool sg;		/* BC_TRANSACTION_SG: a node of ours, then a
				 * BINDER_TYPE_PTR buffer on the page; else
				 * BC_TRANSACTION with its data on the page */
	uint32_t status;	/* how the stalled call ended */
	int err;
};

/*
 * The data of an SG call: a node of the sender's, translated (a ref made
 * in the receiver) before the buffer whose copy stalls.
 */
struct sg_data {
	struct flat_binder_object node;
	struct binder_buffer_object buf;
};

/* A call whose payload is on a page that faults into userfaultfd. */
static void *stalled_sender(void *arg)
{
	struct stalled *st = arg;
	struct binder_transaction_data_sg sg;
	struct binder_transaction_data *tr = &sg.transaction_data;
	struct sg_data data = {
		.node.hdr.type = BINDER_TYPE_BINDER,
		.node.binder = NODE_PTR,
		.node.cookie = NODE_COOKIE,
		.buf.hdr.type = BINDER_TYPE_PTR,
		.buf.buffer = (binder_uintptr_t)(uintptr_t)st->page,
		.buf.length = 64,
	};
	binder_size_t offsets[] = { offsetof(struct sg_data, node),
				    offsetof(struct sg_data, buf) };
	struct kbinder_thread t;
	struct kbinder_writer w;
	struct kbinder_return ret;
	uint8_t cmds[128];
	int err;

	memset(&sg, 0, sizeof(sg));
	tr->target.handle = st->handle;
	tr->code = 1;
	tr->flags = st->oneway ? TF_ONE_WAY : 0;
	kbinder_thread_init(&t, st->fd);
	kbinder_writer_init(&w, cmds, sizeof(cmds));
	if (st->sg) {
		tr->data_size = sizeof(data);
		tr->data.ptr.buffer = (binder_uintptr_t)(uintptr_t)&data;
		tr->offsets_size = sizeof(offsets);
		tr->data.ptr.offsets = (binder_uintptr_t)(uintptr_t)offsets;
		sg.buffers_size = data.buf.length;
		kbinder_writer_put_txn_sg(&w, BC_TRANSACTION_SG, &sg);
	} else {
		tr->data_size = 64;
		tr->data.ptr.buffer = (binder_uintptr_t)(uintptr_t)st->page;
		kbinder_writer_put_txn(&w, BC_TRANSACTION, tr);
	}
	/* Sleeps in the copy of the payload until the page is served. */
	err = kbinder_ioctl_write(st->fd, cmds, w.len, NULL);
	while (!err) {
		err = kbinder_thread_next(&t, &ret, KBT_WAIT_MS);
		if (err)
			break;
		if (ret.cmd == BR_REPLY || ret.cmd == BR_DEAD_REPLY ||
		    ret.cmd == BR_FAILED_REPLY) {
			st->status = ret.cmd;
			if (ret.cmd == BR_REPLY)
				kbinder_thread_free_buffer(&t, ret.u.txn.data.ptr.buffer);
			break;
		}
	}
	st->err = err;
	return NULL;
}

static int open_uffd(void *page, size_t len)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = {
		.range = { .start = (uintptr_t)page, .len = len },
		.mode = UFFDIO_REGISTER_MODE_MISSING,
	};
	int uffd = (int)syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);

	if (uffd < 0)
		return -errno;
	if (ioctl(uffd, UFFDIO_API, &api) || ioctl(uffd, UFFDIO_REGISTER, &reg)) {
		int err = -errno;

		close(uffd);
		return err;
	}
	return uffd;
}

/* The kernel touched the page: the sender sleeps in its copy. */
static int wait_fault(int uffd, int ms)
{
	struct pollfd pfd = { .fd = uffd, .events = POLLIN };
	struct uffd_msg msg;

	if (poll(&pfd, 1, ms) != 1)
		return -ETIMEDOUT;
	if (read(uffd, &msg, sizeof(msg)) != sizeof(msg))
		return -errno;
	return msg.event == UFFD_EVENT_PAGEFAULT ? 0 : -EPROTO;
}

static void serve_page(int uffd, void *page, size_t len)
{
	struct uffdio_zeropage zp = {
		.range = { .start = (uintptr_t)page, .len = len },
	};

	EXPECT_OK(ioctl(uffd, UFFDIO_ZEROPAGE, &zp) ? -errno : 0);
}

/*
 * Start @st's call (@st->fd, @st->handle, @st->oneway set) with its
 * payload on a fresh page that faults into a userfaultfd, and return once
 * the sender sleeps in the copy of it. Where there is no userfaultfd, the
 * test ends skipped (after quitting @s, if any, and closing the client
 * @p/@t).
 * Return: the userfaultfd.
 */
static int stall_start(struct stalled *st, pthread_t *sender,
		       struct kbt_server *s, struct kbinder_proc *p,
		       struct kbinder_thread *t)
{
	size_t len = (size_t)sysconf(_SC_PAGESIZE);
	int uffd;

	st->page = mmap(NULL, len, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(st->page, MAP_FAILED);
	uffd = open_uffd(st->page, len);
	if (uffd == -ENOSYS || uffd == -EPERM) {
		munmap(st->page, len);
		if (s)
			kbt_stop_with_client(t, s, p);
		else
			kbinder_proc_close(p);
		SKIP("no userfaultfd: %s", kbt_strerr(uffd));
	}
	ASSERT_GE(uffd, 0);
	ASSERT_EQ(pthread_create(sender, NULL, stalled_sender, st), 0);
	ASSERT_OK(wait_fault(uffd, KBT_WAIT_MS));
	return uffd;
}

/* Serve the page: the sender finishes its call; wait for it. */
static void stall_end(struct stalled *st, pthread_t sender, int uffd)
{
	size_t len = (size_t)sysconf(_SC_PAGESIZE);

	serve_page(uffd, st->page, len);
	ASSERT_EQ(pthread_join(sender, NULL), 0);
	EXPECT_OK(st->err);
	close(uffd);
	munmap(st->page, len);
}

/*
 * Collect what the server's death brings to the looper @t within @ms:
 * the death notice and the release of the node the server held.
 */
static void collect(struct kbinder_thread *t, int ms, bool *dead, bool *decrefs)
{
	int64_t deadline = kbt_now_ms() + ms;
	struct kbinder_return ret;

	while (!(*dead && *decrefs)) {
		int64_t left = deadline - kbt_now_ms();

		if (left <= 0 || kbinder_thread_next(t, &ret, (int)left))
			return;
		if (ret.cmd == BR_DEAD_BINDER) {
			EXPECT_EQ(ret.u.cookie, DEATH_COOKIE);
			*dead = true;
			EXPECT_OK(kbinder_thread_dead_binder_done(t, ret.u.cookie));
		} else if (ret.cmd == BR_DECREFS) {
			EXPECT_EQ(ret.u.ptr_cookie.ptr, NODE_PTR);
			*decrefs = true;
		} else if (ret.cmd != BR_NOOP) {
			kbt_default_event(t, &ret, NULL);
		}
	}
}

TEST_TIMEOUT(teardown_does_not_wait_for_a_stalled_sender, 60)
{
	struct kbt_server s;
	struct kbinder_proc p;
	struct kbinder_thread t;
	struct kbinder_parcel data;
	struct kbinder_reply r;
	struct stalled st = { 0 };
	bool dead = false, decrefs = false;
	pthread_t sender;
	int64_t killed;
	int uffd;

	kbt_start_ctxmgr(&s, kbt_keeper, NULL);
	kbt_client(&p, &t);
	ASSERT_OK(kbinder_thread_enter_looper(&t));
	/* The server holds our node strongly. */
	kbinder_parcel_init(&data);
	kbinder_parcel_write_binder(&data, NODE_PTR, NODE_COOKIE, 0, false);
	kbt_call(&t, 0, 2, &data, &r);
	kbinder_parcel_fini(&data);
	ASSERT_OK(kbinder_thread_free_buffer(&t, r.txn.data.ptr.buffer));
	ASSERT_EQ(kbt_no_work(&t, 200), 0);	/* BR_INCREFS/ACQUIRE acked */
	ASSERT_OK(kbinder_thread_ref(&t, BC_INCREFS, 0));
	ASSERT_OK(kbinder_thread_request_death(&t, 0, DEATH_COOKIE));

	st.fd = p.fd;
	uffd = stall_start(&st, &sender, &s, &p, &t);

	/* The server dies while our call to it is stalled in its copy. */
	ASSERT_EQ(kbt_kill(s.pid), 128 + SIGKILL);
	killed = kbt_now_ms();
	collect(&t, STALL_MS, &dead, &decrefs);
	EXPECT_TRUE(dead);
	EXPECT_TRUE(decrefs);
	kbt_log("after the kill, with the sender still stalled: death %s, "
		"node released %s (%lld ms)", dead ? "delivered" : "MISSING",
		decrefs ? "yes" : "NO", (long long)(kbt_now_ms() - killed));

	/* Release the sender: its call finds the server dead. */
	stall_end(&st, sender, uffd);
	EXPECT_EQ(st.status, BR_DEAD_REPLY);
	collect(&t, STALL_MS, &dead, &decrefs);	/* what a blocked one owes */
	kbt_chan_close(&s.chan);
	kbinder_proc_close(&p);
}

/*
 * The same stall, with nothing but the stalled call holding the node it
 * calls: no ref of ours on handle 0. The server's death zeroes the
 * kernel's counts on its node (the call's among them) and, with no ref and
 * no pin left, frees the node, while the sender still has to finish its
 * call against it: a synchronous call fails and drops its count, a one-way
 * call also takes the node's lock to join its queue first. A call that
 * kept only a count on its node (no memory reference) touched the freed
 * node when it resumed: KASAN reports it on the debug kernel, and the
 * harness fails the test on the report.
 */
static void stalled_call_outlives_its_node(bool oneway)
{
	struct kbt_server s;
	struct kbinder_proc p;
	struct kbinder_thread t;
	struct stalled st = { .oneway = oneway };
	pthread_t sender;
	int uffd;

	kbt_start_ctxmgr(&s, kbt_keeper, NULL);
	kbt_client(&p, &t);
	st.fd = p.fd;
	uffd = stall_start(&st, &sender, &s, &p, &t);

	/* The server dies; its teardown runs while the call is stalled. */
	ASSERT_EQ(kbt_kill(s.pid), 128 + SIGKILL);
	kbt_msleep(STALL_MS / 2);

	stall_end(&st, sender, uffd);
	EXPECT_EQ(st.status, BR_DEAD_REPLY);
	kbt_chan_close(&s.chan);
	kbinder_proc_close(&p);
}

TEST_TIMEOUT(a_stalled_call_outlives_the_node_it_calls, 60)
{
	stalled_call_outlives_its_node(false);
}

TEST_TIMEOUT(a_stalled_one_way_call_outlives_the_node_it_calls, 60)
{
	stalled_call_outlives_its_node(true);
}

/*
 * A call through a handle other than 0 (the lookup in the caller's refs,
 * not the context's manager node), stalled in its copy while the caller
 * drops its only reference to that handle: the ref and the node's count
 * for it go, and only what the call took at its lookup keeps the node.
 * With @server_dies the server is killed as well, which frees the node
 * under the stalled call; else the call reaches the server and is
 * answered.
 */
static void stalled_call_outlives_its_ref(bool server_dies)
{
	struct kbt_server s;
	struct kbinder_proc p;
	struct kbinder_thread t;
	struct kbinder_parcel data;
	struct kbinder_reply r;
	struct flat_binder_object obj;
	struct stalled st = { 0 };
	pthread_t sender;
	int uffd;

	kbt_start_ctxmgr(&s, kbt_reply_node, (void *)NODE_PTR);
	kbt_client(&p, &t);
	kbinder_parcel_init(&data);
	kbt_call(&t, 0, 1, &data, &r);
	kbinder_parcel_fini(&data);
	kbt_txn_object(&r.txn, 0, &obj);
	ASSERT_EQ(obj.hdr.type, BINDER_TYPE_HANDLE);
	ASSERT_NE(obj.handle, 0);
	/* Our own strong reference, the only one once the reply is freed. */
	ASSERT_OK(kbinder_thread_ref(&t, BC_ACQUIRE, obj.handle));
	ASSERT_OK(kbinder_thread_free_buffer(&t, r.txn.data.ptr.buffer));

	st.fd = p.fd;
	st.handle = obj.handle;
	uffd = stall_start(&st, &sender, &s, &p, &t);

	ASSERT_OK(kbinder_thread_ref(&t, BC_RELEASE, obj.handle));
	/* The ref is gone: a new call through it fails at its lookup. */
	EXPECT_EQ(kbt_call_status(&t, obj.handle, 1, NULL, 0), BR_FAILED_REPLY);
	if (server_dies)
		ASSERT_EQ(kbt_kill(s.pid), 128 + SIGKILL);
	/* Time for the server to read the node's release, or to die. */
	kbt_msleep(STALL_MS / 2);

	stall_end(&st, sender, uffd);
	EXPECT_EQ(st.status, server_dies ? BR_DEAD_REPLY : BR_REPLY);
	if (server_dies) {
		kbt_chan_close(&s.chan);
		kbinder_proc_close(&p);
	} else {
		kbt_stop_with_client(&t, &s, &p);
	}
}

TEST_TIMEOUT(a_stalled_call_outlives_the_ref_it_was_sent_through, 60)
{
	stalled_call_outlives_its_ref(false);
}

TEST_TIMEOUT(a_stalled_call_outlives_its_ref_and_its_node, 60)
{
	stalled_call_outlives_its_ref(true);
}

/*
 * Issue 29: a notice queued to a dying process belongs to its ref, not to
 * the list it waits on, and the ref may go at any moment. Here the ref's
 * only count is a stalled sender's buffer. The sender S calls the manager
 * P with BC_TRANSACTION_SG: a node of S (P gets a ref to it, handle 1,
 * counted by the buffer alone) and then a buffer whose copy stalls. P asks
 * for freeze notifications on handle 1: the notice fires at once and waits
 * unread on P's todo list. P closes its binder file; its teardown cancels
 * that list while S's copy resumes, S's call fails (P is dead), and its
 * cleanup drops the ref and frees the notice. (A notice P read waits on
 * its list of delivered notices, which the teardown cancels only after it
 * dropped every ref, and with them every notice a ref held.) kbinder once
 * took the notice off the list under the lock and then, unlocked, handed
 * it to its cancel, which read the freed notice (a general protection
 * fault with slub_debug=P, a KASAN report on the debug kernel). A BPF
 * delay on that cancel (kdelay.h) holds the teardown there while S's
 * cleanup runs. A kbinder that decides under the lock that the ref owns
 * the notice never hands it to that cancel: on kbinder the delayed
 * function must not be called at all here (the delay must attach, and
 * count nothing), whether or not the race would have been won; on the
 * reference the scenario runs without the delay.
 */
#define FREEZE_COOKIE 0xf4ee2e

static void notice_victim(void *arg)
{
	struct binder_handle_cookie hc = { .handle = 1, .cookie = FREEZE_COOKIE };
	struct kbt_chan *chan = arg;
	struct kbinder_proc p;
	struct kbinder_writer w;
	uint8_t cmds[32];

	kbt_open(&p);
	ASSERT_OK(kbt_become_ctxmgr(p.fd, NULL));
	ASSERT_SIGNAL(chan, 'R');
	ASSERT_WAIT(chan, 'S');	/* S's node is our handle 1 now */
	kbinder_writer_init(&w, cmds, sizeof(cmds));
	ASSERT_OK(kbinder_writer_put(&w, BC_REQUEST_FREEZE_NOTIFICATION,
				     &hc, sizeof(hc)));
	ASSERT_OK(kbinder_ioctl_write(p.fd, cmds, w.len, NULL));
	ASSERT_SIGNAL(chan, 'N');
	ASSERT_WAIT(chan, 'C');
	kbinder_proc_close(&p);	/* with the notice, and S's call to come */
}

/* Skip before anything is started where there is no userfaultfd. */
static void require_uffd(void)
{
	int uffd = (int)syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);

	if (uffd < 0 && (errno == ENOSYS || errno == EPERM))
		SKIP("no userfaultfd: %s", strerror(errno));
	ASSERT_GE(uffd, 0);
	close(uffd);
}

static void notice_outlived_by_its_ref(void)
{
	struct kbt_chan chan;
	struct kbinder_proc p;
	struct kbinder_thread t;
	struct stalled st = { .sg = true };
	struct kbt_kdelay d;
	struct kbt_live base;
	bool delayed = false, held = false;
	pthread_t sender;
	int uffd;
	pid_t v;

	REQUIRE_FEATURE(KBT_FEATURE_FREEZE_NOTIFICATION);
	/* The stall is in the copy of a BC_TRANSACTION_SG's extra buffer. */
	REQUIRE_FULL_PROFILE("BC_TRANSACTION_SG");
	require_uffd();
	if (!kbt_is_reference())
		ASSERT_OK(kbt_live_read(&base));
	kbt_chan_init(&chan);
	v = kbt_fork(notice_victim, &chan);
	ASSERT_WAIT(&chan, 'R');
	kbt_client(&p, &t);
	st.fd = p.fd;
	uffd = stall_start(&st, &sender, NULL, &p, &t);
	ASSERT_SIGNAL(&chan, 'S');
	ASSERT_WAIT(&chan, 'N');
	delayed = kbt_kdelay_hold(&d, "kb_notice_cancel", false, -1, 1);
	ASSERT_SIGNAL(&chan, 'C');
	ASSERT_CHILD_OK(v);
	if (delayed)
		held = kbt_kdelay_wait_held(&d, 2000);
	/* S's call fails now, and its cleanup drops P's ref. */
	stall_end(&st, sender, uffd);
	EXPECT_EQ(st.status, BR_DEAD_REPLY);
	if (delayed) {
		/* The notice was its ref's: the teardown had no business there. */
		EXPECT_EQ(kbt_kdelay_calls(&d), 0);
		kbt_kdelay_detach(&d);
	}
	kbt_log("the teardown %s", !delayed ? "ran without a delay" :
		held ? "was held in the notice's cancel during the cleanup" :
		"never handed the notice to its cancel");
	kbinder_proc_close(&p);
	kbt_chan_close(&chan);
	/* Waits for P's teardown, past the delay: a report comes before. */
	if (!kbt_is_reference())
		ASSERT_LIVE_BACK(&base, 5000, "live objects left");
}

TEST_TIMEOUT(a_dying_receivers_queued_notice_is_freed_by_its_ref_alone, 60)
{
	notice_outlived_by_its_ref();
}
