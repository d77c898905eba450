/* SPDX-License-Identifier: Apache-2.0 */
/*
 * In-tree only, never installed: the names the project's own test programs
 * still use, mapped to today's API. Two generations of them: the kb_ names
 * libkbinder had before it was a library (the driver's symbols are also
 * kb_-prefixed, which is why the public API is not), and the kbinder_
 * names of libkbinder 0.1 (KBINDER_1) that the object_verb redesign
 * (KBINDER_2) renamed. Where a call's result changed, the old name is a
 * wrapper that gives the old result: the reply calls' BR_DEAD_REPLY as
 * -EPIPE, BR_FAILED_REPLY as -EIO, the service manager calls' BR_FROZEN_REPLY
 * as -EAGAIN. The guest tests build with -Ilib/include/legacy, whose
 * kbinder headers include the real header and then this one; a later change
 * moves the tests to today's names and removes both.
 */
#ifndef KBINDER_LEGACY_H
#define KBINDER_LEGACY_H

#include <errno.h>

#include <kbinder/kbinder.h>

/* The reply calls' old results. */
static inline int kbinder_legacy_reply_err(int err)
{
	if (err == (int)BR_DEAD_REPLY)
		return -EPIPE;
	return err > 0 ? -EIO : err;
}

/* The service manager calls' old results. */
static inline int kbinder_legacy_sm_err(int err)
{
	if (err == (int)BR_DEAD_REPLY)
		return -EPIPE;
	if (err == (int)BR_FROZEN_REPLY)
		return -EAGAIN;
	return err > 0 || err == -EPROTO ? -EIO : err;
}

static inline int kbinder_legacy_open(struct kbinder_proc *p, const char *path, size_t map_size)
{
	return kbinder_proc_open(p, path, map_size, 0);
}

static inline int kbinder_legacy_send_reply(struct kbinder_thread *t, const struct kbinder_parcel *data, uint32_t flags, int timeout_ms)
{
	return kbinder_legacy_reply_err(kbinder_thread_reply(t, data, flags, timeout_ms));
}

static inline int kbinder_legacy_send_status(struct kbinder_thread *t, int32_t status, int timeout_ms)
{
	return kbinder_legacy_reply_err(kbinder_thread_reply_status(t, status, timeout_ms));
}

static inline int kbinder_legacy_object_dispatch(struct kbinder_object *obj, struct kbinder_thread *t, const struct binder_transaction_data *tr)
{
	return kbinder_legacy_reply_err(kbinder_object_dispatch(obj, t, tr));
}

static inline int kbinder_legacy_sm_reply_error(struct kbinder_thread *t, const struct kbinder_reply *reply)
{
	return kbinder_legacy_sm_err(kbinder_thread_check_reply(t, reply));
}

static inline int kbinder_legacy_sm_check(struct kbinder_sm *sm, const char *name, uint32_t *handle)
{
	return kbinder_legacy_sm_err(kbinder_sm_check(sm, name, handle));
}

static inline int kbinder_legacy_sm_get(struct kbinder_sm *sm, const char *name, uint32_t *handle)
{
	return kbinder_legacy_sm_err(kbinder_sm_get(sm, name, handle));
}

static inline int kbinder_legacy_sm_add(struct kbinder_sm *sm, const char *name, binder_uintptr_t ptr, binder_uintptr_t cookie, bool allow_isolated, int32_t dump_priority)
{
	return kbinder_legacy_sm_err(kbinder_sm_add(sm, name, ptr, cookie, allow_isolated, dump_priority));
}

static inline int kbinder_legacy_sm_list(struct kbinder_sm *sm, int32_t dump_priority, int (*fn)(const char *name, void *arg), void *arg)
{
	return kbinder_legacy_sm_err(kbinder_sm_list(sm, dump_priority, fn, arg));
}

static inline int kbinder_legacy_sm_notify(struct kbinder_sm *sm, const char *name, bool on, binder_uintptr_t ptr, binder_uintptr_t cookie)
{
	return kbinder_legacy_sm_err(kbinder_sm_notify(sm, name, on, ptr, cookie));
}

