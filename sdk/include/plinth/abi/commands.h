/*
 * plinth/abi/commands.h - the plugin C ABI (plinth/plugin.h includes every part):
 * command specs, flags, ACL categories and key references.
 */
#ifndef PLINTH_ABI_COMMANDS_H
#define PLINTH_ABI_COMMANDS_H

#include "plinth/abi/base.h"

#ifdef __cplusplus
extern "C" {
#endif

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

/* One key or channel argument of a call. Frozen as an array element: no struct_size; it never
 * grows. */
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
 * completed with nulls (both logged as plugin bugs). OWNERSHIP: call is the host's, valid
 * until the handler returns; ctx is the plugin's (the spec's ctx). THREAD: main. */
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
  /* since 1.1: COMMAND DOCS's complexity ("O(1)"), may be NULL. In a spec the host gives
   * (command_at, command_lookup), read it after PLINTH_HAS_FIELD(plinth_command_spec_t, s,
   * complexity). */
  const char* complexity;
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

#ifdef __cplusplus
}
#endif

#endif /* PLINTH_ABI_COMMANDS_H */
