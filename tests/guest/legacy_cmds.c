// SPDX-License-Identifier: Apache-2.0
/*
 * Conformance: BC_ACQUIRE_RESULT (and BC_ATTEMPT_ACQUIRE), commands of the
 * old protocol that no driver implements. They are refused with EINVAL;
 * write_consumed stops before the refused command (the ones before it
 * were run); nothing is queued for the thread; and the thread keeps
 * working.
 */
#include "binder_util.h"

static void refused_after_enter(uint32_t cmd)
{
	struct kbt_server s;
	struct kbinder_thread t;
	struct kbinder_proc p;
	struct kbinder_writer w;
	uint8_t wbuf[64];
	size_t consumed = 99;
	int32_t result = 0;

	kbt_start_with_client(&s, NULL, NULL, &p, &t);
	kbinder_writer_init(&w, wbuf, sizeof(wbuf));
	kbinder_writer_put_looper(&w, BC_ENTER_LOOPER);
	ASSERT_OK(w.err);
	memcpy(wbuf + w.len, &cmd, 4);
	memcpy(wbuf + w.len + 4, &result, 4);	/* BC_ACQUIRE_RESULT's int */
	memset(wbuf + w.len + 8, 0, 8);		/* room for ATTEMPT's pri_desc */
	ASSERT_EQ(kbinder_ioctl_write(p.fd, wbuf, w.len + 4 + (size_t)kbinder_command_size(cmd),
				      &consumed), -EINVAL);
	ASSERT_EQ(consumed, w.len);
	ASSERT_EQ(kbt_no_event(&t, 200), 0);
	ASSERT_OK(kbinder_thread_exit_looper(&t));
	/* the thread still calls */
	ASSERT_EQ(kbt_call_status(&t, 0, 1, NULL, 0), BR_REPLY);
	kbt_stop_with_client(&t, &s, &p);
}

TEST(bc_acquire_result_is_refused_and_the_thread_keeps_working)
{
	ASSERT_EQ(kbinder_command_size(BC_ACQUIRE_RESULT), 4);
	refused_after_enter(BC_ACQUIRE_RESULT);
}

TEST(bc_attempt_acquire_after_a_command_is_refused_there)
{
	ASSERT_EQ(kbinder_command_size(BC_ATTEMPT_ACQUIRE), 8);
	refused_after_enter(BC_ATTEMPT_ACQUIRE);
}
