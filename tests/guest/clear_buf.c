// SPDX-License-Identifier: Apache-2.0
/*
 * Conformance: TF_CLEAR_BUF. A transaction (or reply) sent with it has its
 * buffer zeroed by the driver when the receiver frees it, so secrets do not
 * linger in the receiver's mapping. Checked through the receiver's own
 * read-only mapping right after BC_FREE_BUFFER (the freed range stays
 * mapped: both drivers keep freed pages until memory pressure reclaims
 * them). Without the flag nothing is promised, but the controls (a request
 * and a reply without it) must still show their data after the free: the
 * check could not see a buffer that was not cleared otherwise, and a zero
 * count with the flag would prove nothing.
 */
#include "binder_util.h"

#define PAYLOAD 512
#define CODE_PLAIN 1
#define CODE_CLEAR 2

/* How many of @n bytes at @p are not zero. */
static size_t nonzero(const volatile uint8_t *p, size_t n)
{
	size_t i, count = 0;

	for (i = 0; i < n; i++)
		count += p[i] != 0;
	return count;
}

static void fill_parcel(struct kbinder_parcel *d, uint32_t seed)
{
	uint8_t buf[PAYLOAD];

	kbt_fill(buf, sizeof(buf), seed);
	buf[0] |= 1;	/* never all zero */
	kbinder_parcel_init(d);
	ASSERT_OK(kbinder_parcel_write(d, buf, sizeof(buf)));
}

/*
 * The context manager: for each of @n calls, check the payload, reply (with
 * TF_CLEAR_BUF and a payload for CODE_CLEAR), free the request and look at
 * what is left of it in the mapping.
 */
static void receiver(void *arg)
{
	struct kbt_chan *c = arg;
	struct kbinder_return ret;
	struct kbinder_thread t;
	struct kbinder_proc p;

	kbt_manager(&p, &t, NULL);
	ASSERT_SIGNAL(c, 'R');
	for (int i = 0; i < 2; i++) {
		const struct binder_transaction_data *tr = &ret.u.txn;
		uint8_t want[PAYLOAD];
		const uint8_t *data;
		struct kbinder_parcel reply;
		uint32_t left;

		kbt_expect(&t, BR_TRANSACTION, &ret);
		data = kbt_txn_data(tr);
		ASSERT_EQ(tr->data_size, PAYLOAD);
		kbt_fill(want, sizeof(want), tr->code);
		want[0] |= 1;
		ASSERT_MEM_EQ(data, want, PAYLOAD);
		fill_parcel(&reply, 100 + tr->code);
		ASSERT_OK(kbinder_thread_reply(&t, &reply, tr->code == CODE_CLEAR ?
					       TF_CLEAR_BUF : 0, KBT_WAIT_MS));
		kbinder_parcel_fini(&reply);
		ASSERT_OK(kbinder_thread_free_buffer(&t, tr->data.ptr.buffer));
		left = (uint32_t)nonzero(data, PAYLOAD);
		if (tr->code == CODE_CLEAR) {
			EXPECT_EQ(left, 0);
		} else {
			kbt_log("without TF_CLEAR_BUF, %u of %d bytes still there after the free",
				left, PAYLOAD);
			EXPECT_GT(left, 0);	/* the control: the check sees data */
		}
		ASSERT_OK(kbt_send(c, &left, sizeof(left)));
	}
	kbinder_proc_close(&p);
}

/* Call with @code; free the reply and return how much of it is left. */
static uint32_t call_and_free(struct kbinder_thread *t, uint32_t code,
			      uint32_t flags)
{
	struct kbinder_parcel d;
	struct kbinder_reply r;
	const uint8_t *data;
	uint8_t want[PAYLOAD];

	fill_parcel(&d, code);
	ASSERT_OK(kbinder_thread_transact(t, 0, code, &d, flags, &r, kbt_default_event,
					  NULL, KBT_WAIT_MS));
	kbinder_parcel_fini(&d);
	ASSERT_EQ(r.status, BR_REPLY);
	ASSERT_EQ(r.txn.data_size, PAYLOAD);
	data = kbt_txn_data(&r.txn);
	kbt_fill(want, sizeof(want), 100 + code);
	want[0] |= 1;
	ASSERT_MEM_EQ(data, want, PAYLOAD);
	ASSERT_OK(kbinder_thread_free_buffer(t, r.txn.data.ptr.buffer));
	return (uint32_t)nonzero(data, PAYLOAD);
}

TEST(clear_buf_zeroes_the_request_and_the_reply_when_freed)
{
	struct kbinder_thread t;
	struct kbinder_proc p;
	struct kbt_chan c;
	uint32_t left_plain, left_clear, left_request;
	pid_t pid;

	pid = kbt_fork_ready(receiver, &c);
	kbt_client(&p, &t);

	/* control: without the flag the check sees the data */
	left_plain = call_and_free(&t, CODE_PLAIN, 0);
	kbt_log("reply without TF_CLEAR_BUF: %u of %d bytes still there after the free",
		left_plain, PAYLOAD);
	EXPECT_GT(left_plain, 0);	/* the reply, in our mapping */
	ASSERT_OK(kbt_recv(&c, &left_request, sizeof(left_request), KBT_WAIT_MS));
	EXPECT_GT(left_request, 0);	/* the request, in the receiver's */

	left_clear = call_and_free(&t, CODE_CLEAR, TF_CLEAR_BUF);
	EXPECT_EQ(left_clear, 0);	/* the reply, in our mapping */
	ASSERT_OK(kbt_recv(&c, &left_clear, sizeof(left_clear), KBT_WAIT_MS));
	EXPECT_EQ(left_clear, 0);	/* the request, in the receiver's */

	ASSERT_CHILD_OK(pid);
	kbt_chan_close(&c);
	kbinder_proc_close(&p);
}
