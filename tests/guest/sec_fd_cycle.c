// SPDX-License-Identifier: Apache-2.0
/*
 * Security regression (issue 10, defect 5), kbinder only: a binder file
 * in flight keeps its process's binder state alive. kbinder refuses a
 * binder fd as an fd object, but a file that carries other files (a unix
 * socket with the binder fd queued on it, an io_uring with it registered)
 * went through, and two processes that sent each other such a carrier in
 * calls never read kept each other's binder state forever after both
 * died: the live-object counters never came back and the module could not
 * be unloaded. Both routes must leave nothing behind, also when a process
 * unmapped its area before it died (found by review: then only a
 * munmap() ran the area's close, and the process stayed pinned).
 */
#include "binder_util.h"
#include "live.h"

#include <linux/io_uring.h>
#include <signal.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#define NODE_PTR 0xc7c1e000
#define CODE_SETUP 1
#define CODE_CARRY 2

enum carrier { CARRIER_UNIX, CARRIER_IO_URING };

/* A unix socket with @fd queued on it (SCM_RIGHTS), or -errno. */
static int unix_carrier(int fd)
{
	char byte = 'b';
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	struct msghdr msg = {
		.msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_control = u.buf,
		.msg_controllen = sizeof(u.buf),
	};
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return -errno;
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	if (sendmsg(sv[0], &msg, 0) != 1) {
		int err = -errno;

		close(sv[0]);
		close(sv[1]);
		return err;
	}
	close(sv[0]);
	return sv[1];	/* its receive queue holds @fd */
}

/* An io_uring with @fd registered as a fixed file, or -errno. */
static int io_uring_carrier(int fd)
{
	struct io_uring_params params;
	int ring;

	memset(&params, 0, sizeof(params));
	ring = (int)syscall(__NR_io_uring_setup, 4, &params);
	if (ring < 0)
		return -errno;
	if (syscall(__NR_io_uring_register, ring, IORING_REGISTER_FILES,
		    &fd, 1)) {
		int err = -errno;

		close(ring);
		return err;
	}
	return ring;
}

static int make_carrier(enum carrier kind, int fd)
{
	return kind == CARRIER_UNIX ? unix_carrier(fd) : io_uring_carrier(fd);
}

/* A one-way call to @handle with @kind carrying the binder file @fd. */
static void send_carrier_of(struct kbinder_thread *t, uint32_t handle,
			    enum carrier kind, int fd)
{
	struct kbinder_parcel data;
	int carrier = make_carrier(kind, fd);

	ASSERT_GE(carrier, 0);
	kbinder_parcel_init(&data);
	kbinder_parcel_write_fd(&data, carrier, 0);
	ASSERT_EQ(kbt_call_status(t, handle, CODE_CARRY, &data, TF_ONE_WAY),
		  BR_TRANSACTION_COMPLETE);
	kbinder_parcel_fini(&data);
	close(carrier);
}

/* A one-way call to @handle with @kind carrying our own binder fd. */
static void send_carrier(struct kbinder_thread *t, uint32_t handle,
			 enum carrier kind)
{
	send_carrier_of(t, handle, kind, t->fd);
}

/*
 * The manager Q: on SETUP it takes the caller's node, sends it a carrier
 * of Q's binder fd, replies, and never reads again (until killed).
 */
static int q_handler(struct kbinder_thread *t,
		     const struct binder_transaction_data *tr,
		     struct kbinder_parcel *reply, void *arg)
{
	enum carrier kind = *(enum carrier *)arg;
	struct flat_binder_object obj;

	if (tr->code != CODE_SETUP)
		return KBT_REPLY;
	kbt_txn_object(tr, 0, &obj);
	ASSERT_OK(kbinder_thread_ref(t, BC_ACQUIRE, obj.handle));
	send_carrier(t, obj.handle, kind);
	kbinder_parcel_write_u32(reply, 1);
	ASSERT_OK(kbinder_thread_reply(t, reply, 0, KBT_WAIT_MS));
	for (;;)
		pause();
	return KBT_REPLIED;
}

struct p_args {
	enum carrier kind;
	bool unmap;
	struct kbt_chan chan;
};

