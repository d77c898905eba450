#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""
Write man/<family>.3 for each libkbinder family: the SYNOPSIS from the
family's header (every function it declares, static inline ones marked),
the rest from the prose below. Run after changing a public header:

	scripts/man3.py            # rewrites man/kbinder_*.3
	scripts/man3.py --out DIR  # writes them into DIR instead

tests/host/lib_man.sh checks that every symbol lib/libkbinder.map exports
is named by some page, and that the pages are what this script writes.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATE = "2026-12-04"


def prototypes(header):
    """The function declarations of @header, in order, one string each."""
    text = open(os.path.join(ROOT, "lib/include/kbinder", header)).read()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"^#.*$", "", text, flags=re.M)
    out, depth, cur = [], 0, ""
    for line in text.splitlines():
        s = line.strip()
        if depth:
            depth += s.count("{") - s.count("}")
            continue
        if not s or s.startswith("KBINDER_"):
            continue
        cur = (cur + " " + s).strip()
        if cur.startswith(("struct", "union", "enum", "typedef", "}")) and "(" not in cur.split("{")[0]:
            if cur.endswith(";") or cur.endswith("{"):
                depth = cur.count("{") - cur.count("}")
                cur = ""
            continue
        if cur.endswith(";") or cur.endswith("{"):
            decl = cur.rstrip("{").rstrip()
            if "{" in cur:
                depth = cur.count("{") - cur.count("}")
            if re.search(r"\bkbinder_\w+\s*\(", decl) and not decl.startswith("typedef"):
                decl = re.sub(r"\s+", " ", decl).rstrip(";")
                out.append(decl + ";")
            cur = ""
    return out


def names(protos):
    return [re.search(r"\b(kbinder_\w+)\s*\(", p).group(1) for p in protos]


def esc(s):
    return s.replace("\\", "\\\\").replace("-", "\\-")


