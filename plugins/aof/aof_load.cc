// Loading the AOF at startup, in slices between loop turns (see aof.h): manifest, base (RDB or
// commands), then each incr file, every command run through an internal client that does not
// propagate. A short tail of the last file is cut off when aof-load-truncated allows it;
// anything else wrong stops the server with the file and byte offset.
#include "aof/aof_load.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <plinth/plugin.hpp>

#include "aof/aof.h"

namespace plinth::aof {

Loader::~Loader() {
  if (rdb_fd >= 0) close(rdb_fd);
  if (client_) sdk::Api().client_destroy_internal(client_);
}

void Loader::NextFile() {
  reader.reset();
  rdb.reset();
  if (rdb_fd >= 0) close(rdb_fd);
  rdb_fd = -1;
  map.Close();
  open = false;
  ++index;
}

namespace {

bool StartsWith(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

}  // namespace

void Aof::BeginLoad() {
  plinth_client_t* client = sdk::Api().client_create_internal(self_, PLINTH_INTERNAL_NO_PROPAGATE);
  if (!client) return Fatal("can't create the client that loads the AOF: out of memory");
  loader_ = std::make_unique<Loader>(client);
  loader_->start_us = sdk::Api().time_us(self_);
  Manifest m;
  bool missing = false;
  std::string err;
  if (ReadManifest(&m, &missing, &err)) {
    manifest_ = m;
  } else if (!missing) {
    return Fatal(err);
  } else {
    const std::string legacy = JoinPath(DataDir(), config_.filename);
    struct stat st {};
    if (stat(legacy.c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
      if (!UpgradeLegacy(legacy, &err)) return Fatal(err);
    } else {
      if (!CreateFresh(&err)) return Fatal("can't create the AOF: " + err);
      return FinishLoad();
    }
  }
  const std::string dir = AofDir();
  auto add = [&](const ManifestFile& f, bool base) {
    loader_->files.push_back({f.name, JoinPath(dir, f.name), base});
  };
  if (manifest_.base) add(*manifest_.base, true);
  for (const ManifestFile& f : manifest_.incrs) add(f, false);
  for (const Loader::File& f : loader_->files)
    if (!PathExists(f.path)) return Fatal("The AOF file " + f.name + " doesn't exist");
}

void Aof::LoadStep() {
  if (!loader_) {
    BeginLoad();
    if (!loader_ || state_ != State::kLoading) return;
  }
  Loader& l = *loader_;
  size_t budget = kLoadSlice;
  std::vector<std::string_view> argv;
  std::vector<const char*> ptrs;
  std::vector<size_t> lens;
  while (budget > 0) {
    if (l.index == l.files.size()) return FinishLoad();
    const Loader::File& f = l.files[l.index];
    const bool last = l.index + 1 == l.files.size();
    std::string err;
    if (!l.open) {
      if (!l.map.Open(f.path, &err)) return Fatal("can't load the AOF: " + err);
      l.open = true;
      if (l.map.data().substr(0, 5) == "REDIS") {
        if (!f.base)
          return Fatal("Bad file format reading the append only file " + f.name +
                       ": an RDB preamble in an incr file at offset 0");
        l.rdb_fd = open(f.path.c_str(), O_RDONLY | O_CLOEXEC);
        if (l.rdb_fd < 0) return Fatal("can't load the AOF: " + ErrnoText("can't open", f.path));
        l.rdb = std::make_unique<RdbBaseLoader>(self_, l.rdb_fd);
      } else {
        l.reader = std::make_unique<AofReader>(l.map.data());
      }
    }
    if (l.rdb) {
      const RdbBaseLoader::Status s = l.rdb->Step(budget);
      budget = 0;
      if (s == RdbBaseLoader::Status::kError)
        return Fatal("Bad file format reading the append only file " + f.name + ": " +
                     l.rdb->error());
      if (s == RdbBaseLoader::Status::kDone) {
        l.reader = std::make_unique<AofReader>(l.map.data(), l.rdb->offset());
        l.rdb.reset();
        close(l.rdb_fd);
        l.rdb_fd = -1;
      }
      break;
    }
    const AofReader::Status s = l.reader->Next(&argv);
    if (s == AofReader::Status::kCommand) {
      --budget;
      ++l.commands;
      ptrs.clear();
      lens.clear();
      for (std::string_view a : argv) {
        ptrs.push_back(a.data());
        lens.push_back(a.size());
      }
      char cerr[256] = {0};
      if (sdk::Api().client_exec(l.client(), static_cast<int32_t>(argv.size()), ptrs.data(),
                                 lens.data(), cerr, sizeof cerr) != PLINTH_OK) {
        const std::string e = cerr;
        if (StartsWith(e, "ERR unknown command") || StartsWith(e, "ERR wrong number of args"))
          return Fatal("Unknown command '" + std::string(argv[0]) +
                       "' reading the append only file " + f.name + " at offset " +
                       std::to_string(l.reader->command_offset()) + ": " + e);
      }
      continue;
    }
    if (s == AofReader::Status::kEnd) {
      l.NextFile();
      continue;
    }
    if (s == AofReader::Status::kError)
      return Fatal("Bad file format reading the append only file " + f.name + ": " +
                   l.reader->error());
    // Truncated.
    const size_t keep = l.reader->valid_prefix();
    if (!last)
      return Fatal("Unexpected end of file reading the append only file " + f.name +
                   ", which is not the last file: " + l.reader->error());
    if (!config_.load_truncated)
      return Fatal("Unexpected end of file reading the append only file " + f.name + ": " +
                   l.reader->error() +
                   ". Make a backup of the AOF, then run plinth-check-aof --fix on its "
                   "manifest, or set 'aof-load-truncated' to yes and restart the server.");
    Log(PLINTH_LOG_WARNING, "!!! Warning: short read while loading the AOF file " + f.name +
                                "!!! (" + l.reader->error() + ")");
    l.map.Close();
    if (truncate(f.path.c_str(), static_cast<off_t>(keep)) != 0)
      return Fatal(ErrnoText("Error truncating the AOF file", f.path));
    Log(PLINTH_LOG_WARNING, "AOF " + f.name +
                                " loaded anyway because aof-load-truncated is enabled; "
                                "truncated to offset " +
                                std::to_string(keep));
    l.NextFile();
  }
  if (sdk::Api().loop_post(
          self_, [](void* a) { static_cast<Aof*>(a)->LoadStep(); }, this) != PLINTH_OK)
    loader_.reset();  // shutting down
}

bool Aof::UpgradeLegacy(const std::string& legacy, std::string* err) {
  const std::string dir = AofDir();
  if (!MakeAofDir(DataDir(), dir, err)) return false;
  const std::string dst = JoinPath(dir, config_.filename);
  if (rename(legacy.c_str(), dst.c_str()) != 0) {
    *err = ErrnoText("can't move the old AOF into", dir);
    return false;
  }
  FsyncDir(DataDir());  // the old file left it
  manifest_ = Manifest{};
  manifest_.base = ManifestFile{config_.filename, 1, FileType::kBase};
  Log(PLINTH_LOG_NOTICE, "Upgrading the single-file AOF " + legacy + " to the multi-part layout");
  return PersistManifest(manifest_, err);
}

bool Aof::CreateFresh(std::string* err) {
  const std::string dir = AofDir();
  if (!MakeAofDir(DataDir(), dir, err)) return false;
  const std::string tmp = JoinPath(dir, "temp-" + config_.filename + ".base");
  const int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    *err = ErrnoText("can't create", tmp);
    return false;
  }
  const bool rdb = config_.use_rdb_preamble;
  const bool ok =
      WriteBase(self_, fd, rdb, config_.rewrite_incremental_fsync, err) && fsync(fd) == 0;
  close(fd);
  const std::string name = BaseFileName(config_.filename, 1, rdb);
  if (!ok || rename(tmp.c_str(), JoinPath(dir, name).c_str()) != 0) {
    if (err->empty()) *err = ErrnoText("can't write", tmp);
    unlink(tmp.c_str());
    return false;
  }
  manifest_ = Manifest{};
  manifest_.base = ManifestFile{name, 1, FileType::kBase};
  Log(PLINTH_LOG_NOTICE, "Creating AOF base file " + name + " on server start");
  return true;  // FinishLoad opens the first incr file and writes the manifest
}

void Aof::FinishLoad() {
  const uint64_t commands = loader_ ? loader_->commands : 0;
  const int64_t start_us = loader_ ? loader_->start_us : sdk::Api().time_us(self_);
  loader_.reset();
  std::string err;
  const std::string dir = AofDir();
  base_size_ =
      manifest_.base ? std::max<int64_t>(0, FileSize(JoinPath(dir, manifest_.base->name))) : 0;
  closed_incr_size_ = 0;
  if (manifest_.incrs.empty()) {
    if (!OpenNewIncr(&err) || !PersistManifest(manifest_, &err))
      return Fatal("can't open the AOF incr file: " + err);
    Log(PLINTH_LOG_NOTICE, "Creating AOF incr file " + manifest_.incrs.back().name);
  } else {
    for (size_t i = 0; i + 1 < manifest_.incrs.size(); ++i)
      closed_incr_size_ += std::max<int64_t>(0, FileSize(JoinPath(dir, manifest_.incrs[i].name)));
    const std::string path = JoinPath(dir, manifest_.incrs.back().name);
    const int fd = open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
    if (fd < 0) return Fatal(ErrnoText("can't open the AOF file for appending", path));
    StartAppending(fd, std::max<int64_t>(0, FileSize(path)));
    sdk::Api().stream_reselect(self_);
  }
  rewrite_base_size_ = CurrentSize();
  SetState(State::kOn);
  sdk::Api().server_set_loading(self_, 0);
  char secs[32];
  std::snprintf(secs, sizeof secs, "%.3f",
                static_cast<double>(sdk::Api().time_us(self_) - start_us) / 1e6);
  Log(PLINTH_LOG_NOTICE, "DB loaded from append only file: " + std::string(secs) + " seconds (" +
                             std::to_string(commands) + " commands)");
}

}  // namespace plinth::aof
