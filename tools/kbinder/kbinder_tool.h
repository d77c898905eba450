/* SPDX-License-Identifier: Apache-2.0 */
/* What the parts of the `kbinder` command share. */
#ifndef KBINDER_TOOL_H
#define KBINDER_TOOL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <kbinder/kbinder.h>

#define TOOL_TIMEOUT_MS 5000
#define KBINDER_LIVE_PATH "/sys/kernel/debug/kbinder/live"

/* The demo echo service: String echo(String text) at code 1. */
#define ECHO_INTERFACE		"kbinder.IEcho"
#define ECHO_CODE		1

/* --api-level (0: $KBINDER_API_LEVEL or the library's default). */
extern int tool_api_level;

/** tool_error() - print "kbinder: <what>: <reason>" if err; return err. */
int tool_error(int err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/** tool_open() - open the device for a client, with a one-line error. */
int tool_open(struct kbinder_proc *proc, const char *device);

/* servicemanager (svcmgr.c); @ready_fd gets one byte once it serves */
int svcmgr_run(const char *device, int ready_fd, bool verbose);

/* service manager client calls (client.c), on an opened thread */
int svc_get(struct kbinder_thread *t, const char *name, uint32_t *handle);
int svc_add(struct kbinder_thread *t, const char *name, binder_uintptr_t ptr);
int svc_list(struct kbinder_thread *t, int (*fn)(const char *name, void *arg),
	     void *arg);
int echo_call(struct kbinder_thread *t, uint32_t handle, const char *text,
	      char *out, size_t size);
/* the demo echo service (client.c); @ready_fd as for svcmgr_run */
int echo_serve(const char *device, const char *name, int ready_fd);

/* commands */
int cmd_demo(const char *device);
int cmd_stats(void);
int cmd_report(const char *device, int argc, char **argv);
int cmd_call(const char *device, int argc, char **argv);
int cmd_monitor(const char *device, int argc, char **argv);

struct kbinder_report;
/* One report as `kbinder report` prints it, on one line. */
void report_print(const struct kbinder_report *r);

#endif
