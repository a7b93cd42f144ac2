/* probe: a test plugin whose commands each exercise one corner of the host API, loaded into both
 * the fake host and the real server by the host-API suite (tests/hostapi). Its stream consumer
 * records every propagated effect; PROBE.STREAM returns and clears them, so a case reads the
 * stream the same way on both targets. Uses only command_register, stream_consumer_register,
 * type_register, reply_*, key_*, replicate, call_no_propagate and value_*. Main thread only. */
#include <plinth/plugin.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const plinth_host_api_t* api;

/* ---- the recorded stream ------------------------------------------------------------------ */

typedef struct {
  int32_t db;
  int32_t argc;
  char** argv;
  size_t* lens;
} entry_t;

static entry_t* entries;
static size_t entry_count, entry_cap;

static void ClearEntries(void) {
  for (size_t i = 0; i < entry_count; ++i) {
    for (int32_t a = 0; a < entries[i].argc; ++a) free(entries[i].argv[a]);
    free(entries[i].argv);
    free(entries[i].lens);
  }
  entry_count = 0;
}

/* Appends one recorded effect. */
static void Record(int32_t db, int32_t argc, const char* const* argv, const size_t* argvlen) {
  if (entry_count == entry_cap) {
    size_t cap = entry_cap ? 2 * entry_cap : 16;
    entry_t* grown = realloc(entries, cap * sizeof *grown);
    if (!grown) return;
    entries = grown;
    entry_cap = cap;
  }
  entry_t* e = &entries[entry_count++];
  e->db = db;
  e->argc = argc;
  e->argv = calloc((size_t)argc + 1, sizeof *e->argv);
  e->lens = calloc((size_t)argc + 1, sizeof *e->lens);
  for (int32_t a = 0; a < argc && e->argv && e->lens; ++a) {
    e->argv[a] = malloc(argvlen[a] + 1);
    if (e->argv[a]) memcpy(e->argv[a], argv[a], argvlen[a]);
    e->lens[a] = e->argv[a] ? argvlen[a] : 0;
  }
}

/* Reads "<prefix><number>\r\n" at *p (the host's encoding: well formed). */
static uint64_t ReadHeader(const char** p) {
  const char* q = *p + 1;
  uint64_t n = 0;
  while (*q != '\r') n = n * 10 + (uint64_t)(*q++ - '0');
  *p = q + 2;
  return n;
}

/* The stream's batches decoded into effects; a SELECT sets the database of those after it. */
static int32_t stream_db = 0;
static void OnBatch(void* ctx, const plinth_stream_batch_t* batch) {
  (void)ctx;
  const char* p = batch->data;
  const char* end = p + batch->len;
  const char* argv[64];
  size_t lens[64];
  while (p < end) {
    int32_t argc = 0;
    for (uint64_t n = ReadHeader(&p); n > 0; --n) {
      const size_t len = (size_t)ReadHeader(&p);
      if (argc < 64) {
        argv[argc] = p;
        lens[argc++] = len;
      }
      p += len + 2;
    }
    if (argc == 2 && lens[0] == 6 && memcmp(argv[0], "SELECT", 6) == 0)
      stream_db = (int32_t)strtol(argv[1], NULL, 10);
    else
      Record(stream_db, argc, argv, lens);
  }
}

static void Ignore(void* ctx, const plinth_stream_batch_t* batch) {
  (void)ctx;
  (void)batch;
}

/* PROBE.STREAM: one array per effect, [db, argv...], in stream order; then forgets them. */
static void Stream(plinth_call_t* call, void* ctx) {
  (void)ctx;
  api->reply_array(call, (int64_t)entry_count);
  for (size_t i = 0; i < entry_count; ++i) {
    api->reply_array(call, entries[i].argc + 1);
    api->reply_integer(call, entries[i].db);
    for (int32_t a = 0; a < entries[i].argc; ++a)
      api->reply_bulk(call, entries[i].argv[a] ? entries[i].argv[a] : "", entries[i].lens[a]);
  }
  ClearEntries();
}

/* ---- what init saw ------------------------------------------------------------------------ */

static char init_report[16][48];
static int init_report_count;
static uint32_t probe_type;
static plinth_plugin_t* probe_self;

static void Report(const char* what, long long value) {
  if (init_report_count < 16)
    snprintf(init_report[init_report_count++], sizeof init_report[0], "%s=%lld", what, value);
}

