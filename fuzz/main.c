// SPDX-License-Identifier: Apache-2.0
/*
 * kbfuzz: a structure-aware fuzzer for a binder device (see fuzz.h).
 *
 * The supervisor: options, the actor processes (spawn, kill, respawn),
 * thawing what actors froze, a watchdog over every thread's heartbeat, the
 * kernel log, and the closing counts and verdict.
 *
 * usage: kbfuzz [--device PATH] [--seed N] [--duration S] [--procs N]
 *               [--threads N] [--kill-ms MS] [--stuck S] [--ops N] [--trace]
 *               [--allow-overread] [--no-binder-fds] [--no-blocking]
 *               [--log-fail PREFIX] [--min-calls N] [--min-deaths N]
 * Prints "PASS fuzz/run" or "FAIL fuzz/run: why"; exit status 0 or 1. A run
 * that delivered fewer than --min-calls calls or cycled fewer than
 * --min-deaths actor processes (killed or exited, then respawned) did too
 * little to count, and fails.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fuzz.h"
#include "kbt_splats.h"	/* generated from tests/vm/splats.list */

struct fz_config fz_cfg = {
	.device = NULL,
	.duration = 60,
	.nprocs = 4,
	.nthreads = 2,
	.kill_ms = 1500,
	.stuck_s = 20,
	.log_fail = "kbinder: ",
};

struct fz_shared *fz_sh;

struct supervisor {
	struct fz_rng rng;
	int kmsg;
	int fd;			/* the device, for thawing */
	int context_lines;	/* kernel log lines still to print */
	uint64_t start;
	uint64_t next_kill;
	uint64_t next_print;
	uint64_t stuck_reported[FZ_MAX_PROCS];
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: kbfuzz [options]\n"
		"  --device PATH   binder device ($BINDER_DEVICE or /dev/binder)\n"
		"  --seed N        seed (default: random; printed)\n"
		"  --duration S    seconds to run (60)\n"
		"  --procs N       actor processes, 2..%d (4)\n"
		"  --threads N     starting threads per process, 1..%d (2)\n"
		"  --kill-ms MS    mean time between SIGKILLs of an actor, 0: none (1500)\n"
		"  --stuck S       a binder call longer than this is a finding (20)\n"
		"  --ops N         each thread stops after N ops, no respawns (replay)\n"
		"  --trace         print every op (slot.generation.thread #seq op/sub arg)\n"
		"  --allow-overread  a command cut by write_size may be consumed past it\n"
		"                  (upstream does): count it instead of failing\n"
		"  --no-binder-fds never send the binder fd itself in FD objects\n"
		"  --no-blocking   always open the device O_NONBLOCK (no blocking reads)\n"
		"  --log-fail P    a kernel log line at error level or worse that starts\n"
		"                  with P is a finding ('kbinder: '; '' for none)\n"
		"  --min-calls N   fail unless at least N calls were delivered (0)\n"
		"  --min-deaths N  fail unless at least N actors died and were\n"
		"                  replaced (killed or exited; 0)\n",
		FZ_MAX_PROCS, FZ_MAX_THREADS);
}

static unsigned long number(const char *s, const char *what)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end || end == s) {
		fprintf(stderr, "kbfuzz: bad %s '%s'\n", what, s);
		exit(2);
	}
	return (unsigned long)v;
}

