/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench_server.h - the server processes of kbbench (header-only, see
 * binder_io.h): a binder context manager answering the workloads' calls
 * with one or more looper threads, and the echo server of the pipe and
 * unix-socket baselines.
 */
#ifndef KBINDER_BENCH_SERVER_H
#define KBINDER_BENCH_SERVER_H

#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "binder_io.h"

#define SERVER_MAP (2u << 20)
/* Nodes in one reply to CODE_NODES, at most. */
#define NODES_PER_REPLY 1000

/* What a call asks of the server. */
enum { CODE_ECHO = 1, CODE_ONEWAY, CODE_ONEWAY_LAST, CODE_OBJECTS, CODE_FD, CODE_NODES };

/* Handles this server already holds a reference on (objects workload). */
static unsigned char held[4096];

/*
 * One-way throughput: the last call of a batch asks the server to say when
 * it has been handled, on an eventfd shared with the client. A synchronous
 * call cannot serve as a flush: it may overtake queued one-way calls.
 */
static int srv_efd = -1;

/* CODE_NODES asks for {seq, first, count}: count new nodes of ours. */
struct srv_nodes_req {
	uint32_t seq, first, count;
};

/*
 * srv_nodes: a reply of @count binder objects, nodes first + 0 ..
 * first + count - 1 of this server (one per thread at a time: the reply
 * is written from these buffers by the looper's next ioctl).
 */
static void srv_nodes(const struct srv_nodes_req *q, struct bio_reply *reply)
{
	static __thread struct flat_binder_object fbo[NODES_PER_REPLY];
	static __thread binder_size_t offs[NODES_PER_REPLY];
	uint32_t i;

	for (i = 0; i < q->count; i++) {
		memset(&fbo[i], 0, sizeof(fbo[i]));
		fbo[i].hdr.type = BINDER_TYPE_BINDER;
		fbo[i].binder = 0x1000000 + 0x10 * (binder_uintptr_t)(q->first + i);
		fbo[i].cookie = q->first + i;
		offs[i] = i * sizeof(fbo[i]);
	}
	reply->data = (const uint8_t *)fbo;
	reply->size = q->count * sizeof(fbo[0]);
	reply->offs = offs;
	reply->noffs = q->count;
}

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
	case CODE_NODES: {
		struct srv_nodes_req q;

		if (tr->data_size != sizeof(q))
			break;
		memcpy(&q, data, sizeof(q));
		if (q.count == 0 || q.count > NODES_PER_REPLY)
			break;
		srv_nodes(&q, reply);
		return 0;
	}
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

/*
 * srv_stream_main: echo server of the pipe and socket baselines; one read
 * takes up to a whole pipe (64 KiB), so a ping-pong of any size up to that
 * is one read and one write on each side.
 */
static void srv_stream_main(int rfd, int wfd)
{
	static uint8_t buf[64 << 10];

	for (;;) {
		ssize_t n = read(rfd, buf, sizeof(buf));

		if (n <= 0)
			_exit(0);
		if (write(wfd, buf, (size_t)n) != n)
			_exit(1);
	}
}

/* start_child: fork a server that dies with us; returns its pid in the parent. */

#endif /* KBINDER_BENCH_SERVER_H */
