/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Device profiles: which part of the protocol a binder device accepts
 * (include/uapi/linux/kbinder_profile.h). "full" accepts all of it; "aidl"
 * refuses what no AIDL user sends (docs/api-audit.md): the scatter-gather
 * commands, the two unsupported acquire commands, and BINDER_TYPE_PTR and
 * BINDER_TYPE_FDA objects. A world's profile is fixed when it is made.
 */
#ifndef _KB_PROFILE_H
#define _KB_PROFILE_H

#include <linux/types.h>

#include "internal.h"
#include "../include/uapi/linux/kbinder_profile.h"

/**
 * enum kb_profile - a device's profile
 * @KB_PROFILE_FULL: the whole protocol
 * @KB_PROFILE_AIDL: AIDL's part of it
 * @KB_PROFILES: number of profiles
 */
enum kb_profile {
	KB_PROFILE_FULL = KBINDER_PROFILE_FULL,
	KB_PROFILE_AIDL = KBINDER_PROFILE_AIDL,
	KB_PROFILES
};

/**
 * kb_profile_refuses_bc() - whether a profile refuses a BC_ command
 * @profile: the world's profile
 * @cmd: the command
 *
 * Return: true if @cmd is to be refused.
 */
static inline bool kb_profile_refuses_bc(u8 profile, u32 cmd)
{
	if (likely(profile == KB_PROFILE_FULL))
		return false;
	return cmd == BC_TRANSACTION_SG || cmd == BC_REPLY_SG ||
	       cmd == BC_ATTEMPT_ACQUIRE || cmd == BC_ACQUIRE_RESULT;
}

/**
 * kb_profile_refuses_object() - whether a profile refuses an object type
 * @profile: the world's profile
 * @type: the BINDER_TYPE_* of the object
 *
 * Return: true if an object of @type is to be refused.
 */
static inline bool kb_profile_refuses_object(u8 profile, u32 type)
{
	if (likely(profile == KB_PROFILE_FULL))
		return false;
	return type == BINDER_TYPE_PTR || type == BINDER_TYPE_FDA;
}

const char *kb_profile_name(u8 profile);
int kb_profile_parse(const char *name, size_t len);
int kb_profile_split(const char *entry, size_t len, size_t *name_len);

#endif /* _KB_PROFILE_H */
