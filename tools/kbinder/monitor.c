// SPDX-License-Identifier: Apache-2.0
/*
 * `kbinder monitor`: per-process binder activity, refreshed in place.
 *
 * Two sources, whichever the driver has:
 *   - per-process command counters in the upstream driver's debugfs
 *     (/sys/kernel/debug/binder/stats: "proc PID" blocks with
 *     "BC_TRANSACTION: n" and "BC_REPLY: n" lines), turned into rates;
 *   - failed, frozen and spam calls from the transaction reports
 *     (generic netlink, kbinder and mainline 6.18), counted per sender.
 * kbinder's own debugfs has no per-process counters, so on kbinder the
 * monitor shows the failures only, and says so.
 */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tool.h"

#define MON_PROCS 256
#define UPSTREAM_STATS "/sys/kernel/debug/binder/stats"

struct mon_proc {
	int pid;
	unsigned long txn, reply;		/* counters now */
	unsigned long txn_prev, reply_prev;	/* at the last refresh */
	unsigned long failed;			/* reports with this sender */
	uint32_t last_error;
	bool seen;				/* in the stats this round */
};

struct monitor {
	struct mon_proc procs[MON_PROCS];
	bool have_stats;
	int reports;				/* 0, or why there are none */
};

static struct mon_proc *mon_find(struct monitor *m, int pid, bool add)
{
	struct mon_proc *free_slot = NULL;

	for (int i = 0; i < MON_PROCS; i++) {
		if (m->procs[i].pid == pid)
			return &m->procs[i];
		if (!m->procs[i].pid && !free_slot)
			free_slot = &m->procs[i];
	}
	if (!add || !free_slot)
		return NULL;
	memset(free_slot, 0, sizeof(*free_slot));
	free_slot->pid = pid;
	return free_slot;
}

/* Read the upstream driver's per-process counters. */
static void mon_read_stats(struct monitor *m)
{
	struct mon_proc *p = NULL;
	char line[256];
	unsigned long n;
	int pid;
	FILE *f = fopen(UPSTREAM_STATS, "r");

	m->have_stats = f != NULL;
	if (!f)
		return;
	for (int i = 0; i < MON_PROCS; i++)
		m->procs[i].seen = false;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "proc %d", &pid) == 1) {
			p = mon_find(m, pid, true);
			if (p) {
				p->seen = true;
				p->txn = p->reply = 0;
			}
		} else if (p && sscanf(line, " BC_TRANSACTION: %lu", &n) == 1) {
			p->txn = n;
		} else if (p && sscanf(line, " BC_REPLY: %lu", &n) == 1) {
			p->reply = n;
		}
	}
	fclose(f);
}

static void mon_comm(int pid, char *out, size_t size)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	f = fopen(path, "r");
	if (!f || !fgets(out, (int)size, f))
		snprintf(out, size, "(gone)");
	else
		out[strcspn(out, "\n")] = '\0';
	if (f)
		fclose(f);
}

static void mon_print(struct monitor *m, double secs, bool tty)
{
	char comm[32];

	if (tty)
		printf("\033[H\033[J");
	printf("kbinder monitor: %s, every %.1f s\n",
	       m->have_stats ? "upstream per-process counters" :
	       "no per-process counters from this driver (kbinder has none)",
	       secs);
	if (m->reports == -ENOENT)
		printf("transaction reports: none (no \"binder\" netlink family: a driver before 6.18)\n");
	else if (m->reports)
		printf("transaction reports: %s\n", strerror(-m->reports));
	printf("%7s %-16s %9s %9s %8s %s\n", "PID", "COMM", "TXN/s", "REPLY/s",
	       "FAILED", "LAST");
	for (int i = 0; i < MON_PROCS; i++) {
		struct mon_proc *p = &m->procs[i];

		if (!p->pid || (m->have_stats && !p->seen && !p->failed))
			continue;
		mon_comm(p->pid, comm, sizeof(comm));
		if (m->have_stats && p->seen)
			printf("%7d %-16s %9.1f %9.1f", p->pid, comm,
			       (double)(p->txn - p->txn_prev) / secs,
			       (double)(p->reply - p->reply_prev) / secs);
		else
			printf("%7d %-16s %9s %9s", p->pid, comm, "-", "-");
		printf(" %8lu %s\n", p->failed,
		       p->failed ? kbinder_return_name(p->last_error) : "");
		p->txn_prev = p->txn;
		p->reply_prev = p->reply;
	}
	fflush(stdout);
}

static const char usage[] =
"kbinder monitor [--interval S] [--count N]\n"
"  Per-process transaction and reply rates (from the upstream\n"
"  driver's debugfs stats; kbinder has no per-process counters) and\n"
"  failed calls per sender (from the transaction reports), refreshed\n"
"  every S seconds (1), N times (0: until interrupted).\n";

/* Return: -1 to go on, else the exit status. */
static int monitor_parse(int argc, char **argv, double *secs, long *count)
{
	static const struct option opts[] = {
		{ "interval", required_argument, NULL, 'i' },
		{ "count", required_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 },
	};
	int opt, status = -1;

	while ((opt = tool_options(argc, argv, "i:n:", opts, usage, &status)) != -1) {
		if (opt == 'i')
			*secs = atof(optarg);
		else if (tool_parse_long(optarg, LONG_MAX, count))
			return tool_usage_error(argv[0], usage);
	}
	if (status >= 0)
		return status;
	if (*secs < 0.1)
		*secs = 0.1;
	return optind == argc ? -1 : tool_usage_error(argv[0], usage);
}

/* Count the failed calls reported until @next (ms), or just wait without reports. */
static void mon_collect(struct monitor *m, struct kbinder_report_listener *l, int64_t next)
{
	struct kbinder_report r;

	while (tool_now_ms() < next) {
		int left = (int)(next - tool_now_ms());
		struct mon_proc *p;
		int err;

		if (m->reports) {
			usleep((useconds_t)left * 1000);
			return;
		}
		err = kbinder_report_next(l, &r, left > 0 ? left : 0);
		if (err == -ETIMEDOUT || err == -ENOBUFS)
			continue;
		if (err) {
			usleep((useconds_t)(left > 0 ? left : 0) * 1000);
			return;
		}
		p = mon_find(m, (int)r.from_pid, true);
		if (p) {
			p->failed++;
			p->last_error = r.error;
		}
	}
}

int cmd_monitor(const struct tool *tool, int argc, char **argv)
{
	static struct monitor m;
	struct kbinder_report_listener l;
	double secs = 1.0;
	long count = 0;
	bool tty = isatty(1);
	int err = monitor_parse(argc, argv, &secs, &count);

	(void)tool;
	if (err >= 0)
		return err;
	m.reports = kbinder_report_open(&l);
	mon_read_stats(&m);
	for (int i = 0; i < MON_PROCS; i++) {
		m.procs[i].txn_prev = m.procs[i].txn;
		m.procs[i].reply_prev = m.procs[i].reply;
	}
	if (!m.have_stats && m.reports) {
		fprintf(stderr, "kbinder: nothing to monitor: no %s and no transaction reports (%s)\n",
			UPSTREAM_STATS, strerror(-m.reports));
		return 1;
	}
	for (long round = 0; !count || round < count; round++) {
		mon_collect(&m, &l, tool_now_ms() + (int64_t)(secs * 1000));
		mon_read_stats(&m);
		mon_print(&m, secs, tty);
	}
	if (!m.reports)
		kbinder_report_close(&l);
	return 0;
}