static void parse_args(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "seed", required_argument, NULL, 's' },
		{ "duration", required_argument, NULL, 't' },
		{ "procs", required_argument, NULL, 'p' },
		{ "threads", required_argument, NULL, 'T' },
		{ "kill-ms", required_argument, NULL, 'k' },
		{ "stuck", required_argument, NULL, 'S' },
		{ "ops", required_argument, NULL, 'o' },
		{ "trace", no_argument, NULL, 'x' },
		{ "allow-overread", no_argument, NULL, 'O' },
		{ "no-binder-fds", no_argument, NULL, 'B' },
		{ "no-blocking", no_argument, NULL, 'N' },
		{ "log-fail", required_argument, NULL, 'L' },
		{ "min-calls", required_argument, NULL, 'c' },
		{ "min-deaths", required_argument, NULL, 'D' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	bool seeded = false;
	int c;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'd': fz_cfg.device = optarg; break;
		case 's': fz_cfg.seed = strtoull(optarg, NULL, 0); seeded = true; break;
		case 't': fz_cfg.duration = (unsigned int)number(optarg, "duration"); break;
		case 'p': fz_cfg.nprocs = (unsigned int)number(optarg, "procs"); break;
		case 'T': fz_cfg.nthreads = (unsigned int)number(optarg, "threads"); break;
		case 'k': fz_cfg.kill_ms = (unsigned int)number(optarg, "kill-ms"); break;
		case 'S': fz_cfg.stuck_s = (unsigned int)number(optarg, "stuck"); break;
		case 'o': fz_cfg.ops = (unsigned int)number(optarg, "ops"); break;
		case 'x': fz_cfg.trace = true; break;
		case 'O': fz_cfg.allow_overread = true; break;
		case 'B': fz_cfg.no_binder_fds = true; break;
		case 'N': fz_cfg.no_blocking = true; break;
		case 'L': fz_cfg.log_fail = optarg; break;
		case 'c': fz_cfg.min_calls = number(optarg, "min-calls"); break;
		case 'D': fz_cfg.min_deaths = number(optarg, "min-deaths"); break;
		case 'h': usage(stdout); exit(0);
		default: usage(stderr); exit(2);
		}
	}
	if (optind < argc || fz_cfg.nprocs < 2 || fz_cfg.nprocs > FZ_MAX_PROCS ||
	    fz_cfg.nthreads < 1 || fz_cfg.nthreads > FZ_MAX_THREADS ||
	    fz_cfg.stuck_s < 1) {
		usage(stderr);
		exit(2);
	}
	if (!fz_cfg.device)
		fz_cfg.device = getenv("BINDER_DEVICE");
	if (!fz_cfg.device || !*fz_cfg.device)
		fz_cfg.device = "/dev/binder";
	if (!seeded) {
		uint64_t s = 0;

		if (getrandom(&s, sizeof(s), 0) != sizeof(s))
			s = fz_now_ns() ^ (uint64_t)getpid();
		fz_cfg.seed = s % 1000000000000ull;
	}
}

/* ------------------------------------------------------------ actors */
static void spawn(int slot)
{
	struct fz_proc_slot *ps = &fz_sh->procs[slot];
	uint32_t gen = atomic_fetch_add(&ps->generation, 1) + 1;
	uint64_t seed = fz_mix(fz_mix(fz_cfg.seed, (uint64_t)slot), gen);
	pid_t pid;

	for (int i = 0; i <= FZ_MAX_THREADS; i++) {
		atomic_store(&ps->threads[i].tid, 0);
		atomic_store(&ps->threads[i].call_start, 0);
		atomic_store(&ps->threads[i].nops, 0);
	}
	atomic_store(&ps->frozen_at, 0);
	atomic_store(&ps->killed_at, 0);
	ps->seed = seed;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		fz_finding(slot, -1, "fork: %s", strerror(errno));
		return;
	}
	if (pid == 0)
		fz_actor_main(slot, gen, seed);
	atomic_store(&ps->pid, pid);
	fz_count(C_SPAWNS, 1);
	if (fz_cfg.trace)
		fprintf(stderr, "kbfuzz: slot %d generation %u pid %d seed %llu\n",
			slot, gen, pid, (unsigned long long)seed);
}

static int slot_of(pid_t pid)
{
	for (unsigned int s = 0; s < fz_cfg.nprocs; s++)
		if (atomic_load(&fz_sh->procs[s].pid) == pid)
			return (int)s;
	return -1;
}

