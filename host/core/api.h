// The host API table handed to every plugin's init. Main thread builds it once.
#pragma once

#include <plinth/plugin.h>

namespace plinth::host {

// The table (built on first use), the same for every core: each function finds its core
// through its call, plugin or timer handle. Every v1.0 field is set.
const plinth_host_api_t* HostApi();

// Fill the functions of one area into the table (api_*.cc).
void FillCallApi(plinth_host_api_t* t);            // arguments, replies, keys, values, client
void FillServerApi(plinth_host_api_t* t);          // registration, options, timers, logging
void FillClientApi(plinth_host_api_t* t);          // client, propagation, info, config, server
void FillTypeApi(plinth_host_api_t* t);            // writable payloads, encodings, unlink, events
void FillBlockingApi(plinth_host_api_t* t);        // blocking commands
void FillPubsubApi(plinth_host_api_t* t);          // other clients: push, subscriptions, events
void FillPersistApi(plinth_host_api_t* t);         // stream, snapshots, loading, the snapshot child
void FillInternalClientApi(plinth_host_api_t* t);  // trusted clients of plugins
void FillReplicationApi(plinth_host_api_t* t);     // replicate, replica clients, refusals
void FillRunApi(plinth_host_api_t* t);             // commands run by plugins, scripts
void FillMemoryApi(plinth_host_api_t* t);          // access stamps, memory reports
void FillObserveApi(plinth_host_api_t* t);         // command observers
void FillPauseApi(plinth_host_api_t* t);           // client pauses
void FillAclApi(plinth_host_api_t* t);             // commands as data, access control
void FillKeyChangeApi(plinth_host_api_t* t);       // key change listeners, other clients' facts

// Whether self's init is running (registration is allowed only then); logs the refusal of
// what otherwise. Main thread.
bool InInit(plinth_plugin_t* self, const char* what);

// Stops and frees a timer (timer_stop) through the env that started it.
void TimerStop(plinth_timer_t* timer);

}  // namespace plinth::host