/* PROBE.INIT: "what=result" for each registration init tried on purpose. */
static void InitReport(plinth_call_t* call, void* ctx) {
  (void)ctx;
  api->reply_array(call, init_report_count);
  for (int i = 0; i < init_report_count; ++i)
    api->reply_bulk(call, init_report[i], strlen(init_report[i]));
}

/* ---- reply shapes ------------------------------------------------------------------------- */

static void Ok(plinth_call_t* call) { api->reply_simple(call, "OK", 2); }
static void OkHandler(plinth_call_t* call, void* ctx) {
  (void)ctx;
  Ok(call);
}

static void NoReply(plinth_call_t* call, void* ctx) {
  (void)call;
  (void)ctx;
}

static void Twice(plinth_call_t* call, void* ctx) {
  (void)ctx;
  api->reply_simple(call, "first", 5);
  api->reply_simple(call, "second", 6);
}

static void Short(plinth_call_t* call, void* ctx) {
  (void)ctx;
  api->reply_array(call, 3);
  api->reply_bulk(call, "a", 1);
}

static void Overfull(plinth_call_t* call, void* ctx) {
  (void)ctx;
  api->reply_array(call, 1);
  api->reply_bulk(call, "a", 1);
  api->reply_bulk(call, "b", 1);
}

/* ---- keys and propagation ----------------------------------------------------------------- */

static void SetKey(plinth_call_t* call, const char* key) {
  api->key_set(call, key, strlen(key), api->value_create_string("1", 1), 0);
}

/* Sets probe:w; propagated verbatim (it is a write that changed the keyspace). */
static void Write(plinth_call_t* call, void* ctx) {
  (void)ctx;
  SetKey(call, "probe:w");
  Ok(call);
}

/* A write command that changes nothing: deletes a key that does not exist. */
static void NoChange(plinth_call_t* call, void* ctx) {
  (void)ctx;
  api->key_delete(call, "probe:absent", 12);
  Ok(call);
}

/* Changes the keyspace although its spec lacks PLINTH_CMD_WRITE. */
static void Unflagged(plinth_call_t* call, void* ctx) {
  (void)ctx;
  SetKey(call, "probe:u");
  Ok(call);
}

/* Sets probe:s and asks for nothing to be propagated. */
static void Silent(plinth_call_t* call, void* ctx) {
  (void)ctx;
  SetKey(call, "probe:s");
  api->call_no_propagate(call);
  Ok(call);
}

static int32_t Replicate(plinth_call_t* call, uint32_t flags, const char* cmd, int32_t argc,
                         const char* a0, const char* a1) {
  const char* argv[2] = {a0, a1};
  size_t lens[2] = {strlen(a0), a1 ? strlen(a1) : 0};
  return api->replicate(call, flags, cmd, argc, argv, lens);
}

/* Sets probe:r and propagates it as SET probe:r 1; replies replicate's status. */
static void ReplicateValid(plinth_call_t* call, void* ctx) {
  (void)ctx;
  SetKey(call, "probe:r");
  api->reply_integer(call, Replicate(call, 0, "SET", 2, "probe:r", "1"));
}

/* replicate() of an unknown command and of GET with three arguments; replies both statuses.
 * ctx, when set, points to the replicate() flags to use. */
static void ReplicateChecked(plinth_call_t* call, void* ctx) {
  uint32_t flags = ctx ? *(const uint32_t*)ctx : 0;
  api->reply_array(call, 2);
  api->reply_integer(call, Replicate(call, flags, "probe.nosuch", 1, "a", NULL));
  api->reply_integer(call, Replicate(call, flags, "GET", 2, "a", "b"));
}

/* replicate() with PLINTH_REPLICATE_NO_VALIDATE of input no check would pass: no command name
 * with a NULL argument, then a command with arguments counted but no arrays. Replies both. */
static void ReplicateGarbage(plinth_call_t* call, void* ctx) {
  (void)ctx;
  const char* argv[2] = {NULL, "x"};
  size_t lens[2] = {5, 1};
  api->reply_array(call, 2);
  api->reply_integer(call, api->replicate(call, PLINTH_REPLICATE_NO_VALIDATE, NULL, 2, argv, lens));
  api->reply_integer(call,
                     api->replicate(call, PLINTH_REPLICATE_NO_VALIDATE, "SET", 3, NULL, NULL));
}

