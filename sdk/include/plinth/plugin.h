/*
 * plinth/plugin.h - the Plinth plugin C ABI, version 1.0 (C99).
 *
 * A plugin is a shared object that exports exactly one symbol, plinth_plugin_entry_v1. The host
 * calls it, checks the descriptor it returns, and only then calls the descriptor's init with the
 * host API table below. Everything a plugin can do goes through that table.
 *
 * Compatibility (docs/abi.md): the host API table and every struct that crosses the boundary are
 * append-only. A field is never reordered, retyped or removed; each carries the minor version
 * that added it. Test for a function with PLINTH_HAS(api, fn) before calling one newer than 1.0.
 * Only C types cross: fixed-width integers, pointer + length, opaque handles.
 *
 * Every function states OWNERSHIP (who frees what) and THREAD (where it may be called). "main"
 * means the host's main loop thread: command handlers, timers, init and shutdown run there.
 */
#ifndef PLINTH_PLUGIN_H
#define PLINTH_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PLINTH_ABI_MAJOR 1
#define PLINTH_ABI_MINOR 0

/* Status codes returned by host functions and plugin hooks. */
#define PLINTH_OK 0
#define PLINTH_ERR (-1)

#if defined(__GNUC__)
#define PLINTH_EXPORT __attribute__((visibility("default")))
#else
#define PLINTH_EXPORT
#endif

/* ---- Opaque handles ------------------------------------------------------------------------ */

typedef struct plinth_plugin plinth_plugin_t; /* the loaded plugin itself, given to init */
typedef struct plinth_call plinth_call_t;     /* one execution of one command */
typedef struct plinth_value plinth_value_t;   /* a refcounted value stored under a key */
typedef struct plinth_timer plinth_timer_t;   /* a timer on the main loop */
typedef struct plinth_info plinth_info_t;     /* an INFO section being filled */
typedef struct plinth_option plinth_option_t; /* a registered config option */
typedef struct plinth_conn plinth_conn_t;     /* the host's side of a transport connection */
typedef struct plinth_host_api plinth_host_api_t;
typedef struct plinth_client plinth_client_t; /* an internal client a plugin runs commands as */

/* ---- The descriptor a plugin exports ------------------------------------------------------- */

/* Descriptor flags. */
#define PLINTH_PLUGIN_OPTIONAL_HINT 0x1u /* reserved: loading it is optional by default */

typedef struct plinth_plugin_descriptor {
  uint32_t struct_size;    /* since 1.0: sizeof(plinth_plugin_descriptor_t) of the plugin's SDK */
  uint32_t abi_major;      /* since 1.0: PLINTH_ABI_MAJOR the plugin was built with */
  uint32_t abi_minor;      /* since 1.0: PLINTH_ABI_MINOR the plugin was built with */
  uint32_t flags;          /* since 1.0: PLINTH_PLUGIN_* */
  const char* name;        /* since 1.0: [a-z0-9_-]{1,32}, unique among loaded plugins */
  const char* version;     /* since 1.0: the plugin's own version, free text */
  const char* description; /* since 1.0: one line for --help and PLUGIN LIST */
  /* since 1.0: registers what the plugin provides. Returns PLINTH_OK, or PLINTH_ERR after
   * writing a reason with api->log_write; the host then rolls back every registration.
   * THREAD: main. */
  int32_t (*init)(plinth_plugin_t* self, const plinth_host_api_t* api);
  /* since 1.0: called at shutdown in reverse load order; may be NULL. THREAD: main. */
  void (*shutdown)(plinth_plugin_t* self);
  void* reserved[4]; /* since 1.0: must be NULL */
} plinth_plugin_descriptor_t;

/* The one exported symbol. Returns a pointer to a static descriptor; must not run other code. */
typedef const plinth_plugin_descriptor_t* (*plinth_plugin_entry_v1_fn)(void);
#define PLINTH_ENTRY_SYMBOL "plinth_plugin_entry_v1"

/* ---- Commands ------------------------------------------------------------------------------ */

/* Command flags (plinth_command_spec_t.flags). */
#define PLINTH_CMD_WRITE 0x0001u    /* may modify the keyspace */
#define PLINTH_CMD_READONLY 0x0002u /* never modifies the keyspace */
#define PLINTH_CMD_FAST 0x0004u     /* O(1) or O(log N) */
#define PLINTH_CMD_ADMIN 0x0008u    /* administrative */
#define PLINTH_CMD_NOAUTH 0x0010u   /* allowed before AUTH (AUTH, HELLO, QUIT, RESET) */
#define PLINTH_CMD_DENYOOM 0x0020u  /* may grow memory */
#define PLINTH_CMD_NOSCRIPT 0x0040u
#define PLINTH_CMD_LOADING 0x0080u
#define PLINTH_CMD_STALE 0x0100u
#define PLINTH_CMD_PUBSUB 0x0200u
#define PLINTH_CMD_NOPROPAGATE 0x0400u /* never appended to the propagation stream */
/* runs at once inside MULTI instead of being queued (QUIT, RESET; the host's EXEC, DISCARD) */
#define PLINTH_CMD_SKIP_MULTI 0x0800u
#define PLINTH_CMD_BLOCKING 0x1000u /* may block the client (BLPOP); COMMAND INFO's "blocking" */
/* allowed to a RESP2 client in subscriber mode ((P)SUBSCRIBE, (P)UNSUBSCRIBE, PING, QUIT, RESET) */
#define PLINTH_CMD_SUBSCRIBER 0x2000u
/* refused inside MULTI with "ERR Command not allowed inside a transaction" (PSYNC, SYNC) */
#define PLINTH_CMD_NO_MULTI 0x4000u
/* runs while a script is busy (call_yield) instead of getting its -BUSY error (SCRIPT KILL,
 * FUNCTION KILL, SHUTDOWN): the handler checks the subcommand itself */
#define PLINTH_CMD_ALLOW_BUSY 0x8000u
/* its key lookups leave the keys' access stamps alone (OBJECT, TYPE): looking at a key's idle
 * time or access frequency must not refresh it */
#define PLINTH_CMD_NO_TOUCH 0x10000u
/* not a write, yet it may propagate effects (EVAL, FCALL, PUBLISH): CLIENT PAUSE WRITE holds it */
#define PLINTH_CMD_MAY_REPLICATE 0x20000u
/* refused unless the host's enable-debug-command option allows it (DEBUG): "no" refuses it
 * to every client, "local" to all but loopback and unix-socket ones, "yes" to none */
#define PLINTH_CMD_PROTECTED 0x40000u

/* ACL categories of a command (plinth_command_spec_t.acl_categories). The host adds those its
 * flags imply, as Redis does: WRITE @write, READONLY @read, ADMIN @admin and @dangerous,
 * PUBSUB @pubsub, FAST @fast (@slow without it), BLOCKING @blocking. The bit numbers are
 * frozen; PLINTH_ACL_CATEGORY_COUNT grows. */
#define PLINTH_ACL_KEYSPACE (1ull << 0)
#define PLINTH_ACL_READ (1ull << 1)
#define PLINTH_ACL_WRITE (1ull << 2)
#define PLINTH_ACL_SET (1ull << 3)
#define PLINTH_ACL_SORTEDSET (1ull << 4)
#define PLINTH_ACL_LIST (1ull << 5)
#define PLINTH_ACL_HASH (1ull << 6)
#define PLINTH_ACL_STRING (1ull << 7)
#define PLINTH_ACL_BITMAP (1ull << 8)
#define PLINTH_ACL_HYPERLOGLOG (1ull << 9)
#define PLINTH_ACL_GEO (1ull << 10)
#define PLINTH_ACL_STREAM (1ull << 11)
#define PLINTH_ACL_PUBSUB (1ull << 12)
#define PLINTH_ACL_ADMIN (1ull << 13)
#define PLINTH_ACL_FAST (1ull << 14)
#define PLINTH_ACL_SLOW (1ull << 15)
#define PLINTH_ACL_BLOCKING (1ull << 16)
#define PLINTH_ACL_DANGEROUS (1ull << 17)
#define PLINTH_ACL_CONNECTION (1ull << 18)
#define PLINTH_ACL_TRANSACTION (1ull << 19)
#define PLINTH_ACL_SCRIPTING (1ull << 20)
#define PLINTH_ACL_CATEGORY_COUNT 21

/* What an argument of a call is to access control (plinth_key_ref_t.flags and
 * plinth_command_spec_t.key_flags). A key with neither READ nor WRITE (EXISTS, TYPE) only needs
 * its name to match one of the user's key patterns. */
#define PLINTH_KEY_READ 0x1u    /* a key whose value the command reads */
#define PLINTH_KEY_WRITE 0x2u   /* a key it inserts, updates or deletes */
#define PLINTH_KEY_CHANNEL 0x4u /* not a key: a pub/sub channel (PUBLISH, SUBSCRIBE) */
#define PLINTH_KEY_PATTERN 0x8u /* not a key: a channel pattern (PSUBSCRIBE) */

/* One key or channel argument of a call. Frozen as an array element: no struct_size. */
typedef struct plinth_key_ref {
  int32_t index;  /* since 1.0: its argv index */
  uint32_t flags; /* since 1.0: PLINTH_KEY_* */
} plinth_key_ref_t;

/* The keys and channels of one call, for a command whose first_key..last_key cannot say them
 * (a numkeys argument, STREAMS, keys read and keys written, channels). Writes at most argc refs
 * to out, in argument order, and returns how many. It must accept any argc the command's arity
 * allows, well-formed or not: a malformed call has the keys it can find. OWNERSHIP: argv and
 * out are borrowed for the call. THREAD: main. */
typedef int32_t (*plinth_keys_fn)(int32_t argc, const char* const* argv, const size_t* argvlen,
                                  plinth_key_ref_t* out);

/* Handler of a command. Reads arguments and replies through the host API. Exactly one reply
 * (one top-level item, possibly an aggregate) must be produced. The host keeps the client in
 * step when it is not: no reply gets "ERR command '<name>' produced no reply", items after
 * the complete reply are dropped, and aggregates still open when the handler returns are
 * completed with nulls (both logged as plugin bugs). THREAD: main. */
typedef void (*plinth_command_fn)(plinth_call_t* call, void* ctx);

typedef struct plinth_command_spec {
  uint32_t struct_size; /* since 1.0 */
  const char* name;     /* since 1.0: case-insensitive. "container|sub" names a subcommand
                         * (see command_register) */
  int32_t arity;        /* since 1.0: Redis rule: N exact argc (name included), -N at least N */
  uint32_t flags;       /* since 1.0: PLINTH_CMD_* */
  int32_t first_key;    /* since 1.0: index of the first key argument, 0 if none */
  int32_t last_key;     /* since 1.0: index of the last key, -1 for the last argument */
  int32_t key_step;     /* since 1.0: distance between keys */
  plinth_command_fn handler; /* since 1.0 */
  void* ctx;                 /* since 1.0: passed to handler */
  const char* summary;       /* since 1.0: one line for COMMAND DOCS, may be NULL */
  const char* since;         /* since 1.0: Redis version that introduced it, may be NULL */
  const char* group;         /* since 1.0: "string", "generic", "connection", "server", ... */
  const char* args;          /* since 1.0: argument syntax for hints: "key value [NX|XX]" */
  uint64_t acl_categories;   /* since 1.0: PLINTH_ACL_* beyond those its flags imply */
  plinth_keys_fn keys;       /* since 1.0: NULL: its keys are first_key..last_key */
  /* since 1.0: PLINTH_KEY_READ / PLINTH_KEY_WRITE of the keys first_key..last_key; 0: READ,
   * and WRITE too for a WRITE command */
  uint32_t key_flags;
} plinth_command_spec_t;

