/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The binder ABI as a list: every constant, ioctl number, protocol code,
 * struct size and field of the UAPI headers, one X-macro call each.
 *
 * ABI_COMMON_ITEMS are in both the Linux 6.1 system headers and ours, so
 * the two are compared value by value.  ABI_NEW_ITEMS exist only in ours
 * (mainline additions after 6.1); they are compared with the literal
 * mainline numbers of abi_mainline.h.
 *
 * The caller defines:
 *   C(group, NAME)          an integer constant
 *   E(group, text, expr)    an integer expression, named by text
 *   S(group, NAME)          a string constant
 *   T(group, tag)           struct tag: its size and alignment
 *   F(group, tag, field)    a scalar field: offset, size, signedness
 *   M(group, tag, field)    an aggregate or array field: offset, size
 *
 * The BC_ and BR_ codes are include/kbinder/binder_cmds.h's lists.
 * tests/host/abi_coverage.sh fails if a header defines a name that is
 * missing here or there, so a new definition cannot slip past the check.
 */
#ifndef KBINDER_ABI_ITEMS_H
#define KBINDER_ABI_ITEMS_H

#include <kbinder/binder_cmds.h>

/* The protocol codes come from the project's one list of them. */
#define ABI_CODE_BR(C, code, sent) C(br, code)
#define ABI_CODE_BC(C, code) C(bc, code)

