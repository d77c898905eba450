// SPDX-License-Identifier: Apache-2.0
/*
 * kbinsn - a QEMU TCG plugin that counts the guest instructions executed
 * between two markers of a guest program, kernel and user apart, per vCPU
 * (make bench-insn; docs/performance.md).
 *
 * usage: qemu-system-x86_64 -accel tcg,thread=single -smp 1 \
 *            -plugin kbinsn.so[,profile=on] -d plugin -D LOG ...
 *
 * Every translation block gets an execution callback that adds the
 * block's instruction count to its vCPU's kernel or user total (kernel:
 * the block starts at an address with the top bit set, x86-64's upper
 * half) and counts the block's executions. A guest program opens and
 * closes a window with marker instructions (insn_marker.h: `nopl` with a
 * distinctive displacement, recognised by its bytes at translation); at
 * the window's end the plugin writes to QEMU's log:
 *
 *   KBINSN window tag=TTTTTTTT vcpu=V kernel=K user=U   (one per vCPU)
 *   KBINSN total tag=TTTTTTTT kernel=K user=U
 *   KBINSN block tag=TTTTTTTT ADDR INSNS EXECS  (profile=on: per kernel
 *                       block executed in the window: its start address,
 *                       the instructions and the times it executed there)
 *   KBINSN end tag=TTTTTTTT blocks=N profiled=P
 *
 * P is the sum of the block lines (all vCPUs' kernel instructions when
 * the profile is on, else 0). Instructions of the marker's own block are
 * counted exactly: those after START belong to the window, STOP and what
 * follows it do not.
 *
 * What a count is: one per guest instruction QEMU executes, so a
 * rep-prefixed string instruction counts once per iteration (QEMU runs
 * each iteration as a block of its own), and an instruction that faults
 * after its block started is counted when the block starts and again when
 * it is retried. Exact and repeatable with single-threaded TCG; with
 * several vCPU threads (thread=multi) the execution counts of shared
 * blocks are not atomic and the profile becomes approximate.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KBI_PLUGIN
#include "insn_marker.h"
#include "qemu_plugin_api.h"

/* QEMU reads the API level the plugin was written for from this symbol. */
__attribute__((visibility("default"))) int qemu_plugin_version = KBI_QEMU_PLUGIN_API;

#define MAX_VCPUS 64
#define KERNEL_HALF (1ull << 63)
#define CHUNK_BLOCKS 4096

/* struct block - one translation of a block (a block translated again gets a new one). */
struct block {
	uint64_t vaddr;
	uint32_t n;		/* instructions */
	uint32_t kernel;	/* 1: kernel address */
	uint64_t execs;		/* executions, all vCPUs */
	uint64_t execs_at_start;	/* execs when the window opened */
};

struct chunk {
	struct chunk *next;
	unsigned int used;
	struct block b[CHUNK_BLOCKS];
};

/* struct vcpu - one vCPU's totals, [0] user, [1] kernel; a cache line each. */
struct vcpu {
	uint64_t insns[2];
	uint64_t at_start[2];
} __attribute__((aligned(64)));

static struct vcpu vcpus[MAX_VCPUS];
static unsigned int nvcpus = 1;
static int profile;

/* Blocks: appended at translation (any vCPU thread), walked at markers. */
static pthread_mutex_t blocks_lock = PTHREAD_MUTEX_INITIALIZER;
static struct chunk *chunks;	/* newest first */
static uint64_t nblocks;
static int out_of_memory;

/* The window: one at a time, opened and closed by the guest's markers. */
static uint32_t tag;		/* the nibbles sent so far */
static uint32_t window_tag;
static int window_open;

/* ------------------------------------------------------------ output */

struct outbuf {
	char *p;
	size_t len, cap;
};

static void out_printf(struct outbuf *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void out_printf(struct outbuf *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		size_t room = o->cap - o->len;

		va_start(ap, fmt);
		n = vsnprintf(o->p ? o->p + o->len : NULL, o->p ? room : 0, fmt, ap);
		va_end(ap);
		if (n < 0)
			return;
		if (o->p && (size_t)n < room) {
			o->len += (size_t)n;
			return;
		}
		size_t cap = o->cap ? o->cap * 2 : 4096;
		char *p;

		while (cap - o->len <= (size_t)n)
			cap *= 2;
		p = realloc(o->p, cap);
		if (!p) {
			out_of_memory = 1;
			return;
		}
		o->p = p;
		o->cap = cap;
	}
}

static void out_flush(struct outbuf *o)
{
	if (o->p && o->len)
		qemu_plugin_outs(o->p);
	free(o->p);
	memset(o, 0, sizeof(*o));
}