/* A command as the host knows it (command_info): commands and subcommands alike. */
typedef struct plinth_command_info {
  uint32_t struct_size;    /* since 1.0 */
  int32_t id;              /* since 1.0: dense from 0, fixed once loading is over */
  const char* name;        /* since 1.0: lowercase, NUL-terminated; "container|sub" */
  uint64_t acl_categories; /* since 1.0: declared and implied */
  uint32_t flags;          /* since 1.0: PLINTH_CMD_* */
  int32_t parent;          /* since 1.0: a subcommand's container id; -1 for a command */
  int32_t subcommands;     /* since 1.0: how many subcommands a container has */
  int32_t arity;           /* since 1.0 */
} plinth_command_info_t;

/* ---- Access control (ACL) ------------------------------------------------------------------ */

/* client_authenticate and plinth_acl_provider_t.authenticate: AUTH with a password only, while
 * the default user needs none */
#define PLINTH_AUTH_NOPASS 1

/* Where a checked command runs (plinth_acl_provider_t.check) */
#define PLINTH_ACL_CONTEXT_TOPLEVEL 0u /* sent by the client */
#define PLINTH_ACL_CONTEXT_MULTI 1u    /* run by EXEC */
#define PLINTH_ACL_CONTEXT_SCRIPT 2u   /* called by a script or function (call_command) */

/* The plugin that owns users and their permissions (acl_provider_register). Without one, the
 * host's requirepass option is the one password and every client may run every command. */
typedef struct plinth_acl_provider {
  uint32_t struct_size; /* since 1.0 */
  void* ctx;            /* since 1.0: passed to each callback */
  /* since 1.0: AUTH and HELLO's AUTH: checks the pair (user NULL: AUTH with a password only,
   * for the default user). On success writes the user's id and whether its commands must be
   * checked (0: it may run everything), and returns PLINTH_OK; PLINTH_ERR refuses (a wrong
   * pair, a disabled user); PLINTH_AUTH_NOPASS: user NULL and the default user needs none.
   * OWNERSHIP: user and pass borrowed for the call. THREAD: main. */
  int32_t (*authenticate)(void* ctx, plinth_call_t* call, const char* user, size_t ulen,
                          const char* pass, size_t plen, uint64_t* user_id, int32_t* restricted);
  /* since 1.0: whether user_id may run the call (call_argc, call_arg, command_keys; its command
   * id is command_id: the subcommand's for a container with subcommands). Returns PLINTH_OK,
   * or PLINTH_ERR after writing the error reply ("NOPERM ...", NUL-terminated) into err.
   * context: PLINTH_ACL_CONTEXT_*. Called only for users authenticate or acl_user_update said
   * are restricted. OWNERSHIP: err is the host's, errcap bytes. THREAD: main. */
  int32_t (*check)(void* ctx, plinth_call_t* call, uint64_t user_id, int32_t command_id,
                   uint32_t context, char* err, size_t errcap);
  /* since 1.0: whether user_id may touch key (PLINTH_KEY_* flags: a key read and/or written, or
   * a channel). PLINTH_OK or PLINTH_ERR. OWNERSHIP: key borrowed. THREAD: main. */
  int32_t (*check_key)(void* ctx, uint64_t user_id, const char* key, size_t len, uint32_t flags);
  /* since 1.0: user_id's name (CLIENT LIST's user=), NUL-terminated, or NULL when no user has
   * that id. OWNERSHIP: the provider's, valid until the user changes. THREAD: main. */
  const char* (*user_name)(void* ctx, uint64_t user_id);
  /* since 1.0: the host's requirepass option was set to pass (len 0: cleared): the default
   * user's password becomes it, as Redis does. May be NULL. OWNERSHIP: pass borrowed.
   * THREAD: main. */
  void (*requirepass)(void* ctx, const char* pass, size_t len);
  /* since 1.0: whether a user is named name (1) or not (0). OWNERSHIP: name borrowed.
   * THREAD: main. */
  int32_t (*user_exists)(void* ctx, const char* name, size_t len);
} plinth_acl_provider_t;

/* ---- Replies ------------------------------------------------------------------------------- */

/* Reply item types handed to a protocol encoder. */
#define PLINTH_REPLY_SIMPLE 1     /* data/len: status text without CRLF */
#define PLINTH_REPLY_ERROR 2      /* data/len: "CODE message" without the leading '-' */
#define PLINTH_REPLY_INTEGER 3    /* integer */
#define PLINTH_REPLY_BULK 4       /* data/len */
#define PLINTH_REPLY_NULL 5       /* null bulk in RESP2, '_' in RESP3 */
#define PLINTH_REPLY_NULL_ARRAY 6 /* null array in RESP2, '_' in RESP3 */
#define PLINTH_REPLY_ARRAY 7      /* integer: element count; the elements follow */
#define PLINTH_REPLY_MAP 8        /* integer: pair count; 2*count items follow */
#define PLINTH_REPLY_SET 9        /* integer: element count */
#define PLINTH_REPLY_DOUBLE 10    /* dbl */
#define PLINTH_REPLY_BOOL 11      /* integer 0 or 1 */
#define PLINTH_REPLY_VERBATIM 12  /* data/len, ext: three-letter format such as "txt" */
#define PLINTH_REPLY_BIGNUM 13    /* data/len: decimal digits */
#define PLINTH_REPLY_PUSH 14      /* integer: element count */

typedef struct plinth_reply_item {
  uint32_t struct_size; /* since 1.0 */
  uint32_t type;        /* since 1.0: PLINTH_REPLY_* */
  int64_t integer;      /* since 1.0 */
  double dbl;           /* since 1.0 */
  const char* data;     /* since 1.0 */
  size_t len;           /* since 1.0 */
  const char* ext;      /* since 1.0: verbatim format, 3 chars */
} plinth_reply_item_t;

/* Release callback of a reply that references memory the host does not own. Called exactly once,
 * after the bytes were written or the connection dropped. THREAD: any (often an IO thread). */
typedef void (*plinth_release_fn)(void* arg);

/* ---- Protocols ----------------------------------------------------------------------------- */

/* An output buffer a protocol encoder appends to. Write at data + len; call grow first when
 * cap - len is too small. grow returns PLINTH_OK or PLINTH_ERR (out of memory). */
typedef struct plinth_outbuf {
  char* data;
  size_t len;
  size_t cap;
  int32_t (*grow)(struct plinth_outbuf* out, size_t min_free);
  void* host_private;
} plinth_outbuf_t;

/* One parsed request. argv[i] points into the bytes given to parse or into parser storage; it
 * stays valid until the next call of parse or reset on the same session. */
typedef struct plinth_request {
  uint32_t struct_size;    /* since 1.0 */
  int32_t argc;            /* since 1.0 */
  const char* const* argv; /* since 1.0 */
  const size_t* argvlen;   /* since 1.0 */
} plinth_request_t;

/* parse results */
#define PLINTH_PARSE_OK 0        /* *req filled; *consumed bytes form this request */
#define PLINTH_PARSE_NEED_MORE 1 /* call again with these bytes plus more (after *consumed) */
#define PLINTH_PARSE_ERROR 2     /* err holds the protocol error; the connection closes */
#define PLINTH_PARSE_EMPTY 3     /* *consumed bytes held no command (blank line, *0) */

/* parse flags */
#define PLINTH_PARSE_UNAUTHENTICATED 0x1u /* client not authenticated: apply the tight limits */

typedef struct plinth_protocol_spec {
  uint32_t struct_size; /* since 1.0 */
  const char* name;     /* since 1.0 */
  void* ctx;            /* since 1.0 */
  /* since 1.0: creates per-connection parser state. THREAD: any; one connection at a time. */
  void* (*session_create)(void* ctx);
  /* since 1.0: frees it. THREAD: any. */
  void (*session_destroy)(void* ctx, void* session);
  /* since 1.0: parses one request from buf[0, len). The host passes the unconsumed bytes and,
   * after NEED_MORE, the same bytes again plus what arrived. *need_hint, when non-zero, is the
   * total length the request needs (so the host can size its buffer and wait). THREAD: any. */
  int32_t (*parse)(void* ctx, void* session, const char* buf, size_t len, uint32_t flags,
                   size_t* consumed, size_t* need_hint, plinth_request_t* req, char* err,
                   size_t errlen);
  /* since 1.0: appends one reply item in protocol version proto (2 or 3). Returns PLINTH_OK
   * or PLINTH_ERR when out could not grow. THREAD: any. */
  int32_t (*encode)(void* ctx, uint32_t proto, const plinth_reply_item_t* item,
                    plinth_outbuf_t* out);
  /* since 1.0: appends the framing written before a bulk of len bytes sent by reference (into
   * prefix) and after it (into suffix). THREAD: any. */
  int32_t (*frame_bulk)(void* ctx, uint32_t proto, size_t len, plinth_outbuf_t* prefix,
                        plinth_outbuf_t* suffix);
} plinth_protocol_spec_t;

/* ---- Transports ---------------------------------------------------------------------------- */

typedef struct plinth_iovec {
  const void* base;
  size_t len;
} plinth_iovec_t;

/* read/writev results below zero */
#define PLINTH_IO_AGAIN (-1) /* nothing now; wait until the connection is ready again */
#define PLINTH_IO_ERROR (-2) /* connection broken */

/* connection flags set by accept */
#define PLINTH_CONN_LOCAL 0x1u /* peer is loopback or a unix socket (protected-mode) */
#define PLINTH_CONN_UNIX 0x2u  /* unix domain socket */

/* transport flags (plinth_transport_spec_t.flags) */
/* writev may keep referencing the buffers it was given after it returns (zero-copy sends,
 * RDMA): the host keeps them until the transport calls conn_released for those bytes. */
#define PLINTH_TRANSPORT_HOLDS_BUFFERS 0x1u
/* accept's descriptor says only "readable" (an RDMA completion channel): the host polls it for
 * reading alone, reads until PLINTH_IO_AGAIN on each readiness, and learns writability from
 * conn_notify(PLINTH_CONN_WRITABLE) as for a transport without a descriptor. */
#define PLINTH_TRANSPORT_POLL_READ_ONLY 0x2u

/* events a transport reports with conn_notify */
#define PLINTH_CONN_READABLE 0x1u /* read may return data now */
#define PLINTH_CONN_WRITABLE 0x2u /* writev may accept bytes now */
#define PLINTH_CONN_CLOSED 0x4u   /* the peer went away or the connection broke */

/* How the host drives a connection. When accept gives a descriptor (*fd >= 0), the host polls
 * it (level-triggered) and calls read once per readiness and writev until it returns
 * PLINTH_IO_AGAIN, then waits for the descriptor to be writable. A transport without a
 * pollable descriptor (*fd = -1) reports readiness with conn_notify instead; the host then
 * reads until read returns PLINTH_IO_AGAIN (it drains) and, after writev returns
 * PLINTH_IO_AGAIN, waits for PLINTH_CONN_WRITABLE. A transport flagged
 * PLINTH_TRANSPORT_POLL_READ_ONLY (RDMA, whose completion channel never says writable) gives a
 * descriptor the host polls for reading only: it drains on each readiness, and writability
 * comes from conn_notify; conn_notify(PLINTH_CONN_READABLE) works too (a readiness the
 * descriptor cannot show, such as completions a writev consumed).
 * read and writev may run on an IO thread: one thread per connection at a time, and the host
 * orders them (a connection's reads and writes never overlap). */
