// SPDX-License-Identifier: Apache-2.0
/*
 * Reuse of freed objects, and memory debuggers (issue 21): on a normal
 * kernel kbinder keeps the last transaction and completion notice a thread
 * freed for its next call, two slab allocations fewer per call. On a
 * kernel with KASAN or kmemleak it must keep nothing: every freed object
 * is really freed there, so a use after free or a leak of the objects
 * binder's CVEs are about is still seen (driver/internal.h,
 * kb_reuse_objects()); nor where the kernel clears freed memory
 * (init_on_free=1). debugfs kbinder/reuse says which ("reuse on" or "reuse
 * off") and how many freed objects were taken again ("reused N").
 */
#include "binder_util.h"
#include "driver_features.h"
#include "live.h"

#include <sys/ioctl.h>
#include <stdio.h>
#include <string.h>

#define REUSE_FILE "/sys/kernel/debug/kbinder/reuse"
#define CALLS 50

struct reuse {
	char state[8];
	unsigned long reused;
};

/* debugfs kbinder/reuse; false if it cannot be read or parsed. */
static bool read_reuse(struct reuse *r)
{
	FILE *f = fopen(REUSE_FILE, "r");
	int n;

	if (!f)
		return false;
	n = fscanf(f, "reuse %7s reused %lu", r->state, &r->reused);
	fclose(f);
	return n == 2;
}

/* Whether a line of /proc/kallsyms names the function @name. */
static bool has_function(const char *name)
{
	char line[256], want[80];
	bool found = false;
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		return false;
	snprintf(want, sizeof(want), " %s\n", name);
	while (!found && fgets(line, sizeof(line), f))
		found = strstr(line, want) != NULL;
	fclose(f);
	return found;
}

/* Why this kernel must see every free: a memory debugger, or init_on_free. */
static const char *no_reuse_reason(void)
{
	char cmdline[4096] = "";
	FILE *f;

	if (has_function("kasan_report"))
		return "KASAN";
	if (has_function("kmemleak_alloc"))
		return "kmemleak";
	f = fopen("/proc/cmdline", "r");
	if (f) {
		if (!fgets(cmdline, sizeof(cmdline), f))
			cmdline[0] = 0;
		fclose(f);
	}
	if (strstr(cmdline, "init_on_free=1"))
		return "init_on_free=1";
	return NULL;
}

static int echo(struct kbinder_thread *t, const struct binder_transaction_data *tr,
		struct kbinder_parcel *reply, void *arg)
{
	(void)t;
	(void)tr;
	(void)arg;
	kbinder_parcel_write_u32(reply, 1);
	return KBT_REPLY;
}

TEST(freed_objects_are_reused_only_where_no_memory_debugger_watches)
{
	const char *debugger = no_reuse_reason();
	struct kbinder_thread t;
	struct kbinder_proc p;
	struct kbinder_reply r;
	struct kbt_server s;
	struct reuse before, after;
	int i;

	REQUIRE_KBINDER("the upstream driver reuses nothing of its own");
	if (!read_reuse(&before))
		SKIP("cannot read %s (no debugfs?)", REUSE_FILE);
	kbt_start_ctxmgr(&s, echo, NULL);
	kbt_client(&p, &t);
	for (i = 0; i < CALLS; i++) {
		kbt_call(&t, 0, 1, NULL, &r);
		ASSERT_OK(kbinder_thread_free_buffer(&t, r.txn.data.ptr.buffer));
	}
	ASSERT_TRUE(read_reuse(&after));
	kbt_log("%s; reuse %s, %lu objects reused in %d calls (%lu in all)",
		debugger ? debugger : "no memory debugger, no init_on_free", after.state,
		after.reused - before.reused, CALLS, after.reused);
	if (debugger) {
		EXPECT_TRUE(!strcmp(after.state, "off"));
		EXPECT_EQ(after.reused, 0ul);
	} else {
		EXPECT_TRUE(!strcmp(after.state, "on"));
		/* about four per call: each side's transaction and notice */
		EXPECT_GE(after.reused - before.reused, (unsigned long)CALLS);
	}
	kbt_stop_with_client(&t, &s, &p);
}

