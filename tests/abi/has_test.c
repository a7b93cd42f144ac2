/*
 * tests/abi/has_test.c - the run-time version tests a plugin makes: PLINTH_HAS on the host
 * table and PLINTH_HAS_FIELD on a host-given struct, against tables and structs shorter than
 * this SDK's, as an older host gives them. (The layout itself is guarded by tests/abi/gate:
 * every field of 1.0 compared with the frozen header, on any target.) C11.
 */
#include <plinth/plugin.h>
#include <stddef.h>
#include <string.h>

_Static_assert(PLINTH_TARGET_MINOR == PLINTH_ABI_MINOR, "the target minor defaults to the SDK's");

static int64_t fake_time_us(plinth_plugin_t* self) {
  (void)self;
  return 0;
}
static int64_t fake_call_time_ms(plinth_call_t* call) {
  (void)call;
  return 0;
}

/* A host table that stops before call_time_ms, as an older host's would. */
static int check_plinth_has(void) {
  plinth_host_api_t api;
  memset(&api, 0, sizeof api);
  api.struct_size = (uint32_t)offsetof(plinth_host_api_t, call_time_ms);
  api.time_us = fake_time_us;
  api.call_time_ms = fake_call_time_ms;
  if (!PLINTH_HAS(&api, time_us)) return 1;
  if (PLINTH_HAS(&api, call_time_ms)) return 2; /* past struct_size: absent */
  api.struct_size = sizeof api;
  if (!PLINTH_HAS(&api, call_time_ms)) return 3;
  api.call_time_ms = NULL;
  if (PLINTH_HAS(&api, call_time_ms)) return 4; /* NULL: absent */
  if (PLINTH_HAS((const plinth_host_api_t*)NULL, log_write)) return 5;
  return 0;
}

/* A command info struct that ends before arity, as an older host would fill it. */
static int check_plinth_has_field(void) {
  plinth_command_info_t info;
  memset(&info, 0, sizeof info);
  info.struct_size = (uint32_t)offsetof(plinth_command_info_t, arity);
  if (!PLINTH_HAS_FIELD(plinth_command_info_t, &info, subcommands)) return 11;
  if (PLINTH_HAS_FIELD(plinth_command_info_t, &info, arity)) return 12;
  info.struct_size = sizeof info;
  if (!PLINTH_HAS_FIELD(plinth_command_info_t, &info, arity)) return 13;
  if (PLINTH_HAS_FIELD(plinth_command_info_t, (const plinth_command_info_t*)NULL, id)) return 14;
  return 0;
}

int main(void) {
  int rc;
  if (strcmp(PLINTH_ENTRY_SYMBOL, "plinth_plugin_entry_v1") != 0) return 10;
  if ((rc = check_plinth_has()) != 0) return rc;
  return check_plinth_has_field();
}
