// SPDX-License-Identifier: Apache-2.0
/*
 * kbinder driver checks: transaction reports over generic netlink (family
 * "binder", group "report", mainline 6.18). Every failed send or reply,
 * every one-way call flagged as spam and every one-way call queued to a
 * frozen process gives exactly one report, with both sides' pids and tids,
 * code, flags, data size, device and the BR_ code; a successful call gives
 * none; a report reaches only the sender's network namespace.
 *
 * Debian's binder (6.1 and 6.12) has no such family: the tests skip there
 * (driver_features.h), but for the one that checks it is absent. Only
 * one test is kbinder's alone, by a documented promise (docs/security.md):
 * an unprivileged process cannot listen, where mainline lets anyone.
 */
#include "harness.h"	/* first: it sets _GNU_SOURCE (unshare) */
#include "binder_util.h"
#include "driver_features.h"

#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <sys/ioctl.h>

#include <kbinder/report.h>

#define NO_REPORT_MS 200
#define CODE_HELLO 0x48454c4fu

static void open_listener(struct kbinder_report_listener *l)
{
	REQUIRE_FEATURE(KBT_FEATURE_TRANSACTION_REPORT);
	ASSERT_OK(kbinder_report_open(l));
}

/* Exactly one report is queued (the event that sends it is over). */
static void expect_one(struct kbinder_report_listener *l, struct kbinder_report *r)
{
	struct kbinder_report extra;

	ASSERT_OK(kbinder_report_next(l, r, KBT_WAIT_MS));
	ASSERT_EQ(kbinder_report_next(l, &extra, NO_REPORT_MS), -ETIMEDOUT);
}

static void expect_none(struct kbinder_report_listener *l)
{
	struct kbinder_report r;
	int err = kbinder_report_next(l, &r, NO_REPORT_MS);

	if (!err)
		kbt_fail(__FILE__, __LINE__, true,
			 "unexpected report %s from %u:%u code %#x",
			 kbinder_return_name(r.error), r.from_pid, r.from_tid,
			 r.code);
	ASSERT_EQ(err, -ETIMEDOUT);
}

/* The report comes from this thread of this process. */
static void expect_from_me(const struct kbinder_report *r)
{
	EXPECT_EQ(r->from_pid, getpid());
	EXPECT_EQ(r->from_tid, kbt_gettid());
}

/* A BC_TRANSACTION or BC_REPLY written by hand (to make it malformed). */
static void write_txn(struct kbinder_thread *t, uint32_t cmd,
		      const struct binder_transaction_data *tr)
{
	uint8_t buf[128];
	struct kbinder_writer w;

	kbinder_writer_init(&w, buf, sizeof(buf));
	ASSERT_OK(kbinder_writer_put_txn(&w, cmd, tr));
	ASSERT_OK(kbinder_ioctl_write(t->fd, buf, w.len, NULL));
}

/* The family exists with kbinder loaded; Debian's 6.1 and 6.12 have none. */
TEST(family_exists_only_with_a_reporting_driver)
{
	struct kbinder_report_listener l;
	int err = kbinder_report_open(&l);

	if (kbt_is_reference()) {
		ASSERT_EQ(err, -ENOENT);
		return;
	}
	ASSERT_OK(err);
	ASSERT_GT(l.family, 0);
	ASSERT_GT(l.group, 0);
	kbinder_report_close(&l);
}

