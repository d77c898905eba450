// SPDX-License-Identifier: Apache-2.0
/*
 * kbmem - kernel memory a binder driver spends per object, measured from
 * /proc/meminfo around the creation of many objects of one kind.
 *
 * usage: kbmem --device DEV --driver NAME [--results FILE] [--reps N]
 *
 * Four objects, each created COUNT times while the rest of the system is
 * idle (the benchmark guest runs nothing else); per object, the growth of
 * live slab objects (the sum over /proc/slabinfo of active objects times
 * object size: exact up to per-CPU caches, and blind to free slots being
 * reused) and of pages outside the slab (MemFree's drop minus Slab's
 * growth: buffer pages, page tables; noisier):
 *   idle process   open + BINDER_VERSION + BINDER_SET_MAX_THREADS + mmap of
 *                  1 MiB - 8 KiB, what libbinder's ProcessState does; this
 *                  includes the struct file and the VMA every driver pays
 *   node + ref     a server replies with COUNT new objects; the client keeps
 *                  a strong reference on each (BC_ACQUIRE)
 *   ref            a second client receives the same COUNT objects: only
 *                  references are new; node = (node + ref) - ref
 *   transaction    COUNT one-way calls of 16 bytes queued on a node whose
 *                  server holds the first one's buffer: each is an in-flight
 *                  transaction with its buffer
 * Each measurement runs --reps times (default 3) with a new server; the
 * median is reported. Results: a table on stdout, a `BENCH {json}` line.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "binder_io.h"
#include "stats.h"

#define IDLE_COUNT 500
#define NODE_COUNT 1000
#define TXN_COUNT 1000
#define PROC_MAP ((1u << 20) - 8192)
#define MAX_REPS 9

enum { CODE_NODES = 1, CODE_HOLD };

/* ------------------------------------------------------------ server */

static struct flat_binder_object nodes[NODE_COUNT];
static binder_size_t node_offs[NODE_COUNT];

/*
 * mem_handle: CODE_NODES replies with the objects asked for (the same
 * identifiers every time, so a second client gets references to the same
 * nodes); CODE_HOLD keeps the buffer, so later one-way calls queue up.
 */
static int mem_handle(struct bio_server *s, const struct binder_transaction_data *tr,
		      struct bio_reply *reply, struct bio_cmds *pre)
{
	static uint32_t zero;
	uint32_t n = 0, i;

	(void)pre;
	if (tr->code == CODE_HOLD) {
		s->keep_buffer = 1;
		return 0;
	}
	if (tr->code == CODE_NODES && tr->data_size >= 4)
		memcpy(&n, (const void *)(uintptr_t)tr->data.ptr.buffer, 4);
	if (n > NODE_COUNT)
		n = 0;
	for (i = 0; i < n; i++) {
		memset(&nodes[i], 0, sizeof(nodes[i]));
		nodes[i].hdr.type = BINDER_TYPE_BINDER;
		nodes[i].flags = 0x7f;
		nodes[i].binder = 0x100000 + 0x40 * (binder_uintptr_t)i;
		nodes[i].cookie = nodes[i].binder;
		node_offs[i] = i * sizeof(nodes[i]);
	}
	reply->data = n ? (const uint8_t *)nodes : (const uint8_t *)&zero;
	reply->size = n ? n * sizeof(nodes[0]) : sizeof(zero);
	reply->offs = node_offs;
	reply->noffs = n;
	return 0;
}

/* start_server: a context manager on @dev in a child; 0 when it is ready. */
static pid_t start_server(const char *dev, char *why, size_t whylen)
{
	int rp[2];
	pid_t pid;
	struct pollfd p;
	char buf[100] = "";
	ssize_t n;

	if (pipe(rp) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		struct bio b;
		struct bio_server s = { .handle = mem_handle };

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(rp[0]);
		if (bio_open(&b, dev, PROC_MAP, why, whylen) < 0 ||
		    bio_become_manager(&b, why, whylen) < 0) {
			if (write(rp[1], why, strlen(why)) < 0)
				_exit(1);
			_exit(1);
		}
		if (write(rp[1], "ok", 2) < 0)
			_exit(1);
		bio_serve(&b, &s);
		_exit(0);
	}
	close(rp[1]);
	p.fd = rp[0];
	p.events = POLLIN;
	if (pid > 0 && poll(&p, 1, 10000) > 0 && (n = read(rp[0], buf, sizeof(buf) - 1)) > 0) {
		buf[n] = 0;
		if (strcmp(buf, "ok") == 0) {
			close(rp[0]);
			return pid;
		}
		snprintf(why, whylen, "server: %s", buf);
	} else {
		snprintf(why, whylen, "server did not start");
	}
	close(rp[0]);
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
	return -1;
}

static void stop_server(pid_t pid)
{
	int i;

	kill(pid, SIGKILL);
	for (i = 0; i < 500 && waitpid(pid, NULL, WNOHANG) == 0; i++)
		usleep(10000);
	/* The driver releases a dead process in deferred work: let it finish. */
	usleep(300000);
}

