/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kbbench_insn.h - kbbench's instruction-count mode (--insn OPS, make
 * bench-insn): instead of timing rounds, every channel in turn runs a
 * warm-up, then OPS operations of the workload between two marker
 * instructions that the QEMU plugin bench/insn/kbinsn.c counts between
 * (insn_marker.h). Nothing is timed: the host divides the window's
 * kernel and user instructions by OPS.
 *
 * The window is named by a tag: the process id in the upper 24 bits,
 * the channel's index in the lower 8. One `INSN {json}` line per channel
 * (workload, channel, tag, operations, status) goes to the results file;
 * the host's bench/insn/report.py joins them with the plugin's log.
 * (Header-only, see binder_io.h; included by kbbench.c after the
 * channels it drives.)
 */
#ifndef KBINDER_BENCH_KBBENCH_INSN_H
#define KBINDER_BENCH_KBBENCH_INSN_H

#include <stdio.h>
#include <unistd.h>

#include "insn/insn_marker.h"

/*
 * insn_calls: @ops operations of @w on @c. One-way calls go in batches of
 * @w->batch, as in the timed bench: a batch ends when the server has
 * handled its last call, so every batch starts from the same state (a
 * whole run in one go lets the client and the server settle into one of
 * several ways of taking turns, which differ by 10% in context switches
 * per call and last the whole window).
 */
static int insn_calls(struct chan *c, const struct workload *w, long ops, uint32_t *seq)
{
	long i;
	int rc = 0;

	for (i = 0; i < ops && !rc; i++) {
		if (w->kind == WL_ONEWAY && c->kind == CH_BINDER &&
		    ((i + 1) % w->batch == 0 || i + 1 == ops))
			rc = binder_oneway_last(c, &c->b, w->size, ++*seq);
		else
			rc = chan_call(c, &c->b, w, ++*seq);
	}
	return rc;
}

static void insn_result(FILE *f, const char *spec, const struct workload *w,
			const struct chan *c, uint32_t tag, long ops)
{
	if (!f)
		return;
	fprintf(f, "INSN {\"kind\":\"insn\",\"workload\":");
	json_str(f, spec);
	fprintf(f, ",\"name\":");
	json_str(f, w->name);
	fprintf(f, ",\"channel\":\"%s\",\"tag\":\"%08x\",\"ops\":%ld,\"status\":\"%s\"",
		c->name, tag, ops, c->ok ? "ok" : "unavailable");
	if (!c->ok) {
		fprintf(f, ",\"why\":");
		json_str(f, c->why);
	}
	fprintf(f, "}\n");
	fflush(f);
}

/*
 * run_insn: one counted window of @ops operations per channel. The
 * servers get time to go back to sleep after the warm-up, so that every
 * window starts from the same quiet state.
 */
static void run_insn(const struct workload *w, const char *spec, long ops, const char *results)
{
	FILE *f = results ? fopen(results, "a") : NULL;
	long warm = ops / 10 < 50 ? 50 : ops / 10;
	uint32_t seq = 0, tag;
	int k, rc;

	if (results && !f)
		die("cannot open the results file");
	printf("%s: %ld operations per channel, counted by the instruction plugin\n",
	       w->name, ops);
	for (k = 0; k < nch; k++) {
		struct chan *c = &ch[k];

		tag = (uint32_t)(getpid() & 0xffffff) << 8 | (uint32_t)k;
		if (c->ok) {
			bio_deadline(batch_timeout * 6);
			rc = insn_calls(c, w, warm, &seq);
			bio_deadline(0);
			usleep(20000);
			if (!rc) {
				bio_deadline(batch_timeout * 6);
				kbi_window_start(tag);
				rc = insn_calls(c, w, ops, &seq);
				kbi_window_stop();
				bio_deadline(0);
			}
			if (rc)
				chan_fail(c, "call", rc);
		}
		if (c->ok)
			printf("  %-10s window %08x\n", c->name, tag);
		else
			printf("  %-10s unavailable: %s\n", c->name, c->why);
		insn_result(f, spec, w, c, tag, ops);
	}
	if (f)
		fclose(f);
}

#endif /* KBINDER_BENCH_KBBENCH_INSN_H */