TEST(call_to_dead_node_is_reported)
{
	struct kbinder_report_listener l;
	struct flat_binder_object obj;
	struct kbinder_return ret;
	struct kbinder_reply reply;
	struct kbt_pair pair;
	struct kbinder_report r;
	uint32_t handle;

	open_listener(&l);
	kbt_pair_start(&pair, kbt_reply_node, (void *)0x1000);
	kbt_call(&pair.t, 0, 1, NULL, &reply);
	kbt_txn_object(&reply.txn, 0, &obj);
	handle = obj.handle;
	ASSERT_OK(kbinder_thread_ref(&pair.t, BC_ACQUIRE, handle));
	ASSERT_OK(kbinder_thread_request_death(&pair.t, handle, 0x77));
	ASSERT_OK(kbinder_thread_free_buffer(&pair.t, reply.txn.data.ptr.buffer));
	kbt_stop_ctxmgr(&pair.t, &pair.mgr);
	kbt_expect(&pair.t, BR_DEAD_BINDER, &ret);
	ASSERT_OK(kbinder_thread_dead_binder_done(&pair.t, ret.u.cookie));
	expect_none(&l);

	ASSERT_EQ(kbt_call_status(&pair.t, handle, CODE_HELLO, NULL, 0),
		  BR_DEAD_REPLY);
	expect_one(&l, &r);
	EXPECT_EQ(r.error, BR_DEAD_REPLY);
	EXPECT_EQ(strcmp(r.context, "binder"), 0);
	expect_from_me(&r);
	/* the target could not be determined: no receiving side */
	EXPECT_EQ(r.to_pid, 0);
	EXPECT_EQ(r.to_tid, 0);
	EXPECT_FALSE(r.is_reply);
	EXPECT_EQ(r.code, CODE_HELLO);
	EXPECT_EQ(r.flags, 0);
	EXPECT_EQ(r.data_size, 0);
	kbinder_proc_close(&pair.p);
	kbinder_report_close(&l);
}

TEST(malformed_call_is_reported)
{
	struct binder_transaction_data tr;
	struct kbinder_report_listener l;
	uint64_t payload = 42;
	struct kbinder_return ret;
	struct kbt_pair pair;
	struct kbinder_report r;

	open_listener(&l);
	kbt_pair_start(&pair, NULL, NULL);
	memset(&tr, 0, sizeof(tr));
	tr.code = CODE_HELLO;
	tr.flags = TF_ACCEPT_FDS;
	tr.data_size = sizeof(payload);
	tr.data.ptr.buffer = (binder_uintptr_t)(uintptr_t)&payload;
	tr.offsets_size = 3;	/* not a whole offset */
	tr.data.ptr.offsets = (binder_uintptr_t)(uintptr_t)&payload;
	write_txn(&pair.t, BC_TRANSACTION, &tr);
	kbt_expect(&pair.t, BR_FAILED_REPLY, &ret);

	expect_one(&l, &r);
	EXPECT_EQ(r.error, BR_FAILED_REPLY);
	EXPECT_EQ(strcmp(r.context, "binder"), 0);
	expect_from_me(&r);
	EXPECT_EQ(r.to_pid, pair.mgr.pid);
	EXPECT_EQ(r.to_tid, 0);
	EXPECT_FALSE(r.is_reply);
	EXPECT_EQ(r.code, CODE_HELLO);
	EXPECT_EQ(r.flags, TF_ACCEPT_FDS);
	EXPECT_EQ(r.data_size, sizeof(payload));
	kbt_pair_stop(&pair);
	kbinder_report_close(&l);
}

/* Reply with an offsets size that is not a whole offset. */
static int bad_reply(struct kbinder_thread *t,
		     const struct binder_transaction_data *tr,
		     struct kbinder_parcel *reply, void *arg)
{
	struct binder_transaction_data out;
	uint32_t word = 7;
	struct kbinder_return ret;

	(void)tr;
	(void)reply;
	(void)arg;
	memset(&out, 0, sizeof(out));
	out.code = 0x5250;
	out.data_size = sizeof(word);
	out.data.ptr.buffer = (binder_uintptr_t)(uintptr_t)&word;
	out.offsets_size = 5;
	out.data.ptr.offsets = (binder_uintptr_t)(uintptr_t)&word;
	write_txn(t, BC_REPLY, &out);
	/* the replier is done; the caller gets the failure */
	kbt_expect(t, BR_TRANSACTION_COMPLETE, &ret);
	return KBT_REPLIED;
}

