// SPDX-License-Identifier: Apache-2.0
/*
 * The descriptors of a delivered fd array (BINDER_TYPE_FDA) are the
 * receiver's, and the driver closes them when the receiver frees the
 * buffer (BC_FREE_BUFFER). By then the receiver may have made one of those
 * numbers name a binder file of its own (dup2() over it): the free then
 * closes that file, which may be the very one whose ioctl is freeing the
 * buffer. The ioctl reached its file through fdget(), which takes no
 * reference of its own when the file table is not shared, so the driver
 * must not drop the file's last reference before the ioctl returns
 * (upstream and kbinder keep it until the way back to userspace).
 *
 * Checked from outside: the free succeeds, the number is closed when it
 * returns, the closed binder file is released (its node dies), and on
 * kbinder its live counters come back; the harness's kernel-log check
 * sees the rest. Both drivers.
 */
#include "cve_common.h"
#include "driver_features.h"
#include "live.h"

#include <sys/stat.h>

enum { OWN_FILE, OTHER_FILE };
enum { CODE_FDS = 1, CODE_PING };
#define COOKIE 0xfdac105eu

static const struct flat_binder_object accepts_fds = {
	.hdr.type = BINDER_TYPE_BINDER,
	.flags = FLAT_BINDER_FLAG_ACCEPTS_FDS,
};

struct receiver {
	struct kbt_chan chan;
	int mode;
	struct kbt_live base;	/* kbinder's live counters before it */
};

/* BC_FREE_BUFFER of @buffer, written with an ioctl on @fd. */
static int free_on(int fd, binder_uintptr_t buffer)
{
	struct {
		uint32_t cmd;
		binder_uintptr_t ptr;
	} __attribute__((packed)) cmd = { BC_FREE_BUFFER, buffer };
	struct binder_write_read bwr = {
		.write_size = sizeof(cmd),
		.write_buffer = (binder_uintptr_t)(uintptr_t)&cmd,
	};

	if (ioctl(fd, BINDER_WRITE_READ, &bwr))
		return -errno;
	return bwr.write_consumed == sizeof(cmd) ? 0 : -EIO;
}

/* The one descriptor of the fd array in @tr (the array is in its parent). */
static int fda_fd(const struct binder_transaction_data *tr)
{
	struct binder_buffer_object parent;
	struct binder_fd_array_object fda;
	struct stat st;
	uint32_t fd;

	ASSERT_EQ(tr->offsets_size, 2 * sizeof(binder_size_t));
	memcpy(&parent, kbt_txn_data(tr) + CVE_HDR, sizeof(parent));
	memcpy(&fda, kbt_txn_data(tr) + CVE_HDR + CVE_PTR_SIZE, sizeof(fda));
	ASSERT_EQ(fda.hdr.type, BINDER_TYPE_FDA);
	ASSERT_EQ(fda.num_fds, 1);
	memcpy(&fd, (const void *)(uintptr_t)parent.buffer, sizeof(fd));
	ASSERT_EQ(fstat((int)fd, &st), 0);
	ASSERT_TRUE(S_ISFIFO(st.st_mode));	/* the sender's pipe */
	return (int)fd;
}

/*
 * The context manager: takes the call carrying the fd array, makes its
 * number name a binder file of its own (OWN_FILE: the one it frees the
 * buffer through, which it unmaps and closes otherwise, so that number is
 * the file's last reference; OTHER_FILE: a second one, opened for this),
 * frees the buffer, and checks the number is closed.
 */
static void receiver_main(void *arg)
{
	struct receiver *r = arg;
	struct kbinder_parcel reply;
	struct kbinder_return ret;
	struct kbinder_thread t;
	struct kbinder_proc p;
	binder_uintptr_t buffer;
	int n, other;

	kbt_open(&p);
	ASSERT_OK(kbt_become_ctxmgr(p.fd, &accepts_fds));
	kbinder_thread_init(&t, p.fd);
	ASSERT_OK(kbinder_thread_enter_looper(&t));
	ASSERT_SIGNAL(&r->chan, 'R');
	kbt_expect(&t, BR_TRANSACTION, &ret);
	ASSERT_EQ(ret.u.txn.code, CODE_FDS);
	buffer = ret.u.txn.data.ptr.buffer;
	n = fda_fd(&ret.u.txn);

	if (r->mode == OWN_FILE) {
		ASSERT_EQ(dup2(p.fd, n), n);
		ASSERT_EQ(munmap(p.map, p.map_size), 0);
		ASSERT_EQ(close(p.fd), 0);
		/* @n is all that holds the binder file; it frees through @n. */
		ASSERT_OK(free_on(n, buffer));
		ASSERT_EQ(fcntl(n, F_GETFD), -1);
		ASSERT_EQ(errno, EBADF);
		ASSERT_SIGNAL(&r->chan, 'F');
		return;
	}
	other = open(kbinder_proc_default_device(), O_RDWR | O_CLOEXEC);
	ASSERT_GE(other, 0);
	ASSERT_EQ(dup2(other, n), n);
	ASSERT_EQ(close(other), 0);
	ASSERT_OK(free_on(p.fd, buffer));
	ASSERT_EQ(fcntl(n, F_GETFD), -1);
	ASSERT_EQ(errno, EBADF);
	ASSERT_SIGNAL(&r->chan, 'F');
	/* Its own file goes on working: it answers the next call. */
	kbt_expect(&t, BR_TRANSACTION, &ret);
	ASSERT_EQ(ret.u.txn.code, CODE_PING);
	kbinder_parcel_init(&reply);
	kbinder_parcel_write_u32(&reply, 0x900d);
	ASSERT_EQ(kbinder_thread_reply(&t, &reply, 0, KBT_WAIT_MS), 0);
	kbinder_parcel_fini(&reply);
	ASSERT_OK(kbinder_thread_free_buffer(&t, ret.u.txn.data.ptr.buffer));
	kbinder_proc_close(&p);
}

