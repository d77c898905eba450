// SPDX-License-Identifier: Apache-2.0
/*
 * kbinder driver checks: one-way calls to a frozen process.
 *
 * TF_UPDATE_TXN (both drivers, upstream since 5.19): while the target is
 * frozen, a one-way call with the flag replaces one still waiting on the
 * same node with the same code and flags from the same process.
 *
 * BR_TRANSACTION_PENDING_FROZEN (mainline 6.7): the sender of a one-way
 * call to a frozen process is told so instead of BR_TRANSACTION_COMPLETE.
 * kbinder and the 6.12 reference match mainline; the 6.1 reference answers
 * BR_TRANSACTION_COMPLETE. Each driver is held to what it implements
 * (driver_features.h finds out).
 */
#include <sys/ioctl.h>
#include <unistd.h>

#include "harness.h"
#include "binder_util.h"
#include "driver_features.h"

#define CODE_FIRST	0x100	/* kept by the server until CODE_RELEASE */
#define CODE_UPDATE	0x101	/* the one-way calls under test */
#define CODE_RELEASE	0x102	/* sync: free CODE_FIRST's buffer */
#define CODE_QUERY	0x103	/* sync: reply with what arrived */
#define MAX_SEEN	16

/* Server side (the forked context manager's own copies). */
static uint32_t seen[MAX_SEEN];	/* code << 8 | first payload byte */
static uint32_t nseen;
static binder_uintptr_t kept;

static int record(struct kbinder_thread *t, const struct binder_transaction_data *tr,
		  struct kbinder_parcel *reply, void *arg)
{
	uint32_t val = 0;
	uint32_t i;

	(void)arg;
	if (tr->data_size >= sizeof(val))
		memcpy(&val, (const void *)(uintptr_t)tr->data.ptr.buffer,
		       sizeof(val));
	if (tr->code == CODE_QUERY) {
		kbinder_parcel_write_u32(reply, nseen);
		for (i = 0; i < nseen; i++)
			kbinder_parcel_write_u32(reply, seen[i]);
		return KBT_REPLY;
	}
	if (nseen < MAX_SEEN)
		seen[nseen++] = tr->code << 8 | (val & 0xff);
	if (tr->code == CODE_FIRST) {
		kept = tr->data.ptr.buffer;
		return KBT_KEPT;
	}
	if (tr->code == CODE_RELEASE && kept) {
		ASSERT_OK(kbinder_thread_free_buffer(t, kept));
		kept = 0;
	}
	return KBT_REPLY;
}

static int freeze(int fd, pid_t pid, bool enable, uint32_t timeout_ms)
{
	struct binder_freeze_info info = {
		.pid = (uint32_t)pid, .enable = enable, .timeout_ms = timeout_ms,
	};

	return ioctl(fd, BINDER_FREEZE, &info) ? -errno : 0;
}

/* Send a one-way call with one u32 of payload; returns how it was taken. */
static uint32_t oneway(struct kbinder_thread *t, uint32_t code, uint32_t val,
		       uint32_t flags)
{
	struct kbinder_parcel data;
	uint32_t status;

	kbinder_parcel_init(&data);
	kbinder_parcel_write_u32(&data, val);
	status = kbt_call_status(t, 0, code, &data, TF_ONE_WAY | flags);
	kbinder_parcel_fini(&data);
	return status;
}

/*
 * What a one-way call to a frozen process gets on this driver (before the
 * test starts its context manager: the probe starts one of its own).
 */
static uint32_t frozen_oneway_status(void)
{
	return kbt_has_feature(KBT_FEATURE_PENDING_FROZEN) ?
	       BR_TRANSACTION_PENDING_FROZEN : BR_TRANSACTION_COMPLETE;
}

/* What the server received, in order. */
static uint32_t query(struct kbinder_thread *t, uint32_t *out)
{
	struct kbinder_reply reply;
	const uint32_t *p;
	uint32_t n, i;

	kbt_call(t, 0, CODE_QUERY, NULL, &reply);
	p = (const uint32_t *)(uintptr_t)reply.txn.data.ptr.buffer;
	ASSERT_GE(reply.txn.data_size, sizeof(uint32_t));
	n = p[0];
	ASSERT_LE(n, MAX_SEEN);
	ASSERT_EQ(reply.txn.data_size, (n + 1) * sizeof(uint32_t));
	for (i = 0; i < n; i++)
		out[i] = p[i + 1];
	ASSERT_OK(kbinder_thread_free_buffer(t, reply.txn.data.ptr.buffer));
	return n;
}