typedef struct plinth_transport_spec {
  uint32_t struct_size; /* since 1.0 */
  const char* name;     /* since 1.0 */
  void* ctx;            /* since 1.0 */
  /* since 1.0: opens the listeners (calls listener_add for each) when the server starts; not
   * called for --help. Returns PLINTH_OK or PLINTH_ERR. THREAD: main. */
  int32_t (*start)(void* ctx);
  /* since 1.0: closes the listeners. THREAD: main. */
  void (*stop)(void* ctx);
  /* since 1.0: accepts one connection from listener fd lfd. Returns PLINTH_OK and fills *conn
   * (transport state), *fd (what the host polls, or -1: see above), the peer and local address
   * text ("ip:port" or the socket path) and *flags; PLINTH_IO_AGAIN when none is pending;
   * PLINTH_IO_ERROR otherwise. THREAD: main. */
  int32_t (*accept)(void* ctx, int32_t lfd, void** conn, int32_t* fd, char* peer, size_t peerlen,
                    char* local, size_t locallen, uint32_t* flags);
  /* since 1.0: reads up to len bytes. Returns the count, 0 on EOF, or PLINTH_IO_*.
   * OWNERSHIP: buf is the host's, borrowed for the call. THREAD: any; one thread per
   * connection at a time. */
  int64_t (*read)(void* ctx, void* conn, char* buf, size_t len);
  /* since 1.0: writes the buffers in order. Returns bytes taken (possibly fewer than given) or
   * PLINTH_IO_*. OWNERSHIP: the buffers are the host's; borrowed for the call, or, with
   * PLINTH_TRANSPORT_HOLDS_BUFFERS, until conn_released covers the bytes taken. THREAD: any;
   * one thread per connection at a time. */
  int64_t (*writev)(void* ctx, void* conn, const plinth_iovec_t* iov, int32_t iovcnt);
  /* since 1.0: closes and frees the connection. Once it returns, the transport references no
   * buffer of the host's and calls neither conn_notify nor conn_released for it. THREAD:
   * main. */
  void (*close)(void* ctx, void* conn);
  /* since 1.0: PLINTH_TRANSPORT_* */
  uint32_t flags;
  /* since 1.0 (optional): gives a just-accepted connection its host-side handle, for
   * conn_notify and conn_released; called before any read. OWNERSHIP: the handle is the
   * host's, valid until close returns. THREAD: main. */
  void (*attach)(void* ctx, void* conn, plinth_conn_t* host);
} plinth_transport_spec_t;

/* ---- Reply path ---------------------------------------------------------------------------- */

/* What the host knows of one bulk reply of a stored string value when it asks the reply path
 * how to send it. Host-given: read only the fields your struct_size covers. */
typedef struct plinth_reply_value_info {
  uint32_t struct_size;      /* since 1.0 */
  uint32_t transport_flags;  /* since 1.0: the client's transport's PLINTH_TRANSPORT_* flags */
  size_t len;                /* since 1.0: the value's length in bytes */
  const char* transport;     /* since 1.0: the client's transport's name ("tcp", ...) */
  int32_t io_threads_active; /* since 1.0: IO threads writing replies now (0: main thread) */
} plinth_reply_value_info_t;

typedef struct plinth_reply_path_spec {
  uint32_t struct_size; /* since 1.0 */
  const char* name;     /* since 1.0 */
  void* ctx;            /* since 1.0 */
  /* since 1.0: returns 1 when the bulk reply info describes should be queued by reference
   * (the value retained and written straight from its bytes, then released by the thread that
   * wrote it) instead of copied into the output buffer. Called once per bulk reply of a stored
   * string value; keep it cheap. OWNERSHIP: info is borrowed for the call. THREAD: main. */
  int32_t (*by_reference)(void* ctx, const plinth_reply_value_info_t* info);
} plinth_reply_path_spec_t;

/* ---- Propagation stream -------------------------------------------------------------------- */

/* The propagation stream is one ordered log of the server's effects: every write command (or
 * what it emitted through replicate), expiries and evictions as DEL, relative expiry rewritten
 * as absolute. Encoded once, as RESP multibulk commands with a SELECT wherever the database
 * changes, it has a byte offset that only grows (INFO's master_repl_offset). An execution unit,
 * one command or a whole transaction (wrapped in MULTI ... EXEC), is never split between two
 * batches, so a consumer that applies batches whole applies units atomically. */
typedef struct plinth_stream_batch {
  uint32_t struct_size; /* since 1.0 */
  uint32_t reserved0;   /* since 1.0 */
  uint64_t offset;      /* since 1.0: the stream offset of data[0]; offset + len follows it */
  const char* data;     /* since 1.0: whole execution units, RESP encoded */
  size_t len;           /* since 1.0 */
} plinth_stream_batch_t;

typedef struct plinth_stream_consumer_spec {
  uint32_t struct_size; /* since 1.0 */
  const char* name;     /* since 1.0 */
  void* ctx;            /* since 1.0 */
  /* since 1.0: the encoded effects appended since the last batch, each batch following the one
   * before without a gap. Delivered before the host writes any reply to the commands that
   * produced them, and before the loop sleeps: a consumer that makes a batch durable here
   * (appendfsync always) makes every acknowledged write durable. May be NULL. OWNERSHIP: the
   * batch and its data are borrowed for the call (the buffer is shared by every consumer).
   * THREAD: main. */
  void (*on_batch)(void* ctx, const plinth_stream_batch_t* batch);
} plinth_stream_consumer_spec_t;

/* flags of replicate() */
#define PLINTH_REPLICATE_NO_VALIDATE 0x1u /* skip the command and arity checks (trusted path) */

/* server_refuse classes */
#define PLINTH_REFUSE_WRITES 1u /* commands flagged PLINTH_CMD_WRITE (read-only replica) */
#define PLINTH_REFUSE_STALE 2u  /* commands not flagged PLINTH_CMD_STALE (a stale replica) */

/* ---- Config options ------------------------------------------------------------------------ */

#define PLINTH_OPT_STRING 1
#define PLINTH_OPT_INT 2    /* int64 within [min, max] */
#define PLINTH_OPT_BOOL 3   /* yes/no, true/false, 1/0 */
#define PLINTH_OPT_MEMORY 4 /* int64 bytes; accepts 1k, 5mb, 1gb suffixes */
#define PLINTH_OPT_ENUM 5   /* one of the '|'-separated words in enum_values */

#define PLINTH_OPT_MUTABLE 0x1u     /* CONFIG SET may change it at run time */
#define PLINTH_OPT_GLOBAL_NAME 0x2u /* registered under its bare (Redis) name, not plugin.name */
#define PLINTH_OPT_SECRET 0x4u      /* value hidden in --help */

/* Apply callback: the option got a new, validated value: its normalised text (value, len) and
 * its number (INT and MEMORY: the value, BOOL: 0/1, ENUM: the word's index, STRING: 0). Returns
 * PLINTH_OK, or PLINTH_ERR after writing a reason into err (the change is then refused).
 * OWNERSHIP: name and value borrowed for the call. THREAD: main. */
typedef int32_t (*plinth_option_apply_fn)(void* ctx, const char* name, const char* value,
                                          size_t len, int64_t number, char* err, size_t errlen);

typedef struct plinth_option_spec {
  uint32_t struct_size;         /* since 1.0 */
  const char* name;             /* since 1.0: lower-case, '-' separated */
  uint32_t type;                /* since 1.0: PLINTH_OPT_* */
  uint32_t flags;               /* since 1.0: PLINTH_OPT_* flags */
  const char* default_value;    /* since 1.0: text form */
  int64_t min;                  /* since 1.0: INT and MEMORY */
  int64_t max;                  /* since 1.0 */
  const char* enum_values;      /* since 1.0: ENUM only, "a|b|c" */
  const char* description;      /* since 1.0: one line for --help */
  plinth_option_apply_fn apply; /* since 1.0: may be NULL */
  void* ctx;                    /* since 1.0 */
} plinth_option_spec_t;

/* ---- INFO sections, value types, logging ------------------------------------------------- */

typedef void (*plinth_info_fn)(void* ctx, plinth_info_t* info);

/* value type ids: 0 is no value; 1 is the host's string; plugins get ids from type_register */
#define PLINTH_TYPE_NONE 0u
#define PLINTH_TYPE_STRING 1u

/* RDB object types of the plain forms a type's rdb_save writes and rdb_load reads (Redis's
 * numbers; the persistence plugin turns the compact forms, listpack, intset and ziplist blobs,
 * into these before rdb_load sees them). */
#define PLINTH_RDB_LIST 1u   /* a length, then that many strings */
#define PLINTH_RDB_SET 2u    /* a length, then that many strings */
#define PLINTH_RDB_HASH 4u   /* a length, then that many field and value strings */
#define PLINTH_RDB_ZSET_2 5u /* a length, then that many member strings, each with a double */
/* Redis's stream forms (listpack blobs in a radix tree's order, groups and pending entries; the
 * 8-byte times through write_raw). Redis 7.0 reads up to _2; 7.4 writes _3. The three are one
 * family: a type whose rdb_type is one of them is handed all three by value_rdb_load. */
#define PLINTH_RDB_STREAM_LISTPACKS 15u
#define PLINTH_RDB_STREAM_LISTPACKS_2 19u
#define PLINTH_RDB_STREAM_LISTPACKS_3 21u

/* The parts of a value's RDB serialization, for a type's rdb_save and rdb_load. The
 * persistence plugin implements it over its file (with LZF and integer string encodings); the
 * fake host in memory. Every function returns PLINTH_OK or PLINTH_ERR (a write failed, or the
 * input is short or malformed), after which the caller abandons the value. THREAD: the thread
 * that called rdb_save or rdb_load. */
typedef struct plinth_rdb_io plinth_rdb_io_t;
struct plinth_rdb_io {
  uint32_t struct_size; /* since 1.0 */
  uint32_t reserved0;   /* since 1.0 */
  void* ctx;            /* since 1.0: the implementation's */
  /* since 1.0: an RDB length. */
  int32_t (*write_len)(plinth_rdb_io_t* io, uint64_t n);
  /* since 1.0: an RDB string. OWNERSHIP: s borrowed for the call. */
  int32_t (*write_string)(plinth_rdb_io_t* io, const char* s, size_t len);
  /* since 1.0: a binary double (8 bytes, little endian, as ZSET_2 scores). */
  int32_t (*write_double)(plinth_rdb_io_t* io, double v);
  /* since 1.0 */
  int32_t (*read_len)(plinth_rdb_io_t* io, uint64_t* n);
  /* since 1.0: OWNERSHIP: *s is the io's, valid until its next read. */
  int32_t (*read_string)(plinth_rdb_io_t* io, const char** s, size_t* len);
  /* since 1.0 */
  int32_t (*read_double)(plinth_rdb_io_t* io, double* v);
  /* since 1.0: len bytes as they are (a stream's 16-byte ids and 8-byte times). OWNERSHIP: p
   * borrowed for the call. */
  int32_t (*write_raw)(plinth_rdb_io_t* io, const void* p, size_t len);
  /* since 1.0: exactly len bytes into p. */
  int32_t (*read_raw)(plinth_rdb_io_t* io, void* p, size_t len);
};

/* Visits one member of a collection (value_visit): its bytes and its score (1 for a member of
 * a plain set). OWNERSHIP: member borrowed for the call. */
typedef void (*plinth_member_fn)(void* arg, const char* member, size_t len, double score);

/* A value type. The payload of a stored value is shared by every holder of the value (COPY's
 * two keys, a reply being written, a plugin's reference): a plugin reads it through
 * value_payload and changes it only through key_payload_mut, which first gives the key a copy
 * of its own when the value is shared. */
typedef struct plinth_type_spec {
  uint32_t struct_size; /* since 1.0 */
  const char* name;     /* since 1.0: what TYPE answers */
  /* since 1.0: frees a payload. Required. THREAD: any (large values are freed on the host's
   * lazy-free thread). */
  void (*free_payload)(void* payload);
  /* since 1.0: bytes the payload uses (MEMORY USAGE, maxmemory). May be NULL. THREAD: main. */
  size_t (*memory_usage)(const void* payload);
  /* since 1.0: writes the payload in its type's plain RDB form (rdb_type) through io. Returns
   * PLINTH_OK or PLINTH_ERR. May be NULL (the type is not persisted). THREAD: main, or a
   * forked child. */
  int32_t (*rdb_save)(const void* payload, plinth_rdb_io_t* io);
  /* since 1.0: a deep copy of payload (copy-on-write of a shared value), or NULL when memory
   * ran out. Required. OWNERSHIP: the caller owns the copy. THREAD: main. */
  void* (*copy)(const void* payload);
  /* since 1.0: OBJECT ENCODING's name for payload now ("listpack", "hashtable", ...).
   * OWNERSHIP: a static string. May be NULL ("raw"). THREAD: main. */
  const char* (*encoding)(const void* payload);
  /* since 1.0: the work freeing payload takes, about one per allocation it holds (Redis's lazy
   * free effort). A value whose effort exceeds 64 is freed on the lazy-free thread when it is
   * unlinked (key_unlink, async flush). May be NULL (always freed at once). THREAD: main. */
  size_t (*free_effort)(const void* payload);
  /* since 1.0: a payload read from the plain RDB form rdb_type through io, or NULL when the
   * input is malformed or memory ran out. May be NULL. OWNERSHIP: the caller owns the payload.
   * THREAD: any. */
  void* (*rdb_load)(uint32_t rdb_type, plinth_rdb_io_t* io);
  /* since 1.0: the stable on-disk id: the PLINTH_RDB_* form rdb_save writes and rdb_load
   * reads, or 0 for a type with no Redis form (persisted as a module value under its name). */
  uint32_t rdb_type;
  uint32_t reserved0; /* since 1.0 */
  /* since 1.0: visits every member of a collection payload once (sets with score 1, sorted
   * sets in order with their scores), so other plugins can read it through value_visit (a
   * plain set given to ZUNIONSTORE). May be NULL. THREAD: main. */
  void (*visit)(const void* payload, plinth_member_fn fn, void* arg);
} plinth_type_spec_t;

