/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libkbinder: a small C library that speaks the binder protocol (version 8)
 * to a binder device (/dev/binder, or a kbinder/binderfs device), and
 * Android's conventions on top of it, release by release.
 *
 * This header includes every family header; each can be included alone:
 *   kbinder/common.h          conventions, declaration macros
 *   kbinder/device.h          kbinder_proc_* (open, map), kbinder_ioctl_*
 *   kbinder/writer.h          kbinder_writer_* (BC_ streams), kbinder_command_*
 *   kbinder/reader.h          kbinder_reader_* (BR_ streams), kbinder_return_*
 *   kbinder/parcel.h          kbinder_parcel_* (payloads), kbinder_view_* (reading them)
 *   kbinder/thread.h          kbinder_thread_* (event queue, transact, reply, refs)
 *   kbinder/android.h         kbinder_wire_* (a release), strings, tokens, binders, Status
 *   kbinder/object.h          kbinder_object_* (local objects, standard transactions)
 *   kbinder/servicemanager.h  kbinder_sm_* (client, tables), kbinder_sm_server_*
 *   kbinder/report.h          kbinder_report_* (netlink transaction reports)
 * libkbinder(3) is the overview; each family has its page.
 */
#ifndef KBINDER_KBINDER_H
#define KBINDER_KBINDER_H

#include "common.h"
#include "device.h"
#include "writer.h"
#include "reader.h"
#include "parcel.h"
#include "thread.h"
#include "android.h"
#include "object.h"
#include "servicemanager.h"
#include "report.h"

#endif /* KBINDER_KBINDER_H */
