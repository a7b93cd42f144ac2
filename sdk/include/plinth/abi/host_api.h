/*
 * plinth/abi/host_api.h - the plugin C ABI (plinth/plugin.h includes every part):
 * the host API table: everything a plugin can do.
 */
#ifndef PLINTH_ABI_HOST_API_H
#define PLINTH_ABI_HOST_API_H

#include "plinth/abi/acl.h"
#include "plinth/abi/commands.h"
#include "plinth/abi/events.h"
#include "plinth/abi/options.h"
#include "plinth/abi/protocol.h"
#include "plinth/abi/reply_path.h"
#include "plinth/abi/stream.h"
#include "plinth/abi/transport.h"
#include "plinth/abi/types.h"

#ifdef __cplusplus
extern "C" {
#endif

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
  /* since 1.0: the host's allocator (tcmalloc in normal builds). Returns NULL on failure.
   * OWNERSHIP: the caller owns the block; free it with mem_free. THREAD: any. */
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
  /* since 1.0: adds a value type. Returns its id (>= 16) or 0. OWNERSHIP: spec and its name
   * copied. THREAD: main, init only. */
  uint32_t (*type_register)(plinth_plugin_t* self, const plinth_type_spec_t* spec);

  /* -- options and info (THREAD: main) -- */

  /* since 1.0: the handle of a registered option by its full name ("port", "tcp.backlog"), or
   * NULL. Look it up once (at init or first use) and keep it. OWNERSHIP: the host's, valid
   * while its owner is loaded. THREAD: main. */
  const plinth_option_t* (*option_find)(plinth_plugin_t* self, const char* name);
  /* since 1.0: an option's current number: INT and MEMORY the value, BOOL 0/1, ENUM the index,
   * STRING 0. No lookup: a field read. OWNERSHIP: none. THREAD: main. */
  int64_t (*option_int)(const plinth_option_t* option);
  /* since 1.0: an option's current normalised text (NUL-terminated) and its length.
   * OWNERSHIP: borrowed until the option next changes. THREAD: main. */
  const char* (*option_string)(const plinth_option_t* option, size_t* len);
  /* since 1.0: adds one "name:value" field to an INFO section. OWNERSHIP: copied. THREAD:
   * main, inside the plinth_info_fn given info. */
  void (*info_field)(plinth_info_t* info, const char* name, const char* value, size_t len);
  /* since 1.0: adds an integer field. OWNERSHIP: name copied. THREAD: main, inside the
   * plinth_info_fn given info. */
  void (*info_field_int)(plinth_info_t* info, const char* name, int64_t value);

  /* -- timers and tasks -- */

  /* since 1.0: runs fn after ms, then every repeat_ms if non-zero. Returns a handle or NULL.
   * OWNERSHIP: stop it with timer_stop (also at shutdown). THREAD: main. */
  plinth_timer_t* (*timer_start)(plinth_plugin_t* self, uint64_t ms, uint64_t repeat_ms,
                                 plinth_timer_fn fn, void* arg);
  /* since 1.0: stops and frees a timer, one-shot ones that already fired included; its own
   * callback may call it. OWNERSHIP: frees timer. THREAD: main. */
  void (*timer_stop)(plinth_timer_t* timer);
  /* since 1.0: runs fn(arg) on the main loop soon. Returns PLINTH_OK or PLINTH_ERR when the
   * server is shutting down (fn is then never called). OWNERSHIP: arg stays the caller's; the
   * host only passes it to fn. THREAD: any. */
  int32_t (*loop_post)(plinth_plugin_t* self, plinth_task_fn fn, void* arg);
  /* since 1.0: adds a listening fd of a transport; the host accepts on it through the
   * transport's accept. OWNERSHIP: fd stays the transport's (its stop closes it); description
   * copied. THREAD: main (transport start). */
  int32_t (*listener_add)(plinth_plugin_t* self, int32_t transport_id, int32_t fd,
                          const char* description);

  /* -- the call: arguments -- */

  /* since 1.0: number of arguments, the command name included. OWNERSHIP: none. THREAD:
   * main. */
  int32_t (*call_argc)(plinth_call_t* call);
  /* since 1.0: argument i (0 is the command name) and its length. NULL if out of range.
   * OWNERSHIP: borrowed until the handler returns. THREAD: main. */
  const char* (*call_arg)(plinth_call_t* call, int32_t i, size_t* len);

  /* -- the call: replies (THREAD: main) -- */

  /* since 1.0: +text. OWNERSHIP: copied. THREAD: main. */
  void (*reply_simple)(plinth_call_t* call, const char* s, size_t len);
  /* since 1.0: -text; s is "CODE message" ("ERR syntax error"); counted in error stats.
   * OWNERSHIP: copied. THREAD: main. */
  void (*reply_error)(plinth_call_t* call, const char* s, size_t len);
  /* since 1.0: OWNERSHIP: none. THREAD: main. */
  void (*reply_integer)(plinth_call_t* call, int64_t v);
  /* since 1.0: OWNERSHIP: copied. THREAD: main. */
  void (*reply_bulk)(plinth_call_t* call, const char* s, size_t len);
  /* since 1.0: the null bulk string. OWNERSHIP: none. THREAD: main. */
  void (*reply_null)(plinth_call_t* call);
  /* since 1.0: the null array (RESP2 *-1). OWNERSHIP: none. THREAD: main. */
  void (*reply_null_array)(plinth_call_t* call);
  /* since 1.0: header of an array of n elements; the next n replies are its elements.
   * OWNERSHIP: none. THREAD: main. */
  void (*reply_array)(plinth_call_t* call, int64_t n);
  /* since 1.0: header of a map of n pairs (a flat array of 2n in RESP2). OWNERSHIP: none.
   * THREAD: main. */
  void (*reply_map)(plinth_call_t* call, int64_t n);
  /* since 1.0: header of a set of n elements (an array in RESP2). OWNERSHIP: none. THREAD:
   * main. */
  void (*reply_set)(plinth_call_t* call, int64_t n);
  /* since 1.0: a double (a bulk string in RESP2). OWNERSHIP: none. THREAD: main. */
  void (*reply_double)(plinth_call_t* call, double v);
  /* since 1.0: a boolean (integer 0/1 in RESP2). OWNERSHIP: none. THREAD: main. */
  void (*reply_bool)(plinth_call_t* call, int32_t v);
  /* since 1.0: verbatim text with a 3-letter format (a bulk in RESP2). OWNERSHIP: copied.
   * THREAD: main. */
  void (*reply_verbatim)(plinth_call_t* call, const char* format, const char* s, size_t len);
  /* since 1.0: a big number in decimal digits (a bulk in RESP2). OWNERSHIP: copied. THREAD:
   * main. */
  void (*reply_bignum)(plinth_call_t* call, const char* digits, size_t len);
  /* since 1.0: the string value v as a bulk, possibly by reference. OWNERSHIP: the host takes
   * its own reference; the caller keeps its own. THREAD: main. */
  void (*reply_value)(plinth_call_t* call, const plinth_value_t* v);
  /* since 1.0: a bulk that references s without copying; release(arg) is called exactly once
   * when it is no longer needed (at once when the reply is dropped). OWNERSHIP: s stays the
   * caller's until release. THREAD: main; release, any. */
  void (*reply_bulk_ref)(plinth_call_t* call, const char* s, size_t len, plinth_release_fn release,
                         void* arg);

  /* -- values (refcounted) -- */

  /* since 1.0: a new string value with refcount 1. OWNERSHIP: bytes copied; the caller owns
   * the reference. NULL when out of memory. THREAD: any. */
  plinth_value_t* (*value_create_string)(const char* s, size_t len);
  /* since 1.0: a value of a plugin type. OWNERSHIP: payload moves into the value and is freed
   * with the type's free_payload. NULL when type is not one of this host's. THREAD: main. */
  plinth_value_t* (*value_create_typed)(plinth_plugin_t* self, uint32_t type, void* payload);
  /* since 1.0: +1 reference. OWNERSHIP: the caller owns the new reference. THREAD: any. */
  void (*value_retain)(const plinth_value_t* v);
  /* since 1.0: -1 reference; frees the value at zero. OWNERSHIP: gives up one of the caller's
   * references. THREAD: any. */
  void (*value_release)(const plinth_value_t* v);
  /* since 1.0: PLINTH_TYPE_* or a registered id. OWNERSHIP: none. THREAD: any. */
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
  /* since 1.0: PLINTH_ENC_*. OWNERSHIP: none. THREAD: main. */
  int32_t (*value_encoding)(const plinth_value_t* v);
  /* since 1.0: bytes used by the value (header and payload). OWNERSHIP: none. THREAD: main. */
  size_t (*value_memory)(const plinth_value_t* v);

  /* -- keys in the call's database (THREAD: main) -- */

  /* since 1.0: the live value under key, or NULL (an expired key is deleted first).
   * OWNERSHIP: key borrowed; the value is borrowed until the key is modified or the handler
   * returns. THREAD: main. */
  const plinth_value_t* (*key_get)(plinth_call_t* call, const char* key, size_t klen);
  /* since 1.0: stores v under key, replacing any value; clears the TTL unless
   * PLINTH_SET_KEEPTTL. OWNERSHIP: key copied; consumes the caller's reference to v. THREAD:
   * main. */
  int32_t (*key_set)(plinth_call_t* call, const char* key, size_t klen, plinth_value_t* v,
                     uint32_t flags);
  /* since 1.0: removes key. Returns 1 if it existed, else 0. OWNERSHIP: key borrowed. THREAD:
   * main. */
  int32_t (*key_delete)(plinth_call_t* call, const char* key, size_t klen);
  /* since 1.0: absolute expiry in unix ms; -1 no TTL; -2 no such key. OWNERSHIP: key borrowed.
   * THREAD: main. */
  int64_t (*key_expire_get)(plinth_call_t* call, const char* key, size_t klen);
  /* since 1.0: sets the absolute expiry (unix ms; a past time deletes the key) or, with -1,
   * removes it. Returns 1 if the key exists, else 0. OWNERSHIP: key borrowed. THREAD: main. */
  int32_t (*key_expire_set)(plinth_call_t* call, const char* key, size_t klen, int64_t when_ms);
  /* since 1.0: moves src to dst in db dst_db (-1: the call's db), keeping the TTL. flags are
   * PLINTH_MOVE_*: NX fails when dst exists. Returns 1 moved, 0 dst exists (NX, or COPY without
   * REPLACE), -1 no src, -3 when dst_db is out of range. Moving a key onto
   * itself in the same db returns 1 and changes nothing. OWNERSHIP: src and dst borrowed.
   * THREAD: main. */
  int32_t (*key_move)(plinth_call_t* call, const char* src, size_t slen, const char* dst,
                      size_t dlen, int32_t dst_db, uint32_t flags);
  /* since 1.0: visits up to count buckets' worth of keys from cursor; returns the next cursor
   * (0 when done). A key present for the whole scan is visited at least once. OWNERSHIP: see
   * plinth_key_visit_fn; arg is the caller's. THREAD: main. */
  uint64_t (*key_scan)(plinth_call_t* call, uint64_t cursor, uint64_t count,
                       plinth_key_visit_fn visit, void* arg);
  /* since 1.0: a random live key into visit, or none if the db is empty. Returns 1 or 0.
   * OWNERSHIP: see plinth_key_visit_fn; arg is the caller's. THREAD: main. */
  int32_t (*key_random)(plinth_call_t* call, plinth_key_visit_fn visit, void* arg);
  /* since 1.0: number of keys in the call's db (expired ones not yet removed included).
   * OWNERSHIP: none. THREAD: main. */
  uint64_t (*db_size)(plinth_call_t* call);
  /* since 1.0: empties db (-1: every db). async frees values off the main thread. OWNERSHIP:
   * none. THREAD: main. */
  void (*db_flush)(plinth_call_t* call, int32_t db, int32_t async);
  /* since 1.0: swaps two databases. PLINTH_ERR if an index is out of range. OWNERSHIP: none.
   * THREAD: main. */
  int32_t (*db_swap)(plinth_call_t* call, int32_t a, int32_t b);
  /* since 1.0: the call's database index. OWNERSHIP: none. THREAD: main. */
  int32_t (*db_current)(plinth_call_t* call);
  /* since 1.0: number of databases ("databases" option). OWNERSHIP: none. THREAD: main. */
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
  /* since 1.0: the command changed nothing worth propagating (suppresses verbatim).
   * OWNERSHIP: none. THREAD: main. */
  void (*call_no_propagate)(plinth_call_t* call);

  /* -- the calling client (THREAD: main) -- */

  /* since 1.0: the client's id; 0 when the call has no client (fake host, replication).
   * OWNERSHIP: none. THREAD: main. */
  uint64_t (*client_id)(plinth_call_t* call);
  /* since 1.0: switches the client's database. PLINTH_ERR when out of range. OWNERSHIP: none.
   * THREAD: main. */
  int32_t (*client_select)(plinth_call_t* call, int32_t db);
  /* since 1.0: the client's protocol version (2 or 3). OWNERSHIP: none. THREAD: main. */
  int32_t (*client_protocol)(plinth_call_t* call);
  /* since 1.0: sets it, effective from this call's reply. OWNERSHIP: none. THREAD: main. */
  int32_t (*client_set_protocol)(plinth_call_t* call, int32_t version);
  /* since 1.0: sets PLINTH_CLIENT_* text attribute. OWNERSHIP: copied. THREAD: main. */
  int32_t (*client_attr_set)(plinth_call_t* call, uint32_t attr, const char* v, size_t len);
  /* since 1.0: reads it into *len; NULL when unset. OWNERSHIP: borrowed until changed. THREAD:
   * main. */
  const char* (*client_attr_get)(plinth_call_t* call, uint32_t attr, size_t* len);
  /* since 1.0: is the client authenticated (or no password is configured)? OWNERSHIP: none.
   * THREAD: main. */
  int32_t (*client_authenticated)(plinth_call_t* call);
  /* since 1.0: marks the client authenticated (1) or not (0). OWNERSHIP: none. THREAD: main. */
  void (*client_set_authenticated)(plinth_call_t* call, int32_t yes);
  /* since 1.0: closes the connection after this call's reply is written (QUIT). OWNERSHIP:
   * none. THREAD: main. */
  void (*client_close_after_reply)(plinth_call_t* call);
  /* since 1.0: emits one CLIENT LIST line per client (id 0: all, else only that id).
   * OWNERSHIP: see plinth_emit_fn; arg is the caller's. THREAD: main. */
  void (*client_describe)(plinth_call_t* call, uint64_t id, plinth_emit_fn emit, void* arg);
  /* since 1.0: closes clients matching the PLINTH_KILL_* filter; returns how many. A client
   * killing itself is closed after this reply. OWNERSHIP: v borrowed. THREAD: main. */
  int64_t (*client_kill)(plinth_call_t* call, uint32_t filter, const char* v, size_t len);

  /* -- server (THREAD: main) -- */

  /* since 1.0: renders INFO sections (text, CRLF lines). section: "" default, "all",
   * "everything" or a name. Emits the whole text once. OWNERSHIP: section borrowed; see
   * plinth_emit_fn. THREAD: main. */
  void (*info_render)(plinth_call_t* call, const char* section, size_t len, plinth_emit_fn emit,
                      void* arg);
  /* since 1.0: emits name then value for each option matching the glob pattern. OWNERSHIP:
   * pattern borrowed; see plinth_emit_fn. THREAD: main. */
  void (*config_get)(plinth_call_t* call, const char* pattern, size_t len, plinth_emit_fn emit,
                     void* arg);
  /* since 1.0: sets a mutable option. On failure returns PLINTH_ERR with a reason in err.
   * OWNERSHIP: name and value borrowed; err is the caller's (errlen bytes). THREAD: main. */
  int32_t (*config_set)(plinth_call_t* call, const char* name, size_t nlen, const char* value,
                        size_t vlen, char* err, size_t errlen);
  /* since 1.0: resets the statistics (CONFIG RESETSTAT). OWNERSHIP: none. THREAD: main. */
  void (*stats_reset)(plinth_call_t* call);
  /* since 1.0: number of commands. OWNERSHIP: none. THREAD: main. */
  int32_t (*command_count)(plinth_call_t* call);
  /* since 1.0: the i-th command's spec (0 <= i < command_count). OWNERSHIP: borrowed (the
   * host's copy). THREAD: main. */
  const plinth_command_spec_t* (*command_at)(plinth_call_t* call, int32_t i);
  /* since 1.0: the spec of a command by name (any case), or NULL. OWNERSHIP: name and the
   * result borrowed. THREAD: main. */
  const plinth_command_spec_t* (*command_lookup)(plinth_call_t* call, const char* name, size_t len);
  /* since 1.0: number of loaded plugins. OWNERSHIP: none. THREAD: main. */
  int32_t (*plugin_count)(plinth_call_t* call);
  /* since 1.0: the i-th loaded plugin's descriptor and the path it came from. OWNERSHIP: both
   * borrowed while that plugin is loaded. THREAD: main. */
  const plinth_plugin_descriptor_t* (*plugin_at)(plinth_call_t* call, int32_t i, const char** path);
  /* since 1.0: stops the server after this call (SHUTDOWN). flags: PLINTH_SHUTDOWN_*.
   * OWNERSHIP: none. THREAD: main. */
  void (*server_shutdown)(plinth_call_t* call, uint32_t flags);
  /* since 1.0: wall clock in microseconds since the unix epoch. OWNERSHIP: none. THREAD:
   * any. */
  int64_t (*time_us)(plinth_plugin_t* self);
  /* since 1.0: the call's cached command time in ms (stable within one command, like Redis's
   * mstime for expiry decisions). OWNERSHIP: none. THREAD: main. */
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
   * lazy-free thread instead of now (UNLINK). Returns 1 if the key existed, else 0.
   * OWNERSHIP: key borrowed. THREAD: main. */
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
  /* since 1.0: why this run happens: PLINTH_BLOCK_NONE, _WOKEN or _TIMEOUT. OWNERSHIP: none.
   * THREAD: main. */
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
   * and CLIENT LIST shows sub=, psub= and flag P. OWNERSHIP: none. THREAD: main. */
  void (*client_set_subscriptions)(plinth_call_t* call, int64_t channels, int64_t patterns);
  /* since 1.0: the calling client's channels plus patterns (PING's subscriber form).
   * OWNERSHIP: none. THREAD: main. */
  int64_t (*client_subscriptions)(plinth_call_t* call);
  /* since 1.0: adds a listener of client events (PLINTH_CLIENT_*). OWNERSHIP: ctx must outlive
   * the plugin. THREAD: main, init only. */
  int32_t (*client_listener_register)(plinth_plugin_t* self, plinth_client_event_fn fn, void* ctx);
  /* since 1.0: header of a push of n elements (RESP3 >; an array in RESP2), for replies that
   * are pub/sub notices (SUBSCRIBE's confirmation). OWNERSHIP: none. THREAD: main. */
  void (*reply_push)(plinth_call_t* call, int64_t n);
  /* since 1.0: visits every member of v through its type's visit callback. Returns PLINTH_OK,
   * or PLINTH_ERR (nothing visited) when v is a string or its type has no visit. OWNERSHIP: v
   * borrowed. THREAD: main. */
  int32_t (*value_visit)(const plinth_value_t* v, plinth_member_fn fn, void* arg);

  /* -- persistence: the stream, the keyspace outside a command, loading -- */

  /* since 1.0: the propagation stream's offset: the bytes appended since the server started
   * (delivered or not). OWNERSHIP: none. THREAD: main. */
  uint64_t (*stream_offset)(plinth_plugin_t* self);
  /* since 1.0: the next effect appended starts with a SELECT of its database even when the
   * stream is already in it (a consumer starting a new file or link). OWNERSHIP: none.
   * THREAD: main. */
  void (*stream_reselect)(plinth_plugin_t* self);
  /* since 1.0: whether the plugin's stream consumers hear batches (on_batch): on by default.
   * The host encodes the stream only while some consumer is on, so a plugin with nothing to
   * do (appendonly no, no replicas) turns itself off and costs writes nothing. OWNERSHIP:
   * none. THREAD: main. */
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
   * have a time to live. OWNERSHIP: none. THREAD: main, or a forked child. */
  uint64_t (*db_keys)(plinth_plugin_t* self, int32_t db, uint64_t* expires);
  /* since 1.0: number of databases ("databases" option). OWNERSHIP: none. THREAD: main, or a
   * forked child. */
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
   * Propagates nothing. OWNERSHIP: none. THREAD: main. */
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
   * in slices between loop turns keeps the server answering meanwhile. OWNERSHIP: none.
   * THREAD: main. */
  void (*server_set_loading)(plinth_plugin_t* self, int32_t on);
  /* since 1.0: whether some plugin is loading (server_set_loading). OWNERSHIP: none. THREAD:
   * main. */
  int32_t (*server_loading)(plinth_plugin_t* self);
  /* since 1.0: the flags of the shutdown under way (PLINTH_SHUTDOWN_NOSAVE or _SAVE from
   * SHUTDOWN, 0 for a signal), for a plugin's shutdown hook to decide whether to save.
   * OWNERSHIP: none. THREAD: main. */
  uint32_t (*server_shutdown_flags)(plinth_plugin_t* self);
  /* since 1.0: keyspace changes since the server started (Redis's dirty counter: save points
   * and rdb_changes_since_last_save compare it). OWNERSHIP: none. THREAD: main. */
  uint64_t (*server_dirty)(plinth_plugin_t* self);
  /* since 1.0: forks a child process for a snapshot (BGSAVE, an AOF rewrite). One child at a
   * time for the whole server: returns -1 with errno EBUSY while another plugin's (or this
   * one's) child runs, -1 with fork's errno when it fails, 0 in the child (which may read the
   * keyspace with db_visit, db_keys and value_* functions, then must _exit), and the child's
   * pid in the parent, which reaps it (waitpid) and then calls fork_done. OWNERSHIP: none.
   * THREAD: main. */
  int32_t (*fork_child)(plinth_plugin_t* self);
  /* since 1.0: the child fork_child made, pid, has ended and was reaped. OWNERSHIP: none.
   * THREAD: main. */
  void (*fork_done)(plinth_plugin_t* self, int32_t pid);
  /* since 1.0: the pid of the running snapshot child, 0 when none. OWNERSHIP: none. THREAD:
   * main. */
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
   * call emitted through replicate(). OWNERSHIP: none. THREAD: main. */
  void (*replicate_verbatim)(plinth_call_t* call);
  /* since 1.0: the handler sends no reply at all (REPLCONF ACK, or a command that answered
   * with client_write_raw). OWNERSHIP: none. THREAD: main. */
  void (*call_no_reply)(plinth_call_t* call);
  /* since 1.0: makes the calling client a replica link: CLIENT LIST flag S, CLIENT KILL TYPE
   * replica, its output under the replica class of client-output-buffer-limit, never closed
   * for idleness (the replication plugin watches it). OWNERSHIP: none. THREAD: main. */
  void (*client_set_replica)(plinth_call_t* call);
  /* since 1.0: queues data as raw bytes (no protocol framing) after client_id's pending
   * output: a snapshot payload, the stream. Returns PLINTH_OK, or PLINTH_ERR when there is no
   * such client or the bytes took it past its output limits (it is then closed, and its
   * PLINTH_CLIENT_CLOSED event follows). OWNERSHIP: copied. THREAD: main. */
  int32_t (*client_write_raw)(plinth_plugin_t* self, uint64_t client_id, const char* data,
                              size_t len);
  /* since 1.0: bytes queued to client_id and not yet written, or -1 when there is no such
   * client. OWNERSHIP: none. THREAD: main. */
  int64_t (*client_output_pending)(plinth_plugin_t* self, uint64_t client_id);
  /* since 1.0: closes client client_id once its pending output is written (at once when
   * now is non-zero). Returns PLINTH_OK, or PLINTH_ERR when there is no such client.
   * OWNERSHIP: none. THREAD: main. */
  int32_t (*client_close)(plinth_plugin_t* self, uint64_t client_id, int32_t now);
  /* since 1.0: from now on, clients (never internal ones) get error ("CODE message") for the
   * commands in class what (PLINTH_REFUSE_*), refused before they run or are queued in MULTI;
   * a NULL error lifts this plugin's refusal of that class. Each plugin has its own refusal
   * per class; the first one set wins. OWNERSHIP: error copied. THREAD: main. */
  void (*server_refuse)(plinth_plugin_t* self, uint32_t what, const char* error);
  /* since 1.0: while on, keys expire only when the stream's source says so (a replica follows
   * its primary's DEL): no active expiry, and a client's read of a key past its expiry misses
   * without deleting it, while internal clients still see the key. OWNERSHIP: none. THREAD:
   * main. */
  void (*server_expiry_passive)(plinth_plugin_t* self, int32_t on);
  /* since 1.0: runs the command client client_id is blocked in (call_block with nkeys 0) again,
   * with call_block_state PLINTH_BLOCK_WOKEN, once the current command returns. Returns
   * PLINTH_OK, or PLINTH_ERR when that client is not blocked. OWNERSHIP: none. THREAD: main. */
  int32_t (*client_wake)(plinth_plugin_t* self, uint64_t client_id);
  /* since 1.0: a random 40-character hex id of this server process (INFO run_id), NUL
   * terminated. OWNERSHIP: static. THREAD: any. */
  const char* (*server_run_id)(plinth_plugin_t* self);

  /* -- commands run by a plugin; scripts (THREAD: main) -- */

  /* since 1.0: runs command argv[0..argc) on behalf of the call's client, nested in this call,
   * as a script's redis.call does: in database db (-1: the call's), with the client's
   * authentication, in a session of its own (a SELECT there is not the caller's). Its effects
   * join the call's propagation unit (several go out as one MULTI/EXEC) and stand for the
   * caller's: a write command whose nested commands propagated something is not propagated
   * itself too (as after replicate(); replicate its own direct writes then). It runs whatever the
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
   * command to end: a script stops at once. OWNERSHIP: none. THREAD: main. */
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
   * one less. OWNERSHIP: none. THREAD: main. */
  int32_t (*command_ids)(plinth_plugin_t* self);
  /* since 1.0: fills *out with command id's facts. Returns PLINTH_OK, or PLINTH_ERR for an id
   * no command has. OWNERSHIP: out's strings are the host's, valid while the server runs.
   * THREAD: main. */
  int32_t (*command_info)(plinth_plugin_t* self, int32_t id, plinth_command_info_t* out);
  /* since 1.0: the id of the command named name in any case ("get", "config|get"), or -1.
   * OWNERSHIP: name borrowed. THREAD: main. */
  int32_t (*command_find)(plinth_plugin_t* self, const char* name, size_t len);
  /* since 1.0: the keys and channels argv would touch (argv[0] names the command), in argument
   * order, into out (room for argc refs), and the id of what runs it into *command_id (the
   * subcommand's when argv[1] names one). Returns their count, or PLINTH_ERR for an unknown
   * command or an argc its arity refuses. OWNERSHIP: all borrowed. THREAD: main. */
  int32_t (*command_keys)(plinth_plugin_t* self, int32_t argc, const char* const* argv,
                          const size_t* argvlen, plinth_key_ref_t* out, int32_t* command_id);
  /* since 1.0: makes this plugin the ACL provider (at most one). The host copies *provider.
   * Returns PLINTH_OK, or PLINTH_ERR when another plugin is one. OWNERSHIP: ctx must outlive the
   * plugin. THREAD: main, init only. */
  int32_t (*acl_provider_register)(plinth_plugin_t* self, const plinth_acl_provider_t* provider);
  /* since 1.0: the clients authenticated as user_id (the default user: every client that has
   * not authenticated) now are restricted or not; close non-zero closes them instead (a
   * deleted user). For the default user, needs_auth says whether new clients must authenticate
   * first. The provider calls it whenever a user's rules change. OWNERSHIP: none. THREAD:
   * main. */
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
   * OWNERSHIP: all borrowed. THREAD: main. */
  int32_t (*client_authenticate)(plinth_call_t* call, const char* user, size_t ulen,
                                 const char* pass, size_t plen);
  /* since 1.0: the calling client's user id (0 without a provider) and, into *name, its name
   * ("default" without a provider). OWNERSHIP: *name is the host's or the provider's, valid
   * until the user changes. THREAD: main. */
  uint64_t (*client_user)(plinth_call_t* call, const char** name);
  /* since 1.0: whether the calling client's user may run argv (a command a plugin is about to
   * run for it). Returns PLINTH_OK, or PLINTH_ERR after writing the "NOPERM ..." text or the
   * unknown-command error into err (errcap bytes). OWNERSHIP: all borrowed. THREAD: main. */
  int32_t (*acl_check_command)(plinth_call_t* call, int32_t argc, const char* const* argv,
                               const size_t* argvlen, char* err, size_t errcap);
  /* since 1.0: whether the calling client's user may touch key (flags: PLINTH_KEY_*). Returns
   * PLINTH_OK or PLINTH_ERR. OWNERSHIP: key borrowed. THREAD: main. */
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
#define PLINTH_HAS(api, fn) (PLINTH_HAS_FIELD(plinth_host_api_t, api, fn) && (api)->fn != NULL)

#ifdef __cplusplus
}
#endif

#endif /* PLINTH_ABI_HOST_API_H */
