// SPDX-License-Identifier: Apache-2.0
/*
 * Conformance: file descriptors in transactions, counted. A BINDER_TYPE_FD
 * object gives the receiver exactly one new fd for the sender's file, in a
 * call or in a reply, and the sender's table does not change; the new fd is
 * the receiver's: it stays open after BC_FREE_BUFFER until the receiver
 * closes it. A reply carrying an fd to a caller that did not accept fds
 * fails, and installs nothing anywhere.
 *
 * Every process here also passes the harness's fd check when it returns:
 * whatever a transaction installed has been closed by then.
 */
#include "binder_util.h"

#include <sys/eventfd.h>

#define EFD_COUNT 5		/* the sender's eventfd counter */
#define FD_COOKIE 0xfdc0

enum { CODE_FD_IN_REPLY = 1 };

/*
 * The only fd we have beyond snapshot @before is @fd, an eventfd holding
 * EFD_COUNT: the sender's file. Close it: the table is @before again.
 */
static void expect_received_eventfd(struct kbt_fd_snap *before, int fd)
{
	uint64_t v = 0;

	ASSERT_ONE_NEW_FD(before, fd);
	ASSERT_EQ(read(fd, &v, sizeof(v)), sizeof(v));
	ASSERT_EQ(v, EFD_COUNT);
	close(fd);
	ASSERT_FDS_UNCHANGED(before);
	kbt_fd_snap_free(before);
}

static void expect_fd_object(const struct binder_transaction_data *tr,
			     struct binder_fd_object *fdo)
{
	struct flat_binder_object fo;

	kbt_txn_object(tr, 0, &fo);
	memcpy(fdo, &fo, sizeof(*fdo));
	ASSERT_EQ(fdo->hdr.type, BINDER_TYPE_FD);
	ASSERT_EQ(fdo->cookie, FD_COOKIE);
}

/* A caller that sends one eventfd (counter EFD_COUNT) to handle 0. */
static void send_eventfd(void *arg)
{
	struct kbt_fd_snap before;
	struct kbinder_parcel data;
	struct kbinder_thread t;
	struct kbinder_proc p;
	uint64_t one = EFD_COUNT;
	int efd = eventfd(0, EFD_CLOEXEC);

	(void)arg;
	ASSERT_GE(efd, 0);
	ASSERT_EQ(write(efd, &one, sizeof(one)), sizeof(one));
	kbt_client(&p, &t);
	kbinder_parcel_init(&data);
	kbinder_parcel_write_fd(&data, efd, FD_COOKIE);
	ASSERT_OK(kbt_fd_snapshot(&before));
	ASSERT_EQ(kbt_call_status(&t, 0, 2, &data, 0), BR_REPLY);
	/* the sender keeps its fd and gets none */
	ASSERT_FDS_UNCHANGED(&before);
	kbt_fd_snap_free(&before);
	kbinder_parcel_fini(&data);
	close(efd);
	kbinder_proc_close(&p);
}

TEST(received_fd_is_the_senders_file_and_outlives_the_buffer)
{
	static const struct flat_binder_object accepts_fds = {
		.hdr.type = BINDER_TYPE_BINDER,
		.flags = FLAT_BINDER_FLAG_ACCEPTS_FDS,
	};
	struct binder_fd_object fdo;
	struct kbt_fd_snap before;
	struct kbinder_return ret;
	struct kbinder_thread t;
	struct kbinder_proc p;
	pid_t c;

	kbt_manager(&p, &t, &accepts_fds);
	ASSERT_OK(kbt_fd_snapshot(&before));
	c = kbt_fork(send_eventfd, NULL);
	ASSERT_OK(kbinder_thread_wait_for(&t, BR_TRANSACTION, &ret, kbt_default_event,
					  NULL, KBT_WAIT_MS));
	expect_fd_object(&ret.u.txn, &fdo);
	ASSERT_ONE_NEW_FD(&before, (int)fdo.fd);
	ASSERT_OK(kbinder_thread_reply(&t, NULL, 0, KBT_WAIT_MS));
	ASSERT_OK(kbinder_thread_free_buffer(&t, ret.u.txn.data.ptr.buffer));
	ASSERT_CHILD_OK(c);
	/* freeing the buffer and the sender's exit leave the fd ours */
	expect_received_eventfd(&before, (int)fdo.fd);
	kbinder_proc_close(&p);
}

/* The server replies with a fresh eventfd (counter EFD_COUNT), then closes it. */
static int reply_with_eventfd(struct kbinder_thread *t,
			      const struct binder_transaction_data *tr,
			      struct kbinder_parcel *reply, void *arg)
{
	uint64_t n = EFD_COUNT;
	int efd, err;

	(void)arg;
	if (tr->code != CODE_FD_IN_REPLY)
		return KBT_REPLY;
	efd = eventfd(0, EFD_CLOEXEC);
	ASSERT_GE(efd, 0);
	ASSERT_EQ(write(efd, &n, sizeof(n)), sizeof(n));
	kbinder_parcel_write_fd(reply, efd, FD_COOKIE);
	/* refused (caller without TF_ACCEPT_FDS): the replier hears nothing */
	err = kbinder_thread_reply(t, reply, 0, KBT_WAIT_MS);
	EXPECT_OK(err);
	close(efd);
	return KBT_REPLIED;
}

TEST(fd_in_reply_reaches_the_caller_that_accepts_fds)
{
	struct binder_fd_object fdo;
	struct kbt_fd_snap before;
	struct kbt_pair pair;
	struct kbinder_reply r;

	kbt_pair_start(&pair, reply_with_eventfd, NULL);
	ASSERT_OK(kbt_fd_snapshot(&before));
	ASSERT_OK(kbinder_thread_transact(&pair.t, 0, CODE_FD_IN_REPLY, NULL, TF_ACCEPT_FDS,
					  &r, kbt_default_event, NULL, KBT_WAIT_MS));
	ASSERT_EQ(r.status, BR_REPLY);
	expect_fd_object(&r.txn, &fdo);
	ASSERT_ONE_NEW_FD(&before, (int)fdo.fd);
	ASSERT_OK(kbinder_thread_free_buffer(&pair.t, r.txn.data.ptr.buffer));
	expect_received_eventfd(&before, (int)fdo.fd);
	kbt_pair_stop(&pair);
}

TEST(fd_in_reply_to_a_caller_refusing_fds_fails_and_installs_nothing)
{
	struct kbt_fd_snap before;
	struct kbt_pair pair;

	kbt_pair_start(&pair, reply_with_eventfd, NULL);
	ASSERT_OK(kbt_fd_snapshot(&before));
	ASSERT_EQ(kbt_call_status(&pair.t, 0, CODE_FD_IN_REPLY, NULL, 0),
		  BR_FAILED_REPLY);
	ASSERT_FDS_UNCHANGED(&before);
	kbt_fd_snap_free(&before);
	/* the server is still there (its own check: it kept no fd) */
	kbt_pair_stop(&pair);
}