/* keyspace notification classes (Redis's notify-keyspace-events flags, same bits) */
#define PLINTH_NOTIFY_KEYSPACE 0x1u   /* K */
#define PLINTH_NOTIFY_KEYEVENT 0x2u   /* E */
#define PLINTH_NOTIFY_GENERIC 0x4u    /* g */
#define PLINTH_NOTIFY_STRING 0x8u     /* $ */
#define PLINTH_NOTIFY_LIST 0x10u      /* l */
#define PLINTH_NOTIFY_SET 0x20u       /* s */
#define PLINTH_NOTIFY_HASH 0x40u      /* h */
#define PLINTH_NOTIFY_ZSET 0x80u      /* z */
#define PLINTH_NOTIFY_EXPIRED 0x100u  /* x */
#define PLINTH_NOTIFY_EVICTED 0x200u  /* e */
#define PLINTH_NOTIFY_STREAM 0x400u   /* t */
#define PLINTH_NOTIFY_KEY_MISS 0x800u /* m */
#define PLINTH_NOTIFY_MODULE 0x2000u  /* d */
#define PLINTH_NOTIFY_NEW 0x4000u     /* n */

/* Hears one keyspace event (keyspace_event). OWNERSHIP: event and key borrowed for the call.
 * THREAD: main. */
typedef void (*plinth_keyspace_listener_fn)(void* ctx, int32_t db, uint32_t type, const char* event,
                                            const char* key, size_t klen);

/* Hears one change of the keyspace (key_change_listener_register): key in database db was
 * written, deleted, expired or evicted (every change WATCH sees, whatever
 * notify-keyspace-events says), during the command of client client_id (0: none, such as the
 * active expiry cycle). key NULL (klen 0): database db was emptied, -1 every database (FLUSHDB,
 * FLUSHALL, a snapshot loading). OWNERSHIP: key borrowed for the call. THREAD: main; it must
 * not change the keyspace. */
typedef void (*plinth_key_change_fn)(void* ctx, int32_t db, const char* key, size_t klen,
                                     uint64_t client_id);

/* ---- Command observers (SLOWLOG, LATENCY, MONITOR) ---------------------------------------- */

/* plinth_command_event_t flags */
#define PLINTH_EVENT_NESTED 0x1u   /* run by another command: a script's call (call_command) */
#define PLINTH_EVENT_RERUN 0x2u    /* a blocked command run again (woken or timed out) */
#define PLINTH_EVENT_INTERNAL 0x4u /* an internal client's: a primary's stream, a file loading */

/* One command that ran: its handler was called (a command refused, or queued by MULTI, is not
 * one). Strings are not NUL-terminated unless said. */
typedef struct plinth_command_event {
  uint32_t struct_size;    /* since 1.0 */
  uint32_t flags;          /* since 1.0: PLINTH_EVENT_* */
  uint64_t client_id;      /* since 1.0 */
  int32_t db;              /* since 1.0: the database it ran in */
  int32_t argc;            /* since 1.0 */
  const char* const* argv; /* since 1.0: as the client sent them */
  const size_t* argvlen;   /* since 1.0 */
  const char* name;        /* since 1.0: its registered name, lowercase, NUL-terminated */
  uint32_t cmd_flags;      /* since 1.0: its PLINTH_CMD_* */
  int64_t start_us;        /* since 1.0: unix time it started, microseconds */
  int64_t duration_us;     /* since 1.0: how long it ran */
  const char* addr;        /* since 1.0: the peer ("ip:port", "unix:path"); "" internal */
  size_t addr_len;         /* since 1.0 */
  const char* client_name; /* since 1.0: CLIENT SETNAME's name, "" when none */
  size_t client_name_len;  /* since 1.0 */
} plinth_command_event_t;

/* Hears one command that ran (command_observer_register). OWNERSHIP: ev and what it points to
 * are borrowed for the call. THREAD: main; it must not run commands or change the keyspace. */
typedef void (*plinth_command_observer_fn)(void* ctx, const plinth_command_event_t* ev);

/* client listener events */
#define PLINTH_CLIENT_CLOSED 1u /* the connection is gone */
#define PLINTH_CLIENT_RESET 2u  /* RESET (client_reset) */

/* Hears a client event (client_listener_register). THREAD: main. */
typedef void (*plinth_client_event_fn)(void* ctx, uint64_t client_id, uint32_t event);

/* call_block_state */
#define PLINTH_BLOCK_NONE 0    /* the command's first run */
#define PLINTH_BLOCK_WOKEN 1   /* a key the blocked client waits on was signalled ready */
#define PLINTH_BLOCK_TIMEOUT 2 /* the blocked client's timeout passed: reply, do not block */

#define PLINTH_LOG_DEBUG 0
#define PLINTH_LOG_VERBOSE 1
#define PLINTH_LOG_NOTICE 2
#define PLINTH_LOG_WARNING 3

/* key_set flags */
#define PLINTH_SET_KEEPTTL 0x1u /* keep the key's time to live instead of clearing it */
/* key_string_set: the value reports embstr/raw, never int, even when its text is an integer
 * (what Redis 7.0 reports after INCRBYFLOAT) */
#define PLINTH_SET_NO_INT_ENCODING 0x2u

/* key_move flags */
#define PLINTH_MOVE_NX 0x1u      /* fail when dst exists (RENAMENX, MOVE) */
#define PLINTH_MOVE_COPY 0x2u    /* keep src (COPY) */
#define PLINTH_MOVE_REPLACE 0x4u /* with COPY: overwrite an existing dst */

/* client attributes */
#define PLINTH_CLIENT_NAME 1
#define PLINTH_CLIENT_LIB_NAME 2
#define PLINTH_CLIENT_LIB_VER 3
/* CLIENT NO-TOUCH: "1" while on (set "1" or ""): the client's commands leave keys' access
 * times and counters alone, except TOUCH's */
#define PLINTH_CLIENT_NO_TOUCH 4

/* client_info_int what */
#define PLINTH_CLIENT_INFO_PROTOCOL 1      /* its protocol version: 2 or 3 */
#define PLINTH_CLIENT_INFO_SUBSCRIPTIONS 2 /* its channels plus patterns (client_subscriptions) */

/* clients_pause what */
#define PLINTH_PAUSE_NONE 0u  /* no pause: ends this plugin's */
#define PLINTH_PAUSE_WRITE 1u /* commands that may write; keys neither expire nor get evicted */
#define PLINTH_PAUSE_ALL 2u   /* every command */

/* client_kill filters */
#define PLINTH_KILL_ID 1
#define PLINTH_KILL_ADDR 2
#define PLINTH_KILL_LADDR 3

/* value encodings reported by value_encoding */
#define PLINTH_ENC_RAW 0
#define PLINTH_ENC_INT 1
#define PLINTH_ENC_EMBSTR 2

/* key_access: what to report */
#define PLINTH_KEY_IDLE_MS 1
#define PLINTH_KEY_FREQ 2

/* memory_report: which report */
#define PLINTH_MEMORY_STATS 1
#define PLINTH_MEMORY_MALLOC_STATS 2
#define PLINTH_MEMORY_PURGE 3

/* client_create_internal flags */
#define PLINTH_INTERNAL_NO_PROPAGATE 0x1u /* its effects stay off the propagation stream */

/* call_command flags. */
/* a script's call: PLINTH_CMD_NOSCRIPT commands are refused, a blocking command answers as on
 * timeout (no blocking) */
#define PLINTH_RUN_SCRIPT 0x1u
#define PLINTH_RUN_NO_WRITES 0x2u    /* PLINTH_CMD_WRITE commands are refused (EVAL_RO) */
#define PLINTH_RUN_NO_PROPAGATE 0x4u /* its effects stay off the stream (redis.set_repl) */
#define PLINTH_RUN_RESP3 0x8u        /* the command sees protocol 3 (else 2) */

/* Hears one item of the reply of a command run with call_command, in the order the command
 * emits them (an aggregate's header, then its elements). OWNERSHIP: item and its data are
 * borrowed for the call. THREAD: main. */
typedef void (*plinth_reply_fn)(void* arg, const plinth_reply_item_t* item);

/* shutdown flags */
#define PLINTH_SHUTDOWN_NOSAVE 0x1u
#define PLINTH_SHUTDOWN_SAVE 0x2u

/* Emits one piece of text (a line, a field) to a caller-supplied sink. */
typedef void (*plinth_emit_fn)(void* arg, const char* data, size_t len);
/* Visits one key during a scan. */
typedef void (*plinth_key_visit_fn)(void* arg, const char* key, size_t klen,
                                    const plinth_value_t* value);
/* Visits one key of a database (db_visit): its name, its value and its absolute expiry in Unix
 * milliseconds (-1: none). Returns 0 to go on, anything else to stop the visit. OWNERSHIP: key
 * and value borrowed for the call (retain value to keep it). */
typedef int32_t (*plinth_db_visit_fn)(void* arg, const char* key, size_t klen,
                                      const plinth_value_t* value, int64_t expire_ms);
/* A task posted to the main loop. */
typedef void (*plinth_task_fn)(void* arg);
typedef void (*plinth_timer_fn)(void* arg);

/* ---- The host API table -------------------------------------------------------------------- */

struct plinth_host_api {
  uint32_t struct_size; /* since 1.0: sizeof the host's table; fields past it are absent */
  uint32_t abi_major;   /* since 1.0 */
  uint32_t abi_minor;   /* since 1.0 */
  uint32_t reserved0;   /* since 1.0 */

  /* -- logging and memory (THREAD: any) -- */

  /* since 1.0: writes one log line at level, prefixed with the plugin's name. self is the
   * calling plugin's handle (the host it writes to); a NULL self writes nothing. OWNERSHIP: msg
   * borrowed. THREAD: any. */
  void (*log_write)(plinth_plugin_t* self, uint32_t level, const char* msg, size_t len);
  /* since 1.0: host allocator (tcmalloc). Returns NULL on failure. THREAD: any. */
  void* (*mem_alloc)(size_t size);
  /* since 1.0: OWNERSHIP: p came from mem_alloc/mem_realloc. THREAD: any. */
  void* (*mem_realloc)(void* p, size_t size);
  /* since 1.0: OWNERSHIP: frees p (NULL is fine). THREAD: any. */
  void (*mem_free)(void* p);

  /* -- registration (THREAD: main, only during init) -- */

