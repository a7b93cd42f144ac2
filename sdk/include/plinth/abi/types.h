/*
 * plinth/abi/types.h - the plugin C ABI (plinth/plugin.h includes every part):
 * INFO sections, value types, RDB forms and keyspace listeners.
 */
#ifndef PLINTH_ABI_TYPES_H
#define PLINTH_ABI_TYPES_H

#include "plinth/abi/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- INFO sections, value types, logging ------------------------------------------------- */

/* Fills an INFO section (info_register) with info_field and info_field_int. OWNERSHIP: info is
 * the host's, valid for the call. THREAD: main. */
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
  /* since 1.0: an RDB length. OWNERSHIP: none. THREAD: the caller's. */
  int32_t (*write_len)(plinth_rdb_io_t* io, uint64_t n);
  /* since 1.0: an RDB string. OWNERSHIP: s borrowed for the call. THREAD: the caller's. */
  int32_t (*write_string)(plinth_rdb_io_t* io, const char* s, size_t len);
  /* since 1.0: a binary double (8 bytes, little endian, as ZSET_2 scores). OWNERSHIP: none.
   * THREAD: the caller's. */
  int32_t (*write_double)(plinth_rdb_io_t* io, double v);
  /* since 1.0: an RDB length into *n. OWNERSHIP: none. THREAD: the caller's. */
  int32_t (*read_len)(plinth_rdb_io_t* io, uint64_t* n);
  /* since 1.0: an RDB string. OWNERSHIP: *s is the io's, valid until its next read.
   * THREAD: the caller's. */
  int32_t (*read_string)(plinth_rdb_io_t* io, const char** s, size_t* len);
  /* since 1.0: a binary double into *v. OWNERSHIP: none. THREAD: the caller's. */
  int32_t (*read_double)(plinth_rdb_io_t* io, double* v);
  /* since 1.0: len bytes as they are (a stream's 16-byte ids and 8-byte times). OWNERSHIP: p
   * borrowed for the call. THREAD: the caller's. */
  int32_t (*write_raw)(plinth_rdb_io_t* io, const void* p, size_t len);
  /* since 1.0: exactly len bytes into p. OWNERSHIP: p is the caller's. THREAD: the
   * caller's. */
  int32_t (*read_raw)(plinth_rdb_io_t* io, void* p, size_t len);
};

/* Visits one member of a collection (value_visit): its bytes and its score (1 for a member of
 * a plain set). OWNERSHIP: member borrowed for the call. THREAD: that of the visit calling it
 * (main). */
typedef void (*plinth_member_fn)(void* arg, const char* member, size_t len, double score);

/* A value type. The payload of a stored value is shared by every holder of the value (COPY's
 * two keys, a reply being written, a plugin's reference): a plugin reads it through
 * value_payload and changes it only through key_payload_mut, which first gives the key a copy
 * of its own when the value is shared. */
typedef struct plinth_type_spec {
  uint32_t struct_size; /* since 1.0 */
  const char* name;     /* since 1.0: what TYPE answers */
  /* since 1.0: frees a payload. Required. OWNERSHIP: frees payload. THREAD: any (large values
   * are freed on the host's lazy-free thread). */
  void (*free_payload)(void* payload);
  /* since 1.0: bytes the payload uses (MEMORY USAGE, maxmemory). May be NULL. OWNERSHIP:
   * payload borrowed. THREAD: main. */
  size_t (*memory_usage)(const void* payload);
  /* since 1.0: writes the payload in its type's plain RDB form (rdb_type) through io. Returns
   * PLINTH_OK or PLINTH_ERR. May be NULL (the type is not persisted). OWNERSHIP: payload and
   * io borrowed for the call. THREAD: main, or a forked child. */
  int32_t (*rdb_save)(const void* payload, plinth_rdb_io_t* io);
  /* since 1.0: a deep copy of payload (copy-on-write of a shared value), or NULL when memory
   * ran out. Required. OWNERSHIP: the caller owns the copy. THREAD: main. */
  void* (*copy)(const void* payload);
  /* since 1.0: OBJECT ENCODING's name for payload now ("listpack", "hashtable", ...).
   * OWNERSHIP: a static string. May be NULL ("raw"). THREAD: main. */
  const char* (*encoding)(const void* payload);
  /* since 1.0: the work freeing payload takes, about one per allocation it holds (Redis's lazy
   * free effort). A value whose effort exceeds 64 is freed on the lazy-free thread when it is
   * unlinked (key_unlink, async flush). May be NULL (always freed at once). OWNERSHIP:
   * payload borrowed. THREAD: main. */
  size_t (*free_effort)(const void* payload);
  /* since 1.0: a payload read from the plain RDB form rdb_type through io, or NULL when the
   * input is malformed or memory ran out. May be NULL. OWNERSHIP: the caller owns the payload.
   * THREAD: any. */
  void* (*rdb_load)(uint32_t rdb_type, plinth_rdb_io_t* io);
  /* since 1.0: the stable on-disk id: the PLINTH_RDB_* form rdb_save writes and rdb_load
   * reads, which no other loaded type may use (type_register refuses a taken form: a file
   * could not tell the two apart), or 0 for a type with no Redis form (not persisted: a save
   * fails while such a value exists). */
  uint32_t rdb_type;
  uint32_t reserved0; /* since 1.0 */
  /* since 1.0: visits every member of a collection payload once (sets with score 1, sorted
   * sets in order with their scores), so other plugins can read it through value_visit (a
   * plain set given to ZUNIONSTORE). May be NULL. OWNERSHIP: payload borrowed; fn and arg
   * are the caller's, used only during the call. THREAD: main. */
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

#ifdef __cplusplus
}
#endif

#endif /* PLINTH_ABI_TYPES_H */