#define ABI_COMMON_ITEMS(C, E, S, T, F, M)				\
	/* object types, flags, versions, basic types */			\
	C(const, B_TYPE_LARGE)						\
	E(const, "B_PACK_CHARS('a', 'b', 'c', 'd')",			\
	  B_PACK_CHARS('a', 'b', 'c', 'd'))				\
	C(const, BINDER_TYPE_BINDER)					\
	C(const, BINDER_TYPE_WEAK_BINDER)				\
	C(const, BINDER_TYPE_HANDLE)					\
	C(const, BINDER_TYPE_WEAK_HANDLE)				\
	C(const, BINDER_TYPE_FD)					\
	C(const, BINDER_TYPE_FDA)					\
	C(const, BINDER_TYPE_PTR)					\
	C(const, FLAT_BINDER_FLAG_PRIORITY_MASK)			\
	C(const, FLAT_BINDER_FLAG_ACCEPTS_FDS)				\
	C(const, FLAT_BINDER_FLAG_TXN_SECURITY_CTX)			\
	C(const, BINDER_BUFFER_FLAG_HAS_PARENT)				\
	C(const, BINDER_CURRENT_PROTOCOL_VERSION)			\
	C(const, TF_ONE_WAY)						\
	C(const, TF_ROOT_OBJECT)					\
	C(const, TF_STATUS_CODE)					\
	C(const, TF_ACCEPT_FDS)						\
	C(const, TF_CLEAR_BUF)						\
	C(const, TF_UPDATE_TXN)						\
	E(const, "sizeof(binder_size_t)", sizeof(binder_size_t))	\
	E(const, "sizeof(binder_uintptr_t)", sizeof(binder_uintptr_t))	\
	E(const, "signed(binder_size_t)", ABI_SIGNED((binder_size_t)0))	\
	E(const, "signed(binder_uintptr_t)", ABI_SIGNED((binder_uintptr_t)0))	\
	E(const, "sizeof(enum transaction_flags)",			\
	  sizeof(enum transaction_flags))				\
	E(const, "sizeof(enum binder_driver_return_protocol)",		\
	  sizeof(enum binder_driver_return_protocol))			\
	E(const, "sizeof(enum binder_driver_command_protocol)",		\
	  sizeof(enum binder_driver_command_protocol))			\
	/* ioctl numbers */							\
	C(ioctl, BINDER_WRITE_READ)					\
	C(ioctl, BINDER_SET_IDLE_TIMEOUT)				\
	C(ioctl, BINDER_SET_MAX_THREADS)				\
	C(ioctl, BINDER_SET_IDLE_PRIORITY)				\
	C(ioctl, BINDER_SET_CONTEXT_MGR)				\
	C(ioctl, BINDER_THREAD_EXIT)					\
	C(ioctl, BINDER_VERSION)					\
	C(ioctl, BINDER_GET_NODE_DEBUG_INFO)				\
	C(ioctl, BINDER_GET_NODE_INFO_FOR_REF)				\
	C(ioctl, BINDER_SET_CONTEXT_MGR_EXT)				\
	C(ioctl, BINDER_FREEZE)						\
	C(ioctl, BINDER_GET_FROZEN_INFO)				\
	C(ioctl, BINDER_ENABLE_ONEWAY_SPAM_DETECTION)			\
	C(ioctl, BINDER_GET_EXTENDED_ERROR)				\
	/* returns and commands: include/kbinder/binder_cmds.h */		\
	KBINDER_BR_CODES_6_1(ABI_CODE_BR, C)				\
	KBINDER_BC_CODES_6_1(ABI_CODE_BC, C)				\
	/* structure layouts */							\
	T(layout, binder_object_header)					\
	F(layout, binder_object_header, type)				\
	T(layout, flat_binder_object)					\
	M(layout, flat_binder_object, hdr)				\
	F(layout, flat_binder_object, flags)				\
	F(layout, flat_binder_object, binder)				\
	F(layout, flat_binder_object, handle)				\
	F(layout, flat_binder_object, cookie)				\
	T(layout, binder_fd_object)					\
	M(layout, binder_fd_object, hdr)				\
	F(layout, binder_fd_object, pad_flags)				\
	F(layout, binder_fd_object, pad_binder)				\
	F(layout, binder_fd_object, fd)					\
	F(layout, binder_fd_object, cookie)				\
	T(layout, binder_buffer_object)					\
	M(layout, binder_buffer_object, hdr)				\
	F(layout, binder_buffer_object, flags)				\
	F(layout, binder_buffer_object, buffer)				\
	F(layout, binder_buffer_object, length)				\
	F(layout, binder_buffer_object, parent)				\
	F(layout, binder_buffer_object, parent_offset)			\
	T(layout, binder_fd_array_object)				\
	M(layout, binder_fd_array_object, hdr)				\
	F(layout, binder_fd_array_object, pad)				\
	F(layout, binder_fd_array_object, num_fds)			\
	F(layout, binder_fd_array_object, parent)			\
	F(layout, binder_fd_array_object, parent_offset)		\
	T(layout, binder_write_read)					\
	F(layout, binder_write_read, write_size)			\
	F(layout, binder_write_read, write_consumed)			\
	F(layout, binder_write_read, write_buffer)			\
	F(layout, binder_write_read, read_size)				\
	F(layout, binder_write_read, read_consumed)			\
	F(layout, binder_write_read, read_buffer)			\
	T(layout, binder_version)					\
	F(layout, binder_version, protocol_version)			\
	T(layout, binder_node_debug_info)				\
	F(layout, binder_node_debug_info, ptr)				\
	F(layout, binder_node_debug_info, cookie)			\
	F(layout, binder_node_debug_info, has_strong_ref)		\
	F(layout, binder_node_debug_info, has_weak_ref)			\
	T(layout, binder_node_info_for_ref)				\
	F(layout, binder_node_info_for_ref, handle)			\
	F(layout, binder_node_info_for_ref, strong_count)		\
	F(layout, binder_node_info_for_ref, weak_count)			\
	F(layout, binder_node_info_for_ref, reserved1)			\
	F(layout, binder_node_info_for_ref, reserved2)			\
	F(layout, binder_node_info_for_ref, reserved3)			\
	T(layout, binder_freeze_info)					\
	F(layout, binder_freeze_info, pid)				\
	F(layout, binder_freeze_info, enable)				\
	F(layout, binder_freeze_info, timeout_ms)			\
	T(layout, binder_frozen_status_info)				\
	F(layout, binder_frozen_status_info, pid)			\
	F(layout, binder_frozen_status_info, sync_recv)			\
	F(layout, binder_frozen_status_info, async_recv)		\
	T(layout, binder_extended_error)				\
	F(layout, binder_extended_error, id)				\
	F(layout, binder_extended_error, command)			\
	F(layout, binder_extended_error, param)				\
	T(layout, binder_transaction_data)				\
	M(layout, binder_transaction_data, target)			\
	F(layout, binder_transaction_data, target.handle)		\
	F(layout, binder_transaction_data, target.ptr)			\
	F(layout, binder_transaction_data, cookie)			\
	F(layout, binder_transaction_data, code)			\
	F(layout, binder_transaction_data, flags)			\
	F(layout, binder_transaction_data, sender_pid)			\
	F(layout, binder_transaction_data, sender_euid)			\
	F(layout, binder_transaction_data, data_size)			\
	F(layout, binder_transaction_data, offsets_size)		\
	M(layout, binder_transaction_data, data)			\
	M(layout, binder_transaction_data, data.ptr)			\
	F(layout, binder_transaction_data, data.ptr.buffer)		\
	F(layout, binder_transaction_data, data.ptr.offsets)		\
	M(layout, binder_transaction_data, data.buf)			\
	T(layout, binder_transaction_data_secctx)			\
	M(layout, binder_transaction_data_secctx, transaction_data)	\
	F(layout, binder_transaction_data_secctx, secctx)		\
	T(layout, binder_transaction_data_sg)				\
	M(layout, binder_transaction_data_sg, transaction_data)		\
	F(layout, binder_transaction_data_sg, buffers_size)		\
	T(layout, binder_ptr_cookie)					\
	F(layout, binder_ptr_cookie, ptr)				\
	F(layout, binder_ptr_cookie, cookie)				\
	T(layout, binder_handle_cookie)					\
	F(layout, binder_handle_cookie, handle)				\
	F(layout, binder_handle_cookie, cookie)				\
	T(layout, binder_pri_desc)					\
	F(layout, binder_pri_desc, priority)				\
	F(layout, binder_pri_desc, desc)				\
	T(layout, binder_pri_ptr_cookie)				\
	F(layout, binder_pri_ptr_cookie, priority)			\
	F(layout, binder_pri_ptr_cookie, ptr)				\
	F(layout, binder_pri_ptr_cookie, cookie)			\
	/* binderfs */								\
	C(binderfs, BINDERFS_MAX_NAME)					\
	C(binderfs, BINDER_CTL_ADD)					\
	T(binderfs, binderfs_device)					\
	M(binderfs, binderfs_device, name)				\
	F(binderfs, binderfs_device, major)				\
	F(binderfs, binderfs_device, minor)

