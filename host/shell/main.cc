// plinth-server: parses the command line and config file, loads the plugins in order, and runs
// the server. With no arguments it serves 127.0.0.1:6379 with the default plugin set.
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "host/core/version.h"
#include "host/shell/config_file.h"
#include "host/shell/log.h"
#include "host/shell/server.h"

namespace plinth::host {
namespace {

struct Args {
  std::string config;
  std::vector<PluginRequest> plugins;
  std::vector<std::pair<std::string, std::string>> options;
  bool defaults = true;
  bool help = false;
  bool version = false;
};

void Usage(FILE* f) {
  std::fprintf(f,
               "Usage: plinth-server [--config file.json] [--plugin path-or-name]...\n"
               "                     [--plugin-optional path-or-name]... [--no-default-plugins]\n"
               "                     [--<option> value [value]...]... [--version] [--help]\n");
}

bool ParseArgs(int argc, char** argv, Args* a, std::string* err) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      a->help = true;
    } else if (arg == "--version" || arg == "-v") {
      a->version = true;
    } else if (arg == "--no-default-plugins") {
      a->defaults = false;
    } else if (arg.rfind("--", 0) == 0 && arg.size() > 2) {
      std::string name = arg.substr(2), value;
      size_t eq = name.find('=');
      if (eq != std::string::npos) {
        value = name.substr(eq + 1);
        name.resize(eq);
      } else if (i + 1 < argc) {
        // As Redis: the words up to the next --option are one value ("--replicaof host port").
        value = argv[++i];
        while (i + 1 < argc && std::string_view(argv[i + 1]).rfind("--", 0) != 0)
          value.append(" ").append(argv[++i]);
      } else {
        *err = "option --" + name + " needs a value";
        return false;
      }
      if (name == "config") {
        a->config = value;
      } else if (name == "plugin" || name == "plugin-optional") {
        PluginRequest r;
        r.spec = value;
        r.optional = name == "plugin-optional";
        a->plugins.push_back(r);
      } else {
        a->options.emplace_back(name, value);
      }
    } else {
      *err = "unexpected argument '" + arg + "'";
      return false;
    }
  }
  return true;
}