TEST(failed_reply_is_reported)
{
	struct kbinder_report_listener l;
	struct kbt_pair pair;
	struct kbinder_report r;

	open_listener(&l);
	kbt_pair_start(&pair, bad_reply, NULL);
	ASSERT_EQ(kbt_call_status(&pair.t, 0, CODE_HELLO, NULL, TF_ACCEPT_FDS),
		  BR_FAILED_REPLY);

	expect_one(&l, &r);
	EXPECT_EQ(r.error, BR_FAILED_REPLY);
	EXPECT_EQ(strcmp(r.context, "binder"), 0);
	/* the replier sent it; the caller it could not reach is the target */
	EXPECT_EQ(r.from_pid, pair.mgr.pid);
	EXPECT_EQ(r.from_tid, pair.mgr.pid);	/* kbt_serve runs on the main thread */
	EXPECT_EQ(r.to_pid, getpid());
	EXPECT_EQ(r.to_tid, kbt_gettid());
	EXPECT_TRUE(r.is_reply);
	EXPECT_EQ(r.code, 0x5250);
	EXPECT_EQ(r.flags, 0);
	EXPECT_EQ(r.data_size, 4);
	kbt_pair_stop(&pair);
	kbinder_report_close(&l);
}

/* A call back to the caller's node, malformed, while the caller waits. */
static int bad_nested_call(struct kbinder_thread *t,
			   const struct binder_transaction_data *tr,
			   struct kbinder_parcel *reply, void *arg)
{
	struct binder_transaction_data out;
	struct flat_binder_object obj;
	uint64_t word = 9;
	struct kbinder_return ret;

	(void)reply;
	(void)arg;
	kbt_txn_object(tr, 0, &obj);
	memset(&out, 0, sizeof(out));
	out.target.handle = obj.handle;
	out.code = 0x4e455354;
	out.data_size = sizeof(word);
	out.data.ptr.buffer = (binder_uintptr_t)(uintptr_t)&word;
	out.offsets_size = 6;
	out.data.ptr.offsets = (binder_uintptr_t)(uintptr_t)&word;
	write_txn(t, BC_TRANSACTION, &out);
	kbt_expect(t, BR_FAILED_REPLY, &ret);
	return KBT_REPLY;
}

TEST(failed_nested_call_names_the_waiting_thread)
{
	struct kbinder_report_listener l;
	struct kbinder_parcel data;
	struct kbinder_reply reply;
	struct kbt_pair pair;
	struct kbinder_report r;

	open_listener(&l);
	kbt_pair_start(&pair, bad_nested_call, NULL);
	kbinder_parcel_init(&data);
	kbinder_parcel_write_binder(&data, 0x3000, 0x4000, 0, false);
	kbt_call(&pair.t, 0, CODE_HELLO, &data, &reply);
	ASSERT_OK(kbinder_thread_free_buffer(&pair.t, reply.txn.data.ptr.buffer));

	expect_one(&l, &r);
	EXPECT_EQ(r.error, BR_FAILED_REPLY);
	EXPECT_EQ(r.from_pid, pair.mgr.pid);
	EXPECT_EQ(r.from_tid, pair.mgr.pid);
	/* the call back goes to the thread that waits for the server */
	EXPECT_EQ(r.to_pid, getpid());
	EXPECT_EQ(r.to_tid, kbt_gettid());
	EXPECT_FALSE(r.is_reply);
	EXPECT_EQ(r.code, 0x4e455354);
	EXPECT_EQ(r.flags, 0);
	EXPECT_EQ(r.data_size, 8);
	kbinder_parcel_fini(&data);
	kbt_pair_stop(&pair);
	kbinder_report_close(&l);
}

static int freeze(int fd, pid_t pid, bool enable)
{
	struct binder_freeze_info info = {
		.pid = (uint32_t)pid, .enable = enable, .timeout_ms = 1000,
	};

	return ioctl(fd, BINDER_FREEZE, &info) ? -errno : 0;
}

