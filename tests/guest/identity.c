// SPDX-License-Identifier: Apache-2.0
/*
 * Who sent a call, as the receiver's namespaces see it: sender_pid is the
 * sender's process id in the receiver's pid namespace (0 when the sender
 * is not visible there), sender_euid the sender's effective uid in the
 * receiver's user namespace ((uid_t)-1 when unmapped). Upstream
 * does the same, so these tests run on the reference driver too, on the
 * plain device ($BINDER_DEVICE); nothing here needs binderfs.
 */
#include "binder_util.h"

#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <sys/wait.h>

#define CODE_WHO 0x57484f	/* reply: sender_pid, sender_euid */
/*
 * An euid unmapped in the receiver's user namespace: upstream converts
 * with from_kuid(), which gives (uid_t)-1 there, not the overflow uid
 * (from_kuid_munged()); kbinder does as upstream.
 */
#define UNMAPPED_UID ((uint32_t)-1)

/* Answers with the sender's pid and euid as this process sees them. */
static int reply_who(struct kbinder_thread *t,
		     const struct binder_transaction_data *tr,
		     struct kbinder_parcel *reply, void *arg)
{
	(void)t;
	(void)arg;
	kbinder_parcel_write_u32(reply, (uint32_t)tr->sender_pid);
	kbinder_parcel_write_u32(reply, (uint32_t)tr->sender_euid);
	return KBT_REPLY;
}

/* Call handle 0 with CODE_WHO from a fresh open; the pid and euid seen. */
static void ask_who(uint32_t *pid, uint32_t *euid)
{
	struct kbinder_thread t;
	struct kbinder_reply r;
	struct kbinder_proc p;

	kbt_client(&p, &t);
	kbt_call(&t, 0, CODE_WHO, NULL, &r);
	*pid = kbt_txn_u32(&r.txn, 0);
	*euid = kbt_txn_u32(&r.txn, 1);
	ASSERT_OK(kbinder_thread_free_buffer(&t, r.txn.data.ptr.buffer));
	kbinder_proc_close(&p);
}

/* In the child pid namespace's first process: call the parent's manager. */
static void child_ns_caller(void *arg)
{
	uint32_t pid, euid;

	(void)arg;
	ASSERT_EQ(getpid(), 1);
	ask_who(&pid, &euid);
	(void)pid;
	(void)euid;
}

/* Makes a pid namespace and runs child_ns_caller() as its init. */
static void pidns_parent(void *arg)
{
	struct kbt_chan *chan = arg;
	pid_t inner;

	ASSERT_EQ(unshare(CLONE_NEWPID), 0);
	inner = kbt_fork(child_ns_caller, NULL);
	/* This process is still in the test's namespace: @inner is its pid. */
	ASSERT_OK(kbt_send(chan, &inner, sizeof(inner)));
	ASSERT_CHILD_OK(inner);
}

/* A sender in a child pid namespace is seen by its pid in the parent's. */
TEST(identity_child_pidns_sender_seen_from_parent)
{
	struct kbinder_parcel reply;
	struct kbinder_return ret;
	struct kbt_chan chan;
	struct kbinder_thread t;
	struct kbinder_proc p;
	pid_t helper, inner;

	kbt_manager(&p, &t, NULL);
	kbt_chan_init(&chan);
	helper = kbt_fork(pidns_parent, &chan);
	ASSERT_OK(kbt_recv(&chan, &inner, sizeof(inner), 10000));
	kbt_expect(&t, BR_TRANSACTION, &ret);
	kbt_log("sender_pid %d, the caller is %d in this namespace",
		ret.u.txn.sender_pid, inner);
	EXPECT_EQ(ret.u.txn.sender_pid, inner);
	EXPECT_NE(ret.u.txn.sender_pid, 1);
	EXPECT_EQ(ret.u.txn.sender_euid, geteuid());
	kbinder_parcel_init(&reply);
	ASSERT_OK(kbinder_thread_reply(&t, &reply, 0, KBT_WAIT_MS));
	ASSERT_OK(kbinder_thread_free_buffer(&t, ret.u.txn.data.ptr.buffer));
	kbinder_parcel_fini(&reply);
	ASSERT_CHILD_OK(helper);
	kbt_chan_close(&chan);
	kbinder_proc_close(&p);
}

/*
 * A manager in a child pid namespace (and, for the euid test, a child user
 * namespace): opened and made manager first, then it enters the
 * namespaces and serves.
 */
struct ns_server {
	struct kbt_chan chan;
	int flags;		/* CLONE_NEWPID and/or CLONE_NEWUSER */
};

