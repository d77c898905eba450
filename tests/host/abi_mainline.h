/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Literal mainline values of the definitions that are newer than the
 * Linux 6.1 system headers, for the three ABI variants:
 *   m64    x86-64 userspace
 *   m32    i386 userspace with 64-bit binder types (64-bit kernel)
 *   ipc32  i386 userspace with BINDER_IPC_32BIT (legacy protocol 7)
 *
 * Sources (mainline torvalds/linux):
 *   include/uapi/linux/android/binder.h, freeze notifications (6.12):
 *     BR_TRANSACTION_PENDING_FROZEN = _IO('r', 20),
 *     BR_FROZEN_BINDER = _IOR('r', 21, struct binder_frozen_state_info),
 *     BR_CLEAR_FREEZE_NOTIFICATION_DONE = _IOR('r', 22, binder_uintptr_t),
 *     BC_REQUEST_FREEZE_NOTIFICATION = _IOW('c', 19, struct binder_handle_cookie),
 *     BC_CLEAR_FREEZE_NOTIFICATION = _IOW('c', 20, struct binder_handle_cookie),
 *     BC_FREEZE_NOTIFICATION_DONE = _IOW('c', 21, binder_uintptr_t),
 *     struct binder_frozen_state_info { binder_uintptr_t cookie;
 *       __u32 is_frozen; __u32 reserved; };
 *   include/uapi/linux/android/binder_netlink.h (6.18, generated from
 *   Documentation/netlink/specs/binder.yaml): family "binder" version 1,
 *   multicast group "report", BINDER_CMD_REPORT = 1, report attributes
 *   error, context, from_pid, from_tid, to_pid, to_tid, is_reply, flags,
 *   code, data_size numbered from 1.
 *
 * The ioctl-style codes are spelled out as numbers, worked out by hand
 * from the x86 _IOC layout (dir << 30 | size << 16 | type << 8 | nr, with
 * _IOW = 1 and _IOR = 2), so a wrong struct size in our header shows up.
 */
#ifndef KBINDER_ABI_MAINLINE_H
#define KBINDER_ABI_MAINLINE_H

#if defined(__x86_64__)
#define ABI_VARIANT "m64"
#define ABI_PICK(m64, m32, ipc32) (m64)
#elif defined(__i386__) && !defined(BINDER_IPC_32BIT)
#define ABI_VARIANT "m32"
#define ABI_PICK(m64, m32, ipc32) (m32)
#elif defined(__i386__) && defined(BINDER_IPC_32BIT)
#define ABI_VARIANT "m32-ipc32"
#define ABI_PICK(m64, m32, ipc32) (ipc32)
#else
#error "abi_check knows the x86-64 and i386 ABIs only"
#endif

/* name, m64, m32, ipc32 */
#define ABI_MAINLINE_NUMBERS(X)						\
	X(br, "BR_TRANSACTION_PENDING_FROZEN", 0x7214, 0x7214, 0x7214)	\
	X(br, "BR_FROZEN_BINDER", 0x80107215, 0x80107215, 0x800c7215)	\
	X(br, "BR_CLEAR_FREEZE_NOTIFICATION_DONE",			\
	  0x80087216, 0x80087216, 0x80047216)				\
	X(bc, "BC_REQUEST_FREEZE_NOTIFICATION",				\
	  0x400c6313, 0x400c6313, 0x40086313)				\
	X(bc, "BC_CLEAR_FREEZE_NOTIFICATION",				\
	  0x400c6314, 0x400c6314, 0x40086314)				\
	X(bc, "BC_FREEZE_NOTIFICATION_DONE",				\
	  0x40086315, 0x40086315, 0x40046315)				\
	X(layout, "sizeof(struct binder_frozen_state_info)", 16, 16, 12) \
	X(layout, "alignof(struct binder_frozen_state_info)", 8, 4, 4)	\
	X(layout, "offsetof(struct binder_frozen_state_info, cookie)", 0, 0, 0) \
	X(layout, "sizeof(struct binder_frozen_state_info.cookie)", 8, 8, 4) \
	X(layout, "signed(struct binder_frozen_state_info.cookie)", 0, 0, 0) \
	X(layout, "offsetof(struct binder_frozen_state_info, is_frozen)", 8, 8, 4) \
	X(layout, "sizeof(struct binder_frozen_state_info.is_frozen)", 4, 4, 4) \
	X(layout, "signed(struct binder_frozen_state_info.is_frozen)", 0, 0, 0) \
	X(layout, "offsetof(struct binder_frozen_state_info, reserved)", 12, 12, 8) \
	X(layout, "sizeof(struct binder_frozen_state_info.reserved)", 4, 4, 4) \
	X(layout, "signed(struct binder_frozen_state_info.reserved)", 0, 0, 0) \
	X(const, "sizeof(enum flat_binder_object_flags)", 4, 4, 4)	\
	X(netlink, "BINDER_FAMILY_VERSION", 1, 1, 1)			\
	X(netlink, "BINDER_A_REPORT_ERROR", 1, 1, 1)			\
	X(netlink, "BINDER_A_REPORT_CONTEXT", 2, 2, 2)			\
	X(netlink, "BINDER_A_REPORT_FROM_PID", 3, 3, 3)			\
	X(netlink, "BINDER_A_REPORT_FROM_TID", 4, 4, 4)			\
	X(netlink, "BINDER_A_REPORT_TO_PID", 5, 5, 5)			\
	X(netlink, "BINDER_A_REPORT_TO_TID", 6, 6, 6)			\
	X(netlink, "BINDER_A_REPORT_IS_REPLY", 7, 7, 7)			\
	X(netlink, "BINDER_A_REPORT_FLAGS", 8, 8, 8)			\
	X(netlink, "BINDER_A_REPORT_CODE", 9, 9, 9)			\
	X(netlink, "BINDER_A_REPORT_DATA_SIZE", 10, 10, 10)		\
	X(netlink, "__BINDER_A_REPORT_MAX", 11, 11, 11)			\
	X(netlink, "BINDER_A_REPORT_MAX", 10, 10, 10)			\
	X(netlink, "BINDER_CMD_REPORT", 1, 1, 1)			\
	X(netlink, "__BINDER_CMD_MAX", 2, 2, 2)				\
	X(netlink, "BINDER_CMD_MAX", 1, 1, 1)

/* name, value */
#define ABI_MAINLINE_STRINGS(X)						\
	X(netlink, "BINDER_FAMILY_NAME", "binder")			\
	X(netlink, "BINDER_MCGRP_REPORT", "report")

#endif /* KBINDER_ABI_MAINLINE_H */