/*
 * A reused object carries nothing of its last use (issue 29). A thread's
 * spare transaction is the last one it freed: the call it answered, for a
 * replier; the reply it read, for a caller. So the second call here is
 * sent in the client's old reply A, and its reply B in the manager's old
 * call A; every field the receiver reads must be the new call's, down to
 * the flags and sizes that A set and B does not. The same on both
 * drivers; on kbinder with reuse on (no KASAN) it is the reuse it checks.
 */
#define CODE_A 0x41
#define CODE_B 0x42
#define NODE_B 0xb0b0
#define COOKIE_B 0xc0b0

static void expect_txn(const struct binder_transaction_data *tr,
		       binder_uintptr_t ptr, binder_uintptr_t cookie,
		       uint32_t code, uint32_t flags, pid_t pid,
		       uint64_t data_size, uint64_t offsets_size)
{
	EXPECT_EQ(tr->target.ptr, ptr);
	EXPECT_EQ(tr->cookie, cookie);
	EXPECT_EQ(tr->code, code);
	EXPECT_EQ(tr->flags, flags);
	EXPECT_EQ(tr->sender_pid, pid);
	EXPECT_EQ(tr->sender_euid, geteuid());
	EXPECT_EQ(tr->data_size, data_size);
	EXPECT_EQ(tr->offsets_size, offsets_size);
}

/*
 * The manager: call A (every field set) is answered with a node of its
 * own and flags; call B (the fewest fields) must arrive as sent, to that
 * node, and is answered plainly.
 */
static int check_calls(struct kbinder_thread *t,
		       const struct binder_transaction_data *tr,
		       struct kbinder_parcel *reply, void *arg)
{
	uint32_t flags = 0;

	(void)arg;
	if (tr->code == CODE_A) {
		expect_txn(tr, 0, 0, CODE_A, TF_ACCEPT_FDS, getppid(),
			   sizeof(struct flat_binder_object) + 4,
			   sizeof(binder_size_t));
		kbinder_parcel_write_binder(reply, NODE_B, COOKIE_B, 0, false);
		kbinder_parcel_write_u32(reply, 0xa);
		flags = TF_ACCEPT_FDS;
	} else if (tr->code == CODE_B) {
		expect_txn(tr, NODE_B, COOKIE_B, CODE_B, 0, getppid(), 8, 0);
		kbinder_parcel_write_u32(reply, 0xb);
	} else {
		return KBT_REPLY;
	}
	EXPECT_OK(kbinder_thread_reply(t, reply, flags, KBT_WAIT_MS));
	EXPECT_OK(kbinder_thread_free_buffer(t, tr->data.ptr.buffer));
	return KBT_REPLIED | KBT_KEPT;
}

TEST(a_reused_transaction_carries_nothing_of_its_last_use)
{
	struct flat_binder_object obj;
	struct kbinder_parcel data;
	struct kbinder_reply r;
	struct kbt_pair w;
	int round;

	kbt_pair_start(&w, check_calls, NULL);
	for (round = 0; round < 3; round++) {
		kbinder_parcel_init(&data);
		kbinder_parcel_write_binder(&data, 0xa0a0, 0xc0a0, 0, false);
		kbinder_parcel_write_u32(&data, 0xa);
		ASSERT_OK(kbinder_thread_transact(&w.t, 0, CODE_A, &data,
						  TF_ACCEPT_FDS, &r, NULL, NULL,
						  KBT_WAIT_MS));
		kbinder_parcel_fini(&data);
		ASSERT_EQ(r.status, BR_REPLY);
		expect_txn(&r.txn, 0, 0, 0, TF_ACCEPT_FDS, 0,
			   sizeof(struct flat_binder_object) + 4,
			   sizeof(binder_size_t));
		kbt_txn_object(&r.txn, 0, &obj);
		ASSERT_EQ(obj.hdr.type, BINDER_TYPE_HANDLE);
		/* Our own count: the reply's goes with its buffer. */
		ASSERT_OK(kbinder_thread_ref(&w.t, BC_ACQUIRE, obj.handle));
		ASSERT_OK(kbinder_thread_free_buffer(&w.t, r.txn.data.ptr.buffer));

		kbinder_parcel_init(&data);
		kbinder_parcel_write_u32(&data, 0xb);
		kbinder_parcel_write_u32(&data, 0xb);
		ASSERT_OK(kbinder_thread_transact(&w.t, obj.handle, CODE_B, &data,
						  0, &r, NULL, NULL, KBT_WAIT_MS));
		kbinder_parcel_fini(&data);
		ASSERT_EQ(r.status, BR_REPLY);
		expect_txn(&r.txn, 0, 0, 0, 0, 0, 4, 0);
		ASSERT_OK(kbinder_thread_free_buffer(&w.t, r.txn.data.ptr.buffer));
		ASSERT_OK(kbinder_thread_ref(&w.t, BC_RELEASE, obj.handle));
	}
	kbt_pair_stop(&w);
}