static inline int kbinder_legacy_sm_is_declared(struct kbinder_sm *sm, const char *name)
{
	return kbinder_legacy_sm_err(kbinder_sm_is_declared(sm, name));
}

static inline int kbinder_legacy_sm_ping(struct kbinder_sm *sm)
{
	return kbinder_legacy_sm_err(kbinder_sm_ping(sm));
}

static inline int kbinder_legacy_sm_detect(struct kbinder_sm *sm)
{
	return kbinder_legacy_sm_err(kbinder_sm_detect(sm));
}

/* libkbinder 0.1 (KBINDER_1) names */
#define kbinder_open kbinder_legacy_open
#define kbinder_send_reply kbinder_legacy_send_reply
#define kbinder_send_status kbinder_legacy_send_status
#define kbinder_object_dispatch kbinder_legacy_object_dispatch
#define kbinder_sm_reply_error kbinder_legacy_sm_reply_error
#define kbinder_sm_check kbinder_legacy_sm_check
#define kbinder_sm_get kbinder_legacy_sm_get
#define kbinder_sm_add kbinder_legacy_sm_add
#define kbinder_sm_list kbinder_legacy_sm_list
#define kbinder_sm_notify kbinder_legacy_sm_notify
#define kbinder_sm_is_declared kbinder_legacy_sm_is_declared
#define kbinder_sm_ping kbinder_legacy_sm_ping
#define kbinder_sm_detect kbinder_legacy_sm_detect
#define kbinder_clear_death kbinder_thread_clear_death
#define kbinder_close kbinder_proc_close
#define kbinder_dead_binder_done kbinder_thread_dead_binder_done
#define kbinder_default_api_level kbinder_wire_default_level
#define kbinder_default_device kbinder_proc_default_device
#define kbinder_enter_looper kbinder_thread_enter_looper
#define kbinder_exception_errno kbinder_status_errno
#define kbinder_exit_looper kbinder_thread_exit_looper
#define kbinder_free_buffer kbinder_thread_free_buffer
#define kbinder_get_node_debug_info kbinder_ioctl_node_debug_info
#define kbinder_get_node_info_for_ref kbinder_ioctl_node_info_for_ref
#define kbinder_handle_default kbinder_thread_handle_default
#define kbinder_next kbinder_thread_next
#define kbinder_parcel_view kbinder_view
#define kbinder_pending kbinder_thread_pending
#define kbinder_put_dead_binder_done kbinder_writer_put_dead_binder_done
#define kbinder_put_death kbinder_writer_put_death
#define kbinder_put_free_buffer kbinder_writer_put_free_buffer
#define kbinder_put_handle_cmd kbinder_writer_put_handle
#define kbinder_put_looper kbinder_writer_put_looper
#define kbinder_put_ptr_cookie kbinder_writer_put_ptr_cookie
#define kbinder_put_txn kbinder_writer_put_txn
#define kbinder_put_txn_sg kbinder_writer_put_txn_sg
#define kbinder_read kbinder_ioctl_read
#define kbinder_ref kbinder_thread_ref
#define kbinder_ref_done kbinder_thread_ref_done
#define kbinder_register_looper kbinder_thread_register_looper
#define kbinder_request_death kbinder_thread_request_death
#define kbinder_set_context_mgr kbinder_ioctl_set_context_mgr
#define kbinder_set_context_mgr_ext kbinder_ioctl_set_context_mgr_ext
#define kbinder_set_max_threads kbinder_ioctl_set_max_threads
#define kbinder_thread_exit kbinder_ioctl_thread_exit
#define kbinder_transact kbinder_thread_transact
#define kbinder_version kbinder_ioctl_version
#define kbinder_view_object kbinder_view_get_object
#define kbinder_wait_for kbinder_thread_wait_for
#define kbinder_write kbinder_ioctl_write
#define kbinder_write_read kbinder_ioctl_write_read

