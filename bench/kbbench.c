// SPDX-License-Identifier: Apache-2.0
/*
 * kbbench - one binder workload against several drivers in the same boot,
 * interleaved so that the noise of an emulated, shared machine cancels out.
 *
 * usage: kbbench [options] WORKLOAD
 *   WORKLOAD   sync:BYTES | oneway:BYTES | objects:N | fd | multi:CLIENTS
 *   --reference DEV   the upstream driver's device (/dev/binder)
 *   --kbinder DEV     kbinder's device (/dev/kbinder)
 *   --reference2 DEV  the upstream driver again under a second name: the
 *                     A/A control that shows the noise floor (/dev/binder2)
 *   --results FILE    append one `BENCH {json}` line for the workload
 *   --rounds N --batch N   override the workload's defaults
 *   --scale F         multiply the rounds (also $BENCH_SCALE)
 *   --timeout S       give up on a batch after S seconds (20)
 *   --budget S        stop after the round that ends S seconds into the
 *                     workload, if at least 10 rounds are done (also
 *                     $BENCH_BUDGET; default 20): a loaded host gets fewer
 *                     rounds, not a bench that never ends
 *   --cpu N           run the client and every server on CPU N only; the
 *                     round trip then costs what the driver and the
 *                     scheduler do, without cross-CPU wake-ups (whose cost
 *                     under emulation is mostly the emulator's)
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

#include "binder_io.h"
#include "stats.h"

#define SERVER_MAP (2u << 20)
#define CLIENT_MAP (256u << 10)
#define MAX_PAYLOAD (1u << 20)
#define MAX_CHANNELS 6
#define MAX_CLIENTS 8
#define POOL_THREADS 8
#define WARMUP_ROUNDS 3

enum { CODE_ECHO = 1, CODE_ONEWAY, CODE_ONEWAY_LAST, CODE_OBJECTS, CODE_FD };

enum chan_kind { CH_BINDER, CH_PIPE, CH_UNIX, CH_MEMCPY };
enum wl_kind { WL_SYNC, WL_ONEWAY, WL_OBJECTS, WL_FD, WL_MULTI };

/** struct chan - one way of doing the workload's call. */
struct chan {
	const char *name;
	enum chan_kind kind;
	const char *dev;
	int ok;
	char why[200];
	pid_t server;
	struct bio b;
	int fd;			/* pipe, unix: the client's end (reads) */
	int wfd;		/* pipe: the client's write end */
	double *lat;		/* every measured call, ns */
	size_t nlat;
	double *round_val;	/* per round: ns per call (batch median or mean) */
	unsigned char *round_ok;
	int efd;		/* binder: the server says a batch of one-way calls is done */
};

/** struct workload - what is measured and how long. */
struct workload {
	enum wl_kind kind;
	size_t size;		/* payload bytes, or objects for WL_OBJECTS */
	int clients;		/* WL_MULTI */
	int rounds;
	int batch;
	int latency;		/* per-call latencies mean something */
	int cpu;		/* the one CPU everything runs on, or -1 */
	char name[64];
};

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

/* ------------------------------------------------------------ servers */

/* Handles this server already holds a reference on (objects workload). */
static unsigned char held[4096];

/*
 * One-way throughput: the last call of a batch asks the server to say when
 * it has been handled, on an eventfd shared with the client. A synchronous
 * call cannot serve as a flush: it may overtake queued one-way calls.
 */
static int srv_efd = -1;

/*
 * srv_handle: check what arrived and answer with its first word; a check
 * that fails answers something else, which the client reports.
 */
static int srv_handle(struct bio_server *s, const struct binder_transaction_data *tr,
		      struct bio_reply *reply, struct bio_cmds *pre)
{
	static __thread uint32_t answer;
	const uint8_t *data = (const uint8_t *)(uintptr_t)tr->data.ptr.buffer;
	const binder_size_t *offs = (const binder_size_t *)(uintptr_t)tr->data.ptr.offsets;
	size_t noffs = tr->offsets_size / sizeof(binder_size_t), i;
	uint32_t last;