/* P: gives Q its node, then sends Q a carrier of P's binder fd. */
static void p_main(void *arg)
{
	struct p_args *a = arg;
	struct kbinder_parcel data;
	struct kbinder_proc p;
	struct kbinder_thread t;
	struct kbinder_reply r;

	kbt_client(&p, &t);
	kbinder_parcel_init(&data);
	kbinder_parcel_write_binder(&data, NODE_PTR, 0,
				    FLAT_BINDER_FLAG_ACCEPTS_FDS, false);
	kbt_call(&t, 0, CODE_SETUP, &data, &r);
	kbinder_parcel_fini(&data);
	ASSERT_OK(kbinder_thread_free_buffer(&t, r.txn.data.ptr.buffer));
	send_carrier(&t, 0, a->kind);
	if (a->unmap)
		ASSERT_OK(munmap(p.map, p.map_size));
	ASSERT_SIGNAL(&a->chan, 'D');
	for (;;)
		pause();
}

static void carrier_cycle_is_freed(enum carrier kind, bool unmap)
{
	struct flat_binder_object ext = {
		.hdr.type = BINDER_TYPE_BINDER,
		.flags = FLAT_BINDER_FLAG_ACCEPTS_FDS,
	};
	struct kbt_live base;
	struct kbt_server s;
	struct p_args a = { .kind = kind, .unmap = unmap };
	int probe;
	pid_t p;

	kbt_live_start(&base);
	probe = make_carrier(kind, 0);
	if (probe == -ENOSYS || probe == -EPERM)
		SKIP("no %s: %s", kind == CARRIER_UNIX ? "unix socket" :
		     "io_uring", kbt_strerr(probe));
	ASSERT_GE(probe, 0);
	close(probe);

	memset(&s, 0, sizeof(s));
	s.fn = q_handler;
	s.arg = &kind;
	s.ctxmgr = true;
	s.ext = &ext;
	kbt_start_child(&s, kbt_server_main);
	kbt_chan_init(&a.chan);
	p = kbt_fork(p_main, &a);
	ASSERT_WAIT(&a.chan, 'D');
	kbt_msleep(100);

	ASSERT_GT(kbt_live_changes(&base, false), 0);	/* the test sees what it counts */

	/* Both die with each other's binder file in their queues. */
	ASSERT_EQ(kbt_kill(p), 128 + SIGKILL);
	ASSERT_EQ(kbt_kill(s.pid), 128 + SIGKILL);
	kbt_chan_close(&a.chan);
	kbt_chan_close(&s.chan);
	ASSERT_LIVE_BACK(&base, 5000, "pinned after both processes died");
}

TEST(binder_fd_in_a_unix_socket_cycle_is_freed)
{
	carrier_cycle_is_freed(CARRIER_UNIX, false);
}

TEST(binder_fd_in_an_io_uring_cycle_is_freed)
{
	carrier_cycle_is_freed(CARRIER_IO_URING, false);
}

TEST(binder_fd_cycle_is_freed_when_the_area_was_unmapped_first)
{
	carrier_cycle_is_freed(CARRIER_UNIX, true);
}

/*
 * One process: the context manager's own binder file goes, in a unix
 * socket, into a call queued to that manager; the manager unmaps its area
 * and dies. Nothing but the queue holds the file, and nobody can read the
 * queue: the process (and the device's context manager) must still go.
 */
static void self_cycle_main(void *arg)
{
	struct flat_binder_object ext = {
		.hdr.type = BINDER_TYPE_BINDER,
		.flags = FLAT_BINDER_FLAG_ACCEPTS_FDS,
	};
	struct kbt_chan *chan = arg;
	struct kbinder_proc mgr, p;
	struct kbinder_thread t;

	kbt_open(&mgr);
	ASSERT_OK(kbt_become_ctxmgr(mgr.fd, &ext));
	kbt_client(&p, &t);
	send_carrier_of(&t, 0, CARRIER_UNIX, mgr.fd);
	ASSERT_OK(munmap(mgr.map, mgr.map_size));
	ASSERT_SIGNAL(chan, 'D');
	for (;;)
		pause();
}

TEST(binder_fd_sent_to_itself_is_freed_when_the_area_was_unmapped_first)
{
	struct kbt_live base;
	struct kbt_chan chan;
	pid_t pid;

	kbt_live_start(&base);
	kbt_chan_init(&chan);
	pid = kbt_fork(self_cycle_main, &chan);
	ASSERT_WAIT(&chan, 'D');
	ASSERT_EQ(kbt_kill(pid), 128 + SIGKILL);
	kbt_chan_close(&chan);
	ASSERT_LIVE_BACK(&base, 5000, "pinned after the process died");
}