static void ns_server_serve(void *arg)
{
	struct ns_server *s = arg;
	struct kbinder_thread t;
	struct kbinder_proc p;

	kbt_manager(&p, &t, NULL);
	if (s->flags & CLONE_NEWUSER) {
		ASSERT_EQ(unshare(CLONE_NEWUSER), 0);
		/* The test maps the uids, then says go. */
		ASSERT_SIGNAL(&s->chan, 'U');
		ASSERT_WAIT(&s->chan, 'M');
	}
	if (s->flags & CLONE_NEWUSER) {
		char map[64] = "";
		FILE *f = fopen("/proc/self/uid_map", "re");

		if (f) {
			if (!fgets(map, sizeof(map), f))
				map[0] = '\0';
			fclose(f);
		}
		kbt_log("manager: uid %d, uid_map %s", getuid(), map);
	}
	ASSERT_SIGNAL(&s->chan, 'R');
	ASSERT_OK(kbt_serve(&t, reply_who, NULL));
	kbinder_proc_close(&p);
}

static void ns_server_main(void *arg)
{
	struct ns_server *s = arg;
	pid_t inner;

	if (!(s->flags & CLONE_NEWPID)) {
		ns_server_serve(arg);
		return;
	}
	ASSERT_EQ(unshare(CLONE_NEWPID), 0);
	/*
	 * Only the manager speaks on the channel: a word of ours could come
	 * before or after its 'R'.
	 */
	inner = kbt_fork(ns_server_serve, arg);
	ASSERT_CHILD_OK(inner);
}

/* The test process, outside the manager's pid namespace, is pid 0 there. */
TEST(identity_parent_seen_from_child_pidns)
{
	struct ns_server s = { .flags = CLONE_NEWPID };
	uint32_t pid, euid;
	struct kbinder_thread t;
	struct kbinder_proc p;
	pid_t helper;

	kbt_chan_init(&s.chan);
	helper = kbt_fork(ns_server_main, &s);
	ASSERT_WAIT(&s.chan, 'R');
	ask_who(&pid, &euid);
	kbt_log("the manager (in a pid namespace of its own) saw sender_pid %u",
		pid);
	EXPECT_EQ(pid, 0u);
	EXPECT_EQ(euid, (uint32_t)geteuid());
	kbt_client(&p, &t);
	kbt_quit(&t, 0);
	kbinder_proc_close(&p);
	ASSERT_CHILD_OK(helper);
	kbt_chan_close(&s.chan);
}

/* A sender with euid 1000, for the unmapped case. */
static void ask_as_1000(void *arg)
{
	struct kbinder_thread t;
	struct kbinder_reply r;
	struct kbinder_proc p;
	uint32_t euid;

	(void)arg;
	/* Open as root (the device is 0600), then call as uid 1000. */
	kbt_client(&p, &t);
	ASSERT_EQ(setresuid(1000, 1000, 0), 0);
	kbt_call(&t, 0, CODE_WHO, NULL, &r);
	euid = kbt_txn_u32(&r.txn, 1);
	ASSERT_OK(kbinder_thread_free_buffer(&t, r.txn.data.ptr.buffer));
	kbinder_proc_close(&p);
	kbt_log("euid 1000 seen as %u", euid);
	ASSERT_EQ(euid, UNMAPPED_UID);
}

/*
 * The manager in a user namespace mapping its uid 5 to the test's uid 0:
 * a call from uid 0 shows euid 5; a call from uid 1000, unmapped there,
 * shows (uid_t)-1.
 */
TEST(identity_euid_mapped_and_unmapped)
{
	struct ns_server s = { .flags = CLONE_NEWUSER };
	char path[64], map[32];
	uint32_t pid, euid, unused;
	struct kbinder_thread t;
	struct kbinder_proc p;
	pid_t helper;

	if (geteuid() != 0)
		SKIP("needs root to map uids");
	kbt_chan_init(&s.chan);
	helper = kbt_fork(ns_server_main, &s);
	ASSERT_WAIT(&s.chan, 'U');
	snprintf(path, sizeof(path), "/proc/%d/uid_map", helper);
	snprintf(map, sizeof(map), "5 0 1\n");
	kbt_write_file(path, map);
	ASSERT_SIGNAL(&s.chan, 'M');
	ASSERT_WAIT(&s.chan, 'R');
	ask_who(&pid, &euid);
	kbt_log("uid 0 seen as %u in the manager's user namespace", euid);
	EXPECT_EQ(euid, 5u);
	EXPECT_EQ(pid, (uint32_t)getpid());
	ASSERT_CHILD_OK(kbt_fork(ask_as_1000, &unused));
	kbt_client(&p, &t);
	kbt_quit(&t, 0);
	kbinder_proc_close(&p);
	ASSERT_CHILD_OK(helper);
	kbt_chan_close(&s.chan);
}
