// Every fallible call returns a Status. The core never throws; the JS wrapper turns a
// non-Ok status into a WispError carrying the same code and message.
#pragma once
#include <string>
#include <utility>

namespace wisp {

enum class StatusCode : int {
  Ok = 0,
  InvalidArgument = 1,  // a value is NaN/inf, negative where it must not be, or out of range
  InvalidHandle = 2,    // stale (removed), foreign (another world) or never-issued id
  OutOfRange = 3,       // an index past the end of an object (particle, segment)
  Unsupported = 4,      // the operation is valid but not available in this build
  OutOfMemory = 5,      // the heap cannot hold what the call would build; nothing was changed
};

struct Status {
  StatusCode code = StatusCode::Ok;
  std::string message;

  bool ok() const { return code == StatusCode::Ok; }
  static Status Ok() { return {}; }
  static Status Error(StatusCode c, std::string m) { return {c, std::move(m)}; }
};

const char* statusCodeName(StatusCode code);

}  // namespace wisp
