/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the parts of the `kbinder` command share. The layers, bottom up:
 * tool.c (errors, opening, the wire, the service manager client), echo.c
 * (the demo service), the commands (one file each, or a few small ones
 * together), main.c (the global options and the table of commands). A
 * file calls only into files below it; nothing calls into main.c.
 */
#ifndef KBINDER_TOOL_H
#define KBINDER_TOOL_H

#include <stdbool.h>
#include <stdint.h>
#include <getopt.h>
#include <sys/types.h>

#include <kbinder/kbinder.h>

#define TOOL_TIMEOUT_MS 5000

/* The demo echo service: String echo(String text) at code 1. */
#define ECHO_INTERFACE		"kbinder.IEcho"
#define ECHO_CODE		1

/**
 * struct tool - the global options, given to every command.
 * @device:  -d DEVICE, or NULL for $BINDER_DEVICE / /dev/binder
 * @release: -a LEVEL (a level or a release, "35-qpr1"), or NULL for
 *           $KBINDER_API_LEVEL or the library's default
 * @marker:  -H HEADER: the token header to write and accept
 */
struct tool {
	const char *device;
	const char *release;
	uint32_t marker;
};

/* A command: argv[0] is its name; returns the exit status (0, 1, 2). */
typedef int (*tool_cmd_fn)(const struct tool *tool, int argc, char **argv);

/* ------------------------------------------------------------ tool.c */

/** tool_error() - print "kbinder: <what>: <reason>" if @err; return @err. */
int tool_error(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/** tool_sm_error() - tool_error() for a call to the service manager. */
int tool_sm_error(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/** tool_open() - open the device for a client, with a one-line error. */
int tool_open(const struct tool *tool, struct kbinder_proc *proc);
/** tool_connect() - tool_open() and a thread on it for the calling thread. */
int tool_connect(const struct tool *tool, struct kbinder_proc *proc,
		 struct kbinder_thread *t);
/** tool_sm_client() - tool_connect() and tool_sm(): a client of the service manager. */
int tool_sm_client(const struct tool *tool, struct kbinder_proc *proc,
		   struct kbinder_thread *t, struct kbinder_sm *sm);
/** tool_descriptor() - INTERFACE_TRANSACTION: the descriptor @handle answers. */
int tool_descriptor(struct kbinder_thread *t, uint32_t handle, char *out, size_t size);
/** tool_wire() - @w for the tool's release and header; 0 or -EINVAL (said). */
int tool_wire(const struct tool *tool, struct kbinder_wire *w);
/** tool_header() - the marker a -H name stands for; 0 (said) if none. */
uint32_t tool_header(const char *name);
/** tool_sm() - a service manager client on @t at the tool's release. */
int tool_sm(const struct tool *tool, struct kbinder_sm *sm, struct kbinder_thread *t);
/** tool_lookup() - @name's handle (a reference to release), with one-line errors. */
int tool_lookup(const struct tool *tool, struct kbinder_thread *t, const char *name,
		uint32_t *handle);
/**
 * tool_options() - getopt_long() over a command's arguments: the options
 * it takes (@opts, @short_opts, no "h"), -h/--help for @usage (printed,
 * 0 returned in *@status), anything else a usage error (2 in *@status).
 * Return: the next option, or -1 when they are done or *@status is set.
 */
int tool_options(int argc, char **argv, const char *short_opts,
		 const struct option *opts, const char *usage, int *status);
/**
 * tool_operands() - a command without options of its own: -h/--help, and
 * exactly @n operands after argv[0] (from argv[optind]). Return: -1 to go
 * on, else the exit status.
 */
int tool_operands(int argc, char **argv, const char *usage, int n);
/** tool_usage_error() - @usage on stderr after "wrong arguments"; returns 2. */
int tool_usage_error(const char *cmd, const char *usage);
/** tool_parse_long() - @s as a number in 0..@max; 0 or -EINVAL. */
int tool_parse_long(const char *s, long max, long *out);
/** tool_now_ms() - CLOCK_MONOTONIC in milliseconds. */
int64_t tool_now_ms(void);
/** tool_ready() - tell @ready_fd (if >= 0) that serving began, and close it. */
void tool_ready(int ready_fd);

/* ------------------------------------------------------------ echo.c */

/** echo_call() - String echo(@text) on @handle into @out. */
int echo_call(const struct tool *tool, struct kbinder_thread *t, uint32_t handle,
	      const char *text, char *out, size_t size);
/** echo_serve() - register the echo service as @name and serve it; @ready_fd as tool_ready(). */
int echo_serve(const struct tool *tool, const char *name, int ready_fd);

/* ------------------------------------------------------ the commands */

/* servicemanager.c; servicemanager_run() is also the demo's */
int servicemanager_run(const struct tool *tool, int ready_fd, bool verbose);
int cmd_servicemanager(const struct tool *tool, int argc, char **argv);
/* client.c */
int cmd_list(const struct tool *tool, int argc, char **argv);
int cmd_ping(const struct tool *tool, int argc, char **argv);
int cmd_detect(const struct tool *tool, int argc, char **argv);
int cmd_serve(const struct tool *tool, int argc, char **argv);
int cmd_version(const struct tool *tool, int argc, char **argv);
int cmd_stats(const struct tool *tool, int argc, char **argv);
/* call.c */
int cmd_call(const struct tool *tool, int argc, char **argv);
/* report.c; report_print() is also the demo's */
void report_print(const struct kbinder_report *r);
int cmd_report(const struct tool *tool, int argc, char **argv);
/* monitor.c */
int cmd_monitor(const struct tool *tool, int argc, char **argv);
/* demo.c */
int cmd_demo(const struct tool *tool, int argc, char **argv);

#endif