static int reap(bool respawn)
{
	int status, live = 0;
	pid_t pid;

	while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
		int s = slot_of(pid);
		struct fz_proc_slot *ps;

		if (s < 0)
			continue;
		ps = &fz_sh->procs[s];
		if (WIFSIGNALED(status) && WTERMSIG(status) != SIGKILL)
			fz_finding(s, -1, "actor pid %d died of signal %d (%s)", pid,
				   WTERMSIG(status), strsignal(WTERMSIG(status)));
		else if (WIFSIGNALED(status) && !atomic_load(&ps->killed_at))
			fprintf(stderr, "kbfuzz: slot %d pid %d was SIGKILLed, not by us (OOM?)\n",
				s, pid);
		else if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
			fz_finding(s, -1, "actor pid %d exited with status %d", pid,
				   WEXITSTATUS(status));
		atomic_store(&ps->pid, 0);
		for (int i = 0; i <= FZ_MAX_THREADS; i++)
			atomic_store(&ps->threads[i].tid, 0);
		if (respawn && !atomic_load(&fz_sh->stop))
			spawn(s);
	}
	for (unsigned int s = 0; s < fz_cfg.nprocs; s++)
		live += atomic_load(&fz_sh->procs[s].pid) > 0;
	return live;
}

static void kill_slot(int s)
{
	struct fz_proc_slot *ps = &fz_sh->procs[s];
	pid_t pid = atomic_load(&ps->pid);
	uint64_t zero = 0;

	if (pid <= 0)
		return;
	atomic_compare_exchange_strong(&ps->killed_at, &zero, fz_now_ns());
	kill(pid, SIGKILL);
}

static void maybe_kill(struct supervisor *sv, uint64_t now)
{
	int s;

	if (!fz_cfg.kill_ms || fz_cfg.ops || now < sv->next_kill)
		return;
	sv->next_kill = now + (uint64_t)fz_below(&sv->rng, 2 * fz_cfg.kill_ms) * 1000000ull;
	s = (int)fz_below(&sv->rng, fz_cfg.nprocs);
	if (atomic_load(&fz_sh->procs[s].pid) > 0) {
		kill_slot(s);
		fz_count(C_KILLS, 1);
	}
}

static void thaw(struct supervisor *sv, uint64_t now, bool all)
{
	for (unsigned int s = 0; s < fz_cfg.nprocs; s++) {
		struct fz_proc_slot *ps = &fz_sh->procs[s];
		uint64_t at = atomic_load(&ps->frozen_at);
		struct binder_freeze_info fi = { 0 };

		if (!at || (!all && now - at < 500000000ull))
			continue;
		fi.pid = (uint32_t)atomic_load(&ps->pid);
		if (sv->fd >= 0 && fi.pid && ioctl(sv->fd, BINDER_FREEZE, &fi) == 0)
			fz_count(C_THAWS, 1);
		atomic_store(&ps->frozen_at, 0);
	}
}

/* ------------------------------------------------------------ watchdog */
static void print_file(const char *path, const char *label)
{
	char buf[2048];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = 0;
	fprintf(stderr, "  %s:\n%s%s", label, buf, buf[n - 1] == '\n' ? "" : "\n");
}

/* What every task of @pid is doing in the kernel. */
static void dump_tasks(pid_t pid)
{
	char path[64];
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d))) {
		char p2[300], label[300];

		if (de->d_name[0] == '.')
			continue;
		snprintf(p2, sizeof(p2), "/proc/%d/task/%s/wchan", pid, de->d_name);
		snprintf(label, sizeof(label), "task %s wchan", de->d_name);
		print_file(p2, label);
		snprintf(p2, sizeof(p2), "/proc/%d/task/%s/stack", pid, de->d_name);
		snprintf(label, sizeof(label), "task %s kernel stack", de->d_name);
		print_file(p2, label);
	}
	closedir(d);
}