#define ABI_NEW_ITEMS(C, E, S, T, F, M)					\
	KBINDER_BR_CODES_LATER(ABI_CODE_BR, C)				\
	KBINDER_BC_CODES_LATER(ABI_CODE_BC, C)				\
	T(layout, binder_frozen_state_info)				\
	F(layout, binder_frozen_state_info, cookie)			\
	F(layout, binder_frozen_state_info, is_frozen)			\
	F(layout, binder_frozen_state_info, reserved)			\
	E(const, "sizeof(enum flat_binder_object_flags)",		\
	  sizeof(enum flat_binder_object_flags))			\
	S(netlink, BINDER_FAMILY_NAME)					\
	C(netlink, BINDER_FAMILY_VERSION)				\
	S(netlink, BINDER_MCGRP_REPORT)					\
	C(netlink, BINDER_A_REPORT_ERROR)				\
	C(netlink, BINDER_A_REPORT_CONTEXT)				\
	C(netlink, BINDER_A_REPORT_FROM_PID)				\
	C(netlink, BINDER_A_REPORT_FROM_TID)				\
	C(netlink, BINDER_A_REPORT_TO_PID)				\
	C(netlink, BINDER_A_REPORT_TO_TID)				\
	C(netlink, BINDER_A_REPORT_IS_REPLY)				\
	C(netlink, BINDER_A_REPORT_FLAGS)				\
	C(netlink, BINDER_A_REPORT_CODE)				\
	C(netlink, BINDER_A_REPORT_DATA_SIZE)				\
	C(netlink, __BINDER_A_REPORT_MAX)				\
	C(netlink, BINDER_A_REPORT_MAX)					\
	C(netlink, BINDER_CMD_REPORT)					\
	C(netlink, __BINDER_CMD_MAX)					\
	C(netlink, BINDER_CMD_MAX)

#endif /* KBINDER_ABI_ITEMS_H */