	(void)s;
	answer = 0;
	if (tr->data_size >= 4)
		memcpy(&answer, data, 4);
	switch (tr->code) {
	case CODE_ECHO:
	case CODE_ONEWAY:
	case CODE_ONEWAY_LAST:
		if (tr->data_size >= 8) {
			memcpy(&last, data + tr->data_size - 4, 4);
			if (last != answer)
				answer = ~answer;
		}
		if (tr->code == CODE_ONEWAY_LAST) {
			/* The client checks the sequence number it gets back. */
			uint64_t v = answer;

			if (write(srv_efd, &v, sizeof(v)) != sizeof(v))
				_exit(1);
		}
		break;
	case CODE_OBJECTS:
		for (i = 0; i < noffs; i++) {
			struct flat_binder_object fbo;

			memcpy(&fbo, data + offs[i], sizeof(fbo));
			if (fbo.hdr.type != BINDER_TYPE_HANDLE) {
				answer = ~answer;
				continue;
			}
			/* Keep one reference of our own: steady state, no node churn. */
			if (fbo.handle < sizeof(held) &&
			    !__atomic_exchange_n(&held[fbo.handle], 1, __ATOMIC_RELAXED)) {
				bio_put_u32(pre, BC_ACQUIRE);
				bio_put_u32(pre, fbo.handle);
			}
		}
		break;
	case CODE_FD:
		for (i = 0; i < noffs; i++) {
			struct binder_fd_object fo;

			memcpy(&fo, data + offs[i], sizeof(fo));
			if (fo.hdr.type != BINDER_TYPE_FD || (int)fo.fd < 0)
				answer = ~answer;
			else
				close((int)fo.fd);
		}
		break;
	default:
		answer = ~answer;
	}
	reply->data = (const uint8_t *)&answer;
	reply->size = sizeof(answer);
	return 0;
}

static struct bio srv_bio;

static void *srv_thread(void *arg)
{
	struct bio_server s = { .handle = srv_handle };

	(void)arg;
	bio_serve(&srv_bio, &s);
	return NULL;
}

/* srv_binder_main: the server process of one binder device; never returns. */
static void srv_binder_main(const char *dev, int threads, int ready_fd)
{
	char why[200] = "ok";
	struct bio_server s = { .handle = srv_handle };
	int i;

	if (bio_open(&srv_bio, dev, SERVER_MAP, why, sizeof(why)) < 0 ||
	    bio_become_manager(&srv_bio, why, sizeof(why)) < 0) {
		if (write(ready_fd, why, strlen(why)) < 0)
			_exit(1);
		_exit(1);
	}
	for (i = 1; i < threads; i++) {
		pthread_t t;

		if (pthread_create(&t, NULL, srv_thread, NULL) != 0)
			break;
	}
	if (write(ready_fd, "ok", 2) < 0)
		_exit(1);
	close(ready_fd);
	bio_serve(&srv_bio, &s);
	_exit(0);
}

/* srv_stream_main: echo server of the pipe and socket baselines. */
static void srv_stream_main(int rfd, int wfd)
{
	uint8_t buf[256];

	for (;;) {
		ssize_t n = read(rfd, buf, sizeof(buf));

		if (n <= 0)
			_exit(0);
		if (write(wfd, buf, (size_t)n) != n)
			_exit(1);
	}
}

/* start_child: fork a server that dies with us; returns its pid in the parent. */
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
	struct chan *c = &ch[nch++];

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
	if (c->kind == CH_MEMCPY)
		return;
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

