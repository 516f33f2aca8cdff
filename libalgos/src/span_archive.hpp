// A cereal input archive reading cereal's binary format (BinaryOutputArchive's bytes)
// straight from memory: no std::istream (whose first construction in a process sets up
// locales, more than the rest of a store hit), and long fields can be borrowed in
// place (take). Private to libalgos.
#pragma once

#include <cereal/cereal.hpp>
#include <cstddef>
#include <cstring>
#include <span>
#include <string>
#include <type_traits>

namespace cccl_cache::algos::detail {

class SpanInputArchive
    : public cereal::InputArchive<SpanInputArchive, cereal::AllowEmptyClassElision> {
 public:
  explicit SpanInputArchive(std::span<const std::byte> bytes)
      : InputArchive<SpanInputArchive, cereal::AllowEmptyClassElision>(this), rest_(bytes) {}

  void loadBinary(void* data, std::size_t size) { std::memcpy(data, take(size).data(), size); }

  // The next `size` bytes, consumed without copying. Throws cereal::Exception past the end.
  std::span<const std::byte> take(std::size_t size) {
    if (size > rest_.size())
      throw cereal::Exception("needs " + std::to_string(size) + " bytes, " +
                              std::to_string(rest_.size()) + " left");
    const auto out = rest_.first(size);
    rest_ = rest_.subspan(size);
    return out;
  }
  std::size_t left() const noexcept { return rest_.size(); }

 private:
  std::span<const std::byte> rest_;
};

template <class T>
std::enable_if_t<std::is_arithmetic_v<T>> CEREAL_LOAD_FUNCTION_NAME(SpanInputArchive& ar, T& t) {
  ar.loadBinary(std::addressof(t), sizeof(t));
}

template <class T>
void CEREAL_LOAD_FUNCTION_NAME(SpanInputArchive& ar, cereal::BinaryData<T>& bd) {
  ar.loadBinary(bd.data, static_cast<std::size_t>(bd.size));
}

template <class T>
void CEREAL_SERIALIZE_FUNCTION_NAME(SpanInputArchive& ar, cereal::NameValuePair<T>& t) {
  ar(t.value);
}

template <class T>
void CEREAL_SERIALIZE_FUNCTION_NAME(SpanInputArchive& ar, cereal::SizeTag<T>& t) {
  ar(t.size);
}

}  // namespace cccl_cache::algos::detail

CEREAL_REGISTER_ARCHIVE(cccl_cache::algos::detail::SpanInputArchive)
