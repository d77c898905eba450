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

#include "tool.h"

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

/* Only reports of @device's context, when a device was named. */
static const char *context_filter(const char *device)
{
	const char *slash;

	if (!device)
		return NULL;
	slash = strrchr(device, '/');
	return slash ? slash + 1 : device;
}

static const char usage[] =
"kbinder [-d DEVICE] report [--count N] [--timeout S]\n"
"  Print the driver's transaction reports (netlink) until interrupted, N\n"
"  reports or S seconds; -d: only that device's.\n";

/* Return: -1 to go on with *@count and *@timeout_s, else the exit status. */
static int report_parse(int argc, char **argv, long *count, long *timeout_s)
{
	static const struct option opts[] = {
		{ "count", required_argument, NULL, 'n' },
		{ "timeout", required_argument, NULL, 't' },
		{ NULL, 0, NULL, 0 },
	};
	int opt, status = -1;

	while ((opt = tool_options(argc, argv, "n:t:", opts, usage, &status)) != -1) {
		if (opt == 'n' ? tool_parse_long(optarg, LONG_MAX, count) :
		    tool_parse_long(optarg, INT_MAX / 1000, timeout_s))
			return tool_usage_error(argv[0], usage);
	}
	if (status >= 0)
		return status;
	return optind == argc ? -1 : tool_usage_error(argv[0], usage);
}

/*
 * Print reports of @only's context (NULL: all) until @count (0: no limit)
 * or @deadline (0: none). Return: 0 at either, or -errno; *@seen counts.
 */
static int report_loop(struct kbinder_report_listener *l, const char *only,
		       long count, int64_t deadline, long *seen)
{
	struct kbinder_report r;
	int err;

	while (!count || *seen < count) {
		int64_t left = deadline ? deadline - tool_now_ms() : -1;

		if (deadline && left <= 0)
			return 0;
		err = kbinder_report_next(l, &r, (int)left);
		if (err == -ETIMEDOUT)
			return 0;
		if (err == -ENOBUFS)
			fprintf(stderr, "kbinder: reports were lost (socket queue full)\n");
		if (err == -ENOBUFS || err == -EINTR)
			continue;
		if (err)
			return tool_error(err, "read a report");
		if (only && strcmp(r.context, only))
			continue;
		report_print(&r);
		++*seen;
	}
	return 0;
}

/**
 * cmd_report() - `kbinder report [--count N] [--timeout S]`
 *
 * Return: 0 after --count reports, or at the end of --timeout without
 * --count; 1 if --count was not reached in time or on error; 2 for bad
 * arguments.
 */
int cmd_report(const struct tool *tool, int argc, char **argv)
{
	struct kbinder_report_listener l;
	long count = 0, timeout_s = 0, seen = 0;
	int err = report_parse(argc, argv, &count, &timeout_s);

	if (err >= 0)
		return err;
	err = kbinder_report_open(&l);
	if (err) {
		tool_error(err, err == -ENOENT ?
			   "no \"binder\" netlink family (kbinder not loaded, or a driver without reports)" :
			   "open the report listener");
		return 1;
	}
	err = report_loop(&l, context_filter(tool->device), count,
			  timeout_s ? tool_now_ms() + timeout_s * 1000 : 0, &seen);
	kbinder_report_close(&l);
	if (err)
		return 1;
	return count && seen < count ? 1 : 0;
}