static void watchdog(struct supervisor *sv, uint64_t now)
{
	uint64_t stuck = (uint64_t)fz_cfg.stuck_s * 1000000000ull;
	uint64_t idle = stuck * 2 > 30000000000ull ? stuck * 2 : 30000000000ull;

	for (unsigned int s = 0; s < fz_cfg.nprocs; s++) {
		struct fz_proc_slot *ps = &fz_sh->procs[s];
		pid_t pid = atomic_load(&ps->pid);
		uint64_t killed = atomic_load(&ps->killed_at);

		if (pid <= 0 || sv->stuck_reported[s] == (uint64_t)pid)
			continue;
		if (killed && now > killed && now - killed > 10000000000ull) {
			sv->stuck_reported[s] = (uint64_t)pid;
			fz_finding((int)s, -1, "pid %d has not exited %llu s after SIGKILL",
				   pid, (unsigned long long)((now - killed) / 1000000000ull));
			dump_tasks(pid);
			continue;
		}
		for (int i = 0; i <= FZ_MAX_THREADS; i++) {
			struct fz_thread_slot *ts = &ps->threads[i];
			uint64_t start = atomic_load(&ts->call_start);
			uint64_t progress = atomic_load(&ts->progress);
			int tid = atomic_load(&ts->tid);

			if (!tid)
				continue;
			if (start && now > start && now - start > stuck) {
				sv->stuck_reported[s] = (uint64_t)pid;
				fz_finding((int)s, i, "pid %d tid %d stuck in %s for %llu s",
					   pid, tid, fz_call_name(atomic_load(&ts->call)),
					   (unsigned long long)((now - start) / 1000000000ull));
				dump_tasks(pid);
				kill_slot((int)s);
				break;
			}
			if (!start && progress && now > progress && now - progress > idle &&
			    !killed) {
				sv->stuck_reported[s] = (uint64_t)pid;
				fz_finding((int)s, i,
					   "kbfuzz bug: pid %d tid %d made no progress for %llu s outside the driver",
					   pid, tid,
					   (unsigned long long)((now - progress) / 1000000000ull));
				dump_tasks(pid);
				kill_slot((int)s);
				break;
			}
		}
	}
}

/* ------------------------------------------------------------ kernel log */
static void kmsg_open(struct supervisor *sv)
{
	sv->kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (sv->kmsg >= 0)
		lseek(sv->kmsg, 0, SEEK_END);
}

static void kmsg_scan(struct supervisor *sv)
{
	char rec[2048];

	while (sv->kmsg >= 0) {
		ssize_t n = read(sv->kmsg, rec, sizeof(rec) - 1);
		double secs;
		char *msg;
		int level;

		if (n < 0 && errno == EPIPE)
			continue;	/* records were overwritten */
		if (n <= 0)
			return;
		rec[n] = 0;
		/* "prio,seq,usec,flags;text": the level is prio's low 3 bits */
		level = (int)(strtol(rec, NULL, 10) & 7);
		msg = strchr(rec, ';');
		msg = msg ? msg + 1 : rec;
		msg[strcspn(msg, "\n")] = 0;
		if (sv->context_lines > 0) {
			sv->context_lines--;
			fprintf(stderr, "kbfuzz: kernel: %s\n", msg);
			continue;
		}
		secs = (double)(fz_now_ns() - sv->start) / 1e9;
		/* tests/vm/splats.list: the harness and the host scan read it too */
		if (kbt_splat_match(msg)) {
			fz_finding(-1, -1, "kernel log after %.1f s: %s", secs, msg);
			sv->context_lines = 60;
		}
		/* the driver reporting its own broken state (pr_err and worse;
		 * what userspace did wrong is never logged at that level) */
		if (level <= 3 && *fz_cfg.log_fail &&
		    !strncmp(msg, fz_cfg.log_fail, strlen(fz_cfg.log_fail)) &&
		    !sv->context_lines) {
			fz_count(C_LOG_ERRORS, 1);
			fz_finding(-1, -1, "driver error log after %.1f s: %s", secs, msg);
			sv->context_lines = 60;
		}
	}
}

/* ------------------------------------------------------------ report */
static uint64_t cnt(enum fz_counter c)
{
	return atomic_load(&fz_sh->counters[c]);
}

