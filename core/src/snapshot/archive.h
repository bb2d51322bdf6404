// Archives for snapshots. A struct lists its fields once, in a function
//   template <class Ar> void visit(Ar& ar, T& t) { ar("name", t.field); ... }
// and the same list writes and reads both formats:
//   BinaryWriter / BinaryReader: little-endian raw values, vectors prefixed by their length.
//   JsonWriter / JsonReader: an object per struct, arrays for vectors; floats printed with 9
//   significant digits and doubles with 17, which read back to the same bits.
// Readers never throw: they record the first problem and keep going with zeroed values; the
// caller checks ok() and discards the result on failure.
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "hash.h"
#include "wisp/types.h"

namespace wisp::snapshot {

template <class T>
constexpr bool kScalar = std::is_arithmetic_v<T> || std::is_enum_v<T>;

// ---- binary ---------------------------------------------------------------------------------

// Where a binary writer's bytes go: a byte vector (snapshots) or a hasher (World::stateHash, so
// the hash sees exactly what a snapshot saves, from the same field lists).
struct ByteSink {
  std::vector<uint8_t> bytes;
  void append(const void* p, size_t n) {
    const uint8_t* b = static_cast<const uint8_t*>(p);
    bytes.insert(bytes.end(), b, b + n);
  }
};
struct HashSink {
  StateHasher hasher;
  void append(const void* p, size_t n) { hasher.bytes(p, n); }
};

template <class Sink>
class BasicBinaryWriter : public Sink {
 public:
  static constexpr bool kReading = false;

  template <class T>
  void operator()(const char*, T& v) {
    if constexpr (kScalar<T>) raw(&v, sizeof v);
    else if constexpr (std::is_same_v<T, Vec3>) { raw(&v.x, 4); raw(&v.y, 4); raw(&v.z, 4); }
    else if constexpr (std::is_same_v<T, Quat>) { raw(&v.x, 4); raw(&v.y, 4); raw(&v.z, 4); raw(&v.w, 4); }
    else visit(*this, v);
  }
  template <class T>
  void operator()(const char* name, std::vector<T>& v) {
    uint64_t n = v.size();
    raw(&n, sizeof n);
    if constexpr (kScalar<T>) {
      if (n) raw(v.data(), n * sizeof(T));
    } else {
      for (T& e : v) (*this)(name, e);
    }
  }
  template <class T, size_t N>
  void operator()(const char* name, std::array<T, N>& a) {
    for (T& e : a) (*this)(name, e);
  }
  template <class F>
  void object(const char*, F&& f) { f(); }
  bool ok() const { return true; }

 private:
  void raw(const void* p, size_t n) { this->append(p, n); }
};
using BinaryWriter = BasicBinaryWriter<ByteSink>;
using HashWriter = BasicBinaryWriter<HashSink>;

// Readers and the JSON writer are never hashing.
template <class Ar>
constexpr bool kHashing = false;
template <>
inline constexpr bool kHashing<HashWriter> = true;

class BinaryReader {
 public:
  static constexpr bool kReading = true;
  BinaryReader(const uint8_t* data, size_t size) : p_(data), end_(data + size) {}

  template <class T>
  void operator()(const char* name, T& v) {
    if constexpr (std::is_same_v<T, bool>) {
      // a byte other than 0 or 1 is not a bool: reading it as one would be undefined behaviour
      uint8_t b = 0;
      raw(&b, 1, name);
      if (b > 1) fail(std::string("'") + name + "' is not a boolean");
      v = b == 1;
    } else if constexpr (kScalar<T>) raw(&v, sizeof v, name);
    else if constexpr (std::is_same_v<T, Vec3>) { raw(&v.x, 4, name); raw(&v.y, 4, name); raw(&v.z, 4, name); }
    else if constexpr (std::is_same_v<T, Quat>) { raw(&v.x, 4, name); raw(&v.y, 4, name); raw(&v.z, 4, name); raw(&v.w, 4, name); }
    else visit(*this, v);
  }
  template <class T>
  void operator()(const char* name, std::vector<T>& v) {
    uint64_t n = 0;
    raw(&n, sizeof n, name);
    size_t minBytes = kScalar<T> ? sizeof(T) : 1;
    if (n > static_cast<uint64_t>(end_ - p_) / minBytes) return fail(std::string("array '") + name + "' is longer than the data");
    v.resize(static_cast<size_t>(n));
    if constexpr (kScalar<T>) {
      if (n) raw(v.data(), n * sizeof(T), name);
    } else {
      for (T& e : v) (*this)(name, e);
    }
  }
  template <class T, size_t N>
  void operator()(const char* name, std::array<T, N>& a) {
    for (T& e : a) (*this)(name, e);
  }
  template <class F>
  void object(const char*, F&& f) { f(); }
  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }
  bool atEnd() const { return p_ == end_; }