FAMILIES = [
    ("kbinder_proc", "device.h", "a binder process: open, map, close, and the binder ioctls",
     """A
.B struct kbinder_proc
is one open binder file and its read-only receive mapping; each open is a
separate binder process to the driver.
.BR kbinder_proc_open ()
opens
.I path
(NULL:
.BR kbinder_proc_default_device (),
which is
.B $BINDER_DEVICE
or
.IR /dev/binder ),
checks that BINDER_VERSION is 8 and maps
.I map_size
bytes
.RB ( KBINDER_DEFAULT_MAP_SIZE
is libbinder's; 0 maps nothing).
With
.B KBINDER_PROC_NONBLOCK
the file is opened non-blocking: every read of the library then waits in
.BR poll (2),
which keeps a timed read's deadline exact even where several threads wait
with deadlines for the same process work; without it the file blocks, as
libbinder's does.
The library never changes the flags of a file afterwards.
.PP
The
.B kbinder_ioctl_*
calls are the binder ioctls on a binder fd, each returning 0 or a negative
errno.
.BR kbinder_ioctl_write_read ()
is one BINDER_WRITE_READ (retried on EINTR only when nothing was
consumed; the consumed counts are valid on error too);
.BR kbinder_ioctl_write ()
writes a command stream without reading;
.BR kbinder_ioctl_read ()
reads until something was read, asleep in the driver on a blocking file
and in
.BR poll (2)
on a non-blocking one.""",
     """0 or a negative errno;
.BR kbinder_proc_open ()
returns
.B \\-EPROTO
when the device speaks another protocol version and
.B \\-EINVAL
for an unknown flag."""),
    ("kbinder_writer", "writer.h", "build BC_ command streams",
     """A
.B struct kbinder_writer
appends
.B BC_
commands and their arguments to a caller's buffer, packed as the driver
reads them.
Its
.I err
is sticky: after the first failure (\\-ENOSPC when a command does not fit,
\\-EINVAL for a code that is not a known
.B BC_
code of the argument's size, or not one the typed call takes) every later
call returns it and nothing partial is written, so a whole stream can be
built and checked once.
.BR kbinder_writer_put ()
writes any known code; the typed calls check the code too
.RB ( kbinder_writer_put_txn ()
takes only BC_TRANSACTION and BC_REPLY, and so on).
.BR kbinder_command_size ()
and
.BR kbinder_command_name ()
describe a code.""",
     """0 or the writer's sticky error;
.BR kbinder_command_size ()
returns the argument size or \\-EINVAL;
.BR kbinder_command_name ()
returns "BC_?" for an unknown code."""),
    ("kbinder_reader", "reader.h", "parse BR_ return streams",
     """A
.B struct kbinder_reader
walks the bytes a read returned (read_consumed), one
.B struct kbinder_return
at a time: the code and a union of every argument type.
It never reads past the end it was given.
.BR kbinder_return_size ()
and
.BR kbinder_return_name ()
describe a code.""",
     """.BR kbinder_reader_next ()
returns 1 with a command, 0 at the end of the stream, \\-EPROTO for an
unknown code and \\-EBADMSG for a command cut by the end of the stream
(the cursor is left at it).
.BR kbinder_return_size ()
returns the argument size or \\-EPROTO."""),
    ("kbinder_parcel", "parcel.h", "transaction payloads with binder objects, and views over received ones",
     """A
.B struct kbinder_parcel
is a growable payload, 4-byte granular like libbinder's Parcel, that
records the offset of each binder object written with
.BR kbinder_parcel_write_object ()
(and the binder, handle and fd writers built on it).
Its
.I err
is sticky (\\-ENOMEM).
.BR kbinder_parcel_to_txn ()
points a
.B struct binder_transaction_data
at it.
.PP
A
.B struct kbinder_view
reads a received payload with bounds checks: every read past the end
fails with \\-ERANGE and moves nothing;
.BR kbinder_view_get_object ()
copies the object at an index of the offsets array.
Android's types on top of both are in
.BR kbinder_android (3).""",
     """0 or a negative errno (\\-ENOMEM for a parcel, \\-ERANGE for a view)."""),
    ("kbinder_thread", "thread.h", "a binder thread's event queue and the calls made on it",
     """Keep one
.B struct kbinder_thread
per OS thread per fd: the driver keys its thread state on the calling
task.
The library keeps no state beside it, and never changes the file's
flags.
.PP
.BR kbinder_thread_next ()
returns the next command, BR_NOOP included, reading 512 bytes at a time.
With
.I timeout_ms
\\-1 it reads asleep in the driver, where the driver counts the thread as
an idle looper.
With a timeout it waits in
.BR poll (2),
whose readiness is the thread's own work (a reply, a nested call, the
completion of its call: only it can take those) or, when it could take
process work, the process's work (which another thread may take), and
reads only then.
That read starts the stream itself, so a driver that finds nothing to say
(a node update that changes no count, work another thread took) returns
at once instead of waiting again, and the wait goes back to
.BR poll (2)
with what is left of the deadline.
The one wait this cannot bound on a blocking file is the driver's first:
process work that
.BR poll (2)
reported and another thread took before this read began (several threads
waiting with deadlines for the same process work).
A file opened with
.B KBINDER_PROC_NONBLOCK
bounds that too.
.PP
.BR kbinder_thread_transact ()
sends BC_TRANSACTION and waits for its outcome in
.IR reply\\->status :
BR_REPLY, BR_DEAD_REPLY, BR_FAILED_REPLY, BR_FROZEN_REPLY, or for
TF_ONE_WAY BR_TRANSACTION_COMPLETE (BR_TRANSACTION_PENDING_FROZEN when the
target is frozen).
Every other command meanwhile goes to
.I other
(NULL:
.BR kbinder_thread_handle_default (),
which acknowledges reference counts and deaths and answers an unexpected
transaction with an empty reply), which may itself transact and reply on
the thread: that is how nested calls are served.
.BR kbinder_thread_reply ()
sends BC_REPLY and waits for its completion.
.BR kbinder_thread_check_reply ()
says what an outcome means to a call that wanted data.
The rest write one command each.""",
     """0 or a negative errno.
The driver's outcomes are never errnos:
.BR kbinder_thread_transact ()
returns 0 with the outcome in
.IR reply\\->status ;
.BR kbinder_thread_reply ()
returns 0 when the reply completed and BR_DEAD_REPLY (the caller is gone),
BR_FAILED_REPLY or BR_FROZEN_REPLY, all positive, when the driver refused
it;
.BR kbinder_thread_check_reply ()
returns 0 for a BR_REPLY with data (the caller frees its buffer), the
positive BR_ code for BR_DEAD_REPLY, BR_FAILED_REPLY and BR_FROZEN_REPLY,
and for a status-code reply the negative status_t it carries (its buffer
then freed).
.BR kbinder_thread_next ()
returns \\-ETIMEDOUT at its deadline."""),
    ("kbinder_android", "android.h", "Android's parcel conventions, release by release",
     """A
.B struct kbinder_wire
names an Android release: an API level (28 to 36) and, where one level is
more than one service manager interface, its quarterly release
.RI ( qpr ).
.BR kbinder_wire_init_name ()
takes the names
.B \\-\\-api\\-level
takes ("33", "35\\-qpr1", ...);
.BR kbinder_wire_init (w,\\ 0)
takes
.B $KBINDER_API_LEVEL
or 33.
The wire also holds the interface-token header this side writes and
alone accepts ('SYST', 'VNDR', 'RECO', 'UNKN') and the stability of its
own binders.
.PP
On a
.B struct kbinder_parcel
and a
.BR "struct kbinder_view" :
String16 and String8 (UTF-8 in and out, null strings), the interface
token, strong binders with the stability field each release writes after
them (a binder read is an object the driver translated, the null binder,
or handle 0 as the bytes libbinder writes for the context manager),
file descriptors, the binder::Status header of AIDL replies, AIDL
parcelables (an older writer's lacks fields, a newer one's has more).
Readers check everything and refuse malformed input with \\-EBADMSG, the
cursor left where it was.
.BR kbinder_status_errno ()
maps an AIDL exception to the errno the service manager calls use.""",
     """0 or a negative errno; readers return
.B KBINDER_NULL
(1) for a null string, binder or parcelable."""),
    ("kbinder_object", "object.h", "local binder objects and the standard transactions",
     """A
.B struct kbinder_object
is a local object with an interface descriptor.
.BR kbinder_object_dispatch ()
answers one BR_TRANSACTION for it as libbinder's BBinder does: PING,
INTERFACE (the descriptor), DUMP (the fd and String16 arguments, to
.IR dump ),
DEBUG_PID, EXTENSION (a null binder), SYSPROPS; a user code up to
.I n_codes
goes to
.I handle
after the interface token was checked (BAD_TYPE on a mismatch, as AIDL's
stubs answer); any other code is UNKNOWN_TRANSACTION.
A negative return from
.I handle
becomes a status-code reply
.RB ( kbinder_thread_reply_status ()).
The transaction's buffer stays the caller's to free, after the reply.""",
     """As
.BR kbinder_thread_reply ():
0, a positive BR_ code when the driver refused the reply (BR_DEAD_REPLY:
the caller died), or a negative errno; 0 for a one-way call."""),
    ("kbinder_sm", "servicemanager.h", "a client of the service manager, and its interfaces per release",
     """A
.B struct kbinder_sm
talks to the service manager (handle 0) the way its wire's release does:
the C servicemanager's protocol before Android 11 (API 28, 29), AIDL
IServiceManager from 11 on, with the transaction codes of the release's
IServiceManager.aidl
.RB ( kbinder_sm_code (),
.BR kbinder_sm_method_of ())
and the shape of its lookups' answers
.RB ( kbinder_sm_answer_layout ():
a binder, or the Service union of 15 QPR1 on, written and read by
.BR kbinder_parcel_write_sm_service ()
and
.BR kbinder_view_read_sm_service ()).
.BR kbinder_sm_check ()
takes a strong reference on the service for the caller (BC_RELEASE it).
.BR kbinder_sm_detect ()
finds the release of the service manager that answers, without making it
do anything, and sets the wire to it.""",
     """0; a positive BR_ code when the driver answered for the service manager
(BR_DEAD_REPLY: there is none); or a negative errno: \\-ENOENT for a name
it does not know, AIDL exceptions as
.BR kbinder_status_errno ()
maps them (the exception itself in
.IR sm\\->exception ),
\\-EOPNOTSUPP for a method the release lacks or an answer that is an
IAccessor, \\-EBADMSG for a reply that does not parse, or the status of a
status-code reply.
.BR kbinder_sm_detect ()
returns \\-EPROTONOSUPPORT for an interface no table has."""),
]
SERVER = ("kbinder_sm_server", "servicemanager.h", "kbinder's own service manager",
          """.B struct kbinder_sm_server
is a service manager registry that answers, on the context manager's
thread, the protocol of its wire's release: AIDL IServiceManager (API 30
on) with the codes and the lookup answers of that release, or the C
servicemanager's (28, 29).
It keeps a strong reference on each service and callback and forgets them
when the driver reports their process dead, calls
IServiceCallback.onRegistration for every registration of a watched name,
takes a service's binder only from an object the driver translated, and
answers the standard transactions as any object does.
At the AIDL releases it registers its own binder too (a client's handle 0:
an object the driver hands the manager as its own node, or the bytes with
no offset that libbinder sends for handle 0), as Android's service manager
does, and hands it back to every client as that client's handle 0;
it holds no reference and asks for no death notice on it, and
tryUnregisterService refuses it (every process holds the manager).
The C servicemanager's protocol refuses it, as Android 9 and 10 did.
.PP
Become the context manager
.RB ( kbinder_ioctl_set_context_mgr ()),
make a server on that thread with
.BR kbinder_sm_server_new (),
enter the looper, and run
.BR kbinder_sm_server_run (),
or hand each command read to
.BR kbinder_sm_server_event ()
(a
.BR kbinder_event_fn ).
.BR kbinder_sm_server_set_log ()
reports every registration, death and watch as a line.""",
          """0 or a negative errno;
.BR kbinder_sm_server_run ()
returns the error that ended it.
A caller that died before its reply is no error.""")
REPORT = ("kbinder_report", "report.h", "listen for binder transaction reports",
          """A driver with mainline 6.18's transaction reports (kbinder; not Debian's
6.1 binder) multicasts one message per failed call, spam-suspect one-way
call and one-way call to a frozen process to the generic netlink group
binder/report.
.BR kbinder_report_open ()
resolves the family and joins the group with a raw NETLINK_GENERIC
socket (no libnl); it hears the senders of its own network namespace.
.BR kbinder_report_next ()
returns the next report (\\-1: wait forever, 0: only one already queued)
and skips other messages;
.BR kbinder_report_parse ()
parses one message, wanting every attribute mainline always sends.""",
          """0 or a negative errno:
.BR kbinder_report_open ()
returns \\-ENOENT when no driver registered the family;
.BR kbinder_report_next ()
\\-ETIMEDOUT, and \\-ENOBUFS when the socket's queue overflowed and
reports were lost (the listener still works).""")


