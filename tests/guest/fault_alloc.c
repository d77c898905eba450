// SPDX-License-Identifier: Apache-2.0
/*
 * Fault tests: kernel memory allocation fails inside a binder call.
 *
 * With the kernel's fail-nth injection (the debug kernel has it; Debian's
 * does not, so this SKIPs there), the N-th allocation the calling thread
 * makes in the kernel fails, for N = 1, 2, ... until a call completes
 * without reaching the N-th allocation: then every allocation point on the
 * path of that call has been failed once. Each failed call must end in a
 * clean outcome (the ioctl fails before anything was sent, or the call gets
 * BR_FAILED_REPLY), never a hang or a splat, and the driver must keep
 * working afterwards. The runner's live-object check and, on the debug
 * kernel, kmemleak then show that nothing the failed calls half-built leaked.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>

#include "binder_util.h"

#define FAULT_NODE	0xfa17
#define FAULT_MAX_N	400

static const char *const fault_knobs[][2] = {
	/* every allocation may fail, sleeping or not, order 0 or more, and
	 * an injected failure prints one line, not a stack dump (which the
	 * runner would rightly count as a splat) */
	{ "/sys/kernel/debug/failslab/ignore-gfp-wait", "N" },
	{ "/sys/kernel/debug/failslab/verbose", "1" },
	{ "/sys/kernel/debug/fail_page_alloc/ignore-gfp-wait", "N" },
	{ "/sys/kernel/debug/fail_page_alloc/verbose", "1" },
	{ "/sys/kernel/debug/fail_page_alloc/min-order", "0" },
};

static int write_file(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, value, strlen(value));
	close(fd);
	return n < 0 ? -errno : 0;
}

/* Arm fail-nth for this thread; -errno if the kernel cannot. */
static int fail_nth_arm(int fd, unsigned int n)
{
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%u", n);

	return pwrite(fd, buf, len, 0) == len ? 0 : -errno;
}

/* Read back and disarm: 0 means the n-th allocation was failed. */
static int fail_nth_disarm(int fd)
{
	char buf[16] = "";
	int left;

	if (pread(fd, buf, sizeof(buf) - 1, 0) < 0)
		return -errno;
	left = atoi(buf);
	fail_nth_arm(fd, 0);
	return left;
}

/*
 * One call carrying a binder object and some bytes, with raw ioctls so that
 * the only syscalls between arming and disarming are the call's own.
 * Returns BR_REPLY or BR_FAILED_REPLY, or 0 if the command was never
 * accepted (the write failed with nothing consumed).
 */
static uint32_t call_once(struct kbinder_thread *t, const struct kbinder_parcel *data,
			  binder_uintptr_t *reply_buffer)
{
	struct binder_transaction_data tr = { .target.handle = 0, .code = 1 };
	uint8_t wbuf[sizeof(uint32_t) + sizeof(tr)], rbuf[256];
	struct kbinder_writer w;
	size_t consumed = 0;
	int err, rounds;

	kbinder_parcel_to_txn(data, &tr);
	kbinder_writer_init(&w, wbuf, sizeof(wbuf));
	kbinder_writer_put_txn(&w, BC_TRANSACTION, &tr);
	err = kbinder_ioctl_write(t->fd, w.buf, w.len, &consumed);
	if (err && consumed == 0) {
		EXPECT_EQ(err, -ENOMEM);
		return 0;
	}
	for (rounds = 0; rounds < 1000; rounds++) {
		struct kbinder_return ret;
		struct kbinder_reader r;

		err = kbinder_ioctl_read(t->fd, rbuf, sizeof(rbuf), &consumed);
		if (err == -EINTR || err == -ENOMEM)
			continue;	/* nothing was lost: read again */
		ASSERT_OK(err);
		kbinder_reader_init(&r, rbuf, consumed);
		while (kbinder_reader_next(&r, &ret) > 0) {
			switch (ret.cmd) {
			case BR_NOOP:
			case BR_TRANSACTION_COMPLETE:
				break;
			case BR_REPLY:
				*reply_buffer = ret.u.txn.data.ptr.buffer;
				return BR_REPLY;
			case BR_FAILED_REPLY:
				return BR_FAILED_REPLY;
			default:
				/* our node's BR_INCREFS/BR_ACQUIRE, ... */
				ASSERT_OK(kbt_default_event(t, &ret, NULL));
			}
		}
	}
	kbt_fail(__FILE__, __LINE__, true, "no outcome after 1000 reads");
	return 0;
}

TEST(allocation_failures_inside_a_call_fail_it_cleanly)
{
	unsigned int n, injected = 0, failed = 0, unsent = 0;
	struct kbt_server server;
	struct kbinder_parcel data;
	struct kbinder_thread t;
	struct kbinder_proc p;
	uint8_t payload[64];
	size_t i;
	int nth;

	nth = open("/proc/thread-self/fail-nth", O_RDWR);
	if (nth < 0 || access("/sys/kernel/debug/failslab", F_OK))
		SKIP("no fault injection in this kernel (the debug kernel has it)");
	for (i = 0; i < sizeof(fault_knobs) / sizeof(fault_knobs[0]); i++)
		ASSERT_OK(write_file(fault_knobs[i][0], fault_knobs[i][1]));

	kbt_start_with_client(&server, NULL, NULL, &p, &t);
	memset(payload, 0x5a, sizeof(payload));
	kbinder_parcel_init(&data);
	kbinder_parcel_write(&data, payload, sizeof(payload));
	kbinder_parcel_write_binder(&data, FAULT_NODE, FAULT_NODE, 0, false);
	ASSERT_OK(data.err);

	for (n = 1; n <= FAULT_MAX_N; n++) {
		binder_uintptr_t buffer = 0;
		uint32_t outcome;
		int left;

		ASSERT_OK(fail_nth_arm(nth, n));
		outcome = call_once(&t, &data, &buffer);
		left = fail_nth_disarm(nth);
		ASSERT_GE(left, 0);
		if (outcome == BR_REPLY)
			ASSERT_OK(kbinder_thread_free_buffer(&t, buffer));
		if (left != 0)
			break;	/* the call never reached its n-th allocation */
		injected++;
		failed += outcome == BR_FAILED_REPLY;
		unsent += outcome == 0;
	}
	kbt_log("%u allocation points failed once each: %u calls got "
		"BR_FAILED_REPLY, %u were refused before sending, the rest "
		"still succeeded", injected, failed, unsent);
	ASSERT_GE(injected, 1);
	ASSERT_TRUE(n <= FAULT_MAX_N);

	/* the driver still works, and the node's counts settle */
	{
		binder_uintptr_t buffer = 0;

		ASSERT_EQ(call_once(&t, &data, &buffer), BR_REPLY);
		ASSERT_OK(kbinder_thread_free_buffer(&t, buffer));
	}
	kbt_stop_ctxmgr(&t, &server);
	kbinder_parcel_fini(&data);
	kbinder_proc_close(&p);
	close(nth);
}