/* ------------------------------------------------------------ blocks */

static struct block *block_new(uint64_t vaddr, size_t n)
{
	struct block *b = NULL;

	pthread_mutex_lock(&blocks_lock);
	if (!chunks || chunks->used == CHUNK_BLOCKS) {
		struct chunk *c = calloc(1, sizeof(*c));

		if (!c) {
			out_of_memory = 1;
			goto out;
		}
		c->next = chunks;
		chunks = c;
	}
	b = &chunks->b[chunks->used++];
	b->vaddr = vaddr;
	b->n = (uint32_t)n;
	b->kernel = (vaddr & KERNEL_HALF) != 0;
	nblocks++;
out:
	pthread_mutex_unlock(&blocks_lock);
	return b;
}

/* on_block: a block starts executing on @vcpu. */
static void on_block(unsigned int vcpu, void *udata)
{
	struct block *b = udata;

	b->execs++;
	if (vcpu < MAX_VCPUS)
		vcpus[vcpu].insns[b->kernel] += b->n;
}

/* ------------------------------------------------------------ windows */

/*
 * window_start: the window opens on @vcpu, whose current block (kernel
 * or user: @kernel) was counted whole although its last @after
 * instructions follow the marker: those belong to the window.
 */
static void window_start(unsigned int vcpu, int kernel, uint64_t after)
{
	struct chunk *c;
	unsigned int v, i;

	for (v = 0; v < nvcpus; v++) {
		vcpus[v].at_start[0] = vcpus[v].insns[0];
		vcpus[v].at_start[1] = vcpus[v].insns[1];
	}
	if (vcpu < nvcpus)
		vcpus[vcpu].at_start[kernel] -= after;
	if (profile) {
		pthread_mutex_lock(&blocks_lock);
		for (c = chunks; c; c = c->next)
			for (i = 0; i < c->used; i++)
				c->b[i].execs_at_start = c->b[i].execs;
		pthread_mutex_unlock(&blocks_lock);
	}
	window_tag = tag;
	tag = 0;
	window_open = 1;
}

/* window_profile: the kernel blocks executed in the window; returns their sum. */
static uint64_t window_profile(struct outbuf *o)
{
	struct chunk *c;
	uint64_t sum = 0, d, e;
	unsigned int i;

	pthread_mutex_lock(&blocks_lock);
	for (c = chunks; c; c = c->next) {
		for (i = 0; i < c->used; i++) {
			struct block *b = &c->b[i];

			if (!b->kernel || b->execs == b->execs_at_start)
				continue;
			e = b->execs - b->execs_at_start;
			d = e * b->n;
			sum += d;
			out_printf(o, "KBINSN block tag=%08" PRIx32 " %016" PRIx64 " %" PRIu64
				   " %" PRIu64 "\n", window_tag, b->vaddr, d, e);
		}
	}
	pthread_mutex_unlock(&blocks_lock);
	return sum;
}

/*
 * window_stop: the window closes on @vcpu, whose current block was
 * counted whole although its last @from instructions (the marker and
 * what follows it) are outside the window.
 */
static void window_stop(unsigned int vcpu, int kernel, uint64_t from)
{
	uint64_t total[2] = { 0, 0 }, profiled = 0;
	struct outbuf o = { 0 };
	unsigned int v;

	if (!window_open) {
		qemu_plugin_outs("KBINSN error: a window closed that was never opened\n");
		tag = 0;
		return;
	}
	for (v = 0; v < nvcpus; v++) {
		uint64_t k = vcpus[v].insns[1] - vcpus[v].at_start[1];
		uint64_t u = vcpus[v].insns[0] - vcpus[v].at_start[0];

		if (v == vcpu) {
			if (kernel)
				k -= from;
			else
				u -= from;
		}
		total[0] += u;
		total[1] += k;
		out_printf(&o, "KBINSN window tag=%08" PRIx32 " vcpu=%u kernel=%" PRIu64
			   " user=%" PRIu64 "\n", window_tag, v, k, u);
	}
	out_printf(&o, "KBINSN total tag=%08" PRIx32 " kernel=%" PRIu64 " user=%" PRIu64 "\n",
		   window_tag, total[1], total[0]);
	if (profile)
		profiled = window_profile(&o);
	if (out_of_memory)
		out_printf(&o, "KBINSN error: out of memory, counts are incomplete\n");
	out_printf(&o, "KBINSN end tag=%08" PRIx32 " blocks=%" PRIu64 " profiled=%" PRIu64 "\n",
		   window_tag, nblocks, profiled);
	out_flush(&o);
	window_open = 0;
	tag = 0;
}

