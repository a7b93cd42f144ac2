// The AOF plugin's names for the shared file helpers (plugins/common/fs_util.h).
#ifndef PLINTH_AOF_FS_UTIL_H
#define PLINTH_AOF_FS_UTIL_H

#include "common/fs_util.h"

namespace plinth::aof {

using common::ErrnoText;
using common::FileSize;
using common::FsyncDir;
using common::JoinPath;
using common::MakeAofDir;
using common::MappedFile;
using common::PathExists;
using common::ReadSmallFile;
using common::ReplaceFileAtomically;
using common::WriteFully;

}  // namespace plinth::aof

#endif  // PLINTH_AOF_FS_UTIL_H
