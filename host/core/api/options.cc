// Host API of abi/options.h: config options (register, find, read; CONFIG GET, SET and REWRITE)
// and INFO sections and fields. Main thread.
#include <cstring>
#include <plinth/text.hpp>
#include <string>

#include "host/core/api.h"
#include "host/core/call.h"
#include "host/core/core.h"
#include "host/core/info.h"

namespace plinth::host {
namespace {

void InfoRenderApi(plinth_call_t* c, const char* section, size_t len, plinth_emit_fn emit,
                   void* arg) {
  std::string text =
      c->core->server.RenderInfo(std::string_view(section ? section : "", section ? len : 0));
  emit(arg, text.data(), text.size());
}

void ConfigGet(plinth_call_t* c, const char* pattern, size_t len, plinth_emit_fn emit, void* arg) {
  std::string_view pat(pattern ? pattern : "", pattern ? len : 0);
  // Like Redis: a name without glob characters is looked up and answered as it was typed.
  if (pat.find_first_of("*?[\\") == std::string_view::npos) {
    if (const Option* o = c->core->options.Find(pat)) {
      emit(arg, pat.data(), pat.size());
      emit(arg, o->value.data(), o->value.size());
    }
    return;
  }
  for (const auto& [name, o] : c->core->options.All()) {
    if (!text::GlobMatch(pat, name, true)) continue;
    emit(arg, name.data(), name.size());
    emit(arg, o.value.data(), o.value.size());
  }
}

int32_t ConfigSet(plinth_call_t* c, const char* name, size_t nlen, const char* value, size_t vlen,
                  char* err, size_t errlen) {
  std::string why;
  // A protected option: only when enable-protected-configs allows the client (a call with no
  // client, or a plugin's internal client, is the host's or that plugin's own, which may).
  const bool protected_ok =
      !c->session || c->session->internal || c->core->auth.ConfigAllowed(*c->session);
  if (c->core->options.Set({name, nlen}, {value, vlen}, true, &why, protected_ok)) return PLINTH_OK;
  if (err && errlen) std::snprintf(err, errlen, "%s", why.c_str());
  return PLINTH_ERR;
}

int32_t ConfigRewrite(plinth_call_t* c, char* err, size_t errlen) {
  Core& core = *c->core;
  std::string why;
  if (core.server.state.config_file.empty()) {
    why = "The server is running without a config file";
  } else if (core.server.env().process->RewriteConfig(core.server.state.config_file, &why)) {
    core.server.Log(LogLevel::kNotice, "CONFIG REWRITE executed with success.");
    return PLINTH_OK;
  }
  if (err && errlen) std::snprintf(err, errlen, "%s", why.c_str());
  return PLINTH_ERR;
}

const plinth_option_t* OptionRegister(plinth_plugin_t* self, const plinth_option_spec_t* spec) {
  if (!InInit(self, "option_register")) return nullptr;
  std::string err;
  if (Option* o = self->core->options.Register(spec, self->name, &err)) return o;
  Refused(self, err);
  return nullptr;
}

int32_t InfoRegister(plinth_plugin_t* self, const char* section, plinth_info_fn fn, void* ctx) {
  if (!InInit(self, "info_register")) return PLINTH_ERR;
  return Refused(self, self->core->listeners.AddInfoSection(section, fn, ctx, self->name));
}

const plinth_option_t* OptionFind(plinth_plugin_t* self, const char* name) {
  return self && name ? self->core->options.Find(name) : nullptr;
}

int64_t OptionInt(const plinth_option_t* o) { return o ? o->int_value : 0; }

const char* OptionString(const plinth_option_t* o, size_t* len) {
  if (len) *len = o ? o->value.size() : 0;
  return o ? o->value.c_str() : nullptr;
}

}  // namespace

void FillOptionsApi(plinth_host_api_t* t) {
  t->option_register = OptionRegister;
  t->info_register = InfoRegister;
  t->option_find = OptionFind;
  t->option_int = OptionInt;
  t->option_string = OptionString;
  t->info_field = InfoField;
  t->info_field_int = InfoFieldInt;
  t->info_render = InfoRenderApi;
  t->config_get = ConfigGet;
  t->config_set = ConfigSet;
  t->config_rewrite = ConfigRewrite;
}

}  // namespace plinth::host
