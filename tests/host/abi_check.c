// SPDX-License-Identifier: Apache-2.0
/*
 * abi_check: is our binder ABI the upstream one?
 *
 * Compares, fact by fact, the table built from our headers with the table
 * built from the system's Linux 6.1 headers (every ioctl number, BC_/BR_
 * code, constant, struct size, alignment, field offset, size and
 * signedness).  Facts only our headers have (mainline additions after
 * 6.1) are compared with the literal mainline numbers of abi_mainline.h,
 * and a fact with nothing to compare against fails too.
 *
 * Prints one line per check group, "PASS abi/<variant>/<group>" or
 * "FAIL abi/<variant>/<group>: <mismatches>", and exits 1 on any failure.
 * The variant (m64, m32, m32-ipc32) is the ABI this binary was built for.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "abi_mainline.h"
#include "abi_table.h"

#define ML_NUMBER(g, n, m64, m32, ipc32) \
	{ #g, n, (unsigned long long)ABI_PICK(m64, m32, ipc32), NULL },
#define ML_STRING(g, n, s) { #g, n, 0, s },

static const struct abi_entry mainline_rows[] = {
	ABI_MAINLINE_NUMBERS(ML_NUMBER)
	ABI_MAINLINE_STRINGS(ML_STRING)
};

static const struct abi_table abi_table_mainline = {
	.origin = "mainline",
	.rows = mainline_rows,
	.count = sizeof(mainline_rows) / sizeof(mainline_rows[0]),
};

static const char *const groups[] = {
	"const", "ioctl", "br", "bc", "layout", "binderfs", "netlink",
};

#define NGROUPS (sizeof(groups) / sizeof(groups[0]))

/* Mismatch text of the group being checked; long lists are cut short. */
static char why[1024];
static size_t problems;

static void note(const char *fmt, const char *name, const char *a,
		 const char *b)
{
	size_t used = strlen(why);

	problems++;
	if (used >= sizeof(why) - 64) {
		if (!strstr(why, "; ..."))
			snprintf(why + used, sizeof(why) - used, "; ...");
		return;
	}
	if (used)
		used += snprintf(why + used, sizeof(why) - used, "; ");
	if (used < sizeof(why))
		snprintf(why + used, sizeof(why) - used, fmt, name, a, b);
}

static const struct abi_entry *find(const struct abi_table *t,
				    const char *name)
{
	for (size_t i = 0; i < t->count; i++)
		if (!strcmp(t->rows[i].name, name))
			return &t->rows[i];
	return NULL;
}

static void format(const struct abi_entry *e, char *buf, size_t len)
{
	if (e->str)
		snprintf(buf, len, "\"%s\"", e->str);
	else
		snprintf(buf, len, "%#llx", e->value);
}

/* Does @ours say the same as @ref (from the table named @origin)? */
static void compare(const struct abi_entry *ours, const struct abi_entry *ref,
		    const char *origin)
{
	char a[80], b[80], label[96];
	bool same;

	if (!ours) {
		note("%s missing from our headers%s%s", ref->name, "", "");
		return;
	}
	if (strcmp(ours->group, ref->group)) {
		note("%s listed under %s here, %s there", ours->name,
		     ours->group, ref->group);
		return;
	}
	if (ours->str || ref->str)
		same = ours->str && ref->str && !strcmp(ours->str, ref->str);
	else
		same = ours->value == ref->value;
	if (same)
		return;
	format(ours, a, sizeof(a));
	format(ref, b, sizeof(b));
	snprintf(label, sizeof(label), "%s=%s", origin, b);
	note("%s ours=%s %s", ours->name, a, label);
}

static bool check_group(const char *group)
{
	const struct abi_table *sys = &abi_table_sys;
	const struct abi_table *ours = &abi_table_ours;
	const struct abi_table *ml = &abi_table_mainline;
	size_t checked = 0;

	why[0] = '\0';
	problems = 0;

	/* Everything 6.1 defines must be ours too, with the same value. */
	for (size_t i = 0; i < sys->count; i++) {
		const struct abi_entry *s = &sys->rows[i];

		if (strcmp(s->group, group))
			continue;
		compare(find(ours, s->name), s, "system");
		checked++;
	}
	/* What only we define must be a mainline value we wrote down. */
	for (size_t i = 0; i < ours->count; i++) {
		const struct abi_entry *o = &ours->rows[i];
		const struct abi_entry *m;

		if (strcmp(o->group, group) || find(sys, o->name))
			continue;
		m = find(ml, o->name);
		if (!m) {
			note("%s has no system or mainline value to check%s%s",
			     o->name, "", "");
			continue;
		}
		compare(o, m, "mainline");
		checked++;
	}
	/* And every mainline value we wrote down must be defined. */
	for (size_t i = 0; i < ml->count; i++) {
		const struct abi_entry *m = &ml->rows[i];

		if (!strcmp(m->group, group) && !find(ours, m->name))
			note("%s (mainline) missing from our headers%s%s",
			     m->name, "", "");
	}
	if (!checked && !problems)
		note("no facts in group %s%s%s", group, "", "");

	if (problems) {
		printf("FAIL abi/%s/%s: %s\n", ABI_VARIANT, group, why);
		return false;
	}
	printf("PASS abi/%s/%s\n", ABI_VARIANT, group);
	return true;
}

/* A fact listed twice would hide one of its comparisons. */
static bool check_tables(void)
{
	const struct abi_table *tables[] = {
		&abi_table_sys, &abi_table_ours, &abi_table_mainline,
	};

	why[0] = '\0';
	problems = 0;
	for (size_t t = 0; t < sizeof(tables) / sizeof(tables[0]); t++) {
		const struct abi_table *tab = tables[t];

		for (size_t i = 0; i < tab->count; i++) {
			const struct abi_entry *e = &tab->rows[i];
			size_t g = 0;

			if (find(tab, e->name) != e)
				note("%s listed twice in the %s table%s",
				     e->name, tab->origin, "");
			while (g < NGROUPS && strcmp(groups[g], e->group))
				g++;
			if (g == NGROUPS)
				note("%s is in unknown group %s%s", e->name,
				     e->group, "");
		}
	}
	if (problems) {
		printf("FAIL abi/%s/tables: %s\n", ABI_VARIANT, why);
		return false;
	}
	printf("PASS abi/%s/tables\n", ABI_VARIANT);
	return true;
}

int main(void)
{
	bool ok = check_tables();

	for (size_t g = 0; g < NGROUPS; g++)
		ok &= check_group(groups[g]);
	return ok ? 0 : 1;
}
