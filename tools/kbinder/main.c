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

#include <kbinder/servicemanager.h>

#include "kbinder_tool.h"

static const char usage_text[] =
"usage: kbinder [-d DEVICE] [-a LEVEL] COMMAND [ARGS]\n"
"\n"
"Talk to a binder device (default: $BINDER_DEVICE, else /dev/binder) the way\n"
"Android release LEVEL does (--api-level, 28..36; default $KBINDER_API_LEVEL,\n"
"else 33).\n"
"\n"
"commands:\n"
"  servicemanager [-v]   become the context manager and serve names\n"
"  list                  the services the service manager knows, with their\n"
"                        interface descriptors\n"
"  ping NAME             PING_TRANSACTION to a service\n"
"  call NAME CODE [ARG]...\n"
"                        call a service; ARG is i32:N i64:N s16:TEXT s8:TEXT\n"
"                        bool:0|1 fd:PATH binder:NAME null; prints the reply\n"
"                        decoded and as hex (kbinder call --help)\n"
"  serve NAME            register an echo service (kbinder.IEcho) and serve it\n"
"  version               the device's binder protocol version\n"
"  stats                 kbinder's live objects (needs debugfs)\n"
"  demo                  a service manager, a service and a client, with\n"
"                        a death notification at the end\n"
"  monitor [--interval S] [--count N]\n"
"                        per-process transaction rates (upstream driver's\n"
"                        debugfs stats) and failed calls (reports), refreshed\n"
"  report [--count N] [--timeout S]\n"
"                        print transaction reports (failed, frozen, spam\n"
"                        calls; netlink, mainline 6.18) until interrupted,\n"
"                        N reports or S seconds (exit 1 if N reports did\n"
"                        not come in time); -d: only that device's reports\n"
"  help                  this text\n"
"\n"
"Every command takes --help. See kbinder(1).\n";

/* One-line help of each command, for `kbinder COMMAND --help`. */
static const struct {
	const char *cmd, *usage;
} command_help[] = {
	{ "servicemanager", "kbinder [-d DEVICE] [-a LEVEL] servicemanager [-v]\n"
	  "  Become the device's context manager and serve names with the\n"
	  "  service manager protocol of Android API level LEVEL. -v: log.\n" },
	{ "list", "kbinder [-d DEVICE] [-a LEVEL] list\n"
	  "  Every service the service manager knows, with its descriptor.\n" },
	{ "ping", "kbinder [-d DEVICE] [-a LEVEL] ping NAME\n"
	  "  Look NAME up and send it PING_TRANSACTION.\n" },
	{ "call", NULL },
	{ "serve", "kbinder [-d DEVICE] [-a LEVEL] serve NAME\n"
	  "  Register an echo service (kbinder.IEcho, String echo(String) at\n"
	  "  code 1) as NAME and serve it until killed.\n" },
	{ "version", "kbinder [-d DEVICE] version\n"
	  "  Print the device's binder protocol version.\n" },
	{ "stats", "kbinder stats\n  Print kbinder's live objects (debugfs).\n" },
	{ "demo", "kbinder [-d DEVICE] [-a LEVEL] demo\n"
	  "  A service manager, an echo service and a client in one run.\n" },
	{ "report", "kbinder [-d DEVICE] report [--count N] [--timeout S]\n"
	  "  Print the driver's transaction reports (netlink).\n" },
	{ "monitor", "kbinder monitor [--interval S] [--count N]\n"
	  "  Per-process transaction and reply rates (from the upstream\n"
	  "  driver's debugfs stats; kbinder has no per-process counters) and\n"
	  "  failed calls per sender (from the transaction reports), refreshed\n"
	  "  every S seconds (1), N times (0: until interrupted).\n" },
};

int tool_error(int err, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return 0;
	va_start(ap, fmt);
	fputs("kbinder: ", stderr);
	vfprintf(stderr, fmt, ap);
	switch (err) {
	case -EPIPE:
		fputs(": no service manager (dead reply from handle 0)\n", stderr);
		break;
	case -EREMOTEIO:
		fputs(": the service answered with an exception\n", stderr);
		break;
	default:
		fprintf(stderr, ": %s\n", strerror(err < 0 ? -err : err));
	}
	va_end(ap);
	return err;
}

