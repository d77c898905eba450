// SPDX-License-Identifier: Apache-2.0
/*
 * kbbench - one binder workload against several drivers in the same boot,
 * interleaved so that the noise of an emulated, shared machine cancels out.
 *
 * usage: kbbench [options] WORKLOAD
 *   WORKLOAD   sync:BYTES | oneway:BYTES | objects:N | fd | multi:CLIENTS |
 *              refs:N (sync 4 B calls spread over N nodes of the server the
 *              client holds a reference on, N <= 100000: handle lookups)
 *   --reference DEV   the upstream driver's device (/dev/binder)
 *   --kbinder DEV     kbinder's device (/dev/kbinder)
 *   --reference2 DEV  the upstream driver again under a second name: the
 *                     A/A control that shows the noise floor (/dev/binder2)
 *   --old DEV         kbinder built from another commit (make bench
 *                     OLD=REV), under its own module and device name: a
 *                     change to kbinder measured against the code before it
 *   --results FILE    append one `BENCH {json}` line for the workload
 *   --rounds N --batch N   override the workload's defaults
 *   --scale F         multiply the rounds (also $BENCH_SCALE)
 *   --timeout S       give up on a batch after S seconds (20)
 *   --budget S        stop after the round that ends S seconds into the
 *                     workload, if at least 10 rounds are done (also
 *                     $BENCH_BUDGET; default 20): a loaded host gets fewer
 *                     rounds, not a bench that never ends
 *   --baselines 0     no pipe, unix or memcpy channel (for a profile of
 *                     the binder channels alone)
 *   --cpu N           run the client and every server on CPU N only; the
 *                     round trip then costs what the driver and the
 *                     scheduler do, without cross-CPU wake-ups (whose cost
 *                     under emulation is mostly the emulator's)
 *   --insn OPS        count instead of timing (make bench-insn): per
 *                     channel, OPS operations between the markers of the
 *                     QEMU instruction-count plugin (kbbench_insn.h); pipe
 *                     and unix ping-pong beside every sync size, and up to
 *                     128 B the futex and eventfd ping-pongs and the null
 *                     system call (kbbench_floor.h)
 *
 * Every binder device gets its own server process (context manager); pipe
 * and unix-socket servers answer the ping-pong baselines; "memcpy" is one
 * copy of the payload in the client, the bound a single-copy IPC cannot
 * beat. One client process holds all of them and runs, round after round,
 * a batch of calls on each (the order rotating every round). Per channel it
 * keeps every call's latency; per round it keeps the batch's median (or,
 * for throughput workloads, the batch's time per call), and compares
 * channels round by round: the spread of those per-round ratios is what a
 * ratio is worth on this machine.
 *
 * A channel that cannot be set up or fails mid-run is reported unavailable
 * with the reason; the others go on. Every wait has a deadline.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <sched.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_server.h"
#include "binder_io.h"
#include "kbbench.h"
#include "kbbench_floor.h"
#include "stats.h"

static struct chan ch[MAX_CHANNELS];
static int nch;
static uint8_t *payload, *copy_dst;
static int null_fd = -1;
static unsigned int batch_timeout = 20;
static double budget_s = 20;

#define MIN_ROUNDS 10

/* out_of_time: after round @r (from 0, warm-up included), whether to stop;
 * then @w->rounds becomes the number of measured rounds. */
static int out_of_time(struct workload *w, int r, uint64_t start)
{
	int measured = r + 1 - WARMUP_ROUNDS;

	if (measured < MIN_ROUNDS || measured >= w->rounds ||
	    (double)(bio_now_ns() - start) < budget_s * 1e9)
		return 0;
	w->rounds = measured;
	return 1;
}

static void die(const char *msg)
{
	fprintf(stderr, "kbbench: %s\n", msg);
	exit(2);
}

#include "kbbench_report.h"

/* ------------------------------------------------------------ processes */

static pid_t start_child(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() == 1)
			_exit(1);
	}
	return pid;
}

