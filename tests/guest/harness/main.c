// SPDX-License-Identifier: Apache-2.0
/*
 * The test program: TEST() registers each test (a constructor), main()
 * lists them (-l) or runs those selected, one at a time (run.c), and
 * prints one result line each, appended to $KBINDER_RESULTS too. A
 * program that has no test, or runs none, fails (-l too). See harness.h.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

const char *kbt_suite_name = "?";
const char *kbt_current = "?";

static struct kbt_test *kbt_tests;
static struct kbt_test **kbt_tail = &kbt_tests;
static FILE *kbt_results;

void kbt_register(struct kbt_test *t)
{
	*kbt_tail = t;
	kbt_tail = &t->next;
}

const char *kbt_suite(void)
{
	return kbt_suite_name;
}

const char *kbt_test_name(void)
{
	return kbt_current;
}

void kbt_result(const char *verdict, const char *test, const char *why)
{
	char line[KBT_WHY_MAX + 256];

	if (why && *why)
		snprintf(line, sizeof(line), "%s %s/%s: %s\n", verdict,
			 kbt_suite_name, test, why);
	else
		snprintf(line, sizeof(line), "%s %s/%s\n", verdict,
			 kbt_suite_name, test);
	fputs(line, stdout);
	fflush(stdout);
	if (kbt_results) {
		fputs(line, kbt_results);
		fflush(kbt_results);
	}
}

/* No GLOB given, or @name matches one of them. */
static bool kbt_selected(const char *name, int argc, char **argv)
{
	int i;

	if (argc < 2)
		return true;
	for (i = 1; i < argc; i++)
		if (!fnmatch(argv[i], name, 0))
			return true;
	return false;
}

static void kbt_usage(const char *argv0)
{
	printf("usage: %s [-l] [GLOB...]\n"
	       "  run the tests of suite %s (those matching a GLOB)\n"
	       "  -l  list the tests\n"
	       "env: BINDER_DEVICE (default /dev/binder), KBINDER_DRIVER\n"
	       "     (kbinder|reference), KBINDER_RESULTS (append result lines)\n",
	       argv0, kbt_suite_name);
}

int main(int argc, char **argv)
{
	const char *results = getenv("KBINDER_RESULTS");
	const char *slash = strrchr(argv[0], '/');
	int counts[3] = { 0, 0, 0 };	/* passed, failed, skipped */
	struct kbt_test *t;
	int ret;

	kbt_suite_name = slash ? slash + 1 : argv[0];
	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		kbt_usage(argv[0]);
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "-l")) {
		/* a program of no test would pass every run: it fails */
		if (!kbt_tests) {
			fprintf(stderr, "%s: no test registered\n", kbt_suite_name);
			return 1;
		}
		for (t = kbt_tests; t; t = t->next)
			printf("%s/%s\n", kbt_suite_name, t->name);
		return 0;
	}
	ret = kbt_run_setup();
	if (ret) {
		fprintf(stderr, "%s: shared state: %s\n", kbt_suite_name,
			strerror(-ret));
		return 1;
	}
	if (results && *results)
		kbt_results = fopen(results, "ae");
	setvbuf(stdout, NULL, _IOLBF, 0);

	for (t = kbt_tests; t; t = t->next) {
		const char *not_run;

		if (!kbt_selected(t->name, argc, argv))
			continue;
		not_run = kbt_not_run_why();
		if (not_run) {
			kbt_result("FAIL", t->name, not_run);
			counts[1]++;
			continue;
		}
		counts[kbt_run_one(t)]++;
	}
	if (!counts[0] && !counts[1] && !counts[2]) {
		kbt_result("FAIL", "(program)", kbt_tests ?
			   "ran no test: none matches the GLOBs given" :
			   "ran no test: none is registered");
		counts[1]++;
	}
	fprintf(stderr, "%s: %d passed, %d failed, %d skipped\n",
		kbt_suite_name, counts[0], counts[1], counts[2]);
	if (kbt_results)
		fclose(kbt_results);
	return counts[1] ? 1 : 0;
}
