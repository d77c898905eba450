/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * kbinder's device profiles: which part of the binder protocol a device
 * accepts. Not part of upstream's UAPI: upstream's structures are
 * unchanged, and a driver that does not know profiles ignores the value
 * below (upstream overwrites binderfs_device.major on output).
 *
 * KBINDER_PROFILE_FULL: the whole protocol (the default).
 * KBINDER_PROFILE_AIDL: what AIDL users send: BC_TRANSACTION_SG,
 *	BC_REPLY_SG, BC_ATTEMPT_ACQUIRE, BC_ACQUIRE_RESULT and the objects
 *	BINDER_TYPE_PTR and BINDER_TYPE_FDA are refused. A refused command
 *	fails BINDER_WRITE_READ with EINVAL, a refused object fails its
 *	transaction with BR_FAILED_REPLY; either way BINDER_GET_EXTENDED_ERROR
 *	then returns command BR_FAILED_REPLY and param -EOPNOTSUPP.
 *
 * BINDER_CTL_ADD picks a device's profile through the input's major
 * field: KBINDER_CTL_PROFILE(profile) there asks for that profile; any
 * other value (0, garbage) gives the mount's profile (mount option
 * profile=, full by default). The mount's profile is a ceiling: asking
 * for a less strict one (full in an aidl mount) fails with EPERM. A magic
 * value with an unknown profile number fails with EINVAL.
 */
#ifndef _UAPI_LINUX_KBINDER_PROFILE_H
#define _UAPI_LINUX_KBINDER_PROFILE_H

#define KBINDER_PROFILE_FULL		0
#define KBINDER_PROFILE_AIDL		1

#define KBINDER_CTL_PROFILE_MAGIC	0x6b627000U
#define KBINDER_CTL_PROFILE_MASK	0xffffff00U
#define KBINDER_CTL_PROFILE(profile)	(KBINDER_CTL_PROFILE_MAGIC | (profile))

#endif /* _UAPI_LINUX_KBINDER_PROFILE_H */
