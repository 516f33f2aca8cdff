// A host dispatch's side of the kernel interface as text (core/dispatch_abi.hpp keys
// on its digest). Include core/launch.cuh first.
#pragma once

#include "core/launch.cuh"

#include <cstddef>
#include <string>
#include <string_view>

namespace cccl_cache::algos::detail {

// The host dispatch's side of the kernel interface as text (a golden test pins each
// algorithm's; its digest is in every key of that algorithm): CUB/CCCL versions, the
// parameter struct's layout, the stand-in types' sizes and alignments.
struct AbiText {
  std::string text = "cub=" + std::to_string(CUB_VERSION) + " cccl=" + std::to_string(CCCL_VERSION);

  template <class T>
  AbiText& type(std::string_view name) {
    text += ' ';
    text += name;
    text += '=' + std::to_string(sizeof(T)) + '/' + std::to_string(alignof(T));
    return *this;
  }
  AbiText& field(std::string_view name, std::size_t offset, std::size_t size) {
    text += ' ';
    text += name;
    text += '@' + std::to_string(offset) + ':' + std::to_string(size);
    return *this;
  }
  // One field per value of the Policy that Params holds as its member `policy` (in
  // Policy::fields order): the value's name, offset in Params and size, as
  // CCCL_CACHE_ABI_FIELD spells a member of Params itself.
  template <class Params, class Policy>
  AbiText& policy_fields(Policy Params::*policy) {
    const Params params{};
    const auto* base = reinterpret_cast<const unsigned char*>(&params);
    Policy::fields(params.*policy, [&](std::string_view name, const auto& value) {
      field(name, static_cast<std::size_t>(reinterpret_cast<const unsigned char*>(&value) - base),
            sizeof(value));
    });
    return *this;
  }
  // The Bytes<N> stand-ins for elements of 1, 2, 4 and 8 bytes.
  AbiText& byte_types() {
    return type<Bytes<1>>("b1").type<Bytes<2>>("b2").type<Bytes<4>>("b4").type<Bytes<8>>("b8");
  }
};
// abi.field for member `f` of struct S.
#define CCCL_CACHE_ABI_FIELD(abi, S, f) (abi).field(#f, offsetof(S, f), sizeof(S::f))

// An algorithm's dispatch_abi(): AbiText with the size of its DispatchParams `Params`
// and the offset of their `launch`, then what `describe(abi)` adds (the rest of Params'
// fields, the kernels' argument types). Built once per process.
template <class Params, class Describe>
const std::string& describe_abi(Describe describe) {
  static const std::string text = [&] {
    AbiText abi;
    abi.field("params", 0, sizeof(Params));
    CCCL_CACHE_ABI_FIELD(abi, Params, launch);
    describe(abi);
    return abi.text;
  }();
  return text;
}

}  // namespace cccl_cache::algos::detail
