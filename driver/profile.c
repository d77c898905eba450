// SPDX-License-Identifier: GPL-2.0-only
/*
 * Device profiles: their names, and the "name:profile" entries of the
 * devices= parameter.
 */
#include "internal.h"

#include <linux/errno.h>
#include <linux/string.h>

#include "profile.h"

static const char * const kb_profile_names[KB_PROFILES] = {
	[KB_PROFILE_FULL] = "full",
	[KB_PROFILE_AIDL] = "aidl",
};

/**
 * kb_profile_name() - the name of a profile
 * @profile: a profile
 *
 * Return: its name ("full", "aidl").
 */
const char *kb_profile_name(u8 profile)
{
	return profile < KB_PROFILES ? kb_profile_names[profile] : "?";
}

/**
 * kb_profile_parse() - the profile a name names
 * @name: the name (not necessarily terminated)
 * @len: its length
 *
 * Return: the profile, or -EINVAL.
 */
int kb_profile_parse(const char *name, size_t len)
{
	int i;

	for (i = 0; i < KB_PROFILES; i++)
		if (strlen(kb_profile_names[i]) == len &&
		    !memcmp(kb_profile_names[i], name, len))
			return i;
	return -EINVAL;
}

/**
 * kb_profile_split() - read a devices= entry, "name" or "name:profile"
 * @entry: the entry (not necessarily terminated)
 * @len: its length
 * @name_len: set to the length of the name part
 *
 * Return: the profile (full without ":profile"), or -EINVAL for an
 * unknown profile name.
 */
int kb_profile_split(const char *entry, size_t len, size_t *name_len)
{
	const char *colon = memchr(entry, ':', len);

	if (!colon) {
		*name_len = len;
		return KB_PROFILE_FULL;
	}
	*name_len = colon - entry;
	return kb_profile_parse(colon + 1, entry + len - colon - 1);
}