  /* since 1.0: adds a command. Fails on a duplicate name or a bad spec. A name "container|sub"
   * adds a subcommand: its flags, categories and keys are what access control and COMMAND see
   * when argv[1] is sub, and its handler (NULL: the container's) runs it. A subcommand may come
   * before its container, from another plugin: the host stands in for the container until one
   * registers, answering other subcommands "ERR unknown subcommand". OWNERSHIP: spec and its
   * strings are copied. THREAD: main, init only. */
  int32_t (*command_register)(plinth_plugin_t* self, const plinth_command_spec_t* spec);
  /* since 1.0: sets the protocol (one per server). OWNERSHIP: copied; ctx must outlive the
   * plugin. THREAD: main, init only. */
  int32_t (*protocol_register)(plinth_plugin_t* self, const plinth_protocol_spec_t* spec);
  /* since 1.0: adds a transport. Returns its id (>= 0) or PLINTH_ERR. OWNERSHIP: copied.
   * THREAD: main, init only. */
  int32_t (*transport_register)(plinth_plugin_t* self, const plinth_transport_spec_t* spec);
  /* since 1.0: sets the reply path (one per server). OWNERSHIP: copied. THREAD: main, init. */
  int32_t (*reply_path_register)(plinth_plugin_t* self, const plinth_reply_path_spec_t* spec);
  /* since 1.0: adds a propagation stream consumer. OWNERSHIP: copied. THREAD: main, init. */
  int32_t (*stream_consumer_register)(plinth_plugin_t* self,
                                      const plinth_stream_consumer_spec_t* spec);
  /* since 1.0: adds a config option; its configured value (config file, command line) is
   * validated now and, if an apply callback is set, applied. Returns the option's handle, or
   * NULL on a duplicate name, a bad spec or an invalid configured value. OWNERSHIP: spec
   * copied; the handle is the host's, valid while the plugin is loaded. THREAD: main, init. */
  const plinth_option_t* (*option_register)(plinth_plugin_t* self,
                                            const plinth_option_spec_t* spec);
  /* since 1.0: adds an INFO section. OWNERSHIP: name copied. THREAD: main, init only. */
  int32_t (*info_register)(plinth_plugin_t* self, const char* section, plinth_info_fn fn,
                           void* ctx);
  /* since 1.0: adds a value type. Returns its id (>= 16) or 0. THREAD: main, init only. */
  uint32_t (*type_register)(plinth_plugin_t* self, const plinth_type_spec_t* spec);

  /* -- options and info (THREAD: main) -- */

  /* since 1.0: the handle of a registered option by its full name ("port", "tcp.backlog"), or
   * NULL. Look it up once (at init or first use) and keep it. OWNERSHIP: the host's, valid
   * while its owner is loaded. THREAD: main. */
  const plinth_option_t* (*option_find)(plinth_plugin_t* self, const char* name);
  /* since 1.0: an option's current number: INT and MEMORY the value, BOOL 0/1, ENUM the index,
   * STRING 0. No lookup: a field read. THREAD: main. */
  int64_t (*option_int)(const plinth_option_t* option);
  /* since 1.0: an option's current normalised text (NUL-terminated) and its length.
   * OWNERSHIP: borrowed until the option next changes. THREAD: main. */
  const char* (*option_string)(const plinth_option_t* option, size_t* len);
  /* since 1.0: adds one "name:value" field to an INFO section. OWNERSHIP: copied. */
  void (*info_field)(plinth_info_t* info, const char* name, const char* value, size_t len);
  /* since 1.0: adds an integer field. */
  void (*info_field_int)(plinth_info_t* info, const char* name, int64_t value);

  /* -- timers and tasks -- */

  /* since 1.0: runs fn after ms, then every repeat_ms if non-zero. Returns a handle or NULL.
   * OWNERSHIP: stop it with timer_stop (also at shutdown). THREAD: main. */
  plinth_timer_t* (*timer_start)(plinth_plugin_t* self, uint64_t ms, uint64_t repeat_ms,
                                 plinth_timer_fn fn, void* arg);
  /* since 1.0: stops and frees a timer. THREAD: main. */
  void (*timer_stop)(plinth_timer_t* timer);
  /* since 1.0: runs fn(arg) on the main loop soon. Returns PLINTH_OK or PLINTH_ERR when the
   * server is shutting down (fn is then never called). THREAD: any. */
  int32_t (*loop_post)(plinth_plugin_t* self, plinth_task_fn fn, void* arg);
  /* since 1.0: adds a listening fd of a transport; the host accepts on it through the
   * transport's accept. THREAD: main (transport start). */
  int32_t (*listener_add)(plinth_plugin_t* self, int32_t transport_id, int32_t fd,
                          const char* description);

  /* -- the call: arguments -- */

  /* since 1.0: number of arguments, the command name included. THREAD: main. */
  int32_t (*call_argc)(plinth_call_t* call);
  /* since 1.0: argument i (0 is the command name) and its length. NULL if out of range.
   * OWNERSHIP: borrowed until the handler returns. THREAD: main. */
  const char* (*call_arg)(plinth_call_t* call, int32_t i, size_t* len);

  /* -- the call: replies (THREAD: main) -- */

  /* since 1.0: +text. OWNERSHIP: copied. */
  void (*reply_simple)(plinth_call_t* call, const char* s, size_t len);
  /* since 1.0: -text; s is "CODE message" ("ERR syntax error"); counted in error stats. */
  void (*reply_error)(plinth_call_t* call, const char* s, size_t len);
  /* since 1.0 */
  void (*reply_integer)(plinth_call_t* call, int64_t v);
  /* since 1.0: OWNERSHIP: copied. */
  void (*reply_bulk)(plinth_call_t* call, const char* s, size_t len);
  /* since 1.0: the null bulk string. */
  void (*reply_null)(plinth_call_t* call);
  /* since 1.0: the null array (RESP2 *-1). */
  void (*reply_null_array)(plinth_call_t* call);
  /* since 1.0: header of an array of n elements; the next n replies are its elements. */
  void (*reply_array)(plinth_call_t* call, int64_t n);
  /* since 1.0: header of a map of n pairs (a flat array of 2n in RESP2). */
  void (*reply_map)(plinth_call_t* call, int64_t n);
  /* since 1.0: header of a set of n elements (an array in RESP2). */
  void (*reply_set)(plinth_call_t* call, int64_t n);
  /* since 1.0: a double (a bulk string in RESP2). */
  void (*reply_double)(plinth_call_t* call, double v);
  /* since 1.0: a boolean (integer 0/1 in RESP2). */
  void (*reply_bool)(plinth_call_t* call, int32_t v);
  /* since 1.0: verbatim text with a 3-letter format (a bulk in RESP2). OWNERSHIP: copied. */
  void (*reply_verbatim)(plinth_call_t* call, const char* format, const char* s, size_t len);
  /* since 1.0: a big number in decimal digits (a bulk in RESP2). OWNERSHIP: copied. */
  void (*reply_bignum)(plinth_call_t* call, const char* digits, size_t len);
  /* since 1.0: the string value v as a bulk, possibly by reference. OWNERSHIP: the host takes
   * its own reference; the caller keeps its own. */
  void (*reply_value)(plinth_call_t* call, const plinth_value_t* v);
  /* since 1.0: a bulk that references s without copying; release(arg) is called exactly once
   * when it is no longer needed. OWNERSHIP: s stays the caller's until release. */
  void (*reply_bulk_ref)(plinth_call_t* call, const char* s, size_t len, plinth_release_fn release,
                         void* arg);

  /* -- values (refcounted) -- */

  /* since 1.0: a new string value with refcount 1. OWNERSHIP: bytes copied; the caller owns
   * the reference. NULL when out of memory. THREAD: any. */
  plinth_value_t* (*value_create_string)(const char* s, size_t len);
  /* since 1.0: a value of a plugin type. OWNERSHIP: payload moves into the value and is freed
   * with the type's free_payload. NULL when type is not one of this host's. THREAD: main. */
  plinth_value_t* (*value_create_typed)(plinth_plugin_t* self, uint32_t type, void* payload);
  /* since 1.0: +1 reference. THREAD: any. */
  void (*value_retain)(const plinth_value_t* v);
  /* since 1.0: -1 reference; frees the value at zero. THREAD: any. */
  void (*value_release)(const plinth_value_t* v);
  /* since 1.0: PLINTH_TYPE_* or a registered id. THREAD: any. */
  uint32_t (*value_type)(const plinth_value_t* v);
  /* since 1.0: bytes of a string value (NULL for other types). OWNERSHIP: borrowed while the
   * caller holds a reference. THREAD: any. */
  const char* (*value_string)(const plinth_value_t* v, size_t* len);
  /* since 1.0: payload of a plugin-typed value, for reading only (change it through
   * key_payload_mut). OWNERSHIP: borrowed while the caller holds a reference or, for key_get's
   * value, until the key is modified. THREAD: main. */
  const void* (*value_payload)(const plinth_value_t* v);
  /* since 1.0: the name TYPE reports for a type id ("string", "none", a plugin type's name).
   * OWNERSHIP: the host's, valid while the type's plugin is loaded. THREAD: main. */
  const char* (*type_name)(plinth_plugin_t* self, uint32_t type);
  /* since 1.0: PLINTH_ENC_*. THREAD: main. */
  int32_t (*value_encoding)(const plinth_value_t* v);
  /* since 1.0: bytes used by the value (header and payload). THREAD: main. */
  size_t (*value_memory)(const plinth_value_t* v);

  /* -- keys in the call's database (THREAD: main) -- */

  /* since 1.0: the live value under key, or NULL (an expired key is deleted first).
   * OWNERSHIP: borrowed until the key is modified or the handler returns. */
  const plinth_value_t* (*key_get)(plinth_call_t* call, const char* key, size_t klen);
  /* since 1.0: stores v under key, replacing any value; clears the TTL unless
   * PLINTH_SET_KEEPTTL. OWNERSHIP: consumes the caller's reference to v. */
  int32_t (*key_set)(plinth_call_t* call, const char* key, size_t klen, plinth_value_t* v,
                     uint32_t flags);
  /* since 1.0: removes key. Returns 1 if it existed, else 0. */
  int32_t (*key_delete)(plinth_call_t* call, const char* key, size_t klen);
  /* since 1.0: absolute expiry in unix ms; -1 no TTL; -2 no such key. */
  int64_t (*key_expire_get)(plinth_call_t* call, const char* key, size_t klen);
  /* since 1.0: sets the absolute expiry (unix ms; a past time deletes the key) or, with -1,
   * removes it. Returns 1 if the key exists, else 0. */
  int32_t (*key_expire_set)(plinth_call_t* call, const char* key, size_t klen, int64_t when_ms);
  /* since 1.0: moves src to dst in db dst_db (-1: the call's db), keeping the TTL. With nx, fails
   * when dst exists (PLINTH_MOVE_* flags). Returns 1 moved, 0 dst exists (NX, or COPY without
   * REPLACE), -1 no src, -3 when dst_db is out of range. Moving a key onto
   * itself in the same db returns 1 and changes nothing. */
  int32_t (*key_move)(plinth_call_t* call, const char* src, size_t slen, const char* dst,
                      size_t dlen, int32_t dst_db, uint32_t flags);
  /* since 1.0: visits up to count buckets' worth of keys from cursor; returns the next cursor
   * (0 when done). A key present for the whole scan is visited at least once. */
  uint64_t (*key_scan)(plinth_call_t* call, uint64_t cursor, uint64_t count,
                       plinth_key_visit_fn visit, void* arg);
  /* since 1.0: a random live key into visit, or none if the db is empty. Returns 1 or 0. */
  int32_t (*key_random)(plinth_call_t* call, plinth_key_visit_fn visit, void* arg);
  /* since 1.0: number of keys in the call's db (expired ones not yet removed included). */
  uint64_t (*db_size)(plinth_call_t* call);
  /* since 1.0: empties db (-1: every db). async frees values off the main thread. */
  void (*db_flush)(plinth_call_t* call, int32_t db, int32_t async);
  /* since 1.0: swaps two databases. PLINTH_ERR if an index is out of range. */
  int32_t (*db_swap)(plinth_call_t* call, int32_t a, int32_t b);
  /* since 1.0: the call's database index. */
  int32_t (*db_current)(plinth_call_t* call);
  /* since 1.0: number of databases ("databases" option). */
  int32_t (*db_count)(plinth_call_t* call);

  /* -- propagation -- */