/* the kb_ names */
#define KB_DEFAULT_MAP_SIZE KBINDER_DEFAULT_MAP_SIZE
#define KB_THREAD_RBUF KBINDER_THREAD_RBUF
#define kb_clear_death kbinder_clear_death
#define kb_close kbinder_close
#define kb_command_name kbinder_command_name
#define kb_command_size kbinder_command_size
#define kb_dead_binder_done kbinder_dead_binder_done
#define kb_default_device kbinder_default_device
#define kb_enter_looper kbinder_enter_looper
#define kb_event_fn kbinder_event_fn
#define kb_exit_looper kbinder_exit_looper
#define kb_free_buffer kbinder_free_buffer
#define kb_frozen_state kbinder_frozen_state
#define kb_get_node_debug_info kbinder_get_node_debug_info
#define kb_get_node_info_for_ref kbinder_get_node_info_for_ref
#define kb_handle_default kbinder_handle_default
#define kb_next kbinder_next
#define kb_open kbinder_open
#define kb_parcel kbinder_parcel
#define kb_parcel_fini kbinder_parcel_fini
#define kb_parcel_init kbinder_parcel_init
#define kb_parcel_reset kbinder_parcel_reset
#define kb_parcel_to_txn kbinder_parcel_to_txn
#define kb_parcel_view kbinder_parcel_view
#define kb_parcel_write kbinder_parcel_write
#define kb_parcel_write_binder kbinder_parcel_write_binder
#define kb_parcel_write_fd kbinder_parcel_write_fd
#define kb_parcel_write_handle kbinder_parcel_write_handle
#define kb_parcel_write_object kbinder_parcel_write_object
#define kb_parcel_write_u32 kbinder_parcel_write_u32
#define kb_parcel_write_u64 kbinder_parcel_write_u64
#define kb_pending kbinder_pending
#define kb_proc kbinder_proc
#define kb_put_dead_binder_done kbinder_put_dead_binder_done
#define kb_put_death kbinder_put_death
#define kb_put_free_buffer kbinder_put_free_buffer
#define kb_put_handle_cmd kbinder_put_handle_cmd
#define kb_put_looper kbinder_put_looper
#define kb_put_ptr_cookie kbinder_put_ptr_cookie
#define kb_put_txn kbinder_put_txn
#define kb_put_txn_sg kbinder_put_txn_sg
#define kb_read kbinder_read
#define kb_reader kbinder_reader
#define kb_reader_init kbinder_reader_init
#define kb_reader_next kbinder_reader_next
#define kb_ref kbinder_ref
#define kb_ref_done kbinder_ref_done
#define kb_register_looper kbinder_register_looper
#define kb_reply kbinder_reply
#define kb_report kbinder_report
#define kb_report_close kbinder_report_close
#define kb_report_listener kbinder_report_listener
#define kb_report_next kbinder_report_next
#define kb_report_open kbinder_report_open
#define kb_report_parse kbinder_report_parse
#define kb_request_death kbinder_request_death
#define kb_return kbinder_return
#define kb_return_name kbinder_return_name
#define kb_return_size kbinder_return_size
#define kb_send_reply kbinder_send_reply
#define kb_set_context_mgr kbinder_set_context_mgr
#define kb_set_context_mgr_ext kbinder_set_context_mgr_ext
#define kb_set_max_threads kbinder_set_max_threads
#define kb_thread kbinder_thread
#define kb_thread_exit kbinder_thread_exit
#define kb_thread_init kbinder_thread_init
#define kb_transact kbinder_transact
#define kb_version kbinder_version
#define kb_view_init kbinder_view_init
#define kb_view_object kbinder_view_object
#define kb_view_read kbinder_view_read
#define kb_view_read_u32 kbinder_view_read_u32
#define kb_view_read_u64 kbinder_view_read_u64
#define kb_wait_for kbinder_wait_for
#define kb_write kbinder_write
#define kb_write_read kbinder_write_read
#define kb_writer kbinder_writer
#define kb_writer_init kbinder_writer_init
#define kb_writer_put kbinder_writer_put

#endif /* KBINDER_LEGACY_H */
