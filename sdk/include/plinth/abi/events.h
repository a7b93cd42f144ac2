/*
 * plinth/abi/events.h - the plugin C ABI (plinth/plugin.h includes every part):
 * command observers, client events and the constants host functions take.
 */
#ifndef PLINTH_ABI_EVENTS_H
#define PLINTH_ABI_EVENTS_H

#include "plinth/abi/replies.h"

#ifdef __cplusplus
extern "C" {
#endif

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

/* Hears a client event (client_listener_register). OWNERSHIP: none. THREAD: main. */
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

/* Emits one piece of text (a line, a field) to a caller-supplied sink. OWNERSHIP: data
 * borrowed for the call. THREAD: that of the host function it was given to (main). */
typedef void (*plinth_emit_fn)(void* arg, const char* data, size_t len);
/* Visits one key during a scan (key_scan, key_random). OWNERSHIP: key and value borrowed for
 * the call (retain value to keep it). THREAD: main. */
typedef void (*plinth_key_visit_fn)(void* arg, const char* key, size_t klen,
                                    const plinth_value_t* value);
/* Visits one key of a database (db_visit): its name, its value and its absolute expiry in Unix
 * milliseconds (-1: none). Returns 0 to go on, anything else to stop the visit. OWNERSHIP: key
 * and value borrowed for the call (retain value to keep it). THREAD: that of db_visit (main,
 * or a forked child). */
typedef int32_t (*plinth_db_visit_fn)(void* arg, const char* key, size_t klen,
                                      const plinth_value_t* value, int64_t expire_ms);
/* A task posted to the main loop (loop_post), or a before-sleep hook (before_sleep_register).
 * OWNERSHIP: arg is the poster's; the host never frees it. THREAD: main. */
typedef void (*plinth_task_fn)(void* arg);
/* A timer's callback (timer_start). It may stop its own timer. OWNERSHIP: arg is the starter's;
 * the host never frees it. THREAD: main. */
typedef void (*plinth_timer_fn)(void* arg);

#ifdef __cplusplus
}
#endif

#endif /* PLINTH_ABI_EVENTS_H */