// The running binary's path ("" when unknown).
std::string ExePath() {
  char buf[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return "";
  buf[n] = 0;
  return buf;
}

const char* TypeText(uint32_t t) {
  switch (t) {
    case PLINTH_OPT_INT:
      return "int";
    case PLINTH_OPT_BOOL:
      return "yes|no";
    case PLINTH_OPT_MEMORY:
      return "bytes";
    case PLINTH_OPT_ENUM:
      return "enum";
  }
  return "string";
}

// The default plugin set (plugins/default_set.txt, compiled in), in load order.
std::vector<std::string> DefaultPlugins() {
  std::vector<std::string> out;
  std::string_view all = PLINTH_DEFAULT_PLUGINS;
  while (!all.empty()) {
    const size_t space = all.find(' ');
    out.emplace_back(all.substr(0, space));
    all = space == std::string_view::npos ? std::string_view() : all.substr(space + 1);
  }
  return out;
}

void PrintHelp(const Core& core) {
  Usage(stdout);
  std::printf("\nDefault plugins (unless --no-default-plugins or a config file's list):\n ");
  std::printf(" %s", PLINTH_DEFAULT_PLUGINS);
  std::printf("\n\nPlugins loaded:\n");
  for (const auto& p : core.plugins.loaded())
    std::printf("  %-12s %-8s %s\n", p->name.c_str(),
                p->descriptor.version ? p->descriptor.version : "",
                p->descriptor.description ? p->descriptor.description : "");
  std::printf("\nOptions (--name value, the config file, CONFIG GET/SET):\n");
  for (const auto& [name, o] : core.options.All()) {
    std::string type = o.type == PLINTH_OPT_ENUM ? o.enum_values : TypeText(o.type);
    std::string def = (o.flags & PLINTH_OPT_SECRET) ? "(hidden)" : "\"" + o.default_value + "\"";
    std::printf("  --%-28s %-8s default %s%s [%s]\n      %s\n", name.c_str(), type.c_str(),
                def.c_str(), (o.flags & PLINTH_OPT_MUTABLE) ? ", mutable" : "", o.owner.c_str(),
                o.description.c_str());
  }
}

int Main(int argc, char** argv) {
  Args args;
  std::string err;
  if (!ParseArgs(argc, argv, &args, &err)) {
    std::fprintf(stderr, "plinth-server: %s\n", err.c_str());
    Usage(stderr);
    return 1;
  }
  if (args.version) {
    std::printf("plinth-server v=%s abi=%d.%d redis-compat=%s\n", kPlinthVersion, PLINTH_ABI_MAJOR,
                PLINTH_ABI_MINOR, kRedisCompatVersion);
    return 0;
  }
  // Never destroyed: plugin threads may still post while the process exits.
  static Shell* const shell_ptr = new Shell();
  Shell& shell = *shell_ptr;
  Core& s = shell.core;
  s.server.state.executable = ExePath();
  std::string exe_dir =
      s.server.state.executable.empty()
          ? "."
          : s.server.state.executable.substr(0, s.server.state.executable.rfind('/'));
  std::string plugin_dir = exe_dir + "/../" PLINTH_PLUGIN_SUBDIR;
  if (char* real = realpath(plugin_dir.c_str(), nullptr)) {
    plugin_dir = real;
    free(real);
  }

  std::vector<PluginRequest> plugins;
  if (!args.config.empty()) {
    ConfigFile cf;
    if (!ReadConfigFile(args.config, &cf, &err)) {
      s.server.Log(LogLevel::kWarning, "%s", err.c_str());
      return 1;
    }
    s.server.state.config_file = args.config;
    for (const auto& [k, v] : cf.options) s.options.SetPending(k, v);
    if (cf.plugins) {
      plugins = *cf.plugins;
      args.defaults = false;
    }
  }
  for (const auto& [k, v] : args.options) s.options.SetPending(k, v);
  if (!RegisterShellOptions(shell, &err)) {
    s.server.Log(LogLevel::kWarning, "%s", err.c_str());
    return 1;
  }
  const Option* dir = s.options.Find("plugin-dir");
  if (!dir->value.empty()) plugin_dir = dir->value;
  if (args.defaults)
    for (const std::string& name : DefaultPlugins())
      plugins.push_back(PluginRequest{name, false, {}});
  for (auto& r : args.plugins) plugins.push_back(r);

  for (const PluginRequest& r : plugins) {
    if (!s.plugins.Load(r, plugin_dir, &err) && !r.optional) {
      std::fprintf(stderr, "plinth-server: %s\n", err.c_str());
      return 1;
    }
  }
  if (!s.options.SettlePlaceholders(&err)) {
    std::fprintf(stderr, "plinth-server: %s\n", err.c_str());
    return 1;
  }
  bool unknown = false;
  for (const std::string& name : s.options.UnusedPending()) {
    std::fprintf(stderr, "plinth-server: unknown option '%s'\n", name.c_str());
    unknown = true;
  }
  if (args.help) {
    PrintHelp(s);
    return unknown ? 1 : 0;
  }
  if (unknown) return 1;
  int rc = shell.Run();
#ifdef __SANITIZE_ADDRESS__
  // The tables pack entry pointers into 6 bytes, which LeakSanitizer cannot follow: free the
  // keyspace so it does not report every key as leaked. Release builds exit without the work.
  for (Db& db : s.keyspace.dbs) db.Clear(false);
#endif
  s.server.Log(LogLevel::kWarning, "Plinth is now ready to exit, bye bye...");
  return rc;
}

}  // namespace
}  // namespace plinth::host

int main(int argc, char** argv) { return plinth::host::Main(argc, argv); }
