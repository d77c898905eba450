// SPDX-License-Identifier: Apache-2.0
/*
 * kbinder driver checks: BINDER_FREEZE and BINDER_GET_FROZEN_INFO.
 */
#include "harness.h"	/* first: it sets _GNU_SOURCE */
#include "binder_util.h"
#include "driver_features.h"

#include <fcntl.h>
#include <sys/ioctl.h>
#include <unistd.h>

static int freeze(int fd, pid_t pid, bool enable, uint32_t timeout_ms)
{
	struct binder_freeze_info info = {
		.pid = (uint32_t)pid, .enable = enable, .timeout_ms = timeout_ms,
	};

	return ioctl(fd, BINDER_FREEZE, &info) ? -errno : 0;
}

static struct binder_frozen_status_info frozen_info(int fd, pid_t pid)
{
	struct binder_frozen_status_info info = { .pid = (uint32_t)pid };

	ASSERT_EQ(ioctl(fd, BINDER_GET_FROZEN_INFO, &info), 0);
	return info;
}

TEST(frozen_target_refuses_sync_and_queues_oneway)
{
	/* mainline 6.7 (and kbinder); the 6.1 reference says COMPLETE */
	uint32_t frozen_oneway = kbt_has_feature(KBT_FEATURE_PENDING_FROZEN) ?
				 BR_TRANSACTION_PENDING_FROZEN :
				 BR_TRANSACTION_COMPLETE;
	struct binder_frozen_status_info info;
	struct kbt_pair pair;

	kbt_pair_start(&pair, NULL, NULL);
	ASSERT_EQ(kbt_call_status(&pair.t, 0, 1, NULL, 0), BR_REPLY);
	ASSERT_OK(freeze(pair.p.fd, pair.mgr.pid, true, 1000));
	info = frozen_info(pair.p.fd, pair.mgr.pid);
	ASSERT_EQ(info.sync_recv, 0);
	ASSERT_EQ(info.async_recv, 0);
	ASSERT_EQ(kbt_call_status(&pair.t, 0, 1, NULL, 0), BR_FROZEN_REPLY);
	ASSERT_EQ(kbt_call_status(&pair.t, 0, 1, NULL, TF_ONE_WAY), frozen_oneway);
	info = frozen_info(pair.p.fd, pair.mgr.pid);
	ASSERT_EQ(info.sync_recv & 1, 1);
	ASSERT_EQ(info.async_recv, 1);
	ASSERT_OK(freeze(pair.p.fd, pair.mgr.pid, false, 0));
	ASSERT_EQ(kbt_call_status(&pair.t, 0, 1, NULL, 0), BR_REPLY);
	ASSERT_EQ(freeze(pair.p.fd, 0x7ffffff0, true, 0), -EINVAL);
	kbt_pair_stop(&pair);
}

/*
 * The sender of a refused synchronous call reads the refusal alone: its
 * BR_TRANSACTION_COMPLETE, queued (or, in kbinder, pending as a flag) before
 * the call met the frozen target, is taken back, as upstream does.
 */
TEST(refused_sync_call_reads_no_transaction_complete)
{
	struct kbt_txn x = { .code = 1 };
	struct kbinder_return ret;
	struct kbt_pair pair;

	kbt_pair_start(&pair, NULL, NULL);
	ASSERT_EQ(kbt_call_status(&pair.t, 0, 1, NULL, 0), BR_REPLY);
	ASSERT_OK(freeze(pair.p.fd, pair.mgr.pid, true, 1000));
	kbt_write_txn(pair.p.fd, &x);
	do {
		ASSERT_OK(kbinder_thread_next(&pair.t, &ret, KBT_WAIT_MS));
	} while (ret.cmd == BR_NOOP);
	ASSERT_STATUS(ret.cmd, BR_FROZEN_REPLY);
	ASSERT_OK(freeze(pair.p.fd, pair.mgr.pid, false, 0));
	ASSERT_EQ(kbt_call_status(&pair.t, 0, 1, NULL, 0), BR_REPLY);
	kbt_pair_stop(&pair);
}