  /* since 1.0: appends command argv[0..argc) to the propagation stream in place of the
   * verbatim command (which then is not sent, unless replicate_verbatim asks for it). Checks
   * that command exists (any case), that its arity fits argc + 1 and that every argument is
   * present, unless flags has PLINTH_REPLICATE_NO_VALIDATE (nothing checked: the caller vouches
   * for the input; the stream stays well formed whatever it is). Allocates nothing beyond the
   * stream's own growth. Everything one call emits is one unit: two effects or more reach
   * replicas and the AOF wrapped in MULTI ... EXEC. Returns PLINTH_OK or PLINTH_ERR (nothing
   * appended). OWNERSHIP: copied. THREAD: main. */
  int32_t (*replicate)(plinth_call_t* call, uint32_t flags, const char* command, int32_t argc,
                       const char* const* argv, const size_t* argvlen);
  /* since 1.0: the command changed nothing worth propagating (suppresses verbatim). */
  void (*call_no_propagate)(plinth_call_t* call);

  /* -- the calling client (THREAD: main) -- */

  /* since 1.0: the client's id; 0 when the call has no client (fake host, replication). */
  uint64_t (*client_id)(plinth_call_t* call);
  /* since 1.0: switches the client's database. PLINTH_ERR when out of range. */
  int32_t (*client_select)(plinth_call_t* call, int32_t db);
  /* since 1.0: the client's protocol version (2 or 3). */
  int32_t (*client_protocol)(plinth_call_t* call);
  /* since 1.0: sets it, effective from this call's reply. */
  int32_t (*client_set_protocol)(plinth_call_t* call, int32_t version);
  /* since 1.0: sets PLINTH_CLIENT_* text attribute. OWNERSHIP: copied. */
  int32_t (*client_attr_set)(plinth_call_t* call, uint32_t attr, const char* v, size_t len);
  /* since 1.0: reads it into *len; NULL when unset. OWNERSHIP: borrowed until changed. */
  const char* (*client_attr_get)(plinth_call_t* call, uint32_t attr, size_t* len);
  /* since 1.0: is the client authenticated (or no password is configured)? */
  int32_t (*client_authenticated)(plinth_call_t* call);
  /* since 1.0: marks the client authenticated (1) or not (0). */
  void (*client_set_authenticated)(plinth_call_t* call, int32_t yes);
  /* since 1.0: closes the connection after this call's reply is written (QUIT). */
  void (*client_close_after_reply)(plinth_call_t* call);
  /* since 1.0: emits one CLIENT LIST line per client (id 0: all, else only that id). */
  void (*client_describe)(plinth_call_t* call, uint64_t id, plinth_emit_fn emit, void* arg);
  /* since 1.0: closes clients matching the PLINTH_KILL_* filter; returns how many. A client
   * killing itself is closed after this reply. */
  int64_t (*client_kill)(plinth_call_t* call, uint32_t filter, const char* v, size_t len);

  /* -- server (THREAD: main) -- */

  /* since 1.0: renders INFO sections (text, CRLF lines). section: "" default, "all",
   * "everything" or a name. Emits the whole text once. */
  void (*info_render)(plinth_call_t* call, const char* section, size_t len, plinth_emit_fn emit,
                      void* arg);
  /* since 1.0: emits name then value for each option matching the glob pattern. */
  void (*config_get)(plinth_call_t* call, const char* pattern, size_t len, plinth_emit_fn emit,
                     void* arg);
  /* since 1.0: sets a mutable option. On failure returns PLINTH_ERR with a reason in err. */
  int32_t (*config_set)(plinth_call_t* call, const char* name, size_t nlen, const char* value,
                        size_t vlen, char* err, size_t errlen);
  /* since 1.0: resets the statistics (CONFIG RESETSTAT). */
  void (*stats_reset)(plinth_call_t* call);
  /* since 1.0: number of commands. */
  int32_t (*command_count)(plinth_call_t* call);
  /* since 1.0: the i-th command's spec (0 <= i < command_count). OWNERSHIP: borrowed. */
  const plinth_command_spec_t* (*command_at)(plinth_call_t* call, int32_t i);
  /* since 1.0: the spec of a command by name (any case), or NULL. OWNERSHIP: borrowed. */
  const plinth_command_spec_t* (*command_lookup)(plinth_call_t* call, const char* name, size_t len);
  /* since 1.0: number of loaded plugins. */
  int32_t (*plugin_count)(plinth_call_t* call);
  /* since 1.0: the i-th loaded plugin's descriptor and the path it came from. */
  const plinth_plugin_descriptor_t* (*plugin_at)(plinth_call_t* call, int32_t i, const char** path);
  /* since 1.0: stops the server after this call (SHUTDOWN). flags: PLINTH_SHUTDOWN_*. */
  void (*server_shutdown)(plinth_call_t* call, uint32_t flags);
  /* since 1.0: wall clock in microseconds since the unix epoch. THREAD: any. */
  int64_t (*time_us)(plinth_plugin_t* self);
  /* since 1.0: the call's cached command time in ms (stable within one command, like Redis's
   * mstime for expiry decisions). THREAD: main. */
  int64_t (*call_time_ms)(plinth_call_t* call);

  /* since 1.0: makes the string value under key writable in place and sizes it to newlen bytes
   * (bytes past the old length read as zero), for APPEND, SETRANGE and SETBIT. An absent key
   * gets an empty string first; the key's TTL is kept. A shared value (a reply being written
   * holds a reference) is copied first, so other holders never see it change. Growth is
   * amortised. Returns the bytes, or NULL when the key holds another type or memory ran out.
   * OWNERSHIP: the buffer belongs to the value; valid until the key is modified again or the
   * handler returns. THREAD: main. */
  char* (*key_string_resize)(plinth_call_t* call, const char* key, size_t klen, size_t newlen);
  /* since 1.0: stores a copy of s[0, len) as the string value under key, as key_set of a new
   * string value would (flags: PLINTH_SET_KEEPTTL, PLINTH_SET_NO_INT_ENCODING; the encoding is
   * a new string's), but
   * rewrites the stored value in place when it is a string nothing else holds with room for
   * len bytes and not much more, so INCR, or SET of a same-sized value, allocates nothing.
   * Returns PLINTH_OK, or PLINTH_ERR when memory ran out (the key unchanged). OWNERSHIP: s is
   * copied. THREAD: main. */
  int32_t (*key_string_set)(plinth_call_t* call, const char* key, size_t klen, const char* s,
                            size_t len, uint32_t flags);

  /* -- transports (THREAD: any) -- */

  /* since 1.0: reports PLINTH_CONN_* events of a connection whose transport has no pollable
   * descriptor; the host handles them on its own thread soon after. Repeated events coalesce
   * until handled. Never blocks. OWNERSHIP: none. THREAD: any, until the transport's close of
   * the connection returns. */
  void (*conn_notify)(plinth_conn_t* conn, uint32_t events);
  /* since 1.0: for a PLINTH_TRANSPORT_HOLDS_BUFFERS transport: the first "total" bytes writev
   * took on this connection (counted from its first write) are no longer needed, so the host
   * may free the buffers that held them. total never decreases. Never blocks. OWNERSHIP:
   * none. THREAD: any, until the transport's close of the connection returns. */
  void (*conn_released)(plinth_conn_t* conn, uint64_t total);

  /* -- transactions and key signals (THREAD: main) -- */

  /* since 1.0: resets the host's state of the calling client as RESET does: ends its MULTI,
   * dropping what it queued, unwatches every key, and tells the client listeners
   * PLINTH_CLIENT_RESET (the pub/sub plugin drops its subscriptions). OWNERSHIP: none.
   * THREAD: main. */
  void (*client_reset)(plinth_call_t* call);
  /* since 1.0: signals that key in the call's database changed without a key_* write (a
   * plugin type's payload mutated in place), so WATCH sees it. The host's key_* writes signal
   * by themselves. OWNERSHIP: key borrowed for the call. THREAD: main. */
  void (*key_touched)(plinth_call_t* call, const char* key, size_t klen);

  /* -- value types (THREAD: main) -- */

  /* since 1.0: the payload of the value under key, writable, when it is of type type (a
   * registered id): a value something else also holds (COPY's other key, a reply, a plugin's
   * reference) is first replaced under key by the type's copy, keeping the TTL, so no other
   * holder sees it change. Signals the key modified (WATCH) as key_touched does. Returns NULL
   * when the key is absent or holds another type, or the copy ran out of memory (the key is
   * unchanged). OWNERSHIP: the value's; valid until the key is next modified or the handler
   * returns. THREAD: main. */
  void* (*key_payload_mut)(plinth_call_t* call, const char* key, size_t klen, uint32_t type);
  /* since 1.0: OBJECT ENCODING's name of v: "int", "embstr" or "raw" for a string, the type's
   * encoding callback for a plugin type. OWNERSHIP: static. THREAD: main. */
  const char* (*value_encoding_name)(const plinth_value_t* v);
  /* since 1.0: key_delete that frees a large value (its type's free_effort over 64) on the
   * lazy-free thread instead of now (UNLINK). Returns 1 if the key existed, else 0. THREAD:
   * main. */
  int32_t (*key_unlink)(plinth_call_t* call, const char* key, size_t klen);

  /* -- keyspace events (THREAD: main) -- */

  /* since 1.0: raises a keyspace event (Redis's names: "hset", "lpush", "del", ...) of class
   * type (one PLINTH_NOTIFY_* class bit) on key in the call's database; every registered
   * listener hears it. OWNERSHIP: borrowed for the call. THREAD: main. */
  void (*keyspace_event)(plinth_call_t* call, uint32_t type, const char* event, const char* key,
                         size_t klen);
  /* since 1.0: adds a listener of keyspace events (the pub/sub plugin's notifications).
   * OWNERSHIP: ctx must outlive the plugin. THREAD: main, init only. */
  int32_t (*keyspace_listener_register)(plinth_plugin_t* self, plinth_keyspace_listener_fn fn,
                                        void* ctx);

  /* -- blocking commands (THREAD: main) -- */

  /* since 1.0: blocks the calling client on keys of the call's database instead of replying
   * now, for at most timeout_ms (0: no limit). The client runs nothing else meanwhile (its
   * later pipelined commands wait). The host runs the same command again, with the same
   * arguments: with call_block_state PLINTH_BLOCK_WOKEN after a command that signalled one of
   * the keys ready (key_signal_ready, or a key_set or key_move that created it) has finished,
   * clients blocked on a key served in the order they blocked; with PLINTH_BLOCK_TIMEOUT when
   * the timeout passed (the handler replies its timeout reply and must not block). A woken run
   * that calls call_block again stays blocked, keeping its place and deadline. Returns
   * PLINTH_OK (the handler must not reply), or PLINTH_ERR when this call cannot block (inside
   * MULTI, a call without a client, nkeys < 0): the handler replies as on timeout. With nkeys
   * 0 the client waits on no key: only client_wake (WAIT's acknowledgements) or the timeout
   * runs it again.
   * OWNERSHIP: keys copied. THREAD: main. */
  int32_t (*call_block)(plinth_call_t* call, int32_t nkeys, const char* const* keys,
                        const size_t* klens, int64_t timeout_ms);
  /* since 1.0: why this run happens: PLINTH_BLOCK_NONE, _WOKEN or _TIMEOUT. THREAD: main. */
  int32_t (*call_block_state)(plinth_call_t* call);
  /* since 1.0: key in the call's database may now satisfy clients blocked on it (an XADD to an
   * existing stream). Creating a key signals it by itself. Cheap when nobody waits on it.
   * OWNERSHIP: key borrowed for the call. THREAD: main. */
  void (*key_signal_ready)(plinth_call_t* call, const char* key, size_t klen);

  /* -- pub/sub: other clients (THREAD: main) -- */