/*
 * The same for a completion notice: one that said
 * BR_TRANSACTION_PENDING_FROZEN (mainline 6.7) is kept by the thread that
 * read it, and the next call's completion must say what that call did.
 */
static int freeze_pid(int fd, pid_t pid, bool on)
{
	struct binder_freeze_info info = { .pid = (uint32_t)pid, .enable = on,
					   .timeout_ms = 1000 };

	return ioctl(fd, BINDER_FREEZE, &info) ? -errno : 0;
}

/* The next BR_ code other than BR_NOOP. */
static uint32_t next_cmd(struct kbinder_thread *t, struct kbinder_return *ret)
{
	do {
		if (kbinder_thread_next(t, ret, KBT_WAIT_MS))
			return 0;
	} while (ret->cmd == BR_NOOP);
	return ret->cmd;
}

TEST(a_reused_completion_says_what_its_own_call_did)
{
	struct kbt_txn oneway = { .code = 1, .flags = TF_ONE_WAY };
	struct kbt_txn call = { .code = 1 };
	struct kbinder_return ret;
	struct kbt_pair w;
	int round;

	REQUIRE_FEATURE(KBT_FEATURE_PENDING_FROZEN);
	kbt_pair_start(&w, echo, NULL);
	for (round = 0; round < 3; round++) {
		ASSERT_OK(freeze_pid(w.p.fd, w.mgr.pid, true));
		kbt_write_txn(w.p.fd, &oneway);
		EXPECT_EQ(next_cmd(&w.t, &ret), BR_TRANSACTION_PENDING_FROZEN);
		ASSERT_OK(freeze_pid(w.p.fd, w.mgr.pid, false));
		/* Sent after the thaw: complete, not pending. */
		kbt_write_txn(w.p.fd, &oneway);
		EXPECT_EQ(next_cmd(&w.t, &ret), BR_TRANSACTION_COMPLETE);
		kbt_write_txn(w.p.fd, &call);
		EXPECT_EQ(next_cmd(&w.t, &ret), BR_TRANSACTION_COMPLETE);
		EXPECT_EQ(next_cmd(&w.t, &ret), BR_REPLY);
		ASSERT_OK(kbinder_thread_free_buffer(&w.t, ret.u.txn.data.ptr.buffer));
	}
	kbt_pair_stop(&w);
}

/*
 * What a thread keeps for reuse is counted live ("spares") until its exit
 * frees it, so a spare an exit forgot shows in the counters at unload.
 */
TEST(a_threads_spares_are_counted_until_it_exits)
{
	struct kbinder_reply r;
	struct reuse reuse;
	struct kbt_pair w;
	long before;
	int i;

	REQUIRE_KBINDER("counts kbinder's own spares");
	if (!read_reuse(&reuse))
		SKIP("cannot read %s (no debugfs?)", REUSE_FILE);
	if (strcmp(reuse.state, "on"))
		SKIP("reuse is off here (%s)", no_reuse_reason());
	/* No process left from the test before: none of its threads' spares. */
	kbt_live_settle(10000);
	before = kbt_live("spares");
	ASSERT_EQ(before, 0);
	kbt_pair_start(&w, echo, NULL);
	for (i = 0; i < 3; i++) {
		kbt_call(&w.t, 0, 1, NULL, &r);
		ASSERT_OK(kbinder_thread_free_buffer(&w.t, r.txn.data.ptr.buffer));
	}
	/* Each side's thread keeps a transaction and a notice. */
	EXPECT_GE(kbt_live("spares"), before + 2);
	kbt_pair_stop(&w);
	EXPECT_EQ(kbt_live_wait("spares", before, 5000), before);
}
