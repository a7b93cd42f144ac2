/*
 * hello_c: the hello example in plain C99 against plinth/plugin.h only.
 *
 *   HELLOC.GREET [name]  -> "<greeting>, <name>!"  (name defaults to "world")
 *   HELLOC.COUNT key     -> increments the integer stored in a string key (a write)
 *   option hello_c.greeting (string, mutable, default "Hello")
 *
 * Everything runs on the main thread: handlers, init and the option's apply callback.
 */
#include <errno.h>
#include <plinth/plugin.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const plinth_host_api_t* api;
static char greeting[64] = "Hello";

static void reply_error(plinth_call_t* call, const char* msg) {
  api->reply_error(call, msg, strlen(msg));
}

static void greet(plinth_call_t* call, void* ctx) {
  char out[160];
  const char* name = "world";
  size_t name_len = 5;
  int n;
  (void)ctx;
  if (api->call_argc(call) > 2) {
    reply_error(call, "ERR wrong number of arguments for 'helloc.greet' command");
    return;
  }
  if (api->call_argc(call) == 2) name = api->call_arg(call, 1, &name_len);
  if (name_len > 64) name_len = 64;
  n = snprintf(out, sizeof out, "%s, %.*s!", greeting, (int)name_len, name);
  api->reply_bulk(call, out, (size_t)n < sizeof out ? (size_t)n : sizeof out - 1);
}

/* Parses a whole decimal long long, as Redis does for INCR. */
static int parse_ll(const char* s, size_t len, long long* out) {
  char buf[24];
  char* end;
  if (len == 0 || len > 20 || s[0] == '+' || s[0] == ' ') return 0;
  memcpy(buf, s, len);
  buf[len] = '\0';
  errno = 0;
  *out = strtoll(buf, &end, 10);
  return errno == 0 && end == buf + len;
}

static void count(plinth_call_t* call, void* ctx) {
  size_t klen, vlen;
  const char* key = api->call_arg(call, 1, &klen);
  const plinth_value_t* v = api->key_get(call, key, klen);
  long long n = 0;
  char text[24];
  (void)ctx;
  if (v) {
    const char* s = api->value_string(v, &vlen);
    if (!s) {
      reply_error(call, "WRONGTYPE Operation against a key holding the wrong kind of value");
      return;
    }
    if (!parse_ll(s, vlen, &n)) {
      reply_error(call, "ERR value is not an integer or out of range");
      return;
    }
  }
  if (n == 9223372036854775807LL) {
    reply_error(call, "ERR increment or decrement would overflow");
    return;
  }
  n++;
  snprintf(text, sizeof text, "%lld", n);
  /* key_set consumes the new value's reference; the key keeps its TTL, like INCR. */
  api->key_set(call, key, klen, api->value_create_string(text, strlen(text)), PLINTH_SET_KEEPTTL);
  api->reply_integer(call, n);
}

static int32_t apply_greeting(void* ctx, const char* name, const char* value, size_t len,
                              int64_t number, char* err, size_t errlen) {
  (void)ctx;
  (void)name;
  (void)number;
  if (len == 0 || len >= sizeof greeting) {
    snprintf(err, errlen, "the greeting must be 1 to %d bytes", (int)sizeof greeting - 1);
    return PLINTH_ERR;
  }
  memcpy(greeting, value, len);
  greeting[len] = '\0';
  return PLINTH_OK;
}

static int32_t register_command(plinth_plugin_t* self, const char* name, int32_t arity,
                                uint32_t flags, int32_t first_key, plinth_command_fn fn) {
  plinth_command_spec_t spec;
  memset(&spec, 0, sizeof spec);
  spec.struct_size = sizeof spec;
  spec.name = name;
  spec.arity = arity;
  spec.flags = flags;
  spec.first_key = first_key;
  spec.last_key = first_key;
  spec.key_step = first_key ? 1 : 0;
  spec.handler = fn;
  spec.group = "hello";
  return api->command_register(self, &spec);
}

static int32_t init(plinth_plugin_t* self, const plinth_host_api_t* host) {
  plinth_option_spec_t opt;
  api = host;
  memset(&opt, 0, sizeof opt);
  opt.struct_size = sizeof opt;
  opt.name = "greeting"; /* registered as "hello_c.greeting" */
  opt.type = PLINTH_OPT_STRING;
  opt.flags = PLINTH_OPT_MUTABLE;
  opt.default_value = "Hello";
  opt.description = "the word HELLOC.GREET greets with";
  opt.apply = apply_greeting;
  if (!api->option_register(self, &opt)) return PLINTH_ERR;
  if (register_command(self, "helloc.greet", -1, PLINTH_CMD_READONLY | PLINTH_CMD_FAST, 0, greet) !=
      PLINTH_OK)
    return PLINTH_ERR;
  return register_command(self, "helloc.count", 2, PLINTH_CMD_WRITE | PLINTH_CMD_FAST, 1, count);
}

static const plinth_plugin_descriptor_t descriptor = {
    sizeof(plinth_plugin_descriptor_t),
    PLINTH_ABI_MAJOR,
    PLINTH_TARGET_MINOR,
    0,
    "hello_c",
    "1.0.0",
    "example plugin in C: HELLOC.GREET and HELLOC.COUNT",
    init,
    NULL,
    {NULL, NULL, NULL, NULL}};

PLINTH_EXPORT const plinth_plugin_descriptor_t* plinth_plugin_entry_v1(void) { return &descriptor; }
