/*
 * tests/abi/layout_test.c - freezes the v1.0 C ABI: the offset and size of every field of every
 * struct in plinth/plugin.h, the minimum size of each struct, and the value of every constant,
 * for x86-64 Linux (LP64). A change that moves, resizes or renumbers anything fails the build;
 * appending a field in a new minor only needs new lines here. main() checks PLINTH_HAS at run
 * time so CTest counts the target. C11 (for _Static_assert); plugin.h itself is C99.
 */
#include <plinth/plugin.h>
#include <stddef.h>
#include <string.h>

#if !(defined(__x86_64__) && defined(__LP64__))
#error "these offsets are the x86-64 LP64 layout"
#endif

/* FIELD(type, field, offset, size): the field is where v1.0 put it, with the same size. */
#define FIELD(type, field, off, size)                                        \
  _Static_assert(offsetof(type, field) == (off), #type "." #field " moved"); \
  _Static_assert(sizeof(((type*)0)->field) == (size), #type "." #field " resized")
/* MIN_SIZE(type, size): a struct may grow (a minor appends fields), never shrink. */
#define MIN_SIZE(type, size) _Static_assert(sizeof(type) >= (size), #type " shrank")
/* CONST(name, value): a constant keeps its value forever. */
#define CONST(name, value) _Static_assert((name) == (value), #name " changed")

/* ---- plinth_plugin_descriptor_t ---- */
MIN_SIZE(plinth_plugin_descriptor_t, 88);
FIELD(plinth_plugin_descriptor_t, struct_size, 0, 4);
FIELD(plinth_plugin_descriptor_t, abi_major, 4, 4);
FIELD(plinth_plugin_descriptor_t, abi_minor, 8, 4);
FIELD(plinth_plugin_descriptor_t, flags, 12, 4);
FIELD(plinth_plugin_descriptor_t, name, 16, 8);
FIELD(plinth_plugin_descriptor_t, version, 24, 8);
FIELD(plinth_plugin_descriptor_t, description, 32, 8);
FIELD(plinth_plugin_descriptor_t, init, 40, 8);
FIELD(plinth_plugin_descriptor_t, shutdown, 48, 8);
FIELD(plinth_plugin_descriptor_t, reserved, 56, 32);

/* ---- plinth_command_spec_t ---- */
MIN_SIZE(plinth_command_spec_t, 112);
FIELD(plinth_command_spec_t, struct_size, 0, 4);
FIELD(plinth_command_spec_t, name, 8, 8);
FIELD(plinth_command_spec_t, arity, 16, 4);
FIELD(plinth_command_spec_t, flags, 20, 4);
FIELD(plinth_command_spec_t, first_key, 24, 4);
FIELD(plinth_command_spec_t, last_key, 28, 4);
FIELD(plinth_command_spec_t, key_step, 32, 4);
FIELD(plinth_command_spec_t, handler, 40, 8);
FIELD(plinth_command_spec_t, ctx, 48, 8);
FIELD(plinth_command_spec_t, summary, 56, 8);
FIELD(plinth_command_spec_t, since, 64, 8);
FIELD(plinth_command_spec_t, group, 72, 8);
FIELD(plinth_command_spec_t, args, 80, 8);
FIELD(plinth_command_spec_t, acl_categories, 88, 8);
FIELD(plinth_command_spec_t, keys, 96, 8);
FIELD(plinth_command_spec_t, key_flags, 104, 4);

/* ---- plinth_command_info_t ---- */
MIN_SIZE(plinth_command_info_t, 40);
FIELD(plinth_command_info_t, struct_size, 0, 4);
FIELD(plinth_command_info_t, id, 4, 4);
FIELD(plinth_command_info_t, name, 8, 8);
FIELD(plinth_command_info_t, acl_categories, 16, 8);
FIELD(plinth_command_info_t, flags, 24, 4);
FIELD(plinth_command_info_t, parent, 28, 4);
FIELD(plinth_command_info_t, subcommands, 32, 4);
FIELD(plinth_command_info_t, arity, 36, 4);

/* ---- plinth_key_ref_t (frozen as an array element) ---- */
_Static_assert(sizeof(plinth_key_ref_t) == 8, "plinth_key_ref_t changed");
FIELD(plinth_key_ref_t, index, 0, 4);
FIELD(plinth_key_ref_t, flags, 4, 4);

/* ---- plinth_acl_provider_t ---- */
MIN_SIZE(plinth_acl_provider_t, 64);
FIELD(plinth_acl_provider_t, struct_size, 0, 4);
FIELD(plinth_acl_provider_t, ctx, 8, 8);
FIELD(plinth_acl_provider_t, authenticate, 16, 8);
FIELD(plinth_acl_provider_t, check, 24, 8);
FIELD(plinth_acl_provider_t, check_key, 32, 8);
FIELD(plinth_acl_provider_t, user_name, 40, 8);
FIELD(plinth_acl_provider_t, requirepass, 48, 8);
FIELD(plinth_acl_provider_t, user_exists, 56, 8);

/* ---- plinth_reply_item_t ---- */
MIN_SIZE(plinth_reply_item_t, 48);
FIELD(plinth_reply_item_t, struct_size, 0, 4);
FIELD(plinth_reply_item_t, type, 4, 4);
FIELD(plinth_reply_item_t, integer, 8, 8);
FIELD(plinth_reply_item_t, dbl, 16, 8);
FIELD(plinth_reply_item_t, data, 24, 8);
FIELD(plinth_reply_item_t, len, 32, 8);
FIELD(plinth_reply_item_t, ext, 40, 8);

/* ---- plinth_outbuf_t ---- */
MIN_SIZE(plinth_outbuf_t, 40);
FIELD(plinth_outbuf_t, data, 0, 8);
FIELD(plinth_outbuf_t, len, 8, 8);
FIELD(plinth_outbuf_t, cap, 16, 8);
FIELD(plinth_outbuf_t, grow, 24, 8);
FIELD(plinth_outbuf_t, host_private, 32, 8);

/* ---- plinth_request_t ---- */
MIN_SIZE(plinth_request_t, 24);
FIELD(plinth_request_t, struct_size, 0, 4);
FIELD(plinth_request_t, argc, 4, 4);
FIELD(plinth_request_t, argv, 8, 8);
FIELD(plinth_request_t, argvlen, 16, 8);

/* ---- plinth_protocol_spec_t ---- */
MIN_SIZE(plinth_protocol_spec_t, 64);
FIELD(plinth_protocol_spec_t, struct_size, 0, 4);
FIELD(plinth_protocol_spec_t, name, 8, 8);
FIELD(plinth_protocol_spec_t, ctx, 16, 8);
FIELD(plinth_protocol_spec_t, session_create, 24, 8);
FIELD(plinth_protocol_spec_t, session_destroy, 32, 8);
FIELD(plinth_protocol_spec_t, parse, 40, 8);
FIELD(plinth_protocol_spec_t, encode, 48, 8);
FIELD(plinth_protocol_spec_t, frame_bulk, 56, 8);

/* ---- plinth_iovec_t ---- */
MIN_SIZE(plinth_iovec_t, 16);
FIELD(plinth_iovec_t, base, 0, 8);
FIELD(plinth_iovec_t, len, 8, 8);

/* ---- plinth_transport_spec_t ---- */
MIN_SIZE(plinth_transport_spec_t, 88);
FIELD(plinth_transport_spec_t, struct_size, 0, 4);
FIELD(plinth_transport_spec_t, name, 8, 8);
FIELD(plinth_transport_spec_t, ctx, 16, 8);
FIELD(plinth_transport_spec_t, start, 24, 8);
FIELD(plinth_transport_spec_t, stop, 32, 8);
FIELD(plinth_transport_spec_t, accept, 40, 8);
FIELD(plinth_transport_spec_t, read, 48, 8);
FIELD(plinth_transport_spec_t, writev, 56, 8);
FIELD(plinth_transport_spec_t, close, 64, 8);
FIELD(plinth_transport_spec_t, flags, 72, 4);
FIELD(plinth_transport_spec_t, attach, 80, 8);

/* ---- plinth_reply_value_info_t ---- */
MIN_SIZE(plinth_reply_value_info_t, 32);
FIELD(plinth_reply_value_info_t, struct_size, 0, 4);
FIELD(plinth_reply_value_info_t, transport_flags, 4, 4);
FIELD(plinth_reply_value_info_t, len, 8, 8);
FIELD(plinth_reply_value_info_t, transport, 16, 8);
FIELD(plinth_reply_value_info_t, io_threads_active, 24, 4);

/* ---- plinth_reply_path_spec_t ---- */
MIN_SIZE(plinth_reply_path_spec_t, 32);
FIELD(plinth_reply_path_spec_t, struct_size, 0, 4);
FIELD(plinth_reply_path_spec_t, name, 8, 8);
FIELD(plinth_reply_path_spec_t, ctx, 16, 8);
FIELD(plinth_reply_path_spec_t, by_reference, 24, 8);

/* ---- plinth_stream_consumer_spec_t ---- */
MIN_SIZE(plinth_stream_consumer_spec_t, 32);
FIELD(plinth_stream_consumer_spec_t, struct_size, 0, 4);
FIELD(plinth_stream_consumer_spec_t, name, 8, 8);
FIELD(plinth_stream_consumer_spec_t, ctx, 16, 8);
FIELD(plinth_stream_consumer_spec_t, on_batch, 24, 8);

/* ---- plinth_option_spec_t ---- */
MIN_SIZE(plinth_option_spec_t, 80);
FIELD(plinth_option_spec_t, struct_size, 0, 4);
FIELD(plinth_option_spec_t, name, 8, 8);
FIELD(plinth_option_spec_t, type, 16, 4);
FIELD(plinth_option_spec_t, flags, 20, 4);
FIELD(plinth_option_spec_t, default_value, 24, 8);
FIELD(plinth_option_spec_t, min, 32, 8);
FIELD(plinth_option_spec_t, max, 40, 8);
FIELD(plinth_option_spec_t, enum_values, 48, 8);
FIELD(plinth_option_spec_t, description, 56, 8);
FIELD(plinth_option_spec_t, apply, 64, 8);
FIELD(plinth_option_spec_t, ctx, 72, 8);

/* ---- plinth_type_spec_t ---- */
MIN_SIZE(plinth_type_spec_t, 88);
FIELD(plinth_type_spec_t, struct_size, 0, 4);
FIELD(plinth_type_spec_t, name, 8, 8);
FIELD(plinth_type_spec_t, free_payload, 16, 8);
FIELD(plinth_type_spec_t, memory_usage, 24, 8);
FIELD(plinth_type_spec_t, rdb_save, 32, 8);
FIELD(plinth_type_spec_t, copy, 40, 8);
FIELD(plinth_type_spec_t, encoding, 48, 8);
FIELD(plinth_type_spec_t, free_effort, 56, 8);
FIELD(plinth_type_spec_t, rdb_load, 64, 8);
FIELD(plinth_type_spec_t, rdb_type, 72, 4);
FIELD(plinth_type_spec_t, visit, 80, 8);

/* ---- plinth_rdb_io_t ---- */
MIN_SIZE(plinth_rdb_io_t, 80);
FIELD(plinth_rdb_io_t, struct_size, 0, 4);
FIELD(plinth_rdb_io_t, ctx, 8, 8);
FIELD(plinth_rdb_io_t, write_len, 16, 8);
FIELD(plinth_rdb_io_t, write_string, 24, 8);
FIELD(plinth_rdb_io_t, write_double, 32, 8);
FIELD(plinth_rdb_io_t, read_len, 40, 8);
FIELD(plinth_rdb_io_t, read_string, 48, 8);
FIELD(plinth_rdb_io_t, read_double, 56, 8);
FIELD(plinth_rdb_io_t, write_raw, 64, 8);
FIELD(plinth_rdb_io_t, read_raw, 72, 8);

/* ---- plinth_host_api_t ---- */
MIN_SIZE(plinth_host_api_t, 1328);
FIELD(plinth_host_api_t, struct_size, 0, 4);
FIELD(plinth_host_api_t, abi_major, 4, 4);
FIELD(plinth_host_api_t, abi_minor, 8, 4);
FIELD(plinth_host_api_t, reserved0, 12, 4);
FIELD(plinth_host_api_t, log_write, 16, 8);
FIELD(plinth_host_api_t, mem_alloc, 24, 8);
FIELD(plinth_host_api_t, mem_realloc, 32, 8);
FIELD(plinth_host_api_t, mem_free, 40, 8);
FIELD(plinth_host_api_t, command_register, 48, 8);
FIELD(plinth_host_api_t, protocol_register, 56, 8);
FIELD(plinth_host_api_t, transport_register, 64, 8);
FIELD(plinth_host_api_t, reply_path_register, 72, 8);
FIELD(plinth_host_api_t, stream_consumer_register, 80, 8);
FIELD(plinth_host_api_t, option_register, 88, 8);
FIELD(plinth_host_api_t, info_register, 96, 8);
FIELD(plinth_host_api_t, type_register, 104, 8);
FIELD(plinth_host_api_t, option_find, 112, 8);
FIELD(plinth_host_api_t, option_int, 120, 8);
FIELD(plinth_host_api_t, option_string, 128, 8);
FIELD(plinth_host_api_t, info_field, 136, 8);
FIELD(plinth_host_api_t, info_field_int, 144, 8);
FIELD(plinth_host_api_t, timer_start, 152, 8);
FIELD(plinth_host_api_t, timer_stop, 160, 8);
FIELD(plinth_host_api_t, loop_post, 168, 8);
FIELD(plinth_host_api_t, listener_add, 176, 8);
FIELD(plinth_host_api_t, call_argc, 184, 8);
FIELD(plinth_host_api_t, call_arg, 192, 8);
FIELD(plinth_host_api_t, reply_simple, 200, 8);
FIELD(plinth_host_api_t, reply_error, 208, 8);
FIELD(plinth_host_api_t, reply_integer, 216, 8);
FIELD(plinth_host_api_t, reply_bulk, 224, 8);
FIELD(plinth_host_api_t, reply_null, 232, 8);
FIELD(plinth_host_api_t, reply_null_array, 240, 8);
FIELD(plinth_host_api_t, reply_array, 248, 8);
FIELD(plinth_host_api_t, reply_map, 256, 8);
FIELD(plinth_host_api_t, reply_set, 264, 8);
FIELD(plinth_host_api_t, reply_double, 272, 8);
FIELD(plinth_host_api_t, reply_bool, 280, 8);
FIELD(plinth_host_api_t, reply_verbatim, 288, 8);
FIELD(plinth_host_api_t, reply_bignum, 296, 8);
FIELD(plinth_host_api_t, reply_value, 304, 8);
FIELD(plinth_host_api_t, reply_bulk_ref, 312, 8);
FIELD(plinth_host_api_t, value_create_string, 320, 8);
FIELD(plinth_host_api_t, value_create_typed, 328, 8);
FIELD(plinth_host_api_t, value_retain, 336, 8);
FIELD(plinth_host_api_t, value_release, 344, 8);
FIELD(plinth_host_api_t, value_type, 352, 8);
FIELD(plinth_host_api_t, value_string, 360, 8);
FIELD(plinth_host_api_t, value_payload, 368, 8);
FIELD(plinth_host_api_t, type_name, 376, 8);
FIELD(plinth_host_api_t, value_encoding, 384, 8);
FIELD(plinth_host_api_t, value_memory, 392, 8);
FIELD(plinth_host_api_t, key_get, 400, 8);
FIELD(plinth_host_api_t, key_set, 408, 8);
FIELD(plinth_host_api_t, key_delete, 416, 8);
FIELD(plinth_host_api_t, key_expire_get, 424, 8);
FIELD(plinth_host_api_t, key_expire_set, 432, 8);
FIELD(plinth_host_api_t, key_move, 440, 8);
FIELD(plinth_host_api_t, key_scan, 448, 8);
FIELD(plinth_host_api_t, key_random, 456, 8);
FIELD(plinth_host_api_t, db_size, 464, 8);
FIELD(plinth_host_api_t, db_flush, 472, 8);
FIELD(plinth_host_api_t, db_swap, 480, 8);
FIELD(plinth_host_api_t, db_current, 488, 8);
FIELD(plinth_host_api_t, db_count, 496, 8);
FIELD(plinth_host_api_t, replicate, 504, 8);
FIELD(plinth_host_api_t, call_no_propagate, 512, 8);
FIELD(plinth_host_api_t, client_id, 520, 8);
FIELD(plinth_host_api_t, client_select, 528, 8);
FIELD(plinth_host_api_t, client_protocol, 536, 8);
FIELD(plinth_host_api_t, client_set_protocol, 544, 8);
FIELD(plinth_host_api_t, client_attr_set, 552, 8);
FIELD(plinth_host_api_t, client_attr_get, 560, 8);
FIELD(plinth_host_api_t, client_authenticated, 568, 8);
FIELD(plinth_host_api_t, client_set_authenticated, 576, 8);
FIELD(plinth_host_api_t, client_close_after_reply, 584, 8);
FIELD(plinth_host_api_t, client_describe, 592, 8);
FIELD(plinth_host_api_t, client_kill, 600, 8);
FIELD(plinth_host_api_t, info_render, 608, 8);
FIELD(plinth_host_api_t, config_get, 616, 8);
FIELD(plinth_host_api_t, config_set, 624, 8);
FIELD(plinth_host_api_t, stats_reset, 632, 8);
FIELD(plinth_host_api_t, command_count, 640, 8);
FIELD(plinth_host_api_t, command_at, 648, 8);
FIELD(plinth_host_api_t, command_lookup, 656, 8);
FIELD(plinth_host_api_t, plugin_count, 664, 8);
FIELD(plinth_host_api_t, plugin_at, 672, 8);
FIELD(plinth_host_api_t, server_shutdown, 680, 8);
FIELD(plinth_host_api_t, time_us, 688, 8);
FIELD(plinth_host_api_t, call_time_ms, 696, 8);
FIELD(plinth_host_api_t, key_string_resize, 704, 8);
FIELD(plinth_host_api_t, key_string_set, 712, 8);
FIELD(plinth_host_api_t, conn_notify, 720, 8);
FIELD(plinth_host_api_t, conn_released, 728, 8);
FIELD(plinth_host_api_t, client_reset, 736, 8);
FIELD(plinth_host_api_t, key_touched, 744, 8);
FIELD(plinth_host_api_t, key_payload_mut, 752, 8);
FIELD(plinth_host_api_t, value_encoding_name, 760, 8);
FIELD(plinth_host_api_t, key_unlink, 768, 8);
FIELD(plinth_host_api_t, keyspace_event, 776, 8);
FIELD(plinth_host_api_t, keyspace_listener_register, 784, 8);
FIELD(plinth_host_api_t, call_block, 792, 8);
FIELD(plinth_host_api_t, call_block_state, 800, 8);
FIELD(plinth_host_api_t, key_signal_ready, 808, 8);
FIELD(plinth_host_api_t, client_push, 816, 8);
FIELD(plinth_host_api_t, client_set_subscriptions, 824, 8);
FIELD(plinth_host_api_t, client_subscriptions, 832, 8);
FIELD(plinth_host_api_t, client_listener_register, 840, 8);
FIELD(plinth_host_api_t, reply_push, 848, 8);
FIELD(plinth_host_api_t, value_visit, 856, 8);
FIELD(plinth_host_api_t, stream_offset, 864, 8);
FIELD(plinth_host_api_t, stream_reselect, 872, 8);
FIELD(plinth_host_api_t, stream_consumer_active, 880, 8);
FIELD(plinth_host_api_t, before_sleep_register, 888, 8);
FIELD(plinth_host_api_t, db_visit, 896, 8);
FIELD(plinth_host_api_t, db_keys, 904, 8);
FIELD(plinth_host_api_t, db_total, 912, 8);
FIELD(plinth_host_api_t, value_rdb_save, 920, 8);
FIELD(plinth_host_api_t, value_rdb_load, 928, 8);
FIELD(plinth_host_api_t, key_load, 936, 8);
FIELD(plinth_host_api_t, db_flush_all, 944, 8);
FIELD(plinth_host_api_t, client_create_internal, 952, 8);
FIELD(plinth_host_api_t, client_exec, 960, 8);
FIELD(plinth_host_api_t, client_destroy_internal, 968, 8);
FIELD(plinth_host_api_t, server_set_loading, 976, 8);
FIELD(plinth_host_api_t, server_loading, 984, 8);
FIELD(plinth_host_api_t, server_shutdown_flags, 992, 8);
FIELD(plinth_host_api_t, server_dirty, 1000, 8);
FIELD(plinth_host_api_t, fork_child, 1008, 8);
FIELD(plinth_host_api_t, fork_done, 1016, 8);
FIELD(plinth_host_api_t, fork_active, 1024, 8);
FIELD(plinth_host_api_t, value_rdb_type, 1032, 8);
FIELD(plinth_host_api_t, replicate_db, 1040, 8);
FIELD(plinth_host_api_t, replicate_verbatim, 1048, 8);
FIELD(plinth_host_api_t, call_no_reply, 1056, 8);
FIELD(plinth_host_api_t, client_set_replica, 1064, 8);
FIELD(plinth_host_api_t, client_write_raw, 1072, 8);
FIELD(plinth_host_api_t, client_output_pending, 1080, 8);
FIELD(plinth_host_api_t, client_close, 1088, 8);
FIELD(plinth_host_api_t, server_refuse, 1096, 8);
FIELD(plinth_host_api_t, server_expiry_passive, 1104, 8);
FIELD(plinth_host_api_t, client_wake, 1112, 8);
FIELD(plinth_host_api_t, server_run_id, 1120, 8);
FIELD(plinth_host_api_t, call_command, 1128, 8);
FIELD(plinth_host_api_t, call_yield, 1136, 8);
FIELD(plinth_host_api_t, server_stopping, 1144, 8);
FIELD(plinth_host_api_t, key_access, 1152, 8);
FIELD(plinth_host_api_t, memory_report, 1160, 8);
FIELD(plinth_host_api_t, command_observer_register, 1168, 8);
FIELD(plinth_host_api_t, command_observer_set, 1176, 8);
FIELD(plinth_host_api_t, clients_pause, 1184, 8);
FIELD(plinth_host_api_t, command_ids, 1192, 8);
FIELD(plinth_host_api_t, command_info, 1200, 8);
FIELD(plinth_host_api_t, command_find, 1208, 8);
FIELD(plinth_host_api_t, command_keys, 1216, 8);
FIELD(plinth_host_api_t, acl_provider_register, 1224, 8);
FIELD(plinth_host_api_t, acl_user_update, 1232, 8);
FIELD(plinth_host_api_t, acl_default_user, 1240, 8);
FIELD(plinth_host_api_t, client_authenticate, 1248, 8);
FIELD(plinth_host_api_t, client_user, 1256, 8);
FIELD(plinth_host_api_t, acl_check_command, 1264, 8);
FIELD(plinth_host_api_t, acl_check_key, 1272, 8);
FIELD(plinth_host_api_t, server_active_expire, 1280, 8);
FIELD(plinth_host_api_t, config_rewrite, 1288, 8);
FIELD(plinth_host_api_t, key_change_listener_register, 1296, 8);
FIELD(plinth_host_api_t, key_change_listener_set, 1304, 8);
FIELD(plinth_host_api_t, client_info_int, 1312, 8);
FIELD(plinth_host_api_t, acl_user_exists, 1320, 8);

/* ---- plinth_command_event_t ---- */
MIN_SIZE(plinth_command_event_t, 104);
FIELD(plinth_command_event_t, struct_size, 0, 4);
FIELD(plinth_command_event_t, flags, 4, 4);
FIELD(plinth_command_event_t, client_id, 8, 8);
FIELD(plinth_command_event_t, db, 16, 4);
FIELD(plinth_command_event_t, argc, 20, 4);
FIELD(plinth_command_event_t, argv, 24, 8);
FIELD(plinth_command_event_t, argvlen, 32, 8);
FIELD(plinth_command_event_t, name, 40, 8);
FIELD(plinth_command_event_t, cmd_flags, 48, 4);
FIELD(plinth_command_event_t, start_us, 56, 8);
FIELD(plinth_command_event_t, duration_us, 64, 8);
FIELD(plinth_command_event_t, addr, 72, 8);
FIELD(plinth_command_event_t, addr_len, 80, 8);
FIELD(plinth_command_event_t, client_name, 88, 8);
FIELD(plinth_command_event_t, client_name_len, 96, 8);

/* ---- plinth_stream_batch_t ---- */
MIN_SIZE(plinth_stream_batch_t, 32);
FIELD(plinth_stream_batch_t, struct_size, 0, 4);
FIELD(plinth_stream_batch_t, offset, 8, 8);
FIELD(plinth_stream_batch_t, data, 16, 8);
FIELD(plinth_stream_batch_t, len, 24, 8);

/* ---- constants ---- */
CONST(PLINTH_ABI_MAJOR, 1);
/* PLINTH_ABI_MINOR grows with each minor release; it is not frozen. */
CONST(PLINTH_OK, 0);
CONST(PLINTH_ERR, (-1));
CONST(PLINTH_PLUGIN_OPTIONAL_HINT, 0x1u);
CONST(PLINTH_CMD_WRITE, 0x0001u);
CONST(PLINTH_CMD_READONLY, 0x0002u);
CONST(PLINTH_CMD_FAST, 0x0004u);
CONST(PLINTH_CMD_ADMIN, 0x0008u);
CONST(PLINTH_CMD_NOAUTH, 0x0010u);
CONST(PLINTH_CMD_DENYOOM, 0x0020u);
CONST(PLINTH_CMD_NOSCRIPT, 0x0040u);
CONST(PLINTH_CMD_LOADING, 0x0080u);
CONST(PLINTH_CMD_STALE, 0x0100u);
CONST(PLINTH_CMD_PUBSUB, 0x0200u);
CONST(PLINTH_CMD_NOPROPAGATE, 0x0400u);
CONST(PLINTH_CMD_SKIP_MULTI, 0x0800u);
CONST(PLINTH_INTERNAL_NO_PROPAGATE, 0x1u);
CONST(PLINTH_CMD_BLOCKING, 0x1000u);
CONST(PLINTH_CMD_SUBSCRIBER, 0x2000u);
CONST(PLINTH_CMD_NO_MULTI, 0x4000u);
CONST(PLINTH_CMD_ALLOW_BUSY, 0x8000u);
CONST(PLINTH_RUN_SCRIPT, 0x1u);
CONST(PLINTH_RUN_NO_WRITES, 0x2u);
CONST(PLINTH_RUN_NO_PROPAGATE, 0x4u);
CONST(PLINTH_RUN_RESP3, 0x8u);
CONST(PLINTH_CLIENT_CLOSED, 1u);
CONST(PLINTH_EVENT_NESTED, 0x1u);
CONST(PLINTH_EVENT_RERUN, 0x2u);
CONST(PLINTH_EVENT_INTERNAL, 0x4u);
CONST(PLINTH_CMD_MAY_REPLICATE, 0x20000u);
CONST(PLINTH_CMD_PROTECTED, 0x40000u);
CONST(PLINTH_ACL_KEYSPACE, 1ull << 0);
CONST(PLINTH_ACL_SCRIPTING, 1ull << 20);
CONST(PLINTH_ACL_CATEGORY_COUNT, 21);
CONST(PLINTH_KEY_READ, 0x1u);
CONST(PLINTH_KEY_WRITE, 0x2u);
CONST(PLINTH_KEY_CHANNEL, 0x4u);
CONST(PLINTH_KEY_PATTERN, 0x8u);
CONST(PLINTH_AUTH_NOPASS, 1);
CONST(PLINTH_ACL_CONTEXT_TOPLEVEL, 0u);
CONST(PLINTH_ACL_CONTEXT_MULTI, 1u);
CONST(PLINTH_ACL_CONTEXT_SCRIPT, 2u);
CONST(PLINTH_CLIENT_NO_TOUCH, 4);
CONST(PLINTH_CLIENT_INFO_PROTOCOL, 1);
CONST(PLINTH_CLIENT_INFO_SUBSCRIPTIONS, 2);
CONST(PLINTH_PAUSE_NONE, 0u);
CONST(PLINTH_PAUSE_WRITE, 1u);
CONST(PLINTH_PAUSE_ALL, 2u);
CONST(PLINTH_CLIENT_RESET, 2u);
CONST(PLINTH_RDB_LIST, 1u);
CONST(PLINTH_RDB_SET, 2u);
CONST(PLINTH_RDB_HASH, 4u);
CONST(PLINTH_RDB_ZSET_2, 5u);
CONST(PLINTH_RDB_STREAM_LISTPACKS, 15u);
CONST(PLINTH_RDB_STREAM_LISTPACKS_2, 19u);
CONST(PLINTH_RDB_STREAM_LISTPACKS_3, 21u);
CONST(PLINTH_NOTIFY_KEYSPACE, 0x1u);
CONST(PLINTH_NOTIFY_KEYEVENT, 0x2u);
CONST(PLINTH_NOTIFY_GENERIC, 0x4u);
CONST(PLINTH_NOTIFY_STRING, 0x8u);
CONST(PLINTH_NOTIFY_LIST, 0x10u);
CONST(PLINTH_NOTIFY_SET, 0x20u);
CONST(PLINTH_NOTIFY_HASH, 0x40u);
CONST(PLINTH_NOTIFY_ZSET, 0x80u);
CONST(PLINTH_NOTIFY_EXPIRED, 0x100u);
CONST(PLINTH_NOTIFY_EVICTED, 0x200u);
CONST(PLINTH_NOTIFY_STREAM, 0x400u);
CONST(PLINTH_NOTIFY_KEY_MISS, 0x800u);
CONST(PLINTH_NOTIFY_MODULE, 0x2000u);
CONST(PLINTH_NOTIFY_NEW, 0x4000u);
CONST(PLINTH_BLOCK_NONE, 0);
CONST(PLINTH_BLOCK_WOKEN, 1);
CONST(PLINTH_BLOCK_TIMEOUT, 2);
CONST(PLINTH_REPLY_SIMPLE, 1);
CONST(PLINTH_REPLY_ERROR, 2);
CONST(PLINTH_REPLY_INTEGER, 3);
CONST(PLINTH_REPLY_BULK, 4);
CONST(PLINTH_REPLY_NULL, 5);
CONST(PLINTH_REPLY_NULL_ARRAY, 6);
CONST(PLINTH_REPLY_ARRAY, 7);
CONST(PLINTH_REPLY_MAP, 8);
CONST(PLINTH_REPLY_SET, 9);
CONST(PLINTH_REPLY_DOUBLE, 10);
CONST(PLINTH_REPLY_BOOL, 11);
CONST(PLINTH_REPLY_VERBATIM, 12);
CONST(PLINTH_REPLY_BIGNUM, 13);
CONST(PLINTH_REPLY_PUSH, 14);
CONST(PLINTH_PARSE_OK, 0);
CONST(PLINTH_PARSE_NEED_MORE, 1);
CONST(PLINTH_PARSE_ERROR, 2);
CONST(PLINTH_PARSE_EMPTY, 3);
CONST(PLINTH_PARSE_UNAUTHENTICATED, 0x1u);
CONST(PLINTH_IO_AGAIN, (-1));
CONST(PLINTH_IO_ERROR, (-2));
CONST(PLINTH_CONN_LOCAL, 0x1u);
CONST(PLINTH_CONN_UNIX, 0x2u);
CONST(PLINTH_TRANSPORT_HOLDS_BUFFERS, 0x1u);
CONST(PLINTH_TRANSPORT_POLL_READ_ONLY, 0x2u);
CONST(PLINTH_CONN_READABLE, 0x1u);
CONST(PLINTH_CONN_WRITABLE, 0x2u);
CONST(PLINTH_CONN_CLOSED, 0x4u);
CONST(PLINTH_REPLICATE_NO_VALIDATE, 0x1u);
CONST(PLINTH_REFUSE_WRITES, 1u);
CONST(PLINTH_REFUSE_STALE, 2u);
CONST(PLINTH_OPT_STRING, 1);
CONST(PLINTH_OPT_INT, 2);
CONST(PLINTH_OPT_BOOL, 3);
CONST(PLINTH_OPT_MEMORY, 4);
CONST(PLINTH_OPT_ENUM, 5);
CONST(PLINTH_OPT_MUTABLE, 0x1u);
CONST(PLINTH_OPT_GLOBAL_NAME, 0x2u);
CONST(PLINTH_OPT_SECRET, 0x4u);
CONST(PLINTH_TYPE_NONE, 0u);
CONST(PLINTH_TYPE_STRING, 1u);
CONST(PLINTH_LOG_DEBUG, 0);
CONST(PLINTH_LOG_VERBOSE, 1);
CONST(PLINTH_LOG_NOTICE, 2);
CONST(PLINTH_LOG_WARNING, 3);
CONST(PLINTH_SET_KEEPTTL, 0x1u);
CONST(PLINTH_SET_NO_INT_ENCODING, 0x2u);
CONST(PLINTH_MOVE_NX, 0x1u);
CONST(PLINTH_MOVE_COPY, 0x2u);
CONST(PLINTH_MOVE_REPLACE, 0x4u);
CONST(PLINTH_CLIENT_NAME, 1);
CONST(PLINTH_CLIENT_LIB_NAME, 2);
CONST(PLINTH_CLIENT_LIB_VER, 3);
CONST(PLINTH_KILL_ID, 1);
CONST(PLINTH_KILL_ADDR, 2);
CONST(PLINTH_KILL_LADDR, 3);
CONST(PLINTH_ENC_RAW, 0);
CONST(PLINTH_ENC_INT, 1);
CONST(PLINTH_ENC_EMBSTR, 2);
CONST(PLINTH_SHUTDOWN_NOSAVE, 0x1u);
CONST(PLINTH_SHUTDOWN_SAVE, 0x2u);

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

int main(void) {
  if (strcmp(PLINTH_ENTRY_SYMBOL, "plinth_plugin_entry_v1") != 0) return 10;
  return check_plinth_has();
}