/* ---- freezing a process that still owes a reply ---- */

enum { CODE_HOLD = 2 };

static int held_pipe[2];	/* the server writes a byte once it holds the call */
static int release_pipe[2];	/* a byte here lets it reply */

static int hold_handler(struct kbinder_thread *t, const struct binder_transaction_data *tr,
			struct kbinder_parcel *reply, void *arg)
{
	char c = 'H';

	(void)t;
	(void)reply;
	(void)arg;
	if (tr->code == CODE_HOLD) {
		ASSERT_EQ(write(held_pipe[1], &c, 1), 1);
		ASSERT_EQ(read(release_pipe[0], &c, 1), 1);
	}
	return KBT_REPLY;
}

static void held_caller(void *arg)
{
	struct kbinder_thread t;
	struct kbinder_proc p;

	(void)arg;
	kbt_client(&p, &t);
	ASSERT_EQ(kbt_call_status(&t, 0, CODE_HOLD, NULL, 0), BR_REPLY);
	kbinder_proc_close(&p);
}

static void release_later(void *arg)
{
	char c = 'G';

	kbt_msleep((int)(uintptr_t)arg);
	ASSERT_EQ(write(release_pipe[1], &c, 1), 1);
}

/*
 * BINDER_FREEZE fails with EAGAIN while the target holds a sync call it
 * has not answered: at once with no timeout, after the timeout with one
 * (the process is not left frozen either way); with a timeout long enough
 * for the reply it waits for it and succeeds.
 */
TEST(freeze_with_a_pending_sync_call_gives_eagain_or_waits_for_it)
{
	struct kbt_pair pair;
	int64_t start, took;
	pid_t caller_pid, releaser;
	char c;

	ASSERT_OK(pipe2(held_pipe, O_CLOEXEC));
	ASSERT_OK(pipe2(release_pipe, O_CLOEXEC));
	kbt_pair_start(&pair, hold_handler, NULL);
	caller_pid = kbt_fork(held_caller, NULL);
	ASSERT_EQ(read(held_pipe[0], &c, 1), 1);	/* the call is held */

	ASSERT_EQ(freeze(pair.p.fd, pair.mgr.pid, true, 0), -EAGAIN);
	start = kbt_now_ms();
	ASSERT_EQ(freeze(pair.p.fd, pair.mgr.pid, true, 300), -EAGAIN);
	took = kbt_now_ms() - start;
	kbt_log("freeze with a 300 ms timeout gave EAGAIN after %lld ms", (long long)took);
	EXPECT_GE(took, 250);
	/* not left frozen: a one-way call is not one "received while frozen" */
	ASSERT_EQ(kbt_call_status(&pair.t, 0, 3, NULL, TF_ONE_WAY), BR_TRANSACTION_COMPLETE);
	ASSERT_EQ(frozen_info(pair.p.fd, pair.mgr.pid).async_recv, 0);

	/* the reply comes 300 ms into a 5 s timeout: the freeze succeeds */
	releaser = kbt_fork(release_later, (void *)(uintptr_t)300);
	start = kbt_now_ms();
	ASSERT_OK(freeze(pair.p.fd, pair.mgr.pid, true, 5000));
	took = kbt_now_ms() - start;
	kbt_log("freeze waited %lld ms for the reply", (long long)took);
	EXPECT_GE(took, 200);
	EXPECT_LT(took, 5000);
	ASSERT_CHILD_OK(releaser);
	ASSERT_CHILD_OK(caller_pid);
	/* frozen now */
	ASSERT_EQ(kbt_call_status(&pair.t, 0, 1, NULL, 0), BR_FROZEN_REPLY);
	ASSERT_OK(freeze(pair.p.fd, pair.mgr.pid, false, 0));
	kbt_pair_stop(&pair);
	close(held_pipe[0]);
	close(held_pipe[1]);
	close(release_pipe[0]);
	close(release_pipe[1]);
}