/*
 * on_marker: a marker instruction executes. @udata packs the marker's op
 * (bits 0-7), whether its block is the kernel's (bit 8), its index in
 * the block (bits 16-31) and the block's length (bits 32-63).
 */
static void on_marker(unsigned int vcpu, void *udata)
{
	uint64_t u = (uint64_t)(uintptr_t)udata;
	unsigned int op = u & 0xff, kernel = (u >> 8) & 1;
	uint64_t idx = (u >> 16) & 0xffff, n = u >> 32;

	if (op < KBI_OP_NIBBLE + 16)
		tag = tag << 4 | (op - KBI_OP_NIBBLE);
	else if (op == KBI_OP_START)
		window_start(vcpu, (int)kernel, n - idx - 1);
	else if (op == KBI_OP_STOP)
		window_stop(vcpu, (int)kernel, n - idx);
}

/* marker_op: the op of a marker instruction, or -1 for any other. */
static int marker_op(const struct qemu_plugin_insn *insn)
{
	const uint8_t *p = qemu_plugin_insn_data(insn);
	uint32_t disp;

	if (qemu_plugin_insn_size(insn) != KBI_MARKER_LEN || !p ||
	    p[0] != KBI_OPCODE0 || p[1] != KBI_OPCODE1 || p[2] != KBI_MODRM)
		return -1;
	disp = (uint32_t)p[3] | (uint32_t)p[4] << 8 | (uint32_t)p[5] << 16 |
	       (uint32_t)p[6] << 24;
	if ((disp & KBI_MAGIC_MASK) != KBI_MAGIC)
		return -1;
	disp &= ~KBI_MAGIC_MASK;
	if (disp >= KBI_OP_NIBBLE + 16 && disp != KBI_OP_START && disp != KBI_OP_STOP)
		return -1;
	return (int)disp;
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb), i;
	struct block *b = block_new(qemu_plugin_tb_vaddr(tb), n);

	(void)id;
	if (!b)
		return;
	qemu_plugin_register_vcpu_tb_exec_cb(tb, on_block, KBI_CB_NO_REGS, b);
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		int op = marker_op(insn);
		uint64_t u;

		if (op < 0)
			continue;
		u = (uint64_t)op | (uint64_t)b->kernel << 8 | (uint64_t)i << 16 |
		    (uint64_t)n << 32;
		qemu_plugin_register_vcpu_insn_exec_cb(insn, on_marker, KBI_CB_NO_REGS,
						       (void *)(uintptr_t)u);
	}
}

static void on_qemu_exit(qemu_plugin_id_t id, void *udata)
{
	char line[160];

	(void)id;
	(void)udata;
	snprintf(line, sizeof(line), "KBINSN exit blocks=%" PRIu64 "%s\n", nblocks,
		 out_of_memory ? " (out of memory: counts incomplete)" : "");
	qemu_plugin_outs(line);
}

/* parse_bool: "on", "true", "yes", "1" -> 1; "off", "false", "no", "0" -> 0; else -1. */
static int parse_bool(const char *s)
{
	if (!strcmp(s, "on") || !strcmp(s, "true") || !strcmp(s, "yes") || !strcmp(s, "1"))
		return 1;
	if (!strcmp(s, "off") || !strcmp(s, "false") || !strcmp(s, "no") || !strcmp(s, "0"))
		return 0;
	return -1;
}

__attribute__((visibility("default")))
int qemu_plugin_install(qemu_plugin_id_t id, const struct kbi_qemu_info *info,
			int argc, char **argv);

int qemu_plugin_install(qemu_plugin_id_t id, const struct kbi_qemu_info *info,
			int argc, char **argv)
{
	int i;

	if (!info->system_emulation || strcmp(info->target_name, "x86_64") != 0) {
		fprintf(stderr, "kbinsn: for qemu-system-x86_64 only (this is %s%s)\n",
			info->target_name, info->system_emulation ? "" : ", user mode");
		return -1;
	}
	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "profile=", 8) && parse_bool(argv[i] + 8) >= 0) {
			profile = parse_bool(argv[i] + 8);
		} else {
			fprintf(stderr, "kbinsn: unknown argument '%s' (profile=on|off)\n", argv[i]);
			return -1;
		}
	}
	nvcpus = info->system.max_vcpus > 0 ? (unsigned int)info->system.max_vcpus : 1;
	if (nvcpus > MAX_VCPUS) {
		fprintf(stderr, "kbinsn: at most %d vCPUs\n", MAX_VCPUS);
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
	qemu_plugin_register_atexit_cb(id, on_qemu_exit, NULL);
	return 0;
}