/* PROBE.REFUSE <writes|stale> [error]: server_refuse of that class with error, or lifts it. */
static void Refuse(plinth_call_t* call, void* ctx) {
  (void)ctx;
  size_t n = 0, elen = 0;
  api->call_arg(call, 1, &n);
  const char* e = api->call_argc(call) > 2 ? api->call_arg(call, 2, &elen) : NULL;
  char error[256];
  snprintf(error, sizeof error, "%.*s", (int)elen, e ? e : "");
  api->server_refuse(probe_self, n == 6 ? PLINTH_REFUSE_WRITES : PLINTH_REFUSE_STALE,
                     e ? error : NULL);
  Ok(call);
}

/* call_command's reply items, each rendered "<type>:<text or number>". */
static char run_items[32][96];
static int run_count;
static void RunItem(void* arg, const plinth_reply_item_t* item) {
  (void)arg;
  if (run_count == 32) return;
  char* out = run_items[run_count++];
  if (item->data)
    snprintf(out, 96, "%u:%.*s", item->type, (int)(item->len < 88 ? item->len : 88), item->data);
  else
    snprintf(out, 96, "%u:%lld", item->type, (long long)item->integer);
}

/* PROBE.RUN <flags> <command> [arg ...]: call_command with PLINTH_RUN_* flags in the call's db.
 * Replies the return code, then each reply item. */
static void Run(plinth_call_t* call, void* ctx) {
  (void)ctx;
  const char* argv[16];
  size_t lens[16], n = 0;
  const int32_t argc = api->call_argc(call) - 2;
  const uint32_t flags = (uint32_t)atoi(api->call_arg(call, 1, &n));
  if (argc > 16) return api->reply_error(call, "ERR too many arguments", 22);
  for (int32_t i = 0; i < argc; ++i) argv[i] = api->call_arg(call, i + 2, &lens[i]);
  run_count = 0;
  const int32_t rc = api->call_command(call, flags, -1, argc, argv, lens, RunItem, NULL);
  api->reply_array(call, run_count + 1);
  api->reply_integer(call, rc);
  for (int i = 0; i < run_count; ++i) api->reply_bulk(call, run_items[i], strlen(run_items[i]));
}

/* PROBE.RUN2 <command> <arg> <command> <arg>: two call_commands of two arguments each, as a
 * script running two writes does. */
static void Run2(plinth_call_t* call, void* ctx) {
  (void)ctx;
  const char* argv[4];
  size_t lens[4];
  for (int32_t i = 0; i < 4; ++i) argv[i] = api->call_arg(call, i + 1, &lens[i]);
  int32_t rc = api->call_command(call, 0, -1, 2, argv, lens, NULL, NULL);
  rc |= api->call_command(call, 0, -1, 2, argv + 2, lens + 2, NULL, NULL);
  api->reply_integer(call, rc);
}

/* PLINTH_CMD_NOPROPAGATE: sets probe:n and also calls replicate(). */
static void NoPropagate(plinth_call_t* call, void* ctx) {
  (void)ctx;
  SetKey(call, "probe:n");
  Replicate(call, 0, "SET", 2, "probe:n", "1");
  Ok(call);
}

/* key_expire_set of probe:e to 1 ms past the epoch: deletes it. Replies key_expire_set's result. */
static void ExpirePast(plinth_call_t* call, void* ctx) {
  (void)ctx;
  api->reply_integer(call, api->key_expire_set(call, "probe:e", 7, 1));
}

/* key_touched of its argument, as a type changing its payload in place does. */
static void Touch(plinth_call_t* call, void* ctx) {
  (void)ctx;
  size_t len = 0;
  const char* key = api->call_arg(call, 1, &len);
  api->key_touched(call, key, len);
  Ok(call);
}

/* ---- values ------------------------------------------------------------------------------- */

static void FreePayload(void* payload) { free(payload); }
static void* CopyPayload(const void* payload) {
  void* c = malloc(8);
  if (c) memcpy(c, payload, 8);
  return c;
}

/* reply_value of a value of the probe's own type. */
static void Typed(plinth_call_t* call, void* ctx) {
  (void)ctx;
  plinth_value_t* v =
      probe_type ? api->value_create_typed(probe_self, probe_type, malloc(8)) : NULL;
  if (!v) {
    api->reply_error(call, "ERR probe: no typed value", 25);
    return;
  }
  api->reply_value(call, v);
  api->value_release(v);
}

