// SPDX-License-Identifier: Apache-2.0
/*
 * kbinder: the command line tool of the kbinder project. This file reads
 * the global options and hands the rest to the command; every command
 * lives in a file of its own and parses its own options (tool.h).
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "tool.h"

static const char usage_text[] =
"usage: kbinder [-d DEVICE] [-a LEVEL] [-H HEADER] COMMAND [ARGS]\n"
"\n"
"Talk to a binder device (default: $BINDER_DEVICE, else /dev/binder) the way\n"
"Android release LEVEL does (--api-level: 28..36, the release that introduced\n"
"the level, or 35-qpr1, 35-qpr2, 36-qpr1, 36-qpr2; default $KBINDER_API_LEVEL,\n"
"else 33). -H: the interface-token header of the libbinder build to speak to\n"
"(API 30+): system (SYST, the default), vendor (VNDR), recovery (RECO) or host\n"
"(UNKN, a libbinder built for Linux).\n"
"\n"
"commands:\n";

static const struct command {
	const char *name;
	tool_cmd_fn fn;
	const char *summary;
} commands[] = {
	{ "servicemanager", cmd_servicemanager,
	  "servicemanager [-v]   become the context manager and serve names" },
	{ "list", cmd_list, "list                  the services the service manager knows, with their\n"
	  "                        interface descriptors" },
	{ "ping", cmd_ping, "ping NAME             PING_TRANSACTION to a service" },
	{ "detect", cmd_detect, "detect                which release's service manager answers (its\n"
	  "                        --api-level name), found by probing" },
	{ "call", cmd_call, "call NAME CODE [ARG]...\n"
	  "                        call a service; ARG is i32:N i64:N s16:TEXT s8:TEXT\n"
	  "                        bool:0|1 fd:PATH binder:NAME null; prints the reply\n"
	  "                        decoded and as hex (kbinder call --help)" },
	{ "serve", cmd_serve, "serve NAME            register an echo service (kbinder.IEcho) and serve it" },
	{ "version", cmd_version, "version               the device's binder protocol version" },
	{ "stats", cmd_stats, "stats                 kbinder's live objects (needs debugfs)" },
	{ "demo", cmd_demo, "demo                  a service manager, a service and a client, with\n"
	  "                        a death notification at the end" },
	{ "monitor", cmd_monitor, "monitor [--interval S] [--count N]\n"
	  "                        per-process transaction rates (upstream driver's\n"
	  "                        debugfs stats) and failed calls (reports), refreshed" },
	{ "report", cmd_report, "report [--count N] [--timeout S]\n"
	  "                        print transaction reports (failed, frozen, spam\n"
	  "                        calls; netlink, mainline 6.18) until interrupted,\n"
	  "                        N reports or S seconds (exit 1 if N reports did\n"
	  "                        not come in time); -d: only that device's reports" },
};

static int usage(FILE *to, int status)
{
	fputs(usage_text, to);
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(to, "  %s\n", commands[i].summary);
	fputs("  help                  this text\n\nEvery command takes --help. See kbinder(1).\n", to);
	return status;
}

/* A level (28..36) or a release of one ("35-qpr1"), as the library names them. */
static bool valid_level(const char *s)
{
	struct kbinder_wire w;

	if (*s && !kbinder_wire_init_name(&w, s))
		return true;
	fprintf(stderr, "kbinder: API level must be %d..%d, 35-qpr1, 35-qpr2, 36-qpr1 or 36-qpr2, not '%s'\n",
		KBINDER_API_LEVEL_MIN, KBINDER_API_LEVEL_MAX, s);
	return false;
}

/* The global options into @tool. Return: -1 to go on, else the exit status. */
static int global_options(int argc, char **argv, struct tool *tool)
{
	static const struct option opts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "api-level", required_argument, NULL, 'a' },
		{ "header", required_argument, NULL, 'H' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	while ((opt = getopt_long(argc, argv, "+d:a:H:h", opts, NULL)) != -1) {
		if (opt == 'd')
			tool->device = optarg;
		else if (opt == 'a' && valid_level(optarg))
			tool->release = optarg;
		else if (opt == 'H' && (tool->marker = tool_header(optarg)))
			continue;
		else if (opt == 'h')
			return usage(stdout, 0);
		else
			return opt == '?' ? usage(stderr, 2) : 2;
	}
	return optind < argc ? -1 : usage(stderr, 2);
}

int main(int argc, char **argv)
{
	struct tool tool = { .marker = KBINDER_MARKER_SYSTEM };
	const char *cmd;
	int status = global_options(argc, argv, &tool);

	if (status >= 0)
		return status;
	cmd = argv[optind];
	if (!strcmp(cmd, "help"))
		return usage(stdout, 0);
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (strcmp(commands[i].name, cmd))
			continue;
		argc -= optind;
		argv += optind;
		optind = 0;	/* the command's own getopt_long() starts afresh */
		return commands[i].fn(&tool, argc, argv);
	}
	fprintf(stderr, "kbinder: unknown command '%s' (kbinder --help)\n", cmd);
	return 2;
}