 private:
  void fail(std::string m) {
    if (error_.empty()) error_ = std::move(m);
    p_ = end_;
  }
  void raw(void* out, size_t n, const char* name) {
    if (static_cast<size_t>(end_ - p_) < n) {
      std::memset(out, 0, n);
      return fail(std::string("the data ends inside '") + name + "'");
    }
    std::memcpy(out, p_, n);
    p_ += n;
  }
  const uint8_t* p_;
  const uint8_t* end_;
  std::string error_;
};

// ---- JSON -----------------------------------------------------------------------------------

class JsonWriter {
 public:
  static constexpr bool kReading = false;
  std::string text;

  template <class T>
  void operator()(const char* name, T& v) {
    key(name);
    value(v);
  }
  template <class F>
  void object(const char* name, F&& f) {
    key(name);
    open('{');
    f();
    close('}');
  }
  bool ok() const { return true; }

  // A string member (no escaping: for our own identifiers only).
  void label(const char* name, const char* value) {
    key(name);
    text += '"';
    text += value;
    text += '"';
  }
  // top level
  template <class F>
  void root(F&& f) {
    open('{');
    f();
    close('}');
  }

 private:
  template <class T>
  void value(T& v) {
    if constexpr (std::is_same_v<T, bool>) text += v ? "true" : "false";
    else if constexpr (std::is_same_v<T, float>) number("%.9g", static_cast<double>(v));
    else if constexpr (std::is_same_v<T, double>) number("%.17g", v);
    else if constexpr (std::is_enum_v<T>) text += std::to_string(static_cast<long long>(v));
    else if constexpr (std::is_integral_v<T>) text += std::to_string(v);
    else if constexpr (std::is_same_v<T, Vec3>) { open('['); value(v.x); text += ','; value(v.y); text += ','; value(v.z); close(']'); }
    else if constexpr (std::is_same_v<T, Quat>) {
      open('['); value(v.x); text += ','; value(v.y); text += ','; value(v.z); text += ','; value(v.w); close(']');
    } else {
      open('{');
      visit(*this, v);
      close('}');
    }
  }
  template <class T>
  void value(std::vector<T>& v) {
    open('[');
    for (size_t i = 0; i < v.size(); ++i) {
      if (i) text += ',';
      if constexpr (std::is_same_v<T, bool>) { bool b = v[i]; value(b); }
      else value(v[i]);
    }
    close(']');
  }
  template <class T, size_t N>
  void value(std::array<T, N>& a) {
    open('[');
    for (size_t i = 0; i < N; ++i) {
      if (i) text += ',';
      value(a[i]);
    }
    close(']');
  }
  void number(const char* fmt, double v) {
    char buf[40];
    std::snprintf(buf, sizeof buf, fmt, v);
    text += buf;
  }
  void key(const char* name) {
    if (!first_) text += ',';
    first_ = false;
    text += '"';
    text += name;
    text += "\":";
  }
  void open(char c) {
    text += c;
    first_ = true;
  }
  void close(char c) {
    text += c;
    first_ = false;
  }
  bool first_ = true;
};

// A parsed JSON value. Numbers keep their text so each field converts it with its own type
// (strtof for floats: correctly rounded, no double rounding).
struct JsonValue {
  enum Kind { Null, Bool, Number, String, Array, Object } kind = Null;
  bool boolean = false;
  std::string text;  // number or string
  std::vector<JsonValue> items;
  std::map<std::string, JsonValue> members;
};