/* ---- init --------------------------------------------------------------------------------- */

/* The host's minimum size of each spec: the end of its last frozen 1.0 field (key_flags, visit,
 * on_batch), what a plugin built against SDK 1.0 gives. */
static const uint32_t kCommandMin =
    (uint32_t)(offsetof(plinth_command_spec_t, key_flags) + sizeof(uint32_t));
static const uint32_t kTypeMin =
    (uint32_t)(offsetof(plinth_type_spec_t, visit) + sizeof(plinth_member_fn));
static const uint32_t kConsumerMin =
    (uint32_t)(offsetof(plinth_stream_consumer_spec_t, on_batch) + sizeof(void (*)(void)));

/* A spec followed by 8 bytes a newer SDK might have added. */
typedef struct {
  plinth_command_spec_t spec;
  uint64_t tail;
} big_command_t;
typedef struct {
  plinth_type_spec_t spec;
  uint64_t tail;
} big_type_t;
typedef struct {
  plinth_stream_consumer_spec_t spec;
  uint64_t tail;
} big_consumer_t;

static int32_t Command(plinth_plugin_t* self, const char* name, int32_t arity, uint32_t flags,
                       plinth_command_fn fn, void* ctx, uint32_t size, uint64_t tail) {
  big_command_t c;
  memset(&c, 0, sizeof c);
  c.spec.struct_size = size;
  c.spec.name = name;
  c.spec.arity = arity;
  c.spec.flags = flags;
  c.spec.handler = fn;
  c.spec.ctx = ctx;
  c.tail = tail;
  return api->command_register(self, &c.spec);
}

static uint32_t Type(plinth_plugin_t* self, const char* name, uint32_t size, uint64_t tail) {
  big_type_t t;
  memset(&t, 0, sizeof t);
  t.spec.struct_size = size;
  t.spec.name = name;
  t.spec.free_payload = FreePayload;
  t.spec.copy = CopyPayload;
  t.tail = tail;
  return api->type_register(self, &t.spec);
}

static int32_t Consumer(plinth_plugin_t* self, const char* name, plinth_stream_consumer_spec_t base,
                        uint32_t size, uint64_t tail) {
  big_consumer_t c;
  memset(&c, 0, sizeof c);
  c.spec = base;
  c.spec.struct_size = size;
  c.spec.name = name;
  c.tail = tail;
  return api->stream_consumer_register(self, &c.spec);
}

static const uint32_t kNoValidate = PLINTH_REPLICATE_NO_VALIDATE;

typedef struct {
  const char* name;
  int32_t arity;
  uint32_t flags;
  plinth_command_fn fn;
  void* ctx;
} command_t;

static const command_t kCommands[] = {
    {"probe.stream", 1, PLINTH_CMD_READONLY | PLINTH_CMD_NOPROPAGATE, Stream, NULL},
    {"probe.init", 1, PLINTH_CMD_READONLY, InitReport, NULL},
    {"probe.noreply", 1, PLINTH_CMD_READONLY, NoReply, NULL},
    {"probe.twice", 1, PLINTH_CMD_READONLY, Twice, NULL},
    {"probe.short", 1, PLINTH_CMD_READONLY, Short, NULL},
    {"probe.overfull", 1, PLINTH_CMD_READONLY, Overfull, NULL},
    {"probe.write", -1, PLINTH_CMD_WRITE, Write, NULL},
    {"probe.nochange", 1, PLINTH_CMD_WRITE, NoChange, NULL},
    {"probe.unflagged", 1, 0, Unflagged, NULL},
    {"probe.silent", 1, PLINTH_CMD_WRITE, Silent, NULL},
    {"probe.replicate", 1, PLINTH_CMD_WRITE, ReplicateValid, NULL},
    {"probe.replicate-checked", 1, PLINTH_CMD_WRITE, ReplicateChecked, NULL},
    {"probe.replicate-trusted", 1, PLINTH_CMD_WRITE, ReplicateChecked, (void*)&kNoValidate},
    {"probe.replicate-garbage", 1, PLINTH_CMD_WRITE, ReplicateGarbage, NULL},
    {"probe.refuse", -2, PLINTH_CMD_STALE, Refuse, NULL},
    {"probe.nopropagate", 1, PLINTH_CMD_WRITE | PLINTH_CMD_NOPROPAGATE, NoPropagate, NULL},
    {"probe.expire-past", 1, PLINTH_CMD_WRITE, ExpirePast, NULL},
    {"probe.typed", 1, PLINTH_CMD_READONLY, Typed, NULL},
    {"probe.touch", 2, PLINTH_CMD_WRITE, Touch, NULL},
    {"probe.run", -3, PLINTH_CMD_NOPROPAGATE, Run, NULL},
    {"probe.run2", 5, PLINTH_CMD_NOPROPAGATE, Run2, NULL},
};