/* wait_ready: the server's first words: "ok" or why it failed. */
static int wait_ready(int fd, char *why, size_t whylen)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	char buf[160];
	ssize_t n;

	if (poll(&p, 1, (int)batch_timeout * 1000) <= 0) {
		snprintf(why, whylen, "server did not start within %us", batch_timeout);
		return -1;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	if (n <= 0) {
		snprintf(why, whylen, "server died while starting");
		return -1;
	}
	buf[n] = 0;
	if (strcmp(buf, "ok") != 0) {
		snprintf(why, whylen, "server: %s", buf);
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------ channels */

static void chan_fail(struct chan *c, const char *what, int err)
{
	if (!c->ok)
		return;
	c->ok = 0;
	if (err == -ETIMEDOUT)
		snprintf(c->why, sizeof(c->why), "%s: no answer within %us", what,
			 batch_timeout);
	else if (err == -EBADMSG)
		snprintf(c->why, sizeof(c->why), "%s: failed reply", what);
	else if (err == -ERANGE)
		snprintf(c->why, sizeof(c->why), "%s: wrong answer", what);
	else
		snprintf(c->why, sizeof(c->why), "%s: %s", what, strerror(-err));
	fprintf(stderr, "kbbench: %s unavailable from now on: %s\n", c->name, c->why);
}

static void chan_add(const char *name, enum chan_kind kind, const char *dev)
{
	struct chan *c;

	if (nch >= MAX_CHANNELS)
		die("too many channels");
	c = &ch[nch++];
	memset(c, 0, sizeof(*c));
	c->name = name;
	c->kind = kind;
	c->dev = dev;
	c->fd = c->wfd = c->efd = -1;
	c->b.fd = -1;
	c->b.map = MAP_FAILED;
}

/* chan_start_server: fork the channel's server (binder: not yet connected). */
static void chan_start_server(struct chan *c, int threads)
{
	int rp[2], sv[2], up[2], down[2];

	c->ok = 1;
	if (c->kind == CH_MEMCPY || c->kind == CH_SYSCALL)
		return;
	if (c->kind == CH_FUTEX) {
		c->floor = floor_map();
		if (!c->floor)
			die("mmap");
		c->server = start_child();
		if (c->server == 0)
			floor_futex_server(c->floor);
		if (c->server < 0)
			c->ok = 0;
		return;
	}
	if (c->kind == CH_EVENTFD) {
		int req = eventfd(0, EFD_CLOEXEC), ans = eventfd(0, EFD_CLOEXEC);

		if (req < 0 || ans < 0)
			die("eventfd");
		c->server = start_child();
		if (c->server == 0)
			floor_eventfd_server(req, ans);
		if (c->server < 0)
			c->ok = 0;
		c->wfd = req;
		c->fd = ans;
		return;
	}
	if (c->kind == CH_BINDER) {
		c->efd = eventfd(0, EFD_CLOEXEC);
		if (pipe2(rp, O_CLOEXEC) < 0 || c->efd < 0)
			die("pipe");
		c->server = start_child();
		if (c->server == 0) {
			close(rp[0]);
			srv_efd = c->efd;
			srv_binder_main(c->dev, threads, rp[1]);
		}
		close(rp[1]);
		if (c->server < 0 || wait_ready(rp[0], c->why, sizeof(c->why)) < 0)
			c->ok = 0;
		close(rp[0]);
		return;
	}
	if (c->kind == CH_UNIX) {
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
			die("socketpair");
		c->server = start_child();
		if (c->server == 0) {
			close(sv[0]);
			srv_stream_main(sv[1], sv[1]);
		}
		close(sv[1]);
		c->fd = c->wfd = sv[0];
		return;
	}
	if (pipe2(up, O_CLOEXEC) < 0 || pipe2(down, O_CLOEXEC) < 0)
		die("pipe");
	c->server = start_child();
	if (c->server == 0) {
		close(up[1]);
		close(down[0]);
		srv_stream_main(up[0], down[1]);
	}
	close(up[0]);
	close(down[1]);
	c->wfd = up[1];
	c->fd = down[0];
}

static void chan_stop(struct chan *c)
{
	int i;

	if (c->kind == CH_BINDER)
		bio_close(&c->b);
	if (c->efd >= 0)
		close(c->efd);
	c->efd = -1;
	if (c->fd >= 0)
		close(c->fd);
	if (c->wfd >= 0 && c->wfd != c->fd)
		close(c->wfd);
	c->fd = c->wfd = -1;
	if (c->floor)
		munmap(c->floor, sizeof(*c->floor));
	c->floor = NULL;
	if (c->server > 0) {
		kill(c->server, SIGKILL);
		for (i = 0; i < 500; i++) {
			if (waitpid(c->server, NULL, WNOHANG) != 0)
				break;
			usleep(10000);
		}
		c->server = 0;
	}
}

/* Payload of one call: a sequence number at both ends, checked by the server. */
static void stamp(size_t size, uint32_t seq)
{
	memcpy(payload, &seq, 4);
	if (size >= 8)
		memcpy(payload + size - 4, &seq, 4);
}

static int binder_sync_on(struct bio *b, uint32_t handle, uint32_t code,
			  const void *data, size_t size,
			  const binder_size_t *offs, size_t noffs, uint32_t seq)
{
	struct bio_reply r = { 0 };
	uint32_t got;
	int rc = bio_call(b, handle, code, 0, data, size, offs, noffs, &r);

	if (rc)
		return rc;
	if (r.size != 4)
		return -ERANGE;
	memcpy(&got, r.data, 4);
	return got == seq ? 0 : -ERANGE;
}

static int binder_sync(struct bio *b, uint32_t code, const void *data, size_t size,
		       const binder_size_t *offs, size_t noffs, uint32_t seq)
{
	return binder_sync_on(b, 0, code, data, size, offs, noffs, seq);
}

/*
 * binder_take_refs: @n nodes of @c's server, a strong reference of the
 * client's own on each (BC_ACQUIRE before the reply that carried it is
 * freed), their handles in @c->handles.
 */
static int binder_take_refs(struct chan *c, struct bio *b, int n)
{
	struct srv_nodes_req q = { .seq = 7 };
	struct bio_reply r;
	struct bio_cmds w;
	struct flat_binder_object fbo;
	size_t i;
	long rc;

	c->handles = calloc((size_t)n, sizeof(*c->handles));
	if (!c->handles)
		return -ENOMEM;
	for (q.first = 0; q.first < (uint32_t)n; q.first += q.count) {
		q.count = (uint32_t)n - q.first;
		if (q.count > NODES_PER_REPLY)
			q.count = NODES_PER_REPLY;
		memset(&r, 0, sizeof(r));
		rc = bio_call(b, 0, CODE_NODES, 0, &q, sizeof(q), NULL, 0, &r);
		if (rc)
			return (int)rc;
		if (r.noffs != q.count)
			return -EPROTO;
		w.len = 0;
		w.overflow = 0;
		for (i = 0; i < r.noffs; i++) {
			memcpy(&fbo, r.data + r.offs[i], sizeof(fbo));
			if (fbo.hdr.type != BINDER_TYPE_HANDLE)
				return -EPROTO;
			c->handles[q.first + i] = fbo.handle;
			bio_put_u32(&w, BC_ACQUIRE);
			bio_put_u32(&w, fbo.handle);
			if (w.len + 8 > sizeof(w.data) || i + 1 == r.noffs) {
				rc = bio_ioctl_wr(b->fd, w.data, w.len, NULL, 0);
				if (rc < 0)
					return (int)rc;
				w.len = 0;
			}
		}
	}
	return 0;
}

/* The handle of a WL_REFS call: spread over all of them. */
static uint32_t refs_handle(const struct chan *c, const struct workload *w, uint32_t seq)
{
	return c->handles[(uint64_t)seq * 7919u % (uint64_t)w->refs];
}

/*
 * binder_oneway_last: the batch's last one-way call; returns when the
 * server has handled it (and so every earlier one: one-way calls to a node
 * are delivered in order).
 */
static int binder_oneway_last(struct chan *c, struct bio *b, size_t size, uint32_t seq)
{
	struct pollfd p = { .fd = c->efd, .events = POLLIN };
	uint64_t v;
	int rc;

	stamp(size, seq);
	rc = bio_call(b, 0, CODE_ONEWAY_LAST, TF_ONE_WAY, payload, size, NULL, 0, NULL);
	if (rc)
		return rc;
	for (;;) {
		if (poll(&p, 1, (int)batch_timeout * 1000) > 0)
			break;
		if (bio_alarm_fired || errno != EINTR)
			return -ETIMEDOUT;
	}
	if (read(c->efd, &v, sizeof(v)) != sizeof(v))
		return -EIO;
	return v == seq ? 0 : -ERANGE;
}

/* Objects of the objects and fd workloads: a header word, then the objects. */
static struct {
	uint32_t seq, pad;
	union {
		struct flat_binder_object fbo[16];
		struct binder_fd_object fd;
	} u;
} objs;
static binder_size_t objs_offs[16];

static int binder_objects(struct bio *b, size_t n, uint32_t seq)
{
	size_t i;

	objs.seq = seq;
	for (i = 0; i < n; i++) {
		memset(&objs.u.fbo[i], 0, sizeof(objs.u.fbo[i]));
		objs.u.fbo[i].hdr.type = BINDER_TYPE_BINDER;
		objs.u.fbo[i].flags = FLAT_BINDER_FLAG_ACCEPTS_FDS | 0x7f;
		objs.u.fbo[i].binder = 0x10000 + 0x100 * i;
		objs.u.fbo[i].cookie = 0x20000 + 0x100 * i;
		objs_offs[i] = 8 + i * sizeof(struct flat_binder_object);
	}
	return binder_sync(b, CODE_OBJECTS, &objs,
			   8 + n * sizeof(struct flat_binder_object), objs_offs, n, seq);
}

static int binder_fd(struct bio *b, uint32_t seq)
{
	objs.seq = seq;
	memset(&objs.u.fd, 0, sizeof(objs.u.fd));
	objs.u.fd.hdr.type = BINDER_TYPE_FD;
	objs.u.fd.fd = (uint32_t)null_fd;
	objs_offs[0] = 8;
	return binder_sync(b, CODE_FD, &objs, 8 + sizeof(objs.u.fd), objs_offs, 1, seq);
}

static int stream_call(struct chan *c, size_t size)
{
	size_t done = 0;

	if (write(c->wfd, payload, size) != (ssize_t)size)
		return bio_alarm_fired ? -ETIMEDOUT : -EIO;
	while (done < size) {
		ssize_t n = read(c->fd, copy_dst + done, size - done);

		if (n > 0) {
			done += (size_t)n;
			continue;
		}
		if (n < 0 && errno == EINTR && !bio_alarm_fired)
			continue;
		return bio_alarm_fired ? -ETIMEDOUT : -EIO;
	}
	return 0;
}

/* chan_call: one call of workload @w on @c (for WL_ONEWAY: one one-way call). */
static int chan_call(struct chan *c, struct bio *b, const struct workload *w, uint32_t seq)
{
	switch (c->kind) {
	case CH_MEMCPY:
		memcpy(copy_dst, payload, w->size);
		__asm__ volatile("" : : "r"(copy_dst) : "memory");
		return 0;
	case CH_PIPE:
	case CH_UNIX:
		return stream_call(c, w->size);
	case CH_FUTEX:
		return floor_call(FLOOR_FUTEX, c->floor, -1, -1, seq);
	case CH_EVENTFD:
		return floor_call(FLOOR_EVENTFD, NULL, c->wfd, c->fd, seq);
	case CH_SYSCALL:
		return floor_call(FLOOR_SYSCALL, NULL, -1, -1, seq);
	case CH_BINDER:
		break;
	}
	switch (w->kind) {
	case WL_SYNC:
	case WL_MULTI:
		stamp(w->size, seq);
		return binder_sync(b, CODE_ECHO, payload, w->size, NULL, 0, seq);
	case WL_REFS:
		stamp(w->size, seq);
		return binder_sync_on(b, refs_handle(c, w, seq), CODE_ECHO, payload,
				      w->size, NULL, 0, seq);
	case WL_ONEWAY:
		stamp(w->size, seq);
		return bio_call(b, 0, CODE_ONEWAY, TF_ONE_WAY, payload, w->size, NULL, 0, NULL);
	case WL_OBJECTS:
		return binder_objects(b, w->size, seq);
	case WL_FD:
		return binder_fd(b, seq);
	}
	return -EINVAL;
}

/* chan_connect: the client's side of a binder channel, checked with one call. */
static void chan_connect(struct chan *c, const struct workload *w)
{
	int rc;

	if (!c->ok || c->kind != CH_BINDER)
		return;
	if (bio_open(&c->b, c->dev, CLIENT_MAP, c->why, sizeof(c->why)) < 0) {
		c->ok = 0;
		return;
	}
	if (w->kind == WL_REFS) {
		/* Not in the rounds; how long it took is printed. */
		uint64_t t0 = bio_now_ns();

		bio_deadline(batch_timeout);
		rc = binder_take_refs(c, &c->b, w->refs);
		bio_deadline(0);
		if (rc) {
			chan_fail(c, "taking the references", rc);
			return;
		}
		printf("  %-10s took %d references in %.0f ms\n", c->name, w->refs,
		       (double)(bio_now_ns() - t0) / 1e6);
	}
	bio_deadline(batch_timeout);
	if (w->kind == WL_ONEWAY)
		rc = binder_oneway_last(c, &c->b, w->size, 7);
	else
		rc = chan_call(c, &c->b, w, 7);
	bio_deadline(0);
	if (rc)
		chan_fail(c, "first call", rc);
}

/* ------------------------------------------------------------ rounds */

/*
 * run_batch: @w->batch calls on @c. Latencies go to @lat; returns the
 * batch's value (ns per call: median latency, or for one-way calls the
 * batch's time per call until the server has handled the last one), or -1.
 */
static double run_batch(struct chan *c, const struct workload *w, double *lat,
			uint32_t *seq)
{
	uint64_t start, t0, t1 = 0;
	int i, rc = 0;

	bio_deadline(batch_timeout);
	start = t0 = bio_now_ns();
	for (i = 0; i < w->batch; i++) {
		if (w->kind == WL_ONEWAY && i + 1 == w->batch && c->kind == CH_BINDER)
			rc = binder_oneway_last(c, &c->b, w->size, ++*seq);
		else
			rc = chan_call(c, &c->b, w, ++*seq);
		t1 = bio_now_ns();
		if (rc)
			break;
		lat[i] = (double)(t1 - t0);
		t0 = t1;
	}
	bio_deadline(0);
	if (rc) {
		chan_fail(c, "call", rc);
		return -1;
	}
	if (!w->latency)
		return (double)(t1 - start) / w->batch;
	return stats_pct(lat, (size_t)w->batch, 50);
}

static void run_rounds(struct workload *w)
{
	double *lat = malloc(sizeof(double) * (size_t)w->batch);
	uint64_t start = bio_now_ns();
	uint32_t seq = 0;
	int r, k;

	if (!lat)
		die("out of memory");
	for (r = 0; r < WARMUP_ROUNDS + w->rounds; r++) {
		for (k = 0; k < nch; k++) {
			struct chan *c = &ch[(r + k) % nch];
			int ri = r - WARMUP_ROUNDS;
			double v;

			if (!c->ok)
				continue;
			v = run_batch(c, w, lat, &seq);
			if (v < 0 || ri < 0)
				continue;
			c->round_val[ri] = v;
			c->round_ok[ri] = 1;
			if (w->latency) {
				memcpy(c->lat + c->nlat, lat, sizeof(double) * (size_t)w->batch);
				c->nlat += (size_t)w->batch;
			}
		}
		if (out_of_time(w, r, start))
			break;
	}
	free(lat);
}

/* ------------------------------------------------------------ many clients */

#include "kbbench_multi.h"

/* ------------------------------------------------------------ instruction count */

#include "kbbench_insn.h"

/* ------------------------------------------------------------ main */

/* parse_workload: WORKLOAD's kind and the defaults of its rounds. */
static int parse_workload(const char *s, struct workload *w)
{
	const char *colon = strchr(s, ':');
	long arg = colon ? strtol(colon + 1, NULL, 0) : 0;

	memset(w, 0, sizeof(*w));
	w->latency = 1;
	w->cpu = -1;
	w->rounds = 200;
	w->batch = 50;
	if (strncmp(s, "sync:", 5) == 0 && arg >= 4 && arg <= MAX_PAYLOAD) {
		w->kind = WL_SYNC;
		w->size = (size_t)arg;
		if (arg >= 65536) {
			w->rounds = arg >= (1 << 20) ? 60 : 100;
			w->batch = arg >= (1 << 20) ? 10 : 20;
		}
		snprintf(w->name, sizeof(w->name), "sync %s%ld %s",
			 "", arg >= 1024 ? arg / 1024 : arg, arg >= 1024 ? "KiB" : "B");
		if (arg >= (1 << 20))
			snprintf(w->name, sizeof(w->name), "sync %ld MiB", arg >> 20);
	} else if (strncmp(s, "oneway:", 7) == 0 && arg >= 8 && arg <= 65536) {
		w->kind = WL_ONEWAY;
		w->size = (size_t)arg;
		w->latency = 0;
		/* Short batches: a host stall then spoils one round, not all. */
		w->rounds = 150;
		w->batch = 100;
		snprintf(w->name, sizeof(w->name), "oneway %ld B", arg);
	} else if (strncmp(s, "objects:", 8) == 0 && arg >= 1 && arg <= 16) {
		w->kind = WL_OBJECTS;
		w->size = (size_t)arg;
		snprintf(w->name, sizeof(w->name), "%ld binder objects", arg);
	} else if (strcmp(s, "fd") == 0) {
		w->kind = WL_FD;
		snprintf(w->name, sizeof(w->name), "1 fd");
	} else if (strncmp(s, "refs:", 5) == 0 && arg >= 1 && arg <= MAX_REFS) {
		w->kind = WL_REFS;
		w->size = 4;
		w->refs = (int)arg;
		snprintf(w->name, sizeof(w->name), "sync 4 B, %ld refs", arg);
	} else if (strncmp(s, "multi:", 6) == 0 && arg >= 1 && arg <= MAX_CLIENTS) {
		w->kind = WL_MULTI;
		w->size = 4;
		w->clients = (int)arg;
		w->latency = 0;
		w->rounds = 60;
		/* 160 calls a round, whatever the number of clients. */
		w->batch = (int)(160 / arg);
		snprintf(w->name, sizeof(w->name), "%ld client%s, sync 4 B", arg, arg > 1 ? "s" : "");
	} else {
		return -1;
	}
	return 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: kbbench [--reference DEV] [--kbinder DEV] [--reference2 DEV] [--old DEV]\n"
		"  [--results FILE] [--rounds N] [--batch N] [--scale F] [--timeout S]\n"
		"  [--budget S] [--baselines 0] [--cpu N] [--insn OPS (not with multi)]\n"
		"  sync:BYTES | oneway:BYTES | objects:N | fd | multi:CLIENTS | refs:N\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *ref = NULL, *kb = NULL, *ref2 = NULL, *old = NULL, *results = NULL;
	const char *env = getenv("BENCH_SCALE");
	double scale = env ? atof(env) : 1.0;
	const char *benv = getenv("BENCH_BUDGET");

	if (benv && atof(benv) > 0)
		budget_s = atof(benv);
	int rounds = 0, batch = 0, cpu = -1, baselines = 1, i;
	long insn_ops = 0;
	struct workload w;

	for (i = 1; i < argc - 1; i += 2) {
		if (strcmp(argv[i], "--reference") == 0)
			ref = argv[i + 1];
		else if (strcmp(argv[i], "--kbinder") == 0)
			kb = argv[i + 1];
		else if (strcmp(argv[i], "--reference2") == 0)
			ref2 = argv[i + 1];
		else if (strcmp(argv[i], "--old") == 0)
			old = argv[i + 1];
		else if (strcmp(argv[i], "--results") == 0)
			results = argv[i + 1];
		else if (strcmp(argv[i], "--rounds") == 0)
			rounds = atoi(argv[i + 1]);
		else if (strcmp(argv[i], "--batch") == 0)
			batch = atoi(argv[i + 1]);
		else if (strcmp(argv[i], "--scale") == 0)
			scale = atof(argv[i + 1]);
		else if (strcmp(argv[i], "--timeout") == 0)
			batch_timeout = (unsigned int)atoi(argv[i + 1]);
		else if (strcmp(argv[i], "--cpu") == 0)
			cpu = atoi(argv[i + 1]);
		else if (strcmp(argv[i], "--budget") == 0)
			budget_s = atof(argv[i + 1]);
		else if (strcmp(argv[i], "--baselines") == 0)
			baselines = atoi(argv[i + 1]);
		else if (strcmp(argv[i], "--insn") == 0)
			insn_ops = atol(argv[i + 1]);
		else
			usage();
	}
	if (i != argc - 1 || parse_workload(argv[argc - 1], &w) < 0 ||
	    insn_ops < 0 || (insn_ops && w.kind == WL_MULTI))
		usage();
	if (scale <= 0)
		scale = 1.0;
	w.rounds = rounds > 0 ? rounds : (int)(w.rounds * scale + 0.5);
	if (w.rounds < 5)
		w.rounds = 5;
	if (w.rounds > 1000)
		w.rounds = 1000;
	if (batch > 0)
		w.batch = batch;
	if (cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set) < 0)
			die("sched_setaffinity failed");
		w.cpu = cpu;
		snprintf(w.name + strlen(w.name), sizeof(w.name) - strlen(w.name),
			 ", 1 CPU");
	}
	if (batch_timeout < 1)
		batch_timeout = 1;

	payload = malloc(MAX_PAYLOAD);
	copy_dst = malloc(MAX_PAYLOAD);
	if (!payload || !copy_dst)
		die("out of memory");
	memset(payload, 0x5a, MAX_PAYLOAD);
	memset(copy_dst, 0, MAX_PAYLOAD);
	null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	bio_install_alarm();
	signal(SIGPIPE, SIG_IGN);

	if (ref)
		chan_add("reference", CH_BINDER, ref);
	if (kb)
		chan_add("kbinder", CH_BINDER, kb);
	if (ref2)
		chan_add("reference2", CH_BINDER, ref2);
	if (old)
		chan_add("old", CH_BINDER, old);
	if (baselines && w.kind == WL_SYNC && (w.size <= 128 || insn_ops)) {
		chan_add("pipe", CH_PIPE, NULL);
		chan_add("unix", CH_UNIX, NULL);
	}
	if (baselines && insn_ops && w.kind == WL_SYNC && w.size <= 128) {
		chan_add("futex", CH_FUTEX, NULL);
		chan_add("eventfd", CH_EVENTFD, NULL);
		chan_add("syscall", CH_SYSCALL, NULL);
	}
	if (baselines && w.kind == WL_SYNC && w.size >= 65536)
		chan_add("memcpy", CH_MEMCPY, NULL);
	for (i = 0; i < nch; i++) {
		ch[i].lat = malloc(sizeof(double) * (size_t)w.rounds * (size_t)w.batch);
		ch[i].round_val = calloc((size_t)w.rounds, sizeof(double));
		ch[i].round_ok = calloc((size_t)w.rounds, 1);
		if (!ch[i].lat || !ch[i].round_val || !ch[i].round_ok)
			die("out of memory");
	}
	/* Servers first: no child inherits a client's binder file. */
	for (i = 0; i < nch; i++)
		chan_start_server(&ch[i], w.kind != WL_MULTI ? 1 :
				  w.clients > POOL_THREADS ? w.clients : POOL_THREADS);
	if (w.kind == WL_MULTI) {
		run_multi(&w);
	} else {
		for (i = 0; i < nch; i++)
			chan_connect(&ch[i], &w);
		if (insn_ops)
			run_insn(&w, argv[argc - 1], insn_ops, results);
		else
			run_rounds(&w);
	}
	if (!insn_ops)
		report(ch, nch, &w, results);
	for (i = 0; i < nch; i++)
		chan_stop(&ch[i]);
	return 0;
}