TEST(calls_to_frozen_process_are_reported)
{
	struct kbinder_report_listener l;
	struct kbinder_parcel data;
	struct kbt_pair pair;
	struct kbinder_report r;

	open_listener(&l);
	kbt_pair_start(&pair, NULL, NULL);
	kbinder_parcel_init(&data);
	kbinder_parcel_write_u64(&data, 1);
	ASSERT_OK(freeze(pair.p.fd, pair.mgr.pid, true));

	ASSERT_EQ(kbt_call_status(&pair.t, 0, CODE_HELLO, &data, 0),
		  BR_FROZEN_REPLY);
	expect_one(&l, &r);
	EXPECT_EQ(r.error, BR_FROZEN_REPLY);
	expect_from_me(&r);
	EXPECT_EQ(r.to_pid, pair.mgr.pid);
	EXPECT_EQ(r.to_tid, 0);
	EXPECT_FALSE(r.is_reply);
	EXPECT_EQ(r.code, CODE_HELLO);
	EXPECT_EQ(r.flags, 0);
	EXPECT_EQ(r.data_size, 8);

	/* one-way: queued until the thaw, and reported as pending */
	ASSERT_EQ(kbt_call_status(&pair.t, 0, CODE_HELLO + 1, &data, TF_ONE_WAY),
		  BR_TRANSACTION_PENDING_FROZEN);
	expect_one(&l, &r);
	EXPECT_EQ(r.error, BR_TRANSACTION_PENDING_FROZEN);
	expect_from_me(&r);
	EXPECT_EQ(r.to_pid, pair.mgr.pid);
	EXPECT_EQ(r.to_tid, 0);
	EXPECT_EQ(r.code, CODE_HELLO + 1);
	EXPECT_EQ(r.flags, TF_ONE_WAY);
	EXPECT_EQ(r.data_size, 8);

	ASSERT_OK(freeze(pair.p.fd, pair.mgr.pid, false));
	ASSERT_EQ(kbt_call_status(&pair.t, 0, CODE_HELLO, &data, 0), BR_REPLY);
	expect_none(&l);
	kbinder_parcel_fini(&data);
	kbt_pair_stop(&pair);
	kbinder_report_close(&l);
}

/*
 * A context manager with a 128 KiB area that never reads: its 64 KiB of
 * one-way space fills up.
 */
static void small_sleeping_ctxmgr(void *arg)
{
	struct kbt_chan *chan = arg;
	struct kbinder_proc p;

	kbt_open_dev(&p, NULL, 128 * 1024);
	ASSERT_OK(kbt_become_ctxmgr(p.fd, NULL));
	ASSERT_SIGNAL(chan, 'R');
	ASSERT_WAIT(chan, 'Q');
	kbinder_proc_close(&p);
}

TEST(oneway_spam_suspect_is_reported_once)
{
	static uint8_t blob[1024];
	struct kbinder_report_listener l;
	struct kbinder_parcel data;
	struct kbt_chan chan;
	struct kbinder_report r;
	struct kbinder_thread t;
	struct kbinder_proc p;
	int sent, err = 0;
	pid_t pid;

	open_listener(&l);
	pid = kbt_fork_ready(small_sleeping_ctxmgr, &chan);
	kbt_client(&p, &t);
	kbinder_parcel_init(&data);
	memset(blob, 0xab, sizeof(blob));
	ASSERT_OK(kbinder_parcel_write(&data, blob, sizeof(blob)));

	/*
	 * Spam detection is not enabled on this fd: like mainline, the driver
	 * reports a suspect anyway. The suspect is the call that leaves less
	 * than a tenth of the area free (the 52nd of 1 KiB here).
	 */
	for (sent = 0; sent < 60; sent++) {
		ASSERT_EQ(kbt_call_status(&t, 0, CODE_HELLO, &data, TF_ONE_WAY),
			  BR_TRANSACTION_COMPLETE);
		err = kbinder_report_next(&l, &r, 0);
		if (err != -ETIMEDOUT)
			break;
	}
	ASSERT_OK(err);
	kbt_log("spam suspect after %d one-way calls", sent + 1);
	EXPECT_EQ(r.error, BR_ONEWAY_SPAM_SUSPECT);
	expect_from_me(&r);
	EXPECT_EQ(r.to_pid, pid);
	EXPECT_EQ(r.to_tid, 0);
	EXPECT_FALSE(r.is_reply);
	EXPECT_EQ(r.code, CODE_HELLO);
	EXPECT_EQ(r.flags, TF_ONE_WAY);
	EXPECT_EQ(r.data_size, 1024);

	/* still low on space, but already reported: no second report */
	for (int i = 0; i < 4; i++)
		ASSERT_EQ(kbt_call_status(&t, 0, CODE_HELLO, &data, TF_ONE_WAY),
			  BR_TRANSACTION_COMPLETE);
	expect_none(&l);
	ASSERT_SIGNAL(&chan, 'Q');
	ASSERT_CHILD_OK(pid);
	kbt_chan_close(&chan);
	kbinder_parcel_fini(&data);
	kbinder_proc_close(&p);
	kbinder_report_close(&l);
}

