/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kbbench_report.h - what kbbench prints once a workload is done: a table
 * for people on stdout and one `BENCH {json}` line for the host's
 * bench/report.py (header-only, see binder_io.h).
 */
#ifndef KBINDER_BENCH_KBBENCH_REPORT_H
#define KBINDER_BENCH_KBBENCH_REPORT_H

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kbbench.h"
#include "stats.h"

static void die(const char *msg);

static struct chan *chan_by_name(struct chan *ch, int nch, const char *name)
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
static int compare(struct chan *ch, int nch, const struct workload *w, const char *a,
		   const char *b, const char *kind, const char *label, struct cmp *out)
{
	struct chan *ca = chan_by_name(ch, nch, a), *cb = chan_by_name(ch, nch, b);
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

static void report(struct chan *ch, int nch, const struct workload *w, const char *results)
{
	static const char *const pairs[][4] = {
		{ "kbinder", "reference", "speedup", "kbinder vs reference" },
		{ "reference2", "reference", "speedup", "A/A control (reference2 vs reference)" },
		{ "kbinder", "old", "speedup", "kbinder vs old (kbinder of another commit)" },
		{ "reference", "pipe", "cost", "reference / pipe time" },
		{ "kbinder", "pipe", "cost", "kbinder / pipe time" },
		{ "unix", "pipe", "cost", "unix / pipe time" },
		{ "reference", "memcpy", "cost", "reference / memcpy time" },
		{ "kbinder", "memcpy", "cost", "kbinder / memcpy time" },
	};
	struct cmp cmps[9];
	int ncmp = 0, i;
	FILE *f = NULL;

	for (i = 0; i < (int)(sizeof(pairs) / sizeof(pairs[0])); i++)
		ncmp += compare(ch, nch, w, pairs[i][0], pairs[i][1], pairs[i][2], pairs[i][3],
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
			w->kind == WL_OBJECTS ? "objects" : w->kind == WL_FD ? "fd" :
			w->kind == WL_REFS ? "refs" : "multi",
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

#endif /* KBINDER_BENCH_KBBENCH_REPORT_H */