static void progress_line(struct supervisor *sv, uint64_t now)
{
	double secs = (double)(now - sv->start) / 1e9;

	printf("kbfuzz: %5.0f s: %llu ops, %llu transactions, %llu received, %llu deaths, %llu findings\n",
	       secs, (unsigned long long)cnt(C_OPS),
	       (unsigned long long)(cnt(C_TXN_SYNC) + cnt(C_TXN_ONEWAY)),
	       (unsigned long long)(cnt(C_RECV_TXN) + cnt(C_RECV_REPLY)),
	       (unsigned long long)(cnt(C_KILLS) + cnt(C_EXITS)),
	       (unsigned long long)(atomic_load(&fz_sh->finding) ? 1 : 0));
	fflush(stdout);
}

static void summary(struct supervisor *sv)
{
	double secs = (double)(fz_now_ns() - sv->start) / 1e9;
	uint64_t txns = cnt(C_TXN_SYNC) + cnt(C_TXN_ONEWAY);

	printf("kbfuzz: seed %llu, %.1f s on %s, %u processes: %llu ops (%.0f/s), "
	       "%llu transactions (%.0f/s: %llu sync, %llu one-way, %llu built invalid), "
	       "%llu replies, %llu delivered (%llu calls, %llu replies), "
	       "%llu deaths (%llu kills, %llu exits), %llu thread exits, %llu freezes\n",
	       (unsigned long long)fz_cfg.seed, secs, fz_cfg.device, fz_cfg.nprocs,
	       (unsigned long long)cnt(C_OPS), (double)cnt(C_OPS) / secs,
	       (unsigned long long)txns, (double)txns / secs,
	       (unsigned long long)cnt(C_TXN_SYNC), (unsigned long long)cnt(C_TXN_ONEWAY),
	       (unsigned long long)cnt(C_TXN_INVALID), (unsigned long long)cnt(C_REPLIES),
	       (unsigned long long)(cnt(C_RECV_TXN) + cnt(C_RECV_REPLY)),
	       (unsigned long long)cnt(C_RECV_TXN), (unsigned long long)cnt(C_RECV_REPLY),
	       (unsigned long long)(cnt(C_KILLS) + cnt(C_EXITS)),
	       (unsigned long long)cnt(C_KILLS), (unsigned long long)cnt(C_EXITS),
	       (unsigned long long)cnt(C_THREAD_EXITS), (unsigned long long)cnt(C_FREEZES));
	printf("kbfuzz: well-formed calls that failed, by errno:");
	for (int e = 0; e < FZ_ERRNO_SLOTS; e++) {
		const char *name = e ? strerrorname_np(e) : "none-or-other";

		if (atomic_load(&fz_sh->failed_errno[e]))
			printf(" %s=%llu", name ? name : "unnamed",
			       (unsigned long long)atomic_load(&fz_sh->failed_errno[e]));
	}
	printf("\n");
	printf("kbfuzz: counters:");
	for (int c = 0; c < C_NR; c++)
		printf(" %s=%llu", fz_counter_name(c), (unsigned long long)cnt(c));
	printf("\n");
}

