// JavaScript objects <-> the public structs, through the structs' field lists
// (core/src/snapshot/fields.h), so the bindings hold no list of parameter names of their own.
//   fromJs(o, &s): members present in `o` overwrite those of `s`; absent (or null) ones keep theirs.
//   toJs(s): a plain object with every member.
// Vectors are [x, y, z], quaternions [x, y, z, w], curves [[t, value], ...], enums integers, and a
// Transform is spread into its owner as `position` and `rotation` (how the JS API writes poses).
// The JS wrapper (wasm/js/index.js) has already checked names and types, so no value here can
// be of the wrong kind.
#pragma once
#include <emscripten/val.h>

#include <type_traits>
#include <vector>

#include "snapshot/fields.h"

namespace wisp::bindings {

using emscripten::val;

template <class T> struct IsVector : std::false_type {};
template <class T> struct IsVector<std::vector<T>> : std::true_type {};

inline val vecToJs(Vec3 v) {
  val a = val::array();
  a.call<void>("push", v.x, v.y, v.z);
  return a;
}

class JsReader {
 public:
  explicit JsReader(val o) : o_(std::move(o)) {}

  template <class T>
  void operator()(const char* name, T& v) {
    if constexpr (std::is_same_v<T, Transform>) {
      visit(*this, v);  // its members straight into this object
    } else {
      val x = o_[name];
      if (!x.isUndefined() && !x.isNull()) read(x, v);
    }
  }

 private:
  template <class T>
  static void read(const val& x, T& v) {
    if constexpr (std::is_enum_v<T>) v = static_cast<T>(x.as<int>());
    else if constexpr (std::is_arithmetic_v<T>) v = x.as<T>();
    else if constexpr (std::is_same_v<T, Vec3>) v = {x[0].as<float>(), x[1].as<float>(), x[2].as<float>()};
    else if constexpr (std::is_same_v<T, Quat>) v = {x[0].as<float>(), x[1].as<float>(), x[2].as<float>(), x[3].as<float>()};
    else if constexpr (std::is_same_v<T, Curve>) {
      v.clear();
      const int n = x["length"].as<int>();
      for (int i = 0; i < n; ++i) v.push_back({x[i][0].as<float>(), x[i][1].as<float>()});
    } else if constexpr (IsVector<T>::value) {  // of structs (ChainParams::vrmLimits): an array of objects
      v.clear();
      const int n = x["length"].as<int>();
      for (int i = 0; i < n; ++i) {
        typename T::value_type e{};
        read(x[i], e);
        v.push_back(e);
      }
    } else {
      JsReader member(x);
      visit(member, v);
    }
  }
  val o_;
};

class JsWriter {
 public:
  val object = val::object();

  template <class T>
  void operator()(const char* name, T& v) {
    if constexpr (std::is_same_v<T, Transform>) {
      visit(*this, v);  // its members straight into this object
    } else {
      object.set(name, write(v));
    }
  }

 private:
  template <class T>
  static val write(T& v) {
    if constexpr (std::is_enum_v<T>) return val(static_cast<int>(v));
    else if constexpr (std::is_arithmetic_v<T>) return val(v);
    else if constexpr (std::is_same_v<T, Vec3>) return vecToJs(v);
    else if constexpr (std::is_same_v<T, Quat>) {
      val a = val::array();
      a.call<void>("push", v.x, v.y, v.z, v.w);
      return a;
    } else if constexpr (std::is_same_v<T, Curve>) {
      val a = val::array();
      for (const CurveKey& k : v) {
        val pair = val::array();
        pair.call<void>("push", k.t, k.value);
        a.call<void>("push", pair);
      }
      return a;
    } else if constexpr (IsVector<T>::value) {
      val a = val::array();
      for (auto& e : v) a.call<void>("push", write(e));
      return a;
    } else {
      JsWriter member;
      visit(member, v);
      return member.object;
    }
  }
};

template <class T>
void fromJs(const val& o, T* s) {
  JsReader r(o);
  visit(r, *s);
}

template <class T>
val toJs(T s) {
  JsWriter w;
  visit(w, s);
  return w.object;
}

}  // namespace wisp::bindings