TEST(successful_calls_are_not_reported)
{
	struct kbinder_report_listener l;
	struct kbt_pair pair;

	open_listener(&l);
	kbt_pair_start(&pair, NULL, NULL);
	ASSERT_EQ(kbt_call_status(&pair.t, 0, CODE_HELLO, NULL, 0), BR_REPLY);
	ASSERT_EQ(kbt_call_status(&pair.t, 0, CODE_HELLO, NULL, TF_ONE_WAY),
		  BR_TRANSACTION_COMPLETE);
	kbt_stop_ctxmgr(&pair.t, &pair.mgr);
	expect_none(&l);
	kbinder_proc_close(&pair.p);
	kbinder_report_close(&l);
}

/*
 * A call on @dev to a context manager that does not exist: BR_DEAD_REPLY,
 * reported with that device as context.
 */
static void fail_call_on(const char *dev)
{
	struct kbinder_thread t;
	struct kbinder_proc p;

	kbt_open_dev(&p, dev, KBT_MAP_SIZE);
	kbinder_thread_init(&t, p.fd);
	ASSERT_EQ(kbt_call_status(&t, 0, CODE_HELLO, NULL, 0), BR_DEAD_REPLY);
	kbinder_proc_close(&p);
}

TEST(report_names_the_senders_device)
{
	struct kbinder_report_listener l;
	struct kbinder_report r;

	open_listener(&l);
	fail_call_on("/dev/hwbinder");
	expect_one(&l, &r);
	EXPECT_EQ(r.error, BR_DEAD_REPLY);
	EXPECT_EQ(strcmp(r.context, "hwbinder"), 0);
	expect_from_me(&r);
	fail_call_on("/dev/vndbinder");
	expect_one(&l, &r);
	EXPECT_EQ(strcmp(r.context, "vndbinder"), 0);
	kbinder_report_close(&l);
}

/* In a new network namespace: listen, then fail a call on request. */
static void netns_child(void *arg)
{
	struct kbt_chan *chan = arg;
	struct kbinder_report_listener l;
	struct kbinder_report r;

	if (unshare(CLONE_NEWNET)) {
		kbt_log("unshare(CLONE_NEWNET): %s", kbt_strerr(errno));
		ASSERT_SIGNAL(chan, 'S');
		return;
	}
	/* the family is there in every namespace */
	ASSERT_OK(kbinder_report_open(&l));
	ASSERT_SIGNAL(chan, 'R');
	/* the parent's failure stays in the parent's namespace */
	ASSERT_WAIT(chan, 'F');
	expect_none(&l);
	/* ours stays in ours */
	fail_call_on("/dev/hwbinder");
	expect_one(&l, &r);
	EXPECT_EQ(r.from_pid, getpid());
	EXPECT_EQ(strcmp(r.context, "hwbinder"), 0);
	ASSERT_SIGNAL(chan, 'D');
	kbinder_report_close(&l);
}

TEST(reports_stay_in_the_senders_network_namespace)
{
	struct kbinder_report_listener l;
	struct kbt_chan chan;
	struct kbinder_report r;
	char token = 0;
	pid_t pid;

	open_listener(&l);
	kbt_chan_init(&chan);
	pid = kbt_fork(netns_child, &chan);
	ASSERT_OK(kbt_recv(&chan, &token, 1, KBT_WAIT_MS));
	if (token == 'S') {
		ASSERT_CHILD_OK(pid);
		SKIP("no network namespaces here");
	}
	ASSERT_EQ(token, 'R');
	fail_call_on("/dev/hwbinder");
	expect_one(&l, &r);
	EXPECT_EQ(r.from_pid, getpid());
	ASSERT_SIGNAL(&chan, 'F');
	ASSERT_WAIT(&chan, 'D');
	expect_none(&l);
	ASSERT_CHILD_OK(pid);
	kbt_chan_close(&chan);
	kbinder_report_close(&l);
}

