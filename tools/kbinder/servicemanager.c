// SPDX-License-Identifier: Apache-2.0
/*
 * `kbinder servicemanager`: become the context manager and serve names with
 * libkbinder's service manager (kbinder/servicemanager.h), speaking the
 * protocol of the release the tool was started with (--api-level).
 */
#include <errno.h>
#include <stdio.h>
#include <time.h>

#include "tool.h"

static const char usage[] =
"kbinder [-d DEVICE] [-a LEVEL] [-H HEADER] servicemanager [-v]\n"
"  Become the device's context manager and serve names with the service\n"
"  manager protocol of Android release LEVEL. -v, --verbose: log.\n";

/* The previous manager of a device is released asynchronously: retry. */
static int become_manager(int fd)
{
	struct timespec ts = { 0, 50 * 1000 * 1000 };
	int err;

	for (int i = 0; i < 100; i++) {
		err = kbinder_ioctl_set_context_mgr(fd);
		if (err != -EBUSY)
			break;
		nanosleep(&ts, NULL);
	}
	return err;
}

static void log_line(void *arg, const char *line)
{
	(void)arg;
	printf("servicemanager: %s\n", line);
	fflush(stdout);
}

static void say_serving(const struct tool *tool, const struct kbinder_wire *w)
{
	printf("servicemanager: serving on %s, Android API level %s (Android %s, %s)\n",
	       tool->device ? tool->device : kbinder_proc_default_device(),
	       kbinder_wire_name(w), kbinder_wire_release(w),
	       kbinder_sm_is_aidl(w) ? "AIDL IServiceManager" :
	       "the C servicemanager's protocol");
	fflush(stdout);
}

int servicemanager_run(const struct tool *tool, int ready_fd, bool verbose)
{
	struct kbinder_sm_server *srv;
	struct kbinder_thread t;
	struct kbinder_proc proc;
	struct kbinder_wire w;
	int err;

	if (tool_wire(tool, &w) || tool_open(tool, &proc))
		return -EINVAL;
	err = become_manager(proc.fd);
	if (err) {
		kbinder_proc_close(&proc);
		return tool_error(err, "become the context manager of %s",
				  tool->device ? tool->device : kbinder_proc_default_device());
	}
	kbinder_thread_init(&t, proc.fd);
	err = kbinder_sm_server_new(&srv, &t, &w);
	if (!err) {
		if (verbose)
			kbinder_sm_server_set_log(srv, log_line, NULL);
		err = kbinder_thread_enter_looper(&t);
		tool_ready(ready_fd);
		if (verbose)
			say_serving(tool, &w);
		if (!err)
			err = kbinder_sm_server_run(srv);
		kbinder_sm_server_free(srv);
	}
	kbinder_proc_close(&proc);
	return tool_error(err, "servicemanager");
}

int cmd_servicemanager(const struct tool *tool, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "verbose", no_argument, NULL, 'v' },
		{ NULL, 0, NULL, 0 },
	};
	bool verbose = false;
	int opt, status = -1;

	while ((opt = tool_options(argc, argv, "v", opts, usage, &status)) != -1)
		verbose = true;
	if (status >= 0)
		return status;
	if (optind != argc)
		return tool_usage_error(argv[0], usage);
	return servicemanager_run(tool, -1, verbose) ? 1 : 0;
}
