// SPDX-License-Identifier: Apache-2.0
/*
 * Conformance: a forked child and its parent's binder fd. The binder
 * process is the one that opened the fd: a child that inherits it calls as
 * that process (the receiver sees the parent's pid), from a binder thread
 * of its own; it cannot map the fd (the mapping belongs to the opener and
 * is not copied by fork), and its exit (which closes its copy of the fd,
 * flushing the process) does not break the parent's use of it.
 */
#include "binder_util.h"

#include <sys/mman.h>

enum { CODE_WHO = 1 };

/* Reply with the sender pid the driver gave us. */
static int who_handler(struct kbinder_thread *t, const struct binder_transaction_data *tr,
		       struct kbinder_parcel *reply, void *arg)
{
	(void)t;
	(void)arg;
	kbinder_parcel_write_u32(reply, (uint32_t)tr->sender_pid);
	return KBT_REPLY;
}

struct child_args {
	int fd;
	struct kbt_chan chan;
};

/* In the child: a call and a one-way call through the parent's fd. */
static void child_calls(void *arg)
{
	struct child_args *a = arg;
	struct kbinder_thread t;
	struct kbinder_reply r;
	uint32_t size;

	kbinder_thread_init(&t, a->fd);
	ASSERT_OK(kbinder_thread_transact(&t, 0, CODE_WHO, NULL, 0, &r, kbt_default_event,
					  NULL, KBT_WAIT_MS));
	ASSERT_EQ(r.status, BR_REPLY);
	/*
	 * The reply landed in the parent's mapping, which fork did not copy:
	 * only its size can be checked here, and it can be freed.
	 */
	size = (uint32_t)r.txn.data_size;
	ASSERT_EQ(size, 4);
	ASSERT_OK(kbinder_thread_free_buffer(&t, r.txn.data.ptr.buffer));
	ASSERT_EQ(kbt_call_status(&t, 0, 2, NULL, TF_ONE_WAY), BR_TRANSACTION_COMPLETE);
	ASSERT_OK(kbinder_ioctl_thread_exit(a->fd));
}

TEST(a_forked_child_calls_through_the_parents_fd_as_the_parent)
{
	struct child_args a;
	struct kbt_pair pair;
	struct kbinder_reply r;
	pid_t pid;

	kbt_pair_start(&pair, who_handler, NULL);
	/* the server sees the opener (this process) as the sender */
	kbt_call(&pair.t, 0, CODE_WHO, NULL, &r);
	ASSERT_EQ(kbt_txn_u32(&r.txn, 0), (uint32_t)getpid());
	ASSERT_OK(kbinder_thread_free_buffer(&pair.t, r.txn.data.ptr.buffer));

	a.fd = pair.p.fd;
	pid = kbt_fork(child_calls, &a);
	ASSERT_CHILD_OK(pid);

	/* the child's exit closed its copy of the fd: ours still works */
	kbt_call(&pair.t, 0, CODE_WHO, NULL, &r);
	ASSERT_EQ(kbt_txn_u32(&r.txn, 0), (uint32_t)getpid());
	ASSERT_OK(kbinder_thread_free_buffer(&pair.t, r.txn.data.ptr.buffer));
	kbt_pair_stop(&pair);
}

/* What the child saw as the sender pid of its call, through the server. */
static int who_to_chan(struct kbinder_thread *t, const struct binder_transaction_data *tr,
		       struct kbinder_parcel *reply, void *arg)
{
	struct kbt_chan *c = arg;
	uint32_t pid = (uint32_t)tr->sender_pid;

	(void)t;
	if (tr->code == CODE_WHO)
		ASSERT_OK(kbt_send(c, &pid, sizeof(pid)));
	kbinder_parcel_write_u32(reply, pid);
	return KBT_REPLY;
}

TEST(the_receiver_sees_the_opener_not_the_child_as_sender)
{
	struct child_args a;
	struct kbt_pair pair;
	struct kbt_chan seen;
	uint32_t pid_seen;
	pid_t pid;

	/* the server's handler runs in the server: its channel goes to us */
	kbt_chan_init(&seen);
	kbt_pair_start(&pair, who_to_chan, &seen);
	a.fd = pair.p.fd;
	pid = kbt_fork(child_calls, &a);
	ASSERT_OK(kbt_recv(&seen, &pid_seen, sizeof(pid_seen), KBT_WAIT_MS));
	ASSERT_CHILD_OK(pid);
	EXPECT_EQ(pid_seen, (uint32_t)getpid());
	EXPECT_NE(pid_seen, (uint32_t)pid);
	kbt_pair_stop(&pair);
	kbt_chan_close(&seen);
}

static void child_maps(void *arg)
{
	struct child_args *a = arg;
	void *m = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, a->fd, 0);

	if (m != MAP_FAILED)
		munmap(m, 4096);
	ASSERT_TRUE(m == MAP_FAILED);
	ASSERT_EQ(errno, EINVAL);
}

TEST(a_forked_child_cannot_map_the_parents_fd)
{
	struct child_args a;
	struct kbinder_proc p;
	pid_t pid;

	kbt_open_dev(&p, NULL, 0);	/* opened, not mapped */
	a.fd = p.fd;
	pid = kbt_fork(child_maps, &a);
	ASSERT_CHILD_OK(pid);
	kbinder_proc_close(&p);
}
