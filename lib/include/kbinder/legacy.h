/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The names libkbinder had before it was a library: kb_ for kbinder_. Only
 * the project's own test programs use them (built with
 * -DKBINDER_LEGACY_NAMES); this header is not installed. The driver's own
 * symbols are also kb_-prefixed, which is why the public API is not.
 */
#ifndef KBINDER_LEGACY_H
#define KBINDER_LEGACY_H

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
