// SPDX-License-Identifier: Apache-2.0
/*
 * The small commands: `list`, `ping`, `detect`, `serve`, `version`, `stats`.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "tool.h"

#define KBINDER_LIVE_PATH "/sys/kernel/debug/kbinder/live"

struct list_state {
	struct kbinder_sm *sm;
	int n;
};

static int print_service(const char *name, void *arg)
{
	struct list_state *st = arg;
	struct kbinder_thread *t = st->sm->thread;
	char desc[256];
	uint32_t handle;
	int err;

	err = kbinder_sm_check(st->sm, name, &handle);
	if (!err) {
		err = tool_descriptor(t, handle, desc, sizeof(desc));
		kbinder_thread_ref(t, BC_RELEASE, handle);
	}
	if (err < 0)
		snprintf(desc, sizeof(desc), "(no answer: %s)", strerror(-err));
	else if (err)
		snprintf(desc, sizeof(desc), "(no answer: %s)", kbinder_return_name((uint32_t)err));
	printf("%d\t%s: [%s]\n", st->n++, name, desc);
	return 0;
}

int cmd_list(const struct tool *tool, int argc, char **argv)
{
	static const char usage[] = "kbinder [-d DEVICE] [-a LEVEL] list\n"
		"  Every service the service manager knows, with its descriptor.\n";
	struct kbinder_thread t;
	struct kbinder_proc proc;
	struct kbinder_sm sm;
	struct list_state st = { &sm, 0 };
	int err = tool_operands(argc, argv, usage, 0);

	if (err >= 0)
		return err;
	if (tool_sm_client(tool, &proc, &t, &sm))
		return 1;
	err = tool_sm_error(kbinder_sm_list(&sm, KBINDER_DUMP_FLAG_PRIORITY_ALL,
						    print_service, &st), "list services");
	kbinder_proc_close(&proc);
	return err ? 1 : 0;
}

int cmd_ping(const struct tool *tool, int argc, char **argv)
{
	static const char usage[] = "kbinder [-d DEVICE] [-a LEVEL] ping NAME\n"
		"  Look NAME up and send it PING_TRANSACTION.\n";
	struct kbinder_reply reply;
	struct kbinder_thread t;
	struct kbinder_proc proc;
	const char *name;
	uint32_t handle;
	int err = tool_operands(argc, argv, usage, 1);

	if (err >= 0)
		return err;
	name = argv[optind];
	if (tool_connect(tool, &proc, &t))
		return 1;
	err = tool_lookup(tool, &t, name, &handle);
	if (!err) {
		err = kbinder_thread_transact(&t, handle, KBINDER_PING_TRANSACTION, NULL, 0,
					      &reply, NULL, NULL, TOOL_TIMEOUT_MS);
		if (!err)
			err = kbinder_thread_check_reply(&t, &reply);
		if (!err)
			kbinder_thread_free_buffer(&t, reply.txn.data.ptr.buffer);
		if (!err)
			printf("%s: alive\n", name);
		else if (err == (int)BR_DEAD_REPLY)
			fprintf(stderr, "kbinder: '%s' is dead\n", name);
		else
			tool_error(err, "ping '%s'", name);
		kbinder_thread_ref(&t, BC_RELEASE, handle);
	}
	kbinder_proc_close(&proc);
	return err ? 1 : 0;
}

static void print_release(const struct kbinder_wire *w)
{
	printf("%s (Android %s)", kbinder_wire_name(w), kbinder_wire_release(w));
	if (kbinder_sm_is_aidl(w))
		printf(", header %c%c%c%c", (char)(w->marker >> 24),
		       (char)(w->marker >> 16), (char)(w->marker >> 8), (char)w->marker);
	printf("\n");
}

/* Which release's service manager answers: kbinder_sm_detect(). */
int cmd_detect(const struct tool *tool, int argc, char **argv)
{
	static const char usage[] = "kbinder [-d DEVICE] [-a LEVEL] detect\n"
		"  Probe the service manager and print the release whose interface it\n"
		"  has, as --api-level takes it, and the token header it takes\n"
		"  (\"35-qpr2 (Android 15 QPR2), header SYST\"). Releases\n"
		"  with the same interface (12 and 12L, 14 and 15, 16 QPR1 and QPR2)\n"
		"  cannot be told apart: LEVEL is kept if it is one of them.\n";
	struct kbinder_thread t;
	struct kbinder_proc proc;
	struct kbinder_sm sm;
	int err = tool_operands(argc, argv, usage, 0);

	if (err >= 0)
		return err;
	if (tool_sm_client(tool, &proc, &t, &sm))
		return 1;
	err = kbinder_sm_detect(&sm);
	kbinder_proc_close(&proc);
	if (err == -EPROTONOSUPPORT)
		fprintf(stderr, "kbinder: the service manager's interface is none kbinder knows\n");
	else if (err)
		tool_sm_error(err, "detect the service manager's release");
	else
		print_release(&sm.wire);
	return err ? 1 : 0;
}

int cmd_serve(const struct tool *tool, int argc, char **argv)
{
	static const char usage[] = "kbinder [-d DEVICE] [-a LEVEL] serve NAME\n"
		"  Register an echo service (kbinder.IEcho, String echo(String) at\n"
		"  code 1) as NAME and serve it until killed.\n";
	int err = tool_operands(argc, argv, usage, 1);

	if (err >= 0)
		return err;
	return echo_serve(tool, argv[optind], -1) ? 1 : 0;
}

int cmd_version(const struct tool *tool, int argc, char **argv)
{
	static const char usage[] = "kbinder [-d DEVICE] version\n"
		"  Print the device's binder protocol version.\n";
	struct kbinder_proc proc;
	int32_t version;
	int err = tool_operands(argc, argv, usage, 0);

	if (err >= 0)
		return err;
	err = kbinder_proc_open(&proc, tool->device, 0, 0);
	if (err && err != -EPROTO)
		return tool_open(tool, &proc) ? 1 : 0;
	err = kbinder_ioctl_version(proc.fd, &version);
	kbinder_proc_close(&proc);
	if (err)
		return tool_error(err, "BINDER_VERSION") ? 1 : 0;
	printf("%d\n", version);
	return 0;
}

int cmd_stats(const struct tool *tool, int argc, char **argv)
{
	static const char usage[] = "kbinder stats\n"
		"  Print kbinder's live objects (" KBINDER_LIVE_PATH ", debugfs).\n";
	char line[256];
	FILE *f;
	int err = tool_operands(argc, argv, usage, 0);

	(void)tool;
	if (err >= 0)
		return err;
	f = fopen(KBINDER_LIVE_PATH, "r");
	if (!f)
		return tool_error(-errno, "%s (is kbinder loaded, debugfs mounted?)",
				  KBINDER_LIVE_PATH) ? 1 : 0;
	while (fgets(line, sizeof(line), f))
		printf("    %s", line);
	fclose(f);
	return 0;
}
