// The numbers of the RDB file format: opcodes, value types, length encodings. Shared by the
// reader and the writer of plinth_rdb_core. Constants only.
#pragma once

#include <cstdint>

namespace plinth::rdb {

// The newest file version the reader accepts, and the version the writer emits (Redis 7.0).
constexpr int kMaxReadVersion = 11;
constexpr int kWriteVersion = 10;

// Opcodes that take the place of a value type byte.
constexpr uint8_t kOpFunction2 = 0xF5;
constexpr uint8_t kOpFunction = 0xF6;
constexpr uint8_t kOpModuleAux = 0xF7;
constexpr uint8_t kOpIdle = 0xF8;
constexpr uint8_t kOpFreq = 0xF9;
constexpr uint8_t kOpAux = 0xFA;
constexpr uint8_t kOpResizeDb = 0xFB;
constexpr uint8_t kOpExpireTimeMs = 0xFC;
constexpr uint8_t kOpExpireTime = 0xFD;
constexpr uint8_t kOpSelectDb = 0xFE;
constexpr uint8_t kOpEof = 0xFF;

// Value types.
constexpr uint8_t kTypeString = 0;
constexpr uint8_t kTypeList = 1;
constexpr uint8_t kTypeSet = 2;
constexpr uint8_t kTypeZset = 3;
constexpr uint8_t kTypeHash = 4;
constexpr uint8_t kTypeZset2 = 5;
constexpr uint8_t kTypeModulePreGa = 6;
constexpr uint8_t kTypeModule2 = 7;
constexpr uint8_t kTypeHashZipmap = 9;
constexpr uint8_t kTypeListZiplist = 10;
constexpr uint8_t kTypeSetIntset = 11;
constexpr uint8_t kTypeZsetZiplist = 12;
constexpr uint8_t kTypeHashZiplist = 13;
constexpr uint8_t kTypeListQuicklist = 14;
constexpr uint8_t kTypeStreamListpacks = 15;
constexpr uint8_t kTypeHashListpack = 16;
constexpr uint8_t kTypeZsetListpack = 17;
constexpr uint8_t kTypeListQuicklist2 = 18;
constexpr uint8_t kTypeStreamListpacks2 = 19;
constexpr uint8_t kTypeSetListpack = 20;
constexpr uint8_t kTypeStreamListpacks3 = 21;

// QUICKLIST_2 node containers.
constexpr uint64_t kQuicklistPlain = 1;
constexpr uint64_t kQuicklistPacked = 2;

// The first byte of a length: its two top bits pick the form.
constexpr uint8_t kLen6Bit = 0;
constexpr uint8_t kLen14Bit = 1;
constexpr uint8_t kLen32Bit = 0x80;
constexpr uint8_t kLen64Bit = 0x81;
constexpr uint8_t kLenEncoded = 3;

// Special string encodings (the low 6 bits of an encoded length).
constexpr uint8_t kEncInt8 = 0;
constexpr uint8_t kEncInt16 = 1;
constexpr uint8_t kEncInt32 = 2;
constexpr uint8_t kEncLzf = 3;

// ZSET (type 3) string scores: a length byte with these values marks a special double.
constexpr uint8_t kScoreNan = 253;
constexpr uint8_t kScorePosInf = 254;
constexpr uint8_t kScoreNegInf = 255;

}  // namespace plinth::rdb