int tool_open(struct kbinder_proc *proc, const char *device)
{
	const char *path = device ? device : kbinder_default_device();
	int err = kbinder_open(proc, device, KBINDER_DEFAULT_MAP_SIZE);

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

static int cmd_version(const char *device)
{
	struct kbinder_proc proc;
	int32_t version;
	int err;

	err = kbinder_open(&proc, device, 0);
	if (err && err != -EPROTO)
		return tool_open(&proc, device);
	err = kbinder_version(proc.fd, &version);
	kbinder_close(&proc);
	if (err)
		return tool_error(err, "BINDER_VERSION");
	printf("%d\n", version);
	return 0;
}

/* Look @name up; one-line errors for what a user gets wrong. */
static int lookup(struct kbinder_thread *t, const char *name, uint32_t *handle)
{
	int err = svc_get(t, name, handle);

	if (err == -ENOENT)
		fprintf(stderr, "kbinder: no service '%s'\n", name);
	else if (err)
		tool_error(err, "look up '%s'", name);
	return err;
}

/* INTERFACE_TRANSACTION: the descriptor of @handle into @out. */
static int descriptor_of(struct kbinder_thread *t, uint32_t handle, char *out,
			 size_t size)
{
	struct kbinder_parcel_view v;
	struct kbinder_reply reply;
	int err;

	out[0] = '\0';
	err = kbinder_transact(t, handle, KBINDER_INTERFACE_TRANSACTION, NULL, 0,
			       &reply, NULL, NULL, TOOL_TIMEOUT_MS);
	if (!err)
		err = kbinder_sm_reply_error(t, &reply);
	if (err)
		return err;
	kbinder_view_init(&v, &reply.txn);
	err = kbinder_view_read_string16(&v, out, size);
	kbinder_free_buffer(t, reply.txn.data.ptr.buffer);
	return err < 0 ? err : 0;
}

struct list_state {
	struct kbinder_thread *t;
	int n;
};

static int print_service(const char *name, void *arg)
{
	struct list_state *st = arg;
	char desc[256];
	uint32_t handle;
	int err;

	err = svc_get(st->t, name, &handle);
	if (!err) {
		err = descriptor_of(st->t, handle, desc, sizeof(desc));
		kbinder_ref(st->t, BC_RELEASE, handle);
	}
	if (err)
		snprintf(desc, sizeof(desc), "(no answer: %s)", strerror(-err));
	printf("%d\t%s: [%s]\n", st->n++, name, desc);
	return 0;
}

static int cmd_list(const char *device)
{
	struct kbinder_thread t;
	struct kbinder_proc proc;
	struct list_state st = { &t, 0 };
	int err;

	err = tool_open(&proc, device);
	if (err)
		return err;
	kbinder_thread_init(&t, proc.fd);
	err = svc_list(&t, print_service, &st);
	kbinder_close(&proc);
	return tool_error(err, "list services");
}

static int cmd_ping(const char *device, const char *name)
{
	struct kbinder_reply reply;
	struct kbinder_thread t;
	struct kbinder_proc proc;
	uint32_t handle;
	int err;

	err = tool_open(&proc, device);
	if (err)
		return err;
	kbinder_thread_init(&t, proc.fd);
	err = lookup(&t, name, &handle);
	if (!err) {
		err = kbinder_transact(&t, handle, KBINDER_PING_TRANSACTION, NULL, 0,
				       &reply, NULL, NULL, TOOL_TIMEOUT_MS);
		if (!err)
			err = kbinder_sm_reply_error(&t, &reply);
		if (!err) {
			kbinder_free_buffer(&t, reply.txn.data.ptr.buffer);
			printf("%s: alive\n", name);
		} else if (err == -EPIPE) {
			fprintf(stderr, "kbinder: '%s' is dead\n", name);
		} else {
			tool_error(err, "ping '%s'", name);
		}
		kbinder_ref(&t, BC_RELEASE, handle);
	}
	kbinder_close(&proc);
	return err;
}

static bool wants_help(int argc, char **argv)
{
	for (int i = 0; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return true;
	return false;
}

static int command_usage(const char *cmd, FILE *to)
{
	for (size_t i = 0; i < sizeof(command_help) / sizeof(command_help[0]); i++) {
		if (strcmp(command_help[i].cmd, cmd))
			continue;
		if (!command_help[i].usage)
			return -1;
		fprintf(to, "usage: %s", command_help[i].usage);
		return 0;
	}
	return -1;
}

static int bad_usage(const char *cmd)
{
	fprintf(stderr, "kbinder: wrong arguments for %s\n", cmd);
	command_usage(cmd, stderr);
	return 2;
}

static int parse_level(const char *s)
{
	char *end;
	long level = strtol(s, &end, 10);

	if (*end || level < KBINDER_API_LEVEL_MIN || level > KBINDER_API_LEVEL_MAX) {
		fprintf(stderr, "kbinder: API level must be %d..%d, not '%s'\n",
			KBINDER_API_LEVEL_MIN, KBINDER_API_LEVEL_MAX, s);
		return -1;
	}
	return (int)level;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "api-level", required_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *device = NULL;
	const char *cmd;
	int opt;

	while ((opt = getopt_long(argc, argv, "+d:a:h", opts, NULL)) != -1) {
		switch (opt) {
		case 'd':
			device = optarg;
			break;
		case 'a':
			tool_api_level = parse_level(optarg);
			if (tool_api_level < 0)
				return 2;
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
	if (wants_help(argc, argv)) {
		if (!strcmp(cmd, "call"))
			return cmd_call(device, argc, argv);
		if (command_usage(cmd, stdout) == 0)
			return 0;
	}
	if (!strcmp(cmd, "version"))
		return argc ? bad_usage(cmd) : cmd_version(device) ? 1 : 0;
	if (!strcmp(cmd, "stats"))
		return argc ? bad_usage(cmd) : cmd_stats() ? 1 : 0;
	if (!strcmp(cmd, "servicemanager")) {
		if (argc > 1 || (argc == 1 && strcmp(argv[0], "-v")))
			return bad_usage(cmd);
		return svcmgr_run(device, -1, argc == 1) ? 1 : 0;
	}
	if (!strcmp(cmd, "serve"))
		return argc != 1 ? bad_usage(cmd) : echo_serve(device, argv[0], -1) ? 1 : 0;
	if (!strcmp(cmd, "list"))
		return argc ? bad_usage(cmd) : cmd_list(device) ? 1 : 0;
	if (!strcmp(cmd, "ping"))
		return argc != 1 ? bad_usage(cmd) : cmd_ping(device, argv[0]) ? 1 : 0;
	if (!strcmp(cmd, "call"))
		return cmd_call(device, argc, argv);
	if (!strcmp(cmd, "demo"))
		return argc ? bad_usage(cmd) : cmd_demo(device) ? 1 : 0;
	if (!strcmp(cmd, "report"))
		return cmd_report(device, argc, argv);
	if (!strcmp(cmd, "monitor"))
		return cmd_monitor(device, argc, argv);
	fprintf(stderr, "kbinder: unknown command '%s' (kbinder --help)\n", cmd);
	return 2;
}
