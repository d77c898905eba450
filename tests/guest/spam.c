// SPDX-License-Identifier: Apache-2.0
/*
 * Conformance: one-way spam detection (BINDER_ENABLE_ONEWAY_SPAM_DETECTION).
 * A receiver that does not read lets one-way buffers pile up in its async
 * space (half its mapping). Once less than a tenth of the mapping is left
 * for async buffers and one sender holds more than 50 of them (or more than
 * a quarter of the mapping), that sender's next one-way call is flagged:
 * it gets BR_ONEWAY_SPAM_SUSPECT instead of BR_TRANSACTION_COMPLETE, once,
 * if it enabled detection on its own fd; otherwise the plain completion.
 */
#include "binder_util.h"

#include <sys/ioctl.h>

#define SPAM_PAYLOAD 8192
/* 60 * ~8 KiB stays below the 512 KiB async space of a 1 MiB mapping. */
#define SPAM_CALLS 60

/* A context manager that never reads until told to quit. */
static void silent_receiver(void *arg)
{
	struct kbt_chan *c = arg;
	struct kbinder_proc p;

	kbt_open(&p);
	ASSERT_OK(kbt_become_ctxmgr(p.fd, NULL));
	ASSERT_SIGNAL(c, 'R');
	ASSERT_OK(kbt_wait(c, 'Q', 60000));
	kbinder_proc_close(&p);
}

/* Send one one-way call; return how it completed. */
static uint32_t send_oneway(struct kbinder_thread *t, const struct kbinder_parcel *d)
{
	struct kbt_txn x = {
		.code = 1, .flags = TF_ONE_WAY, .data = d->data, .size = d->size,
		.offs = d->offsets, .offs_size = d->n_offsets * sizeof(binder_size_t),
	};

	return kbt_transact(t, &x, NULL);
}

/* Flood a silent receiver; return at which call (1-based) the one flag came. */
static int flood(bool detect)
{
	struct kbinder_parcel d;
	struct kbinder_thread t;
	struct kbinder_proc p;
	struct kbt_chan c;
	uint8_t payload[SPAM_PAYLOAD];
	int i, flagged_at = 0, flags = 0;
	pid_t pid;

	pid = kbt_fork_ready(silent_receiver, &c);
	kbt_client(&p, &t);
	if (detect) {
		uint32_t enable = 1;

		ASSERT_EQ(ioctl(p.fd, BINDER_ENABLE_ONEWAY_SPAM_DETECTION, &enable), 0);
	}
	kbt_fill(payload, sizeof(payload), 7);
	kbinder_parcel_init(&d);
	ASSERT_OK(kbinder_parcel_write(&d, payload, sizeof(payload)));
	for (i = 1; i <= SPAM_CALLS; i++) {
		uint32_t got = send_oneway(&t, &d);

		if (got == BR_ONEWAY_SPAM_SUSPECT) {
			flags++;
			if (!flagged_at)
				flagged_at = i;
			continue;
		}
		if (got != BR_TRANSACTION_COMPLETE)
			kbt_fail(__FILE__, __LINE__, true, "one-way call %d: got %s",
				 i, kbinder_return_name(got));
	}
	kbinder_parcel_fini(&d);
	EXPECT_LE(flags, 1);	/* flagged once, until the space recovers */
	ASSERT_SIGNAL(&c, 'Q');
	ASSERT_CHILD_OK(pid);
	kbt_chan_close(&c);
	kbinder_proc_close(&p);
	return flagged_at;
}

TEST(oneway_spam_is_flagged_once_with_detection_enabled)
{
	int at = flood(true);

	kbt_log("flagged at one-way call %d of %d", at, SPAM_CALLS);
	ASSERT_NE(at, 0);
	/* not before the async space runs low: ~51 calls of 8 KiB */
	ASSERT_GE(at, 45);
}

TEST(oneway_spam_is_not_reported_without_detection)
{
	ASSERT_EQ(flood(false), 0);
}