  /* since 1.0: sends one complete reply to client client_id outside its commands (a pub/sub
   * message): items in the order a handler emits them (an aggregate's header, then its
   * elements), encoded for that client's protocol (PLINTH_REPLY_PUSH is an array in RESP2) and
   * queued after its pending output, within its output buffer limits (the pubsub class while it
   * subscribes). Returns PLINTH_OK, or PLINTH_ERR when there is no such client or the items are
   * not one complete reply. OWNERSHIP: items and their data copied. THREAD: main. */
  int32_t (*client_push)(plinth_plugin_t* self, uint64_t client_id,
                         const plinth_reply_item_t* items, size_t n);
  /* since 1.0: records how many channels and patterns the calling client subscribes to (the
   * pub/sub plugin keeps the subscriptions themselves). While their sum is above 0 a RESP2
   * client may run only PLINTH_CMD_SUBSCRIBER commands, its output limits are the pubsub class,
   * and CLIENT LIST shows sub=, psub= and flag P. THREAD: main. */
  void (*client_set_subscriptions)(plinth_call_t* call, int64_t channels, int64_t patterns);
  /* since 1.0: the calling client's channels plus patterns (PING's subscriber form). */
  int64_t (*client_subscriptions)(plinth_call_t* call);
  /* since 1.0: adds a listener of client events (PLINTH_CLIENT_*). OWNERSHIP: ctx must outlive
   * the plugin. THREAD: main, init only. */
  int32_t (*client_listener_register)(plinth_plugin_t* self, plinth_client_event_fn fn, void* ctx);
  /* since 1.0: header of a push of n elements (RESP3 >; an array in RESP2), for replies that
   * are pub/sub notices (SUBSCRIBE's confirmation). THREAD: main. */
  void (*reply_push)(plinth_call_t* call, int64_t n);
  /* since 1.0: visits every member of v through its type's visit callback. Returns PLINTH_OK,
   * or PLINTH_ERR (nothing visited) when v is a string or its type has no visit. OWNERSHIP: v
   * borrowed. THREAD: main. */
  int32_t (*value_visit)(const plinth_value_t* v, plinth_member_fn fn, void* arg);

  /* -- persistence: the stream, the keyspace outside a command, loading -- */

  /* since 1.0: the propagation stream's offset: the bytes appended since the server started
   * (delivered or not). THREAD: main. */
  uint64_t (*stream_offset)(plinth_plugin_t* self);
  /* since 1.0: the next effect appended starts with a SELECT of its database even when the
   * stream is already in it (a consumer starting a new file or link). THREAD: main. */
  void (*stream_reselect)(plinth_plugin_t* self);
  /* since 1.0: whether the plugin's stream consumers hear batches (on_batch): on by default.
   * The host encodes the stream only while some consumer is on, so a plugin with nothing to
   * do (appendonly no, no replicas) turns itself off and costs writes nothing. THREAD: main. */
  void (*stream_consumer_active)(plinth_plugin_t* self, int32_t on);
  /* since 1.0: runs fn(ctx) each time the host is about to write replies or to wait for
   * events, after the stream's pending batch went to its consumers (appendfsync always makes it
   * durable here). Keep it cheap when there is nothing to do. OWNERSHIP: ctx must outlive the
   * plugin. THREAD: main, init only. */
  int32_t (*before_sleep_register)(plinth_plugin_t* self, plinth_task_fn fn, void* ctx);
  /* since 1.0: visits every key of database db, expired ones included, in no set order, until
   * fn returns non-zero. Nothing may change the keyspace during the visit. Returns PLINTH_OK,
   * or PLINTH_ERR for a bad db or when fn stopped the visit. OWNERSHIP: see
   * plinth_db_visit_fn. THREAD: main, or a child process forked from it (a snapshot). */
  int32_t (*db_visit)(plinth_plugin_t* self, int32_t db, plinth_db_visit_fn fn, void* arg);
  /* since 1.0: keys in database db (0 for a bad db), and in *expires (may be NULL) how many
   * have a time to live. THREAD: main, or a forked child. */
  uint64_t (*db_keys)(plinth_plugin_t* self, int32_t db, uint64_t* expires);
  /* since 1.0: number of databases ("databases" option). THREAD: main, or a forked child. */
  int32_t (*db_total)(plinth_plugin_t* self);
  /* since 1.0: writes a collection value in its type's plain RDB form through io, its form's
   * PLINTH_RDB_* id in *rdb_type first (0 for a type with no Redis form). Returns PLINTH_OK, or
   * PLINTH_ERR when v is a string, its type has no rdb_save, or io failed. OWNERSHIP: v
   * borrowed. THREAD: main, or a forked child. */
  int32_t (*value_rdb_save)(const plinth_value_t* v, plinth_rdb_io_t* io, uint32_t* rdb_type);
  /* since 1.0: a new value read from the plain RDB form rdb_type through io by the type that
   * registered that form, or NULL when no loaded type did, or the input is malformed.
   * OWNERSHIP: the caller owns the value (its one reference). THREAD: main. */
  plinth_value_t* (*value_rdb_load)(plinth_plugin_t* self, uint32_t rdb_type, plinth_rdb_io_t* io);
  /* since 1.0: stores v under key in database db outside any command (loading a snapshot),
   * with an absolute expiry in Unix ms (-1: none), raising no event and propagating nothing.
   * Returns PLINTH_OK, or PLINTH_ERR for a bad db or a key that exists. OWNERSHIP: takes the
   * caller's reference to v in every case. THREAD: main. */
  int32_t (*key_load)(plinth_plugin_t* self, int32_t db, const char* key, size_t klen,
                      plinth_value_t* v, int64_t expire_ms);
  /* since 1.0: empties every database outside any command (before loading a snapshot).
   * Propagates nothing. THREAD: main. */
  void (*db_flush_all)(plinth_plugin_t* self);
  /* since 1.0: a trusted client of the plugin's own that runs commands through the host's
   * dispatch as a network client would (its database, MULTI/EXEC), authenticated, never
   * blocked, refused by no loading state: for loading an append-only file, and for a replica
   * applying its primary's stream. flags: PLINTH_INTERNAL_*. Returns NULL when memory ran out.
   * OWNERSHIP: destroy it with client_destroy_internal. THREAD: main. */
  plinth_client_t* (*client_create_internal)(plinth_plugin_t* self, uint32_t flags);
  /* since 1.0: runs argv[0..argc) as client. Returns PLINTH_OK, or PLINTH_ERR when the reply
   * was an error (an unknown command, a wrong arity, the command's own error), its text (no
   * leading '-', NUL-terminated, cut to errlen) in err. OWNERSHIP: argv borrowed for the call.
   * THREAD: main. */
  int32_t (*client_exec)(plinth_client_t* client, int32_t argc, const char* const* argv,
                         const size_t* argvlen, char* err, size_t errlen);
  /* since 1.0: ends an internal client (discarding a transaction it left open). OWNERSHIP:
   * frees client. THREAD: main. */
  void (*client_destroy_internal)(plinth_client_t* client);
  /* since 1.0: while at least one plugin is loading (on 1 adds one, on 0 removes one),
   * clients' commands without PLINTH_CMD_LOADING are refused with -LOADING. A plugin that loads
   * in slices between loop turns keeps the server answering meanwhile. THREAD: main. */
  void (*server_set_loading)(plinth_plugin_t* self, int32_t on);
  /* since 1.0: whether some plugin is loading (server_set_loading). THREAD: main. */
  int32_t (*server_loading)(plinth_plugin_t* self);
  /* since 1.0: the flags of the shutdown under way (PLINTH_SHUTDOWN_NOSAVE or _SAVE from
   * SHUTDOWN, 0 for a signal), for a plugin's shutdown hook to decide whether to save.
   * THREAD: main. */
  uint32_t (*server_shutdown_flags)(plinth_plugin_t* self);
  /* since 1.0: keyspace changes since the server started (Redis's dirty counter: save points
   * and rdb_changes_since_last_save compare it). THREAD: main. */
  uint64_t (*server_dirty)(plinth_plugin_t* self);
  /* since 1.0: forks a child process for a snapshot (BGSAVE, an AOF rewrite). One child at a
   * time for the whole server: returns -1 with errno EBUSY while another plugin's (or this
   * one's) child runs, -1 with fork's errno when it fails, 0 in the child (which may read the
   * keyspace with db_visit, db_keys and value_* functions, then must _exit), and the child's
   * pid in the parent, which reaps it (waitpid) and then calls fork_done. THREAD: main. */
  int32_t (*fork_child)(plinth_plugin_t* self);
  /* since 1.0: the child fork_child made, pid, has ended and was reaped. THREAD: main. */
  void (*fork_done)(plinth_plugin_t* self, int32_t pid);
  /* since 1.0: the pid of the running snapshot child, 0 when none. THREAD: main. */
  int32_t (*fork_active)(plinth_plugin_t* self);
  /* since 1.0: the PLINTH_RDB_* plain form v's type saves (what value_rdb_save puts in
   * *rdb_type), 0 for a string or a type with no Redis form. OWNERSHIP: v borrowed. THREAD:
   * main, or a forked child. */
  uint32_t (*value_rdb_type)(const plinth_value_t* v);

  /* -- replication: the stream outside a command, replica clients, refusals -- */

  /* since 1.0: replicate() from outside a command (a plugin's timer, or work a plugin thread
   * handed to the loop with loop_post): appends command argv[0..argc) run in database db to the
   * stream as a unit of its own, validated as replicate() validates unless flags has
   * PLINTH_REPLICATE_NO_VALIDATE. Returns PLINTH_OK, or PLINTH_ERR (nothing appended) for a bad
   * db or invalid input. OWNERSHIP: copied. THREAD: main, outside any command handler. */
  int32_t (*replicate_db)(plinth_plugin_t* self, int32_t db, uint32_t flags, const char* command,
                          int32_t argc, const char* const* argv, const size_t* argvlen);
  /* since 1.0: the call's command goes to the stream as it was received, whether or not it
   * changed the keyspace and whatever its flags (Redis's ReplicateVerbatim), after what the
   * call emitted through replicate(). THREAD: main. */
  void (*replicate_verbatim)(plinth_call_t* call);
  /* since 1.0: the handler sends no reply at all (REPLCONF ACK, or a command that answered
   * with client_write_raw). THREAD: main. */
  void (*call_no_reply)(plinth_call_t* call);
  /* since 1.0: makes the calling client a replica link: CLIENT LIST flag S, CLIENT KILL TYPE
   * replica, its output under the replica class of client-output-buffer-limit, never closed
   * for idleness (the replication plugin watches it). THREAD: main. */
  void (*client_set_replica)(plinth_call_t* call);
  /* since 1.0: queues data as raw bytes (no protocol framing) after client_id's pending
   * output: a snapshot payload, the stream. Returns PLINTH_OK, or PLINTH_ERR when there is no
   * such client or the bytes took it past its output limits (it is then closed, and its
   * PLINTH_CLIENT_CLOSED event follows). OWNERSHIP: copied. THREAD: main. */
  int32_t (*client_write_raw)(plinth_plugin_t* self, uint64_t client_id, const char* data,
                              size_t len);
  /* since 1.0: bytes queued to client_id and not yet written, or -1 when there is no such
   * client. THREAD: main. */
  int64_t (*client_output_pending)(plinth_plugin_t* self, uint64_t client_id);
  /* since 1.0: closes client client_id once its pending output is written (at once when
   * now is non-zero). Returns PLINTH_OK, or PLINTH_ERR when there is no such client. THREAD:
   * main. */
  int32_t (*client_close)(plinth_plugin_t* self, uint64_t client_id, int32_t now);
  /* since 1.0: from now on, clients (never internal ones) get error ("CODE message") for the
   * commands in class what (PLINTH_REFUSE_*), refused before they run or are queued in MULTI;
   * a NULL error lifts this plugin's refusal of that class. Each plugin has its own refusal
   * per class; the first one set wins. OWNERSHIP: error copied. THREAD: main. */
  void (*server_refuse)(plinth_plugin_t* self, uint32_t what, const char* error);
  /* since 1.0: while on, keys expire only when the stream's source says so (a replica follows
   * its primary's DEL): no active expiry, and a client's read of a key past its expiry misses
   * without deleting it, while internal clients still see the key. THREAD: main. */
  void (*server_expiry_passive)(plinth_plugin_t* self, int32_t on);
  /* since 1.0: runs the command client client_id is blocked in (call_block with nkeys 0) again,
   * with call_block_state PLINTH_BLOCK_WOKEN, once the current command returns. Returns
   * PLINTH_OK, or PLINTH_ERR when that client is not blocked. THREAD: main. */
  int32_t (*client_wake)(plinth_plugin_t* self, uint64_t client_id);
  /* since 1.0: a random 40-character hex id of this server process (INFO run_id), NUL
   * terminated. OWNERSHIP: static. THREAD: any. */
  const char* (*server_run_id)(plinth_plugin_t* self);

