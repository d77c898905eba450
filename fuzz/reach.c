// SPDX-License-Identifier: Apache-2.0
/*
 * kbfuzz reach: how much of the driver's protocol a run reached, read from
 * kbinder's per-world use counters after the run (debugfs kbinder/counts,
 * or the binder_logs/counts of the binderfs mount the device is in): how
 * many of the BC_ commands and of the object types reached the driver's
 * dispatch in the fuzzed device's world, which never did, and how many a
 * device profile refused. The items a profile can refuse are also counted
 * by the driver inside their handlers ("handled <item>": the translation
 * of a PTR or FDA object, the reading of an _SG command's extra size, the
 * answer to an acquire command), apart from the profile check: on an aidl
 * device any nonzero handled count is a refusal that let the item through,
 * a finding. A driver without the counters (the reference) gets one line
 * saying so.
 */
#define _GNU_SOURCE
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include <kbinder/binder_cmds.h>

#include "fuzz.h"

#define REACH_MAX 96

/*
 * One world's counters: "<item> <n>", "refused <item> <n>" and
 * "handled <item> <n>" lines.
 */
struct reach {
	char profile[16];
	int n;
	char item[REACH_MAX][80];
	long value[REACH_MAX];
};

#define FZ_BC_NAME(arg, code) #code,
static const char *const bc_names[] = { KBINDER_BC_CODES(FZ_BC_NAME, ) };
static const char *const obj_names[] = {
	"BINDER_TYPE_BINDER", "BINDER_TYPE_WEAK_BINDER", "BINDER_TYPE_HANDLE",
	"BINDER_TYPE_WEAK_HANDLE", "BINDER_TYPE_FD", "BINDER_TYPE_FDA",
	"BINDER_TYPE_PTR",
};

/* The first block of world @name in @file: 0, or -1 if none. */
static int reach_read(const char *file, const char *name, struct reach *r)
{
	char line[160], world[80], a[64];
	unsigned long long id;
	bool in = false, found = false;
	FILE *f = fopen(file, "r");
	long v;

	memset(r, 0, sizeof(*r));
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "world %llu %79s profile %15s", &id, world,
			   r->profile) == 3) {
			if (found)
				break;
			in = found = !strcmp(world, name);
			continue;
		}
		if (!in || r->n == REACH_MAX)
			continue;
		if (sscanf(line, "refused %63s %ld", a, &v) == 2)
			snprintf(r->item[r->n], sizeof(r->item[0]), "refused %s", a);
		else if (sscanf(line, "handled %63s %ld", a, &v) == 2)
			snprintf(r->item[r->n], sizeof(r->item[0]), "handled %s", a);
		else if (sscanf(line, "%63s %ld", a, &v) == 2)
			snprintf(r->item[r->n], sizeof(r->item[0]), "%s", a);
		else
			continue;
		r->value[r->n++] = v;
	}
	fclose(f);
	return found ? 0 : -1;
}

/* The count of @item, or -1 if the world has no such line. */
static long reach_of(const struct reach *r, const char *item)
{
	int i;

	for (i = 0; i < r->n; i++)
		if (!strcmp(r->item[i], item))
			return r->value[i];
	return -1;
}

/*
 * Print "kbfuzz: reach <what>: N of M reached, refused K; not reached: ..."
 * for the items @names; return how many items reached their handler on an
 * aidl device, which refuses every item that has a handled count (a
 * finding).
 */
static int reach_line(const struct reach *r, const char *what,
		      const char *const *names, size_t n)
{
	char missed[1024] = "", item[96];
	bool aidl = !strcmp(r->profile, "aidl");
	size_t i, reached = 0;
	long refused = 0, v, rv, hv;
	int leaks = 0;

	for (i = 0; i < n; i++) {
		v = reach_of(r, names[i]);
		snprintf(item, sizeof(item), "refused %s", names[i]);
		rv = reach_of(r, item);
		snprintf(item, sizeof(item), "handled %s", names[i]);
		hv = reach_of(r, item);
		if (v > 0)
			reached++;
		else if (strlen(missed) + strlen(names[i]) + 2 < sizeof(missed))
			snprintf(missed + strlen(missed),
				 sizeof(missed) - strlen(missed), " %s", names[i]);
		if (rv > 0)
			refused += rv;
		if (aidl && hv > 0) {
			printf("kbfuzz: reach: %s is refused on aidl (refused %ld times) but its handler ran %ld times\n",
			       names[i], rv, hv);
			leaks++;
		}
	}
	printf("kbfuzz: reach %s (profile %s): %zu of %zu reached, %ld refused; not reached:%s\n",
	       what, r->profile, reached, n, refused, *missed ? missed : " none");
	return leaks;
}

/**
 * fz_reach_report() - print the run's reach on the device fuzzed
 *
 * Return: the number of refused items that reached their handler anyway
 * (nonzero fails the run).
 */
int fz_reach_report(void)
{
	char dev[PATH_MAX], dir[PATH_MAX], file[PATH_MAX];
	const char *name;
	struct reach r;
	int leaks;

	snprintf(dev, sizeof(dev), "%s", fz_cfg.device);
	snprintf(dir, sizeof(dir), "%s", fz_cfg.device);
	name = basename(dev);
	snprintf(file, sizeof(file), "%s/binder_logs/counts", dirname(dir));
	if (reach_read(file, name, &r) &&
	    reach_read("/sys/kernel/debug/kbinder/counts", name, &r)) {
		printf("kbfuzz: reach: no use counters for %s (only kbinder has them)\n",
		       fz_cfg.device);
		return 0;
	}
	leaks = reach_line(&r, "commands", bc_names,
			   sizeof(bc_names) / sizeof(bc_names[0]));
	leaks += reach_line(&r, "objects", obj_names,
			    sizeof(obj_names) / sizeof(obj_names[0]));
	return leaks;
}
