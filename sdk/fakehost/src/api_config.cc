// Host table, part 2: config options (register, read, CONFIG GET/SET) and INFO sections, plus
// FakeHost::SetOption and FakeHost::Info. Main thread.
#include <cctype>
#include <cstring>
#include <string>

#include "internal.h"
#include "options.h"

namespace plinth::fakehost {
namespace {

FakeHost::Impl* Current() { return g_current.load(); }

struct InfoSink {
  std::string* out;
};

bool ValidOptionName(const char* s) {
  if (!s || !*s) return false;
  for (const char* c = s; *c; ++c)
    if (!(std::islower(static_cast<unsigned char>(*c)) ||
          std::isdigit(static_cast<unsigned char>(*c)) || *c == '-'))
      return false;
  return std::strlen(s) <= 64;
}

void CopyOut(const std::string& text, char* buf, size_t buflen) {
  if (!buf || buflen == 0) return;
  size_t n = text.size() < buflen - 1 ? text.size() : buflen - 1;
  std::memcpy(buf, text.data(), n);
  buf[n] = '\0';
}

// Validates value for o, runs its apply callback and stores it. Returns false with a reason.
bool SetValue(OptionRec* o, std::string_view value, std::string* err) {
  std::string normalized;
  if (!NormalizeOption(o->spec, value, &normalized, err)) return false;
  if (o->spec.apply) {
    char buf[256] = "";
    if (o->spec.apply(o->spec.ctx, o->full_name.c_str(), normalized.c_str(), normalized.size(), buf,
                      sizeof buf) != PLINTH_OK) {
      *err = buf[0] ? buf : "rejected by the option's apply callback";
      return false;
    }
  }
  o->value = normalized;
  return true;
}

// CONFIG SET semantics: the option must exist and be mutable.
bool ConfigSet(FakeHost::Impl* h, std::string_view name, std::string_view value, std::string* err) {
  OptionRec* o = h->FindOption(name);
  if (!o) {
    *err = "unknown option '" + std::string(name) + "'";
    return false;
  }
  if (!(o->spec.flags & PLINTH_OPT_MUTABLE)) {
    *err = "can't set immutable config";
    return false;
  }
  return SetValue(o, value, err);
}

int32_t OptionRegister(plinth_plugin_t* self, const plinth_option_spec_t* spec) {
  PluginRec* p = RegisteringPlugin(self, "option_register");
  if (!p) return PLINTH_ERR;
  auto fail = [p](const std::string& why) {
    p->host->Log(p, PLINTH_LOG_WARNING, "option_register: " + why);
    return PLINTH_ERR;
  };
  auto rec = std::make_unique<OptionRec>();
  if (!CopySpec(spec, &rec->spec)) return fail("bad struct_size");
  plinth_option_spec_t& s = rec->spec;
  if (!ValidOptionName(s.name))
    return fail("invalid option name '" + std::string(s.name ? s.name : "") + "'");
  rec->short_name = s.name;
  rec->full_name =
      (s.flags & PLINTH_OPT_GLOBAL_NAME) ? rec->short_name : p->name + "." + rec->short_name;
  if (p->host->FindOption(rec->full_name))
    return fail("option '" + rec->full_name + "' already exists");
  if (s.type < PLINTH_OPT_STRING || s.type > PLINTH_OPT_ENUM)
    return fail("option '" + rec->full_name + "' has an unknown type");
  rec->default_value = s.default_value ? s.default_value : "";
  rec->enum_values = s.enum_values ? s.enum_values : "";
  rec->description = s.description ? s.description : "";
  s.name = rec->short_name.c_str();
  s.default_value = rec->default_value.c_str();
  s.enum_values = rec->enum_values.c_str();
  s.description = rec->description.c_str();
  auto configured = p->host->configured.find(rec->full_name);
  const bool from_config = configured != p->host->configured.end();
  std::string err;
  if (!SetValue(rec.get(), from_config ? configured->second : rec->default_value, &err))
    return fail(
        "option '" + rec->full_name + "': invalid " +
        (from_config ? "configured value '" + configured->second + "'" : std::string("default")) +
        ": " + err);
  rec->owner = p;
  p->host->options.push_back(std::move(rec));
  return PLINTH_OK;
}

int64_t OptionGetInt(const char* name, int64_t def) {
  FakeHost::Impl* h = Current();
  if (!h || !name) return def;
  int64_t v = def;
  if (const OptionRec* o = h->FindOption(name)) return OptionAsInt(o->spec, o->value, &v) ? v : def;
  auto it = h->configured.find(Lower(name));
  if (it != h->configured.end() && ParseInt64(it->second, &v)) return v;
  return def;
}

int64_t OptionGetString(const char* name, char* buf, size_t buflen) {
  FakeHost::Impl* h = Current();
  if (!h || !name) return -1;
  const std::string* text = nullptr;
  if (const OptionRec* o = h->FindOption(name)) {
    text = &o->value;
  } else {
    auto it = h->configured.find(Lower(name));
    if (it != h->configured.end()) text = &it->second;
  }
  if (!text) return -1;
  CopyOut(*text, buf, buflen);
  return static_cast<int64_t>(text->size());
}

void ConfigGet(plinth_call_t*, const char* pattern, size_t len, plinth_emit_fn emit, void* arg) {
  FakeHost::Impl* h = Current();
  if (!h || !emit) return;
  std::string_view pat(pattern ? pattern : "", pattern ? len : 0);
  for (const auto& o : h->options) {
    if (!GlobMatch(pat, o->full_name, true)) continue;
    emit(arg, o->full_name.data(), o->full_name.size());
    emit(arg, o->value.data(), o->value.size());
  }
}

int32_t ConfigSetFn(plinth_call_t*, const char* name, size_t nlen, const char* value, size_t vlen,
                    char* err, size_t errlen) {
  FakeHost::Impl* h = Current();
  std::string why;
  if (h && name && value &&
      ConfigSet(h, std::string_view(name, nlen), std::string_view(value, vlen), &why))
    return PLINTH_OK;
  CopyOut(h ? why : "no fake host", err, errlen);
  return PLINTH_ERR;
}

int32_t InfoRegister(plinth_plugin_t* self, const char* section, plinth_info_fn fn, void* ctx) {
  PluginRec* p = RegisteringPlugin(self, "info_register");
  if (!p) return PLINTH_ERR;
  if (!section || !*section || !fn) {
    p->host->Log(p, PLINTH_LOG_WARNING, "info_register: a section name and fn are required");
    return PLINTH_ERR;
  }
  std::string name = Lower(section);
  for (const auto& i : p->host->infos)
    if (i->section == name) {
      p->host->Log(p, PLINTH_LOG_WARNING, "info_register: section '" + name + "' exists");
      return PLINTH_ERR;
    }
  auto rec = std::make_unique<InfoRec>();
  rec->section = name;
  rec->fn = fn;
  rec->ctx = ctx;
  rec->owner = p;
  p->host->infos.push_back(std::move(rec));
  return PLINTH_OK;
}

void InfoField(plinth_info_t* info, const char* name, const char* value, size_t len) {
  auto* sink = reinterpret_cast<InfoSink*>(info);
  if (!sink || !name) return;
  *sink->out += std::string(name) + ":" + std::string(value ? value : "", value ? len : 0) + "\r\n";
}

void InfoFieldInt(plinth_info_t* info, const char* name, int64_t value) {
  std::string text = std::to_string(value);
  InfoField(info, name, text.data(), text.size());
}

void InfoRender(plinth_call_t*, const char* section, size_t len, plinth_emit_fn emit, void* arg) {
  FakeHost::Impl* h = Current();
  if (!h || !emit) return;
  std::string out;
  h->RenderInfo(std::string_view(section ? section : "", section ? len : 0), &out);
  emit(arg, out.data(), out.size());
}

}  // namespace

void FakeHost::Impl::RenderInfo(std::string_view section, std::string* out) {
  const std::string want = Lower(section);
  const bool all = want.empty() || want == "default" || want == "all" || want == "everything";
  for (const auto& i : infos) {
    if (!all && i->section != want) continue;
    if (!out->empty()) *out += "\r\n";
    std::string title = i->section;
    title[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(title[0])));
    *out += "# " + title + "\r\n";
    InfoSink sink{out};
    i->fn(i->ctx, reinterpret_cast<plinth_info_t*>(&sink));
  }
}

bool FakeHost::SetOption(std::string_view name, std::string_view value, std::string* error) {
  g_current.store(impl_.get());
  std::string why;
  if (!impl_->FindOption(name)) {
    impl_->configured[Lower(name)] = std::string(value);
    return true;
  }
  if (ConfigSet(impl_.get(), name, value, &why)) return true;
  if (error) *error = why;
  return false;
}

void FillConfigApi(plinth_host_api_t* t) {
  t->option_register = OptionRegister;
  t->info_register = InfoRegister;
  t->option_get_int = OptionGetInt;
  t->option_get_string = OptionGetString;
  t->info_field = InfoField;
  t->info_field_int = InfoFieldInt;
  t->info_render = InfoRender;
  t->config_get = ConfigGet;
  t->config_set = ConfigSetFn;
}

}  // namespace plinth::fakehost
