// SPDX-License-Identifier: Apache-2.0
/*
 * The bottom of the `kbinder` tool: one-line errors, opening the device,
 * the wire of the tool's release and header, the service manager client,
 * option parsing for the commands.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tool.h"

/* "kbinder: <what>: <reason>"; a dead reply from @dead_is_sm's handle 0. */
static void tool_verror(int err, bool dead_is_sm, const char *fmt, va_list ap)
{
	fputs("kbinder: ", stderr);
	vfprintf(stderr, fmt, ap);
	if (err == (int)BR_DEAD_REPLY && dead_is_sm)
		fputs(": no service manager (dead reply from handle 0)\n", stderr);
	else if (err == (int)BR_DEAD_REPLY)
		fputs(": the service is dead (dead reply)\n", stderr);
	else if (err > 0)
		fprintf(stderr, ": the driver answered %s\n", kbinder_return_name((uint32_t)err));
	else if (err == -EREMOTEIO)
		fputs(": the service answered with an exception\n", stderr);
	else
		fprintf(stderr, ": %s\n", strerror(-err));
}

int tool_error(int err, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return 0;
	va_start(ap, fmt);
	tool_verror(err, false, fmt, ap);
	va_end(ap);
	return err;
}

int tool_sm_error(int err, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return 0;
	va_start(ap, fmt);
	tool_verror(err, true, fmt, ap);
	va_end(ap);
	return err;
}

int tool_open(const struct tool *tool, struct kbinder_proc *proc)
{
	const char *path = tool->device ? tool->device : kbinder_proc_default_device();
	int err = kbinder_proc_open(proc, tool->device, KBINDER_DEFAULT_MAP_SIZE, 0);

	if (err == -ENOENT)
		fprintf(stderr, "kbinder: no binder device at %s (set -d or $BINDER_DEVICE)\n", path);
	else if (err == -EACCES || err == -EPERM)
		fprintf(stderr, "kbinder: permission denied opening %s\n", path);
	else if (err == -EPROTO)
		fprintf(stderr, "kbinder: %s does not speak binder protocol 8\n", path);
	else if (err)
		tool_error(err, "open %s", path);
	return err;
}

int tool_connect(const struct tool *tool, struct kbinder_proc *proc,
		 struct kbinder_thread *t)
{
	int err = tool_open(tool, proc);

	if (!err)
		kbinder_thread_init(t, proc->fd);
	return err;
}

int tool_sm_client(const struct tool *tool, struct kbinder_proc *proc,
		   struct kbinder_thread *t, struct kbinder_sm *sm)
{
	int err = tool_connect(tool, proc, t);

	if (!err) {
		err = tool_sm(tool, sm, t);
		if (err)
			kbinder_proc_close(proc);
	}
	return err;
}

int tool_descriptor(struct kbinder_thread *t, uint32_t handle, char *out, size_t size)
{
	struct kbinder_reply reply;
	struct kbinder_view v;
	int err;

	out[0] = '\0';
	err = kbinder_thread_transact(t, handle, KBINDER_INTERFACE_TRANSACTION, NULL, 0,
				      &reply, NULL, NULL, TOOL_TIMEOUT_MS);
	if (!err)
		err = kbinder_thread_check_reply(t, &reply);
	if (err)
		return err;
	kbinder_view_init(&v, &reply.txn);
	err = kbinder_view_read_string16(&v, out, size);
	kbinder_thread_free_buffer(t, reply.txn.data.ptr.buffer);
	return err ? (err < 0 ? err : -EBADMSG) : 0;
}

uint32_t tool_header(const char *name)
{
	static const struct {
		const char *name;
		uint32_t marker;
	} headers[] = {
		{ "system", KBINDER_MARKER_SYSTEM },
		{ "vendor", KBINDER_MARKER_VENDOR },
		{ "recovery", KBINDER_MARKER_RECOVERY },
		{ "host", KBINDER_MARKER_HOST },
	};

	for (size_t i = 0; i < sizeof(headers) / sizeof(headers[0]); i++)
		if (!strcmp(headers[i].name, name))
			return headers[i].marker;
	fprintf(stderr, "kbinder: the header is system, vendor, recovery or host, not '%s'\n",
		name);
	return 0;
}

int tool_wire(const struct tool *tool, struct kbinder_wire *w)
{
	int err = kbinder_wire_init_name(w, tool->release);

	if (err)
		fprintf(stderr, "kbinder: no Android release '%s' (kbinder --help)\n",
			tool->release);
	else
		w->marker = tool->marker;
	return err;
}

int tool_sm(const struct tool *tool, struct kbinder_sm *sm, struct kbinder_thread *t)
{
	int err = kbinder_sm_init(sm, t, 0);

	return err ? err : tool_wire(tool, &sm->wire);
}

int tool_lookup(const struct tool *tool, struct kbinder_thread *t, const char *name,
		uint32_t *handle)
{
	struct kbinder_sm sm;
	int err = tool_sm(tool, &sm, t);

	if (!err)
		err = kbinder_sm_check(&sm, name, handle);
	if (err == -ENOENT)
		fprintf(stderr, "kbinder: no service '%s'\n", name);
	else if (err)
		tool_sm_error(err, "look up '%s'", name);
	return err;
}

int tool_usage_error(const char *cmd, const char *usage)
{
	fprintf(stderr, "kbinder: wrong arguments for %s\nusage: %s", cmd, usage);
	return 2;
}

int tool_options(int argc, char **argv, const char *short_opts,
		 const struct option *opts, const char *usage, int *status)
{
	static const struct option help = { "help", no_argument, NULL, 'h' };
	struct option all[16];
	char shorts[32];
	size_t n = 0;
	int opt;

	while (opts && opts[n].name && n < 14) {
		all[n] = opts[n];
		n++;
	}
	all[n++] = help;
	memset(&all[n], 0, sizeof(all[n]));
	snprintf(shorts, sizeof(shorts), "+%sh", short_opts);
	opt = getopt_long(argc, argv, shorts, all, NULL);
	if (opt == 'h') {
		printf("usage: %s", usage);
		*status = 0;
		return -1;
	}
	if (opt == '?' || opt == ':') {
		*status = tool_usage_error(argv[0], usage);
		return -1;
	}
	return opt;
}

int tool_parse_long(const char *s, long max, long *out)
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

void tool_ready(int ready_fd)
{
	if (ready_fd < 0)
		return;
	(void)!write(ready_fd, "R", 1);
	close(ready_fd);
}

int tool_operands(int argc, char **argv, const char *usage, int n)
{
	int status = -1;

	while (tool_options(argc, argv, "", NULL, usage, &status) != -1)
		;
	if (status >= 0)
		return status;
	return argc - optind == n ? -1 : tool_usage_error(argv[0], usage);
}

int64_t tool_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}