static int binder_sync(struct bio *b, uint32_t code, const void *data, size_t size,
		       const binder_size_t *offs, size_t noffs, uint32_t seq)
{
	struct bio_reply r = { 0 };
	uint32_t got;
	int rc = bio_call(b, 0, code, 0, data, size, offs, noffs, &r);

	if (rc)
		return rc;
	if (r.size != 4)
		return -ERANGE;
	memcpy(&got, r.data, 4);
	return got == seq ? 0 : -ERANGE;
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
	case CH_BINDER:
		break;
	}
	switch (w->kind) {
	case WL_SYNC:
	case WL_MULTI:
		stamp(w->size, seq);
		return binder_sync(b, CODE_ECHO, payload, w->size, NULL, 0, seq);
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

/* Messages on the done pipe: which round and channel, how it went, and
 * the median of the worker's per-call latencies in the batch. */
struct done_msg {
	uint16_t round;
	uint8_t chan;
	uint8_t status;
	uint32_t median_ns;
};

static void worker_main(const struct workload *w, int cmd_fd, int done_fd)
{
	struct bio b[MAX_CHANNELS];
	int opened[MAX_CHANNELS] = { 0 };
	uint32_t seq = 0;
	char why[200];
	double *lat = malloc(sizeof(double) * (size_t)w->batch);
	int i;

	if (!lat)
		_exit(1);
	for (i = 0; i < nch; i++)
		if (ch[i].ok && ch[i].kind == CH_BINDER)
			opened[i] = bio_open(&b[i], ch[i].dev, CLIENT_MAP, why, sizeof(why)) == 0;
	for (;;) {
		uint8_t cmd[3];
		struct done_msg m;
		int rc = 0;

		if (read(cmd_fd, cmd, sizeof(cmd)) != sizeof(cmd) || cmd[2] >= nch)
			_exit(0);
		m.round = (uint16_t)(cmd[0] | cmd[1] << 8);
		m.chan = cmd[2];
		m.median_ns = 0;
		if (!opened[m.chan]) {
			rc = -ENODEV;
		} else {
			uint64_t t0 = bio_now_ns(), t1;

			bio_deadline(batch_timeout);
			for (i = 0; i < w->batch && !rc; i++) {
				rc = chan_call(&ch[m.chan], &b[m.chan], w, ++seq);
				t1 = bio_now_ns();
				lat[i] = (double)(t1 - t0);
				t0 = t1;
			}
			bio_deadline(0);
			if (!rc)
				m.median_ns = (uint32_t)stats_pct(lat, (size_t)w->batch, 50);
		}
		m.status = rc ? (uint8_t)(-rc & 0xff) : 0;
		if (write(done_fd, &m, sizeof(m)) != sizeof(m))
			_exit(1);
	}
}

/*
 * multi_round: one batch on channel @ci from every worker at once. The
 * round's value is the system's time per call as Little's law gives it
 * from the workers' median latency: median / clients (the wall clock of
 * the round, kept in @wall, suffers every host stall of any of them).
 */
static double multi_round(const struct workload *w, const int *cmd_fd, int done_fd,
			  int round, int ci, double *wall)
{
	uint8_t cmd[3] = { (uint8_t)round, (uint8_t)(round >> 8), (uint8_t)ci };
	uint64_t start = bio_now_ns(), deadline;
	double med[MAX_CLIENTS];
	int i, got = 0, err = 0;

	for (i = 0; i < w->clients; i++)
		if (write(cmd_fd[i], cmd, sizeof(cmd)) != sizeof(cmd))
			err = EPIPE;
	deadline = start + (uint64_t)(batch_timeout + 5) * 1000000000ull;
	while (got < w->clients && !err) {
		struct pollfd p = { .fd = done_fd, .events = POLLIN };
		uint64_t now = bio_now_ns();
		struct done_msg m;

		if (now >= deadline || poll(&p, 1, (int)((deadline - now) / 1000000) + 1) == 0) {
			err = ETIMEDOUT;
			break;
		}
		if (read(done_fd, &m, sizeof(m)) != sizeof(m)) {
			err = EIO;
			break;
		}
		if (m.round != (uint16_t)round || m.chan != ci)
			continue;	/* late answer of an earlier failure */
		if (m.status)
			err = m.status;
		med[got++] = m.median_ns;
	}
	if (err) {
		chan_fail(&ch[ci], "clients", -err);
		return -1;
	}
	*wall = (double)(bio_now_ns() - start) / (double)(w->clients * w->batch);
	return stats_pct(med, (size_t)got, 50) / w->clients;
}

static void run_multi(struct workload *w)
{
	int cmd_fd[MAX_CLIENTS], done[2], i, r, k;
	pid_t pid[MAX_CLIENTS];
	uint64_t start = bio_now_ns();

	if (pipe2(done, O_CLOEXEC) < 0)
		die("pipe");
	for (i = 0; i < w->clients; i++) {
		int cp[2];

		if (pipe2(cp, O_CLOEXEC) < 0)
			die("pipe");
		pid[i] = start_child();
		if (pid[i] == 0) {
			close(cp[1]);
			close(done[0]);
			worker_main(w, cp[0], done[1]);
		}
		close(cp[0]);
		cmd_fd[i] = cp[1];
	}
	close(done[1]);
	for (r = 0; r < WARMUP_ROUNDS + w->rounds; r++) {
		for (k = 0; k < nch; k++) {
			int ci = (r + k) % nch, ri = r - WARMUP_ROUNDS;
			double v, wall = 0;

			if (!ch[ci].ok)
				continue;
			v = multi_round(w, cmd_fd, done[0], r, ci, &wall);
			if (v >= 0 && ri >= 0) {
				ch[ci].round_val[ri] = v;
				ch[ci].round_ok[ri] = 1;
				ch[ci].lat[ch[ci].nlat++] = wall;
			}
		}
		if (out_of_time(w, r, start))
			break;
	}
	for (i = 0; i < w->clients; i++)
		close(cmd_fd[i]);
	for (i = 0; i < w->clients; i++) {
		for (r = 0; r < 300 && waitpid(pid[i], NULL, WNOHANG) == 0; r++)
			usleep(10000);
		if (r == 300) {
			kill(pid[i], SIGKILL);
			waitpid(pid[i], NULL, WNOHANG);
		}
	}
	close(done[0]);
}

/* ------------------------------------------------------------ report */

static struct chan *chan_by_name(const char *name)
{
	int i;

	for (i = 0; i < nch; i++)
		if (strcmp(ch[i].name, name) == 0)
			return &ch[i];
	return NULL;
}

/**
 * struct cmp - how one channel compares with another, round by round:
 * the spread of the per-round ratios (p10, p90) and a 95% confidence
 * interval of their median (ci_lo, ci_hi: the order statistics
 * n/2 -+ 0.98 sqrt(n), distribution-free).
 */
struct cmp {
	const char *a, *b, *kind, *label;
	int n;
	double p10, med, p90, ci_lo, ci_hi;
};

/*
 * compare: per-round ratios of @a against @b over the rounds both finished.
 * "speedup" is b's time / a's time (a's rate / b's rate: above 1, a is
 * faster); "cost" is a's time / b's time (how many times b's time a takes).
 */
static int compare(const struct workload *w, const char *a, const char *b,
		   const char *kind, const char *label, struct cmp *out)
{
	struct chan *ca = chan_by_name(a), *cb = chan_by_name(b);
	double *v;
	int r, n = 0;

	if (!ca || !cb)
		return 0;
	memset(out, 0, sizeof(*out));
	out->a = a;
	out->b = b;
	out->kind = kind;
	out->label = label;
	if (!ca->ok || !cb->ok)
		return 1;
	v = malloc(sizeof(double) * (size_t)w->rounds);
	if (!v)
		die("out of memory");
	for (r = 0; r < w->rounds; r++) {
		if (!ca->round_ok[r] || !cb->round_ok[r])
			continue;
		v[n++] = strcmp(kind, "speedup") == 0 ? cb->round_val[r] / ca->round_val[r]
						      : ca->round_val[r] / cb->round_val[r];
	}
	stats_sort(v, (size_t)n);
	out->n = n;
	out->p10 = stats_pct_sorted(v, (size_t)n, 10);
	out->med = stats_pct_sorted(v, (size_t)n, 50);
	out->p90 = stats_pct_sorted(v, (size_t)n, 90);
	if (n > 0) {
		double half = 0.98 * sqrt((double)n);
		int lo = (int)floor(n / 2.0 - half), hi = (int)ceil(n / 2.0 + half);

		out->ci_lo = v[lo < 0 ? 0 : lo];
		out->ci_hi = v[hi >= n ? n - 1 : hi];
	}
	free(v);
	return 1;
}

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		if ((unsigned char)*s < 0x20)
			fputc(' ', f);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

static void report(const struct workload *w, const char *results)
{
	static const char *const pairs[][4] = {
		{ "kbinder", "reference", "speedup", "kbinder vs reference" },
		{ "reference2", "reference", "speedup", "A/A control (reference2 vs reference)" },
		{ "reference", "pipe", "cost", "reference / pipe time" },
		{ "kbinder", "pipe", "cost", "kbinder / pipe time" },
		{ "unix", "pipe", "cost", "unix / pipe time" },
		{ "reference", "memcpy", "cost", "reference / memcpy time" },
		{ "kbinder", "memcpy", "cost", "kbinder / memcpy time" },
	};
	struct cmp cmps[8];
	int ncmp = 0, i;
	FILE *f = NULL;

	for (i = 0; i < (int)(sizeof(pairs) / sizeof(pairs[0])); i++)
		ncmp += compare(w, pairs[i][0], pairs[i][1], pairs[i][2], pairs[i][3],
				&cmps[ncmp]);

	printf("\n%s  (%d rounds x %d calls%s)\n", w->name, w->rounds, w->batch,
	       w->kind == WL_MULTI ? " per client" : "");
	if (results) {
		f = fopen(results, "a");
		if (!f)
			fprintf(stderr, "kbbench: %s: %s\n", results, strerror(errno));
	}
	if (f) {
		fprintf(f, "BENCH {\"kind\":\"workload\",\"workload\":");
		json_str(f, w->name);
		fprintf(f, ",\"type\":\"%s\",\"size\":%zu,\"clients\":%d,\"rounds\":%d,"
			"\"batch\":%d,\"cpu\":%d,\"metric\":\"%s\",\"channels\":[",
			w->kind == WL_SYNC ? "sync" : w->kind == WL_ONEWAY ? "oneway" :
			w->kind == WL_OBJECTS ? "objects" : w->kind == WL_FD ? "fd" : "multi",
			w->size, w->clients, w->rounds, w->batch, w->cpu,
			w->latency ? "latency" : "throughput");
	}
	for (i = 0; i < nch; i++) {
		struct chan *c = &ch[i];
		double rv[1024];
		int r, n = 0;

		for (r = 0; r < w->rounds && n < 1024; r++)
			if (c->round_ok[r])
				rv[n++] = c->round_val[r];
		if (c->ok && n == 0) {
			c->ok = 0;
			snprintf(c->why, sizeof(c->why), "no round finished");
		}
		if (f) {
			fprintf(f, "%s{\"name\":\"%s\",\"status\":\"%s\"", i ? "," : "", c->name,
				c->ok ? "ok" : "unavailable");
			if (!c->ok) {
				fprintf(f, ",\"why\":");
				json_str(f, c->why);
			}
		}
		if (!c->ok) {
			printf("  %-11s unavailable: %s\n", c->name, c->why);
			if (f)
				fputc('}', f);
			continue;
		}
		stats_sort(rv, (size_t)n);
		if (w->latency) {
			double med, p99;

			stats_sort(c->lat, c->nlat);
			med = stats_pct_sorted(c->lat, c->nlat, 50) / 1000;
			p99 = stats_pct_sorted(c->lat, c->nlat, 99) / 1000;
			printf("  %-11s median %9.1f us   p99 %9.1f us   (%zu calls)\n",
			       c->name, med, p99, c->nlat);
			if (f)
				fprintf(f, ",\"median_us\":%.3f,\"p99_us\":%.3f,\"p10_us\":%.3f,"
					"\"p90_us\":%.3f,\"calls\":%zu", med, p99,
					stats_pct_sorted(c->lat, c->nlat, 10) / 1000,
					stats_pct_sorted(c->lat, c->nlat, 90) / 1000, c->nlat);
		} else {
			/* Rates per round: high rate = low time, so percentiles swap. */
			double med = 1e9 / stats_pct_sorted(rv, (size_t)n, 50);
			double lo = 1e9 / stats_pct_sorted(rv, (size_t)n, 90);
			double hi = 1e9 / stats_pct_sorted(rv, (size_t)n, 10);

			printf("  %-11s %9.0f calls/s   rounds p10 %9.0f  p90 %9.0f", c->name,
			       med, lo, hi);
			if (f)
				fprintf(f, ",\"rate_per_s\":%.1f,\"rate_p10\":%.1f,"
					"\"rate_p90\":%.1f,\"per_call_us\":%.3f", med, lo, hi,
					stats_pct_sorted(rv, (size_t)n, 50) / 1000);
			if (w->kind == WL_MULTI && c->nlat) {
				/* Wall-clock rate of the rounds, host stalls included. */
				double wall = 1e9 / stats_pct(c->lat, c->nlat, 50);

				printf("   (wall clock %.0f/s)", wall);
				if (f)
					fprintf(f, ",\"wall_rate_per_s\":%.1f", wall);
			}
			printf("\n");
		}
		if (f)
			fprintf(f, ",\"rounds_ok\":%d}", n);
	}
	if (f)
		fprintf(f, "],\"ratios\":[");
	for (i = 0; i < ncmp; i++) {
		struct cmp *c = &cmps[i];

		if (c->n == 0)
			printf("  %-40s n/a\n", c->label);
		else
			printf("  %-40s %6.3f  [p10 %.3f .. p90 %.3f; median in %.3f..%.3f; %d rounds]\n",
			       c->label, c->med, c->p10, c->p90, c->ci_lo, c->ci_hi, c->n);
		if (!f)
			continue;
		fprintf(f, "%s{\"a\":\"%s\",\"b\":\"%s\",\"kind\":\"%s\",\"rounds\":%d", i ? "," : "",
			c->a, c->b, c->kind, c->n);
		if (c->n)
			fprintf(f, ",\"p10\":%.4f,\"median\":%.4f,\"p90\":%.4f,\"ci_lo\":%.4f,"
				"\"ci_hi\":%.4f", c->p10, c->med, c->p90, c->ci_lo, c->ci_hi);
		fputc('}', f);
	}
	if (f) {
		fprintf(f, "]}\n");
		fclose(f);
	}
	fflush(stdout);
}

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
	fprintf(stderr, "usage: kbbench [--reference DEV] [--kbinder DEV] [--reference2 DEV]\n"
		"  [--results FILE] [--rounds N] [--batch N] [--scale F] [--timeout S]\n"
		"  sync:BYTES | oneway:BYTES | objects:N | fd | multi:CLIENTS\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *ref = NULL, *kb = NULL, *ref2 = NULL, *results = NULL;
	const char *env = getenv("BENCH_SCALE");
	double scale = env ? atof(env) : 1.0;
	const char *benv = getenv("BENCH_BUDGET");

	if (benv && atof(benv) > 0)
		budget_s = atof(benv);
	int rounds = 0, batch = 0, cpu = -1, i;
	struct workload w;

	for (i = 1; i < argc - 1; i += 2) {
		if (strcmp(argv[i], "--reference") == 0)
			ref = argv[i + 1];
		else if (strcmp(argv[i], "--kbinder") == 0)
			kb = argv[i + 1];
		else if (strcmp(argv[i], "--reference2") == 0)
			ref2 = argv[i + 1];
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
		else
			usage();
	}
	if (i != argc - 1 || parse_workload(argv[argc - 1], &w) < 0)
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
	if (w.kind == WL_SYNC && w.size <= 128) {
		chan_add("pipe", CH_PIPE, NULL);
		chan_add("unix", CH_UNIX, NULL);
	}
	if (w.kind == WL_SYNC && w.size >= 65536)
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
		chan_start_server(&ch[i], w.kind == WL_MULTI ? POOL_THREADS : 1);
	if (w.kind == WL_MULTI) {
		run_multi(&w);
	} else {
		for (i = 0; i < nch; i++)
			chan_connect(&ch[i], &w);
		run_rounds(&w);
	}
	report(&w, results);
	for (i = 0; i < nch; i++)
		chan_stop(&ch[i]);
	return 0;
}
