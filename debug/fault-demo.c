// SPDX-License-Identifier: Apache-2.0
/*
 * kbinder-fault-demo: shows that systematic fault injection works on the
 * debug kernel, the way kbinder's fault tests will use it.
 *
 * For n = 1, 2, ...: write n to /proc/thread-self/fail-nth, make one call
 * (eventfd(), or open() of PATH if given), read fail-nth back, disarm.
 * A read-back of 0 means the n-th fault point inside the call failed; the
 * call must then have failed too (with ENOMEM). The loop ends at the first n
 * the call never reaches: every allocation in it has been failed once.
 *
 * Needs /scripts/fault.sh's `fault_nth_setup` first (failslab and
 * fail_page_alloc must not skip sleeping allocations, and must not dump a
 * stack trace, which the runner would take for a kernel splat).
 *
 * usage: kbinder-fault-demo [PATH]     prints one PASS or FAIL result line
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

static int nth_fd = -1;

static int nth_write(unsigned int n)
{
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%u", n);

	return pwrite(nth_fd, buf, (size_t)len, 0) == len ? 0 : -1;
}

static long nth_read(void)
{
	char buf[16] = { 0 };

	if (pread(nth_fd, buf, sizeof(buf) - 1, 0) <= 0)
		return -1;
	return strtol(buf, NULL, 10);
}

static void result(const char *status, const char *why)
{
	FILE *out;
	const char *path = getenv("KBINDER_RESULTS");
	char line[256];

	snprintf(line, sizeof(line), "%s debug/fault_nth_injects%s%s\n",
		 status, why ? ": " : "", why ? why : "");
	fputs(line, stdout);
	if (path && (out = fopen(path, "a"))) {
		fputs(line, out);
		fclose(out);
	}
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : NULL;
	unsigned int n, failed = 0, wrong = 0;
	char why[160];

	nth_fd = open("/proc/thread-self/fail-nth", O_RDWR | O_CLOEXEC);
	if (nth_fd < 0) {
		result("SKIP", "no /proc/thread-self/fail-nth (no CONFIG_FAULT_INJECTION)");
		return 0;
	}
	for (n = 1; n < 10000; n++) {
		int fd, err;
		long left;

		if (nth_write(n)) {
			result("FAIL", "cannot arm fail-nth");
			return 1;
		}
		fd = path ? open(path, O_RDWR | O_CLOEXEC) : eventfd(0, EFD_CLOEXEC);
		err = errno;
		left = nth_read();
		nth_write(0);
		if (fd >= 0)
			close(fd);
		if (left != 0) {
			/* The call never reached its n-th fault point: done. */
			if (fd < 0)
				wrong++;
			break;
		}
		if (fd >= 0) {
			/* Injected, yet the call succeeded: a fallback path. */
			continue;
		}
		failed++;
		if (err != ENOMEM)
			printf("fault %u: %s failed with %s\n", n,
			       path ? "open" : "eventfd", strerror(err));
	}
	printf("%s: %u fault points, %u injected failures returned an error\n",
	       path ? path : "eventfd", n - 1, failed);
	if (failed == 0 || wrong) {
		snprintf(why, sizeof(why), "%u of %u injections failed the call, %u stray failures",
			 failed, n - 1, wrong);
		result("FAIL", why);
		return 1;
	}
	result("PASS", NULL);
	return 0;
}