/*
 * Reports name the failed calls of every world and user whose sender is in
 * the network namespace: listening takes CAP_NET_ADMIN in the user
 * namespace that owns it (kbinder only: mainline's group asks for nothing,
 * docs/security.md).
 */
static void unprivileged_listener(void *arg)
{
	struct kbinder_report_listener l;
	int err;

	(void)arg;
	ASSERT_EQ(setresgid(65534, 65534, 65534), 0);
	ASSERT_EQ(setresuid(65534, 65534, 65534), 0);
	err = kbinder_report_open(&l);
	if (!err)
		kbinder_report_close(&l);
	EXPECT_EQ(err, -EPERM);
	/* No fd check: /proc/self/fd is not ours to read any more. */
	_exit(kbt_failed() ? 1 : 0);
}

TEST(an_unprivileged_process_cannot_listen)
{
	REQUIRE_KBINDER("a kbinder promise (docs/security.md): mainline lets anyone listen");
	ASSERT_CHILD_OK(kbt_fork(unprivileged_listener, NULL));
}

/*
 * The root of a user namespace owns its network namespace, and may listen:
 * true of every driver with the family (mainline lets anyone listen), so
 * it runs wherever the feature is.
 */
static void userns_listener(void *arg)
{
	struct kbt_chan *chan = arg;
	struct kbinder_report_listener l;

	ASSERT_EQ(setresgid(65534, 65534, 65534), 0);
	ASSERT_EQ(setresuid(65534, 65534, 65534), 0);
	if (unshare(CLONE_NEWUSER | CLONE_NEWNET)) {
		kbt_log("unshare(CLONE_NEWUSER | CLONE_NEWNET): %s",
			kbt_strerr(errno));
		ASSERT_SIGNAL(chan, 'S');
		_exit(kbt_failed() ? 1 : 0);
	}
	ASSERT_SIGNAL(chan, 'R');
	ASSERT_OK(kbinder_report_open(&l));
	kbinder_report_close(&l);
	_exit(kbt_failed() ? 1 : 0);	/* as above */
}

TEST(the_owner_of_a_network_namespace_may_listen)
{
	struct kbt_chan chan;
	char token = 0;
	pid_t pid;

	REQUIRE_FEATURE(KBT_FEATURE_TRANSACTION_REPORT);
	kbt_chan_init(&chan);
	pid = kbt_fork(userns_listener, &chan);
	ASSERT_OK(kbt_recv(&chan, &token, 1, KBT_WAIT_MS));
	ASSERT_CHILD_OK(pid);
	kbt_chan_close(&chan);
	if (token == 'S')
		SKIP("no user namespaces for an unprivileged user here");
}

TEST(kbinder_report_prints_one_line_per_report)
{
	char line[256] = "", want[256];
	struct pollfd pfd;
	FILE *tool;
	int tries;

	REQUIRE_FEATURE(KBT_FEATURE_TRANSACTION_REPORT);
	if (access("/usr/bin/kbinder", X_OK))
		SKIP("the kbinder tool is not installed in this guest");
	tool = popen("exec /usr/bin/kbinder -d /dev/hwbinder report --count 1 --timeout 20", "r");
	ASSERT_TRUE(tool != NULL);
	pfd.fd = fileno(tool);
	pfd.events = POLLIN;
	/* the tool joins the group at some point: fail calls until it tells */
	for (tries = 0; tries < 50 && !poll(&pfd, 1, 0); tries++) {
		fail_call_on("/dev/hwbinder");
		poll(&pfd, 1, 200);
	}
	ASSERT_TRUE(fgets(line, sizeof(line), tool) != NULL);
	ASSERT_EQ(pclose(tool), 0);
	snprintf(want, sizeof(want),
		 "BR_DEAD_REPLY context=hwbinder from=%d:%d to=- reply=no flags=0 code=%#x size=0\n",
		 getpid(), kbt_gettid(), CODE_HELLO);
	if (strcmp(line, want))
		kbt_fail(__FILE__, __LINE__, true, "got \"%s\", want \"%s\"",
			 line, want);
}