/*
 * The one-way calls reach the server one after the other (each waits for
 * the previous one's buffer to be freed), so a query may overtake the last
 * of them: ask again until @want arrived (or give up after ~2 s).
 */
static uint32_t query_until(struct kbinder_thread *t, uint32_t want, uint32_t *out)
{
	uint32_t n = 0;
	int i;

	for (i = 0; i < 200; i++) {
		n = query(t, out);
		if (n >= want)
			break;
		usleep(10000);
	}
	return n;
}

/*
 * Send CODE_FIRST (kept by the server, so the next one-way calls wait on
 * the node), freeze, send two CODE_UPDATE calls with @flags, thaw, release
 * CODE_FIRST, and return what the server received.
 */
static uint32_t frozen_pair(uint32_t flags, uint32_t want, uint32_t *got)
{
	uint32_t frozen = frozen_oneway_status();
	struct kbt_server s;
	struct kbinder_thread t;
	struct kbinder_proc p;
	uint32_t n;

	kbt_start_with_client(&s, record, NULL, &p, &t);
	ASSERT_EQ(oneway(&t, CODE_FIRST, 0, 0), BR_TRANSACTION_COMPLETE);
	/* Waits until CODE_FIRST was read (no call of it is pending). */
	ASSERT_OK(freeze(p.fd, s.pid, true, 5000));
	ASSERT_EQ(oneway(&t, CODE_UPDATE, 1, flags), frozen);
	ASSERT_EQ(oneway(&t, CODE_UPDATE, 2, flags), frozen);
	ASSERT_OK(freeze(p.fd, s.pid, false, 0));
	ASSERT_EQ(oneway(&t, CODE_UPDATE, 3, 0), BR_TRANSACTION_COMPLETE);
	ASSERT_EQ(kbt_call_status(&t, 0, CODE_RELEASE, NULL, 0), BR_REPLY);
	n = query_until(&t, want, got);
	kbt_stop_with_client(&t, &s, &p);
	return n;
}

TEST(update_txn_to_frozen_target_replaces_the_queued_one)
{
	uint32_t got[MAX_SEEN];

	ASSERT_EQ(frozen_pair(TF_UPDATE_TXN, 4, got), 4);
	EXPECT_EQ(got[0], CODE_FIRST << 8);
	EXPECT_EQ(got[1], CODE_RELEASE << 8);
	EXPECT_EQ(got[2], CODE_UPDATE << 8 | 2);
	EXPECT_EQ(got[3], CODE_UPDATE << 8 | 3);
}

TEST(oneway_to_frozen_target_without_update_keeps_both)
{
	uint32_t got[MAX_SEEN];

	ASSERT_EQ(frozen_pair(0, 5, got), 5);
	EXPECT_EQ(got[0], CODE_FIRST << 8);
	EXPECT_EQ(got[1], CODE_RELEASE << 8);
	EXPECT_EQ(got[2], CODE_UPDATE << 8 | 1);
	EXPECT_EQ(got[3], CODE_UPDATE << 8 | 2);
	EXPECT_EQ(got[4], CODE_UPDATE << 8 | 3);
}

TEST(update_txn_to_thawed_target_replaces_nothing)
{
	struct kbt_pair pair;
	uint32_t got[MAX_SEEN];

	kbt_pair_start(&pair, record, NULL);
	ASSERT_EQ(oneway(&pair.t, CODE_FIRST, 0, 0), BR_TRANSACTION_COMPLETE);
	ASSERT_EQ(oneway(&pair.t, CODE_UPDATE, 1, TF_UPDATE_TXN),
		  BR_TRANSACTION_COMPLETE);
	ASSERT_EQ(oneway(&pair.t, CODE_UPDATE, 2, TF_UPDATE_TXN),
		  BR_TRANSACTION_COMPLETE);
	ASSERT_EQ(kbt_call_status(&pair.t, 0, CODE_RELEASE, NULL, 0), BR_REPLY);
	ASSERT_EQ(query_until(&pair.t, 4, got), 4);
	EXPECT_EQ(got[2], CODE_UPDATE << 8 | 1);
	EXPECT_EQ(got[3], CODE_UPDATE << 8 | 2);
	kbt_pair_stop(&pair);
}
