// SPDX-License-Identifier: Apache-2.0
/*
 * The kernel log around a test: the start marker written to /dev/kmsg
 * before it, the scan for splats in what was logged after the marker
 * (tests/vm/splats.list's patterns, as the host's scan), and the window
 * in which a plain stack dump is expected. See harness.h.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "kbt_splats.h"	/* generated from tests/vm/splats.list */

void kbt_expect_stack_dump(bool on)
{
	const char *marker = on ? "kbinder-test: expect stack dump\n" :
				  "kbinder-test: expect end\n";
	int fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	if (write(fd, marker, strlen(marker)) < 0)
		perror("kmsg");
	close(fd);
}

/* See internal.h: the marker is "kbinder-test: start <suite>/<test>". */
int kbt_kmsg_mark(const char *test)
{
	char line[256];
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	int wfd;

	if (fd < 0)
		return -1;
	lseek(fd, 0, SEEK_END);
	wfd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	if (wfd >= 0) {
		int n = snprintf(line, sizeof(line), "kbinder-test: start %s/%s\n",
				 kbt_suite_name, test);

		if (write(wfd, line, (size_t)n) < 0)
			perror("kmsg");
		close(wfd);
	}
	return fd;
}

/*
 * What counts as a splat: tests/vm/splats.list, the one list, which the
 * host's console scan (tests/vm/scan-kernel-log.sh) and kbfuzz read too.
 */
static bool kbt_is_splat(const char *msg)
{
	return kbt_splat_match(msg) != NULL;
}

/*
 * struct kbt_dump_window - where the scan is in kbt_expect_stack_dump()'s
 * window. @open: between its markers; @header: right after a
 * dump_stack()'s "CPU: N PID: N Comm: ..." (and "Hardware name:") records.
 */
struct kbt_dump_window {
	bool open;
	bool header;
};

/*
 * kbt_plain_dump() - true for a record that belongs to a plain stack
 * dump and so is no splat: the dump's header records anywhere, its "Call
 * Trace" right after them, in the window only. Nothing else passes.
 */
static bool kbt_plain_dump(struct kbt_dump_window *w, const char *msg)
{
	if (strstr(msg, "kbinder-test: expect stack dump")) {
		w->open = true;
		w->header = false;
	} else if (strstr(msg, "kbinder-test: expect end")) {
		w->open = false;
	}
	if (!strncmp(msg, "CPU: ", 5) && strstr(msg, " PID: ") &&
	    strstr(msg, " Comm: ")) {
		w->header = true;
		return true;
	}
	if (!strncmp(msg, "Hardware name: ", 15))
		return true;
	/* 6.12 names the taint flags on a line of their own */
	if (w->header && !strncmp(msg, "Tainted: [", 10))
		return true;
	if (w->open && w->header && strstr(msg, "Call Trace")) {
		w->header = false;
		return true;
	}
	w->header = false;
	return false;
}

/* Read every record logged since the mark (see harness.h). */
bool kbt_kmsg_scan(int fd, char *why, size_t size)
{
	struct kbt_dump_window w = { false, false };
	char rec[2048];
	bool found = false;

	if (fd < 0)
		return false;
	for (;;) {
		ssize_t n = read(fd, rec, sizeof(rec) - 1);
		const char *msg;

		if (n < 0 && errno == EPIPE)
			continue;	/* records were overwritten; go on */
		if (n <= 0)
			break;
		rec[n] = 0;
		msg = strchr(rec, ';');
		msg = msg ? msg + 1 : rec;
		if (kbt_plain_dump(&w, msg) || !kbt_is_splat(msg))
			continue;
		fprintf(stderr, "  kernel log: %s", msg);
		if (!found) {
			why[0] = 0;
			kbt_append(why, size, "kernel log: ");
			kbt_append(why, size, msg);
			kbt_oneline(why);
		}
		found = true;
	}
	close(fd);
	return found;
}