/* Registrations that may be refused on purpose; init reports each outcome for PROBE.INIT. */
static void TrySpecs(plinth_plugin_t* self) {
  const uint32_t big_cmd = sizeof(big_command_t), big_type = sizeof(big_type_t);
  const uint32_t big_consumer = sizeof(big_consumer_t);
  plinth_stream_consumer_spec_t ignore;
  memset(&ignore, 0, sizeof ignore);
  ignore.on_batch = Ignore;

  Report("type_string", Type(self, "string", sizeof(plinth_type_spec_t), 0));
  Report("type_none", Type(self, "none", sizeof(plinth_type_spec_t), 0));

  Report("command_below", Command(self, "probe.below", 1, 0, OkHandler, NULL, kCommandMin - 1, 0));
  Report("command_min", Command(self, "probe.min", 1, 0, OkHandler, NULL, kCommandMin, 0));
  Report("command_tail", Command(self, "probe.tail", 1, 0, OkHandler, NULL, big_cmd, 1));
  Report("command_tail0", Command(self, "probe.tail0", 1, 0, OkHandler, NULL, big_cmd, 0));
  Report("type_below", Type(self, "probe-below", kTypeMin - 1, 0) != 0);
  Report("type_min", Type(self, "probe-min", kTypeMin, 0) != 0);
  Report("type_tail", Type(self, "probe-tail", big_type, 1) != 0);
  Report("type_tail0", Type(self, "probe-tail0", big_type, 0) != 0);
  Report("consumer_below", Consumer(self, "probe-below", ignore, kConsumerMin - 1, 0));
  Report("consumer_min", Consumer(self, "probe-min", ignore, kConsumerMin, 0));
  Report("consumer_tail", Consumer(self, "probe-tail", ignore, big_consumer, 1));
  Report("consumer_tail0", Consumer(self, "probe-tail0", ignore, big_consumer, 0));
}

static int32_t Init(plinth_plugin_t* self, const plinth_host_api_t* host) {
  api = host;
  ClearEntries();
  init_report_count = 0;
  for (size_t i = 0; i < sizeof kCommands / sizeof kCommands[0]; ++i) {
    const command_t* c = &kCommands[i];
    if (Command(self, c->name, c->arity, c->flags, c->fn, c->ctx, sizeof(plinth_command_spec_t),
                0) != PLINTH_OK)
      return PLINTH_ERR;
  }
  plinth_stream_consumer_spec_t recorder;
  memset(&recorder, 0, sizeof recorder);
  recorder.on_batch = OnBatch;
  if (Consumer(self, "probe", recorder, sizeof recorder, 0) != PLINTH_OK) return PLINTH_ERR;
  probe_self = self;
  probe_type = Type(self, "probe-type", sizeof(plinth_type_spec_t), 0);
  if (!probe_type) return PLINTH_ERR;
  TrySpecs(self);
  return PLINTH_OK;
}

static void Shutdown(plinth_plugin_t* self) {
  (void)self;
  ClearEntries();
  free(entries);
  entries = NULL;
  entry_cap = 0;
}

static const plinth_plugin_descriptor_t kDescriptor = {sizeof(plinth_plugin_descriptor_t),
                                                       PLINTH_ABI_MAJOR,
                                                       PLINTH_TARGET_MINOR,
                                                       0,
                                                       "probe",
                                                       "0",
                                                       "host-API behaviour probe (tests only)",
                                                       Init,
                                                       Shutdown,
                                                       {NULL, NULL, NULL, NULL}};

PLINTH_EXPORT const plinth_plugin_descriptor_t* plinth_plugin_entry_v1(void) {
  return &kDescriptor;
}