int main(int argc, char **argv)
{
	struct supervisor sv = { .kmsg = -1, .fd = -1 };
	uint64_t deadline, now;
	int live;

	setvbuf(stdout, NULL, _IOLBF, 0);
	parse_args(argc, argv);
	fz_sh = mmap(NULL, sizeof(*fz_sh), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (fz_sh == MAP_FAILED) {
		perror("kbfuzz: mmap");
		return 1;
	}
	fz_sh->seed = fz_cfg.seed;
	fz_rng_seed(&sv.rng, fz_mix(fz_cfg.seed, 0x5eed));
	printf("kbfuzz: seed %llu device %s duration %u s, %u processes x %u threads, kill every ~%u ms, stuck after %u s\n",
	       (unsigned long long)fz_cfg.seed, fz_cfg.device, fz_cfg.duration,
	       fz_cfg.nprocs, fz_cfg.nthreads, fz_cfg.kill_ms, fz_cfg.stuck_s);
	printf("kbfuzz: reproduce: kbfuzz --seed %llu --procs %u --threads %u --kill-ms %u --duration %u%s\n",
	       (unsigned long long)fz_cfg.seed, fz_cfg.nprocs, fz_cfg.nthreads,
	       fz_cfg.kill_ms, fz_cfg.duration,
	       fz_cfg.no_blocking ? " --no-blocking" : "");
	signal(SIGPIPE, SIG_IGN);
	kmsg_open(&sv);
	sv.fd = open(fz_cfg.device, O_RDWR | O_CLOEXEC | O_NONBLOCK);
	if (sv.fd < 0) {
		printf("FAIL fuzz/run: cannot open %s: %s (seed %llu)\n", fz_cfg.device,
		       strerror(errno), (unsigned long long)fz_cfg.seed);
		return 1;
	}
	sv.start = fz_now_ns();
	deadline = sv.start + (uint64_t)fz_cfg.duration * 1000000000ull;
	sv.next_kill = sv.start + 300000000ull;
	sv.next_print = sv.start + 10000000000ull;
	for (unsigned int s = 0; s < fz_cfg.nprocs; s++)
		spawn((int)s);

	while ((now = fz_now_ns()) < deadline && !atomic_load(&fz_sh->stop)) {
		live = reap(!fz_cfg.ops);
		if (fz_cfg.ops && !live)
			break;
		maybe_kill(&sv, now);
		thaw(&sv, now, false);
		watchdog(&sv, now);
		kmsg_scan(&sv);
		if (now >= sv.next_print) {
			progress_line(&sv, now);
			sv.next_print += 10000000000ull;
		}
		usleep(50 * 1000);
	}

	/* Wind down: actors leave after their current (bounded) op. */
	atomic_store(&fz_sh->stop, 1);
	thaw(&sv, fz_now_ns(), true);
	deadline = fz_now_ns() + 20000000000ull;
	while ((live = reap(false)) && (now = fz_now_ns()) < deadline) {
		watchdog(&sv, now);
		kmsg_scan(&sv);
		usleep(50 * 1000);
	}
	if (live) {
		for (unsigned int s = 0; s < fz_cfg.nprocs; s++) {
			pid_t pid = atomic_load(&fz_sh->procs[s].pid);

			if (pid <= 0)
				continue;
			fz_finding((int)s, -1, "pid %d still running 20 s after the end",
				   pid);
			dump_tasks(pid);
			kill_slot((int)s);
		}
		deadline = fz_now_ns() + 10000000000ull;
		while ((live = reap(false)) && fz_now_ns() < deadline)
			usleep(50 * 1000);
		if (live)
			printf("kbfuzz: %d actors could not be killed\n", live);
	}
	close(sv.fd);
	usleep(500 * 1000);	/* deferred release work, then its log */
	kmsg_scan(&sv);
	sv.context_lines = 0;
	summary(&sv);
	if (fz_reach_report())
		fz_finding(-1, -1, "a handler the device's profile refuses was reached");
	if (atomic_load(&fz_sh->finding)) {
		printf("FAIL fuzz/run: %s (seed %llu)\n", fz_sh->finding_msg,
		       (unsigned long long)fz_cfg.seed);
		return 1;
	}
	/* A run that did (almost) nothing found nothing: it does not pass. */
	if (cnt(C_RECV_TXN) < fz_cfg.min_calls ||
	    cnt(C_KILLS) + cnt(C_EXITS) < fz_cfg.min_deaths) {
		printf("FAIL fuzz/run: too little work to count: %llu calls delivered (at least %lu wanted), %llu actors died and were replaced (at least %lu wanted) (seed %llu)\n",
		       (unsigned long long)cnt(C_RECV_TXN), fz_cfg.min_calls,
		       (unsigned long long)(cnt(C_KILLS) + cnt(C_EXITS)),
		       fz_cfg.min_deaths, (unsigned long long)fz_cfg.seed);
		return 1;
	}
	printf("PASS fuzz/run\n");
	return 0;
}
