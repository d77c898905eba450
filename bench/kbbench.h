/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kbbench.h - kbbench's channels and workloads, shared by kbbench.c and
 * kbbench_report.h.
 */
#ifndef KBINDER_BENCH_KBBENCH_H
#define KBINDER_BENCH_KBBENCH_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "binder_io.h"

struct floor_page;

#define CLIENT_MAP (256u << 10)
#define MAX_PAYLOAD (1u << 20)
#define MAX_CHANNELS 8
#define MAX_CLIENTS 16
#define MAX_REFS 100000
#define POOL_THREADS 8
#define WARMUP_ROUNDS 3

enum chan_kind { CH_BINDER, CH_PIPE, CH_UNIX, CH_MEMCPY, CH_FUTEX, CH_EVENTFD, CH_SYSCALL };
enum wl_kind { WL_SYNC, WL_ONEWAY, WL_OBJECTS, WL_FD, WL_MULTI, WL_REFS };

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
	uint32_t *handles;	/* WL_REFS: the client's handles on the server's nodes */
	struct floor_page *floor;	/* futex: the page shared with the server */
};

/** struct workload - what is measured and how long. */
struct workload {
	enum wl_kind kind;
	size_t size;		/* payload bytes, or objects for WL_OBJECTS */
	int refs;		/* WL_REFS: nodes of the server the client holds */
	int clients;		/* WL_MULTI */
	int rounds;
	int batch;
	int latency;		/* per-call latencies mean something */
	int cpu;		/* the one CPU everything runs on, or -1 */
	char name[64];
};

#endif /* KBINDER_BENCH_KBBENCH_H */
