// SPDX-License-Identifier: Apache-2.0
/*
 * `kbinder report`: print binder transaction reports (the generic netlink
 * group "binder"/"report", mainline 6.18) as they come, one line each:
 *
 *   BR_DEAD_REPLY context=binder from=212:212 to=- reply=no flags=0x0 code=0x1 size=8
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <kbinder/report.h>

#include "kbinder_tool.h"

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* "pid:tid", "pid:-" or "-" for the receiving side. */
static void format_target(const struct kbinder_report *r, char *buf, size_t size)
{
	if (!r->to_pid)
		snprintf(buf, size, "-");
	else if (!r->to_tid)
		snprintf(buf, size, "%u:-", r->to_pid);
	else
		snprintf(buf, size, "%u:%u", r->to_pid, r->to_tid);
}

void report_print(const struct kbinder_report *r)
{
	char to[32];

	format_target(r, to, sizeof(to));
	printf("%s context=%s from=%u:%u to=%s reply=%s flags=%#x code=%#x size=%u\n",
	       kbinder_return_name(r->error), r->context, r->from_pid, r->from_tid,
	       to, r->is_reply ? "yes" : "no", r->flags, r->code,
	       r->data_size);
	fflush(stdout);
}

static int parse_count(const char *s, long max, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 0 || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

/* Only reports of @device's context, when a device was named. */
static const char *context_filter(const char *device)
{
	const char *slash;

	if (!device)
		return NULL;
	slash = strrchr(device, '/');
	return slash ? slash + 1 : device;
}

/**
 * cmd_report() - `kbinder report [--count N] [--timeout S]`
 * @device: -d DEVICE, or NULL for reports of every device
 * @argc: number of arguments after "report"
 * @argv: the arguments
 *
 * Return: 0 after --count reports, or at the end of --timeout without
 * --count; 1 if --count was not reached in time or on error; 2 for bad
 * arguments.
 */
int cmd_report(const char *device, int argc, char **argv)
{
	const char *only = context_filter(device);
	struct kbinder_report_listener l;
	long count = 0, timeout_s = 0, seen = 0;
	int64_t deadline = 0;
	struct kbinder_report r;
	int i, err;

	for (i = 0; i < argc; i++) {
		long *dst = !strcmp(argv[i], "--count") ? &count :
			    !strcmp(argv[i], "--timeout") ? &timeout_s : NULL;

		if (!dst || i + 1 >= argc ||
		    parse_count(argv[i + 1], dst == &count ? LONG_MAX : INT_MAX / 1000, dst)) {
			fprintf(stderr, "usage: kbinder [-d DEVICE] report [--count N] [--timeout S]\n");
			return 2;
		}
		i++;
	}
	err = kbinder_report_open(&l);
	if (err) {
		tool_error(err, err == -ENOENT ?
			   "no \"binder\" netlink family (kbinder not loaded, or a driver without reports)" :
			   "open the report listener");
		return 1;
	}
	if (timeout_s)
		deadline = now_ms() + timeout_s * 1000;
	while (!count || seen < count) {
		int wait = -1;

		if (deadline) {
			int64_t left = deadline - now_ms();

			if (left <= 0)
				break;
			wait = (int)left;
		}
		err = kbinder_report_next(&l, &r, wait);
		if (err == -ETIMEDOUT)
			break;
		if (err == -ENOBUFS)
			fprintf(stderr, "kbinder: reports were lost (socket queue full)\n");
		if (err == -ENOBUFS || err == -EINTR) {
			err = 0;
			continue;
		}
		if (err) {
			tool_error(err, "read a report");
			break;
		}
		if (only && strcmp(r.context, only))
			continue;
		report_print(&r);
		seen++;
	}
	kbinder_report_close(&l);
	if (err && err != -ETIMEDOUT)
		return 1;
	return count && seen < count ? 1 : 0;
}
