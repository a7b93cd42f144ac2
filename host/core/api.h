// The host API table handed to every plugin's init. Main thread builds it once. Its functions
// live in api/<name>.cc, one file for each ABI header sdk/include/plinth/abi/<name>.h.
#pragma once

#include <plinth/plugin.h>

#include <string>

namespace plinth::host {

// The table (built on first use), the same for every core: each function finds its core
// through its call, plugin or timer handle. Every v1.0 field is set. (api/host_api.cc)
const plinth_host_api_t* HostApi();

// Fill the functions of one ABI header's concept into the table (api/<name>.cc).
void FillBaseApi(plinth_host_api_t* t);  // logging, memory, timers, the call, the client, server
void FillCommandsApi(plinth_host_api_t* t);   // registration, commands as data, running, blocking
void FillRepliesApi(plinth_host_api_t* t);    // reply_*
void FillReplyPathApi(plinth_host_api_t* t);  // the reply path, replies by reference
void FillTypesApi(plinth_host_api_t* t);      // value types, values, keys, databases, memory
void FillEventsApi(plinth_host_api_t* t);     // listeners, observers, keyspace events
void FillStreamApi(plinth_host_api_t* t);     // propagation, consumers, the snapshot child
void FillTransportApi(plinth_host_api_t* t);  // transports, listeners, raw client output
void FillProtocolApi(plinth_host_api_t* t);   // the protocol, pushes, subscriptions, reset
void FillOptionsApi(plinth_host_api_t* t);    // options, CONFIG, INFO
void FillAclApi(plinth_host_api_t* t);        // the ACL provider, users, authentication

// Whether self's init is running (registration is allowed only then); logs the refusal of
// what otherwise. Main thread. (api/host_api.cc)
bool InInit(plinth_plugin_t* self, const char* what);

// A register function's answer: PLINTH_OK when why is empty, else logs why (and keeps it as
// the plugin's init warning while its init runs) and returns PLINTH_ERR. (api/host_api.cc)
int32_t Refused(plinth_plugin_t* self, const std::string& why);

// Stops and frees a timer (timer_stop) through the scheduler that started it. (api/base.cc)
void TimerStop(plinth_timer_t* timer);

// reply_null and reply_bulk, which reply_value falls back to. Main thread. (api/replies.cc)
void ReplyNull(plinth_call_t* c);
void ReplyBulk(plinth_call_t* c, const char* s, size_t n);

// The internal client's functions (client_create_internal, client_exec,
// client_destroy_internal), with the client itself in internal_client.cc. Main thread.
plinth_client_t* ClientCreateInternal(plinth_plugin_t* self, uint32_t flags);
int32_t ClientExec(plinth_client_t* c, int32_t argc, const char* const* argv, const size_t* argvlen,
                   char* err, size_t errlen);
void ClientDestroyInternal(plinth_client_t* c);

}  // namespace plinth::host