/* ------------------------------------------------------------ meminfo */

/** struct mem - a snapshot: bytes in live slab objects, free and slab kB. */
struct mem {
	long long slab_live;	/* sum over caches of active objects x object size */
	long free_kb, slab_kb;	/* MemFree and Slab of /proc/meminfo */
};

static struct mem mem_read(void)
{
	struct mem m = { 0, 0, 0 };
	char line[512], name[64];
	long active, total, size, v;
	FILE *f;

	f = fopen("/proc/slabinfo", "r");
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%63s %ld %ld %ld", name, &active, &total, &size) == 4)
			m.slab_live += (long long)active * size;
	}
	if (f)
		fclose(f);
	f = fopen("/proc/meminfo", "r");
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "MemFree: %ld", &v) == 1)
			m.free_kb = v;
		else if (sscanf(line, "Slab: %ld", &v) == 1)
			m.slab_kb = v;
	}
	if (f)
		fclose(f);
	return m;
}

/*
 * mem_now: a snapshot once deferred work (process release, node work) has
 * settled: live slab bytes move by less than a page, and MemFree by less
 * than 64 kB, between two reads 100 ms apart (at most 3 s).
 */
static struct mem mem_now(void)
{
	struct mem prev = mem_read(), m = prev;
	int i;

	for (i = 0; i < 30; i++) {
		usleep(100000);
		m = mem_read();
		if (llabs(m.slab_live - prev.slab_live) < 4096 &&
		    labs(m.free_kb - prev.free_kb) < 64)
			break;
		prev = m;
	}
	return m;
}

/*
 * struct cost - bytes per object: in slab objects (exact up to per-CPU
 * caches), and in pages outside the slab (buffer pages, page tables: the
 * drop of MemFree not explained by the growth of Slab; noisier).
 */
struct cost {
	double slab, pages;
};

static struct cost per_object(struct mem before, struct mem after, int count)
{
	struct cost c;

	c.slab = (double)(after.slab_live - before.slab_live) / count;
	c.pages = (double)((before.free_kb - after.free_kb) -
			   (after.slab_kb - before.slab_kb)) * 1024.0 / count;
	return c;
}

/* ------------------------------------------------------------ measurements */

static int measure_idle(const char *dev, struct cost *out, char *why, size_t whylen)
{
	static struct bio b[IDLE_COUNT];
	struct mem before, after;
	int i, n = 0, rc = 0;

	before = mem_now();
	for (i = 0; i < IDLE_COUNT; i++) {
		uint32_t max = 15;

		if (bio_open(&b[i], dev, PROC_MAP, why, whylen) < 0) {
			rc = -1;
			break;
		}
		n++;
		ioctl(b[i].fd, BINDER_SET_MAX_THREADS, &max);
	}
	after = mem_now();
	for (i = 0; i < n; i++)
		bio_close(&b[i]);
	if (rc == 0)
		*out = per_object(before, after, IDLE_COUNT);
	return rc;
}

/* take_nodes: ask the server for NODE_COUNT objects and keep a strong
 * reference on each. */
static int take_nodes(struct bio *b)
{
	uint32_t count = NODE_COUNT;
	struct bio_reply r;
	struct bio_cmds w;
	size_t i;
	int rc;

	bio_deadline(20);
	rc = bio_call(b, 0, CODE_NODES, 0, &count, sizeof(count), NULL, 0, &r);
	if (rc == 0 && r.noffs != NODE_COUNT)
		rc = -EPROTO;
	w.len = 0;
	w.overflow = 0;
	for (i = 0; rc == 0 && i < r.noffs; i++) {
		struct flat_binder_object fbo;

		memcpy(&fbo, r.data + r.offs[i], sizeof(fbo));
		bio_put_u32(&w, BC_ACQUIRE);
		bio_put_u32(&w, fbo.handle);
		if (w.len + 16 > sizeof(w.data) || i + 1 == r.noffs) {
			long n = bio_ioctl_wr(b->fd, w.data, w.len, NULL, 0);

			if (n < 0)
				rc = (int)n;
			w.len = 0;
		}
	}
	if (b->pending_free) {
		w.len = 0;
		bio_put_u32(&w, BC_FREE_BUFFER);
		bio_put_ptr(&w, b->pending_free);
		b->pending_free = 0;
		bio_ioctl_wr(b->fd, w.data, w.len, NULL, 0);
	}
	bio_deadline(0);
	return rc;
}

/*
 * measure_objects: node + ref, ref, and in-flight transaction costs with
 * one fresh server. Results in @c[0..2].
 */
