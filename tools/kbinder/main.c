// SPDX-License-Identifier: Apache-2.0
/*
 * kbinder: the command line tool of the kbinder project.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kbinder_tool.h"

static const char usage_text[] =
"usage: kbinder [-d DEVICE] COMMAND [ARGS]\n"
"\n"
"Talk to a binder device (default: $BINDER_DEVICE, else /dev/binder).\n"
"\n"
"commands:\n"
"  version               the device's binder protocol version\n"
"  stats                 kbinder's live objects (needs debugfs)\n"
"  servicemanager [-v]   become the context manager and serve names\n"
"  serve NAME            register an echo service as NAME and serve it\n"
"  list                  the services the service manager knows\n"
"  call NAME TEXT        call echo service NAME with TEXT, print the answer\n"
"  demo                  a service manager, a service and a client, with\n"
"                        a death notification at the end\n"
"  report [--count N] [--timeout S]\n"
"                        print transaction reports (failed, frozen, spam\n"
"                        calls; netlink, mainline 6.18) until interrupted,\n"
"                        N reports or S seconds (exit 1 if N reports did\n"
"                        not come in time); -d: only that device's reports\n"
"  help                  this text\n";

int tool_error(int err, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return 0;
	va_start(ap, fmt);
	fputs("kbinder: ", stderr);
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, ": %s\n", strerror(err < 0 ? -err : err));
	va_end(ap);
	return err;
}

static int cmd_version(const char *device)
{
	struct kbinder_proc proc;
	int32_t version;
	int err;

	err = kbinder_open(&proc, device, 0);
	if (err && err != -EPROTO)
		return tool_error(err, "open %s", device ? device : kbinder_default_device());
	err = kbinder_version(proc.fd, &version);
	kbinder_close(&proc);
	if (err)
		return tool_error(err, "BINDER_VERSION");
	printf("%d\n", version);
	return 0;
}

/* Open a client thread on @device for the service manager commands. */
static int open_client(struct kbinder_proc *proc, struct kbinder_thread *t,
		       const char *device)
{
	int err = kbinder_open(proc, device, KBINDER_DEFAULT_MAP_SIZE);

	if (err)
		return tool_error(err, "open %s", device ? device : kbinder_default_device());
	kbinder_thread_init(t, proc->fd);
	return 0;
}

static int cmd_list(const char *device)
{
	char name[128];
	struct kbinder_thread t;
	struct kbinder_proc proc;
	uint32_t i;
	int err;

	err = open_client(&proc, &t, device);
	if (err)
		return err;
	for (i = 0; !(err = svc_list(&t, i, name, sizeof(name))); i++)
		printf("%s\n", name);
	kbinder_close(&proc);
	return err == -ENOENT ? 0 : tool_error(err, "list services");
}

static int cmd_call(const char *device, const char *name, const char *text)
{
	char answer[4096];
	struct kbinder_thread t;
	struct kbinder_proc proc;
	uint32_t handle;
	int err;

	err = open_client(&proc, &t, device);
	if (err)
		return err;
	err = svc_get(&t, name, &handle);
	if (err) {
		kbinder_close(&proc);
		return tool_error(err, "look up '%s'", name);
	}
	err = echo_call(&t, handle, text, answer, sizeof(answer));
	if (!err)
		printf("%s\n", answer);
	kbinder_ref(&t, BC_RELEASE, handle);
	kbinder_close(&proc);
	return tool_error(err, "call '%s'", name);
}

int main(int argc, char **argv)
{
	const char *device = NULL;
	const char *cmd;
	int opt;

	while ((opt = getopt(argc, argv, "+d:h")) != -1) {
		switch (opt) {
		case 'd':
			device = optarg;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		default:
			fputs(usage_text, stderr);
			return 2;
		}
	}
	if (optind >= argc) {
		fputs(usage_text, stderr);
		return 2;
	}
	cmd = argv[optind++];
	argc -= optind;
	argv += optind;

	if (!strcmp(cmd, "help")) {
		fputs(usage_text, stdout);
		return 0;
	}
	if (!strcmp(cmd, "version") && argc == 0)
		return cmd_version(device) ? 1 : 0;
	if (!strcmp(cmd, "stats") && argc == 0)
		return cmd_stats() ? 1 : 0;
	if (!strcmp(cmd, "servicemanager") && argc <= 1)
		return svcmgr_run(device, -1, argc == 1 && !strcmp(argv[0], "-v")) ? 1 : 0;
	if (!strcmp(cmd, "serve") && argc == 1)
		return echo_serve(device, argv[0], -1) ? 1 : 0;
	if (!strcmp(cmd, "list") && argc == 0)
		return cmd_list(device) ? 1 : 0;
	if (!strcmp(cmd, "call") && argc == 2)
		return cmd_call(device, argv[0], argv[1]) ? 1 : 0;
	if (!strcmp(cmd, "demo") && argc == 0)
		return cmd_demo(device) ? 1 : 0;
	if (!strcmp(cmd, "report"))
		return cmd_report(device, argc, argv);
	fprintf(stderr, "kbinder: unknown command or wrong arguments: %s\n\n", cmd);
	fputs(usage_text, stderr);
	return 2;
}