def page(name, header, summary, desc, ret, protos, see):
    syms = names(protos)
    lines = [".\\\" SPDX-License-Identifier: Apache-2.0",
             ".\\\" Written by scripts/man3.py from lib/include/kbinder/%s." % header,
             '.TH %s 3 %s "kbinder" "Library Functions Manual"' % (name.upper(), DATE),
             ".SH NAME"]
    lines.append(esc(", ".join(syms)) + " \\- " + summary)
    lines += [".SH SYNOPSIS", ".nf", ".B #include <kbinder/%s>" % header, ".PP"]
    for p in protos:
        lines.append(esc(p))
    lines += [".fi", ".PP", "Link with",
              ".BR \"$(pkg\\-config \\-\\-libs kbinder)\" .",
              ".SH DESCRIPTION", desc, ".SH RETURN VALUE", ret,
              ".SH SEE ALSO", ",\n".join(".BR %s (3)" % s for s in see)]
    return "\n".join(lines) + "\n"


def main():
    out = os.path.join(ROOT, "man")
    if len(sys.argv) == 3 and sys.argv[1] == "--out":
        out = sys.argv[2]
    sm_protos = prototypes("servicemanager.h")
    server = [p for p in sm_protos if "kbinder_sm_server_" in p]
    client = [p for p in sm_protos if p not in server]
    all_names = [f[0] for f in FAMILIES] + [SERVER[0], REPORT[0]]
    for fam in FAMILIES + [SERVER, REPORT]:
        name, header, summary, desc, ret = fam
        protos = {"kbinder_sm": client, "kbinder_sm_server": server}.get(name) or prototypes(header)
        see = ["libkbinder"] + [n for n in all_names if n != name]
        path = os.path.join(out, name + ".3")
        open(path, "w").write(page(name, header, summary, desc, ret, protos, see))
    return 0


if __name__ == "__main__":
    sys.exit(main())