// Parses `text`; on failure returns false with a message naming the offset.
bool parseJson(const std::string& text, JsonValue* out, std::string* error);

class JsonReader {
 public:
  static constexpr bool kReading = true;
  explicit JsonReader(const JsonValue& root) { stack_.push_back(&root); }

  template <class T>
  void operator()(const char* name, T& v) {
    const JsonValue* j = member(name);
    if (j) read(*j, v, name);
  }
  template <class F>
  void object(const char* name, F&& f) {
    const JsonValue* j = member(name);
    if (!j) return;
    if (j->kind != JsonValue::Object) return fail(std::string("'") + name + "' must be an object");
    stack_.push_back(j);
    f();
    stack_.pop_back();
  }
  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }

 private:
  const JsonValue* member(const char* name) {
    const JsonValue* top = stack_.back();
    auto it = top->members.find(name);
    if (it == top->members.end()) {
      fail(std::string("missing field '") + name + "'");
      return nullptr;
    }
    return &it->second;
  }
  void fail(std::string m) {
    if (error_.empty()) error_ = std::move(m);
  }
  template <class T>
  void read(const JsonValue& j, T& v, const char* name) {
    if constexpr (std::is_same_v<T, bool>) {
      if (j.kind != JsonValue::Bool) return fail(std::string("'") + name + "' must be true or false");
      v = j.boolean;
    } else if constexpr (kScalar<T>) {
      if (j.kind != JsonValue::Number) return fail(std::string("'") + name + "' must be a number");
      const char* s = j.text.c_str();
      char* end = nullptr;
      if constexpr (std::is_same_v<T, float>) v = std::strtof(s, &end);
      else if constexpr (std::is_same_v<T, double>) v = std::strtod(s, &end);
      else if constexpr (std::is_enum_v<T>) v = static_cast<T>(std::strtoll(s, &end, 10));
      else if constexpr (std::is_signed_v<T>) v = static_cast<T>(std::strtoll(s, &end, 10));
      else v = static_cast<T>(std::strtoull(s, &end, 10));
      if (!end || *end) fail(std::string("'") + name + "' is not a number of its type: " + j.text);
    } else if constexpr (std::is_same_v<T, Vec3>) {
      if (j.kind != JsonValue::Array || j.items.size() != 3) return fail(std::string("'") + name + "' must be [x, y, z]");
      read(j.items[0], v.x, name); read(j.items[1], v.y, name); read(j.items[2], v.z, name);
    } else if constexpr (std::is_same_v<T, Quat>) {
      if (j.kind != JsonValue::Array || j.items.size() != 4) return fail(std::string("'") + name + "' must be [x, y, z, w]");
      read(j.items[0], v.x, name); read(j.items[1], v.y, name); read(j.items[2], v.z, name); read(j.items[3], v.w, name);
    } else {
      if (j.kind != JsonValue::Object) return fail(std::string("'") + name + "' must be an object");
      stack_.push_back(&j);
      visit(*this, v);
      stack_.pop_back();
    }
  }
  template <class T>
  void read(const JsonValue& j, std::vector<T>& v, const char* name) {
    if (j.kind != JsonValue::Array) return fail(std::string("'") + name + "' must be an array");
    v.resize(j.items.size());
    for (size_t i = 0; i < v.size(); ++i) {
      if constexpr (std::is_same_v<T, bool>) { bool b = false; read(j.items[i], b, name); v[i] = b; }
      else read(j.items[i], v[i], name);
    }
  }
  template <class T, size_t N>
  void read(const JsonValue& j, std::array<T, N>& a, const char* name) {
    if (j.kind != JsonValue::Array || j.items.size() != N) return fail(std::string("'") + name + "' must have " + std::to_string(N) + " items");
    for (size_t i = 0; i < N; ++i) read(j.items[i], a[i], name);
  }
  std::vector<const JsonValue*> stack_;
  std::string error_;
};

}  // namespace wisp::snapshot