/*
 * Start the receiver in @mode, open this process's client of it, watch its
 * node's death, and send it a one-way call with an fd array of one pipe.
 */
static pid_t send_fda(struct receiver *r, int mode, int pipefd[2],
		      struct kbinder_proc *p, struct kbinder_thread *t)
{
	uint8_t data[CVE_PTR_SIZE + CVE_FDA_SIZE];
	binder_size_t offs[2] = { 0, CVE_PTR_SIZE };
	uint32_t fds[1] __attribute__((aligned(8)));
	struct kbinder_reply reply;
	struct kbt_txn x = {
		.code = CODE_FDS, .flags = TF_ONE_WAY, .data = data,
		.size = sizeof(data), .offs = offs, .offs_size = sizeof(offs),
		.sg = true, .sg_size = 8,
	};
	pid_t pid;

	r->mode = mode;
	if (!kbt_is_reference())
		ASSERT_OK(kbt_live_read(&r->base));
	kbt_chan_init(&r->chan);
	pid = kbt_fork(receiver_main, r);
	ASSERT_WAIT(&r->chan, 'R');
	kbt_client(p, t);
	ASSERT_OK(kbinder_thread_enter_looper(t));
	ASSERT_OK(kbinder_thread_ref(t, BC_INCREFS, 0));
	ASSERT_OK(kbinder_thread_request_death(t, 0, COOKIE));
	ASSERT_OK(pipe2(pipefd, O_CLOEXEC));
	fds[0] = (uint32_t)pipefd[0];
	cve_put_ptr(data, 0, fds, sizeof(fds), false, 0, 0);
	cve_put_fda(data, CVE_PTR_SIZE, 1, 0, 0);
	ASSERT_STATUS(cve_transact_hdr(t, &x, &reply), BR_TRANSACTION_COMPLETE);
	return pid;
}

/*
 * The receiver exits 0, its binder file is released (its node's death
 * reaches this client), everything of the test is closed, and on kbinder
 * every object is gone again (the file an fd array closed included).
 */
static void receiver_gone(struct receiver *r, pid_t pid, int pipefd[2],
			  struct kbinder_proc *p, struct kbinder_thread *t)
{
	struct kbinder_return ret;

	ASSERT_CHILD_OK(pid);
	kbt_expect(t, BR_DEAD_BINDER, &ret);
	ASSERT_EQ(ret.u.cookie, COOKIE);
	ASSERT_OK(kbinder_thread_dead_binder_done(t, COOKIE));
	kbinder_proc_close(p);
	kbt_chan_close(&r->chan);
	close(pipefd[0]);
	close(pipefd[1]);
	if (!kbt_is_reference())
		ASSERT_LIVE_BACK(&r->base, 5000, "after the receiver");
}

/*
 * The fd array's number names the receiver's only binder file, and the
 * receiver frees the buffer through that very number.
 */
TEST(freeing_closes_an_fda_number_naming_the_receivers_own_binder_file)
{
	struct kbinder_thread t;
	struct kbinder_proc p;
	struct receiver r;
	int pipefd[2];
	pid_t pid;

	REQUIRE_FULL_PROFILE("BINDER_TYPE_FDA");

	pid = send_fda(&r, OWN_FILE, pipefd, &p, &t);
	ASSERT_WAIT(&r.chan, 'F');
	/* Its file was released, though it never closed a number itself. */
	receiver_gone(&r, pid, pipefd, &p, &t);
}

/*
 * The fd array's number names another binder file of the receiver (the
 * only reference to it); the receiver frees the buffer through its own
 * file, which goes on working.
 */
TEST(freeing_closes_an_fda_number_naming_another_binder_file_of_the_receiver)
{
	struct kbinder_reply reply;
	struct kbinder_thread t;
	struct kbinder_proc p;
	struct receiver r;
	int pipefd[2];
	pid_t pid;

	REQUIRE_FULL_PROFILE("BINDER_TYPE_FDA");

	pid = send_fda(&r, OTHER_FILE, pipefd, &p, &t);
	ASSERT_WAIT(&r.chan, 'F');
	kbt_call(&t, 0, CODE_PING, NULL, &reply);
	ASSERT_EQ(kbt_txn_u32(&reply.txn, 0), 0x900d);
	ASSERT_OK(kbinder_thread_free_buffer(&t, reply.txn.data.ptr.buffer));
	receiver_gone(&r, pid, pipefd, &p, &t);
}