  /* -- commands run by a plugin; scripts (THREAD: main) -- */

  /* since 1.0: runs command argv[0..argc) on behalf of the call's client, nested in this call,
   * as a script's redis.call does: in database db (-1: the call's), with the client's
   * authentication, in a session of its own (a SELECT there is not the caller's). Its effects
   * join the call's propagation unit (several go out as one MULTI/EXEC); it runs whatever the
   * refusals in force allow (READONLY on a replica), and never blocks. Every item of its reply
   * goes to fn, a bulk by reference as a plain bulk. flags: PLINTH_RUN_*. Returns PLINTH_OK, or
   * PLINTH_ERR when the reply is an error (an unknown command, a wrong arity, a refusal, the
   * command's own error; fn heard it). OWNERSHIP: argv borrowed for the call. THREAD: main. */
  int32_t (*call_command)(plinth_call_t* call, uint32_t flags, int32_t db, int32_t argc,
                          const char* const* argv, const size_t* argvlen, plinth_reply_fn fn,
                          void* arg);
  /* since 1.0: lets the server serve other clients while this call runs long (a script past
   * busy-reply-threshold): reads what they sent, runs PLINTH_CMD_ALLOW_BUSY commands, answers
   * every other command with error ("BUSY ..."), and writes replies; the calling client's own
   * input waits. Call it every few milliseconds; it returns at once when nothing is ready.
   * OWNERSHIP: error borrowed for the call. THREAD: main, inside the handler. */
  void (*call_yield)(plinth_call_t* call, const char* error, size_t len);
  /* since 1.0: whether a shutdown was asked for (SHUTDOWN, a signal) and waits for the running
   * command to end: a script stops at once. THREAD: main. */
  int32_t (*server_stopping)(plinth_plugin_t* self);

  /* -- memory (maxmemory and its policies) -- */

  /* since 1.0: what eviction knows of key's use in the call's database, without touching it:
   * PLINTH_KEY_IDLE_MS, milliseconds since its last access (one-second resolution), tracked
   * under every maxmemory-policy but the LFU ones; PLINTH_KEY_FREQ, its logarithmic access
   * counter (0..255, decayed to now), tracked under the LFU policies. Returns 1 with *out, 0
   * when the key does not exist, PLINTH_ERR when the policy in force does not track what.
   * OWNERSHIP: key borrowed. THREAD: main. */
  int32_t (*key_access)(plinth_call_t* call, const char* key, size_t len, uint32_t what,
                        int64_t* out);
  /* since 1.0: the memory report what asks for: PLINTH_MEMORY_STATS emits "name:value" lines
   * (MEMORY STATS's fields; "db.N.name:value" per database with keys), PLINTH_MEMORY_MALLOC_STATS
   * the allocator's own text, PLINTH_MEMORY_PURGE returns the allocator's free pages to the
   * system and emits nothing. Returns PLINTH_ERR for an unknown what. OWNERSHIP: what emit gets
   * is borrowed for that call. THREAD: main. */
  int32_t (*memory_report)(plinth_plugin_t* self, uint32_t what, plinth_emit_fn emit, void* arg);

  /* -- command observers (THREAD: main) -- */
  /* since 1.0: adds an observer that hears every command that ran for at least min_us
   * microseconds (0: every command; below 0: none until command_observer_set). Returns its id
   * (0 or more) or PLINTH_ERR. While no observer listens, commands pay one comparison.
   * OWNERSHIP: ctx must outlive the plugin. THREAD: main, init only. */
  int64_t (*command_observer_register)(plinth_plugin_t* self, plinth_command_observer_fn fn,
                                       void* ctx, int64_t min_us);
  /* since 1.0: changes observer id's threshold (below 0: it hears nothing). Returns PLINTH_OK,
   * or PLINTH_ERR when id is not one of this plugin's observers. OWNERSHIP: none.
   * THREAD: main. */
  int32_t (*command_observer_set)(plinth_plugin_t* self, int64_t id, int64_t min_us);

  /* since 1.0: this plugin's pause of clients (CLIENT PAUSE, FAILOVER): until end_ms (unix
   * milliseconds) the host holds the commands what names (PLINTH_PAUSE_WRITE: those flagged
   * WRITE or MAY_REPLICATE, and an EXEC that queued one; PLINTH_PAUSE_ALL: all) of every client
   * but replicas and internal clients, each client's in its order, and runs them once no
   * plugin's pause holds them. A later call replaces this plugin's pause; PLINTH_PAUSE_NONE ends
   * it. Returns PLINTH_OK, or PLINTH_ERR for an unknown what. OWNERSHIP: none. THREAD: main. */
  int32_t (*clients_pause)(plinth_plugin_t* self, uint32_t what, int64_t end_ms);

  /* -- commands as data, and access control (THREAD: main) -- */
  /* since 1.0: how many command ids there are (commands and subcommands): ids run from 0 to
   * one less. OWNERSHIP: none. */
  int32_t (*command_ids)(plinth_plugin_t* self);
  /* since 1.0: fills *out with command id's facts. Returns PLINTH_OK, or PLINTH_ERR for an id
   * no command has. OWNERSHIP: out's strings are the host's, valid while the server runs. */
  int32_t (*command_info)(plinth_plugin_t* self, int32_t id, plinth_command_info_t* out);
  /* since 1.0: the id of the command named name in any case ("get", "config|get"), or -1.
   * OWNERSHIP: name borrowed. */
  int32_t (*command_find)(plinth_plugin_t* self, const char* name, size_t len);
  /* since 1.0: the keys and channels argv would touch (argv[0] names the command), in argument
   * order, into out (room for argc refs), and the id of what runs it into *command_id (the
   * subcommand's when argv[1] names one). Returns their count, or PLINTH_ERR for an unknown
   * command or an argc its arity refuses. OWNERSHIP: all borrowed. */
  int32_t (*command_keys)(plinth_plugin_t* self, int32_t argc, const char* const* argv,
                          const size_t* argvlen, plinth_key_ref_t* out, int32_t* command_id);
  /* since 1.0: makes this plugin the ACL provider (at most one). The host copies *provider.
   * Returns PLINTH_OK, or PLINTH_ERR when another plugin is one. OWNERSHIP: ctx must outlive the
   * plugin. THREAD: main, init only. */
  int32_t (*acl_provider_register)(plinth_plugin_t* self, const plinth_acl_provider_t* provider);
  /* since 1.0: the clients authenticated as user_id (the default user: every client that has
   * not authenticated) now are restricted or not; close non-zero closes them instead (a
   * deleted user). For the default user, needs_auth says whether new clients must authenticate
   * first. The provider calls it whenever a user's rules change. OWNERSHIP: none. */
  void (*acl_user_update)(plinth_plugin_t* self, uint64_t user_id, int32_t restricted,
                          int32_t close, int32_t needs_auth);
  /* since 1.0: the provider's default user: the user of every client before it authenticates.
   * OWNERSHIP: none. THREAD: main, init only. */
  void (*acl_default_user)(plinth_plugin_t* self, uint64_t user_id, int32_t restricted,
                           int32_t needs_auth);
  /* since 1.0: authenticates the calling client (AUTH, HELLO): through the provider, or
   * without one against requirepass (user NULL or "default"). Returns PLINTH_OK; PLINTH_ERR
   * when refused, the client staying as it was; PLINTH_AUTH_NOPASS when user is NULL and the
   * default user has no password (AUTH's "called without any password configured").
   * OWNERSHIP: all borrowed. */
  int32_t (*client_authenticate)(plinth_call_t* call, const char* user, size_t ulen,
                                 const char* pass, size_t plen);
  /* since 1.0: the calling client's user id (0 without a provider) and, into *name, its name
   * ("default" without a provider). OWNERSHIP: *name is the host's or the provider's, valid
   * until the user changes. */
  uint64_t (*client_user)(plinth_call_t* call, const char** name);
  /* since 1.0: whether the calling client's user may run argv (a command a plugin is about to
   * run for it). Returns PLINTH_OK, or PLINTH_ERR after writing the "NOPERM ..." text or the
   * unknown-command error into err (errcap bytes). OWNERSHIP: all borrowed. */
  int32_t (*acl_check_command)(plinth_call_t* call, int32_t argc, const char* const* argv,
                               const size_t* argvlen, char* err, size_t errcap);
  /* since 1.0: whether the calling client's user may touch key (flags: PLINTH_KEY_*). Returns
   * PLINTH_OK or PLINTH_ERR. OWNERSHIP: key borrowed. */
  int32_t (*acl_check_key)(plinth_call_t* call, const char* key, size_t len, uint32_t flags);

  /* -- debugging and the config file (THREAD: main) -- */
  /* since 1.0: turns the host's active expiry cycle off (0) or back on (non-zero; the default),
   * as DEBUG SET-ACTIVE-EXPIRE does: while off, a key past its expiry goes only when a command
   * reads it (or, on a replica, by its primary's DEL). OWNERSHIP: none. THREAD: main. */
  void (*server_active_expire)(plinth_plugin_t* self, int32_t on);
  /* since 1.0: writes the options back to the config file the server started with (CONFIG
   * REWRITE): the options the file names get their current values, other options that differ
   * from their defaults are added, the rest of the file (its plugin list) is kept; the new file
   * replaces the old one atomically and keeps its permissions. Returns PLINTH_OK, or PLINTH_ERR
   * with the reason (NUL-terminated, cut to errlen) in err: "The server is running without a
   * config file" when it has none. OWNERSHIP: err is the caller's. THREAD: main. */
  int32_t (*config_rewrite)(plinth_call_t* call, char* err, size_t errlen);

  /* -- key changes and other clients' state (THREAD: main) -- */
  /* since 1.0: adds a listener of every key change (plinth_key_change_fn), off until
   * key_change_listener_set turns it on. Returns its id (0 or more) or PLINTH_ERR. While no
   * listener is on, a change pays one comparison. OWNERSHIP: ctx must outlive the plugin.
   * THREAD: main, init only. */
  int64_t (*key_change_listener_register)(plinth_plugin_t* self, plinth_key_change_fn fn,
                                          void* ctx);
  /* since 1.0: turns listener id on (on non-zero) or off. Returns PLINTH_OK, or PLINTH_ERR when
   * id is not one of this plugin's listeners. OWNERSHIP: none. THREAD: main. */
  int32_t (*key_change_listener_set)(plinth_plugin_t* self, int64_t id, int32_t on);
  /* since 1.0: fact what (PLINTH_CLIENT_INFO_*) of client client_id, or -1 when there is no
   * such client (or it is closing) or what is unknown. OWNERSHIP: none. THREAD: main. */
  int64_t (*client_info_int)(plinth_plugin_t* self, uint64_t client_id, uint32_t what);

  /* since 1.0: whether a user is named name: the provider's, or without one only "default"
   * (CLIENT KILL USER). Returns 1 or 0. OWNERSHIP: name borrowed. THREAD: main. */
  int32_t (*acl_user_exists)(plinth_plugin_t* self, const char* name, size_t len);
};

/* PLINTH_HAS(api, fn): non-zero when the host's table has field fn (it is new enough). */
#define PLINTH_HAS(api, fn)                                                                      \
  ((api) != NULL && (api)->struct_size >= offsetof(plinth_host_api_t, fn) + sizeof((api)->fn) && \
   (api)->fn != NULL)

/* The entry symbol a plugin defines (PLINTH_PLUGIN in plugin.hpp does it for C++). */
PLINTH_EXPORT const plinth_plugin_descriptor_t* plinth_plugin_entry_v1(void);

#ifdef __cplusplus
}
#endif

#endif /* PLINTH_PLUGIN_H */