static int measure_objects(const char *dev, struct cost *c, char *why, size_t whylen)
{
	struct bio b1, b2, b3;
	struct mem m0, m1, m2, m3;
	pid_t srv;
	int i, rc = -1;
	uint8_t msg[16] = { 0 };

	srv = start_server(dev, why, whylen);
	if (srv < 0)
		return -1;
	b1.fd = b2.fd = b3.fd = -1;
	if (bio_open(&b1, dev, PROC_MAP, why, whylen) < 0 ||
	    bio_open(&b2, dev, PROC_MAP, why, whylen) < 0 ||
	    bio_open(&b3, dev, PROC_MAP, why, whylen) < 0)
		goto out;
	m0 = mem_now();
	if ((rc = take_nodes(&b1)) < 0) {
		snprintf(why, whylen, "nodes for the first client: %s", strerror(-rc));
		goto out;
	}
	m1 = mem_now();
	if ((rc = take_nodes(&b2)) < 0) {
		snprintf(why, whylen, "nodes for the second client: %s", strerror(-rc));
		goto out;
	}
	m2 = mem_now();
	bio_deadline(20);
	for (i = 0; i < TXN_COUNT; i++) {
		rc = bio_call(&b3, 0, CODE_HOLD, TF_ONE_WAY, msg, sizeof(msg), NULL, 0, NULL);
		if (rc < 0) {
			snprintf(why, whylen, "one-way call %d: %s", i, strerror(-rc));
			break;
		}
	}
	bio_deadline(0);
	if (rc < 0)
		goto out;
	m3 = mem_now();
	c[0] = per_object(m0, m1, NODE_COUNT);
	c[1] = per_object(m1, m2, NODE_COUNT);
	c[2] = per_object(m2, m3, TXN_COUNT);
	rc = 0;
out:
	if (b1.fd >= 0)
		bio_close(&b1);
	if (b2.fd >= 0)
		bio_close(&b2);
	if (b3.fd >= 0)
		bio_close(&b3);
	stop_server(srv);
	return rc;
}

/* ------------------------------------------------------------ main */

static double med(double *v, int n)
{
	return stats_pct(v, (size_t)n, 50);
}

int main(int argc, char **argv)
{
	const char *dev = NULL, *driver = "?", *results = NULL;
	static const char *const names[] = { "idle_process", "node", "ref", "transaction" };
	double slab[4][MAX_REPS], pages[4][MAX_REPS];
	char why[200] = "";
	int reps = 3, i, k, n = 0;
	FILE *f;

	for (i = 1; i + 1 < argc; i += 2) {
		if (strcmp(argv[i], "--device") == 0)
			dev = argv[i + 1];
		else if (strcmp(argv[i], "--driver") == 0)
			driver = argv[i + 1];
		else if (strcmp(argv[i], "--results") == 0)
			results = argv[i + 1];
		else if (strcmp(argv[i], "--reps") == 0)
			reps = atoi(argv[i + 1]);
	}
	if (!dev || i != argc) {
		fprintf(stderr, "usage: kbmem --device DEV --driver NAME [--results FILE] [--reps N]\n");
		return 2;
	}
	if (reps < 1 || reps > MAX_REPS)
		reps = 3;
	bio_install_alarm();
	for (k = 0; k < reps; k++) {
		struct cost idle, obj[3];

		if (measure_objects(dev, obj, why, sizeof(why)) < 0 ||
		    measure_idle(dev, &idle, why, sizeof(why)) < 0)
			break;
		slab[0][n] = idle.slab;
		pages[0][n] = idle.pages;
		/* obj[0] is node + ref; the node alone is that minus a ref. */
		slab[1][n] = obj[0].slab - obj[1].slab;
		pages[1][n] = obj[0].pages - obj[1].pages;
		slab[2][n] = obj[1].slab;
		pages[2][n] = obj[1].pages;
		slab[3][n] = obj[2].slab;
		pages[3][n] = obj[2].pages;
		n++;
	}
	if (n == 0) {
		printf("  %-9s %s: unavailable: %s\n", driver, dev, why);
		return 1;
	}
	printf("  %-9s (%s, median of %d)   slab bytes   page bytes\n", driver, dev, n);
	for (i = 0; i < 4; i++)
		printf("    %-14s %12.0f %12.0f\n", names[i], med(slab[i], n), med(pages[i], n));
	f = results ? fopen(results, "a") : NULL;
	if (f) {
		fprintf(f, "BENCH {\"kind\":\"memory\",\"driver\":\"%s\",\"device\":\"%s\",\"reps\":%d,"
			"\"counts\":{\"idle_process\":%d,\"node\":%d,\"ref\":%d,\"transaction\":%d}",
			driver, dev, n, IDLE_COUNT, NODE_COUNT, NODE_COUNT, TXN_COUNT);
		for (i = 0; i < 4; i++)
			fprintf(f, ",\"%s\":{\"slab_bytes\":%.0f,\"page_bytes\":%.0f}", names[i],
				med(slab[i], n), med(pages[i], n));
		fprintf(f, "}\n");
		fclose(f);
	}
	return 0;
}
