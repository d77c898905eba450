// SPDX-License-Identifier: Apache-2.0
/*
 * kbinder driver checks: poll() readiness follows the thread's work.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>

#include "harness.h"
#include "binder_util.h"

TEST(idle_looper_is_not_readable)
{
	struct kbinder_proc p;
	struct kbinder_thread t;
	struct pollfd pfd;
	uint32_t buf[32];
	size_t consumed = 0;
	int n;

	kbt_manager(&p, &t, NULL);
	pfd.fd = p.fd;
	pfd.events = POLLIN;
	n = poll(&pfd, 1, 0);
	if (n) {
		int r = kbinder_ioctl_read(p.fd, buf, sizeof(buf), &consumed);

		fprintf(stderr, "poll %d revents %x read %d consumed %zu: %x %x %x\n",
			n, pfd.revents, r, consumed, buf[0], buf[1], buf[2]);
	}
	ASSERT_EQ(n, 0);
	kbinder_proc_close(&p);
}
