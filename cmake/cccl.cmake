# The pinned CCCL (3.5.0): headers from the nvidia-cuda-cccl wheel, unpacked into
# .deps/ by scripts/install-deps.sh. Target cccl_cache::cccl puts them BEFORE the
# toolkit's own CCCL (3.0.1, which nvcc adds with -isystem) for CUDA sources; NVRTC gets
# the same directory at run time (libalgos/src/nvrtc_compile.cpp).
set(CCCL_CACHE_CCCL_PINNED_VERSION 3005000)
set(CCCL_CACHE_CCCL_INCLUDE_DIR "${PROJECT_SOURCE_DIR}/.deps/cccl-3.5.0/include" CACHE PATH
  "CCCL headers (cub/, thrust/, cuda/) that nvcc and NVRTC compile against: the pinned CCCL 3.5.0")
set(_cccl_version_h "${CCCL_CACHE_CCCL_INCLUDE_DIR}/cuda/std/__cccl/version.h")
if(NOT EXISTS "${_cccl_version_h}")
  message(FATAL_ERROR "The pinned CCCL 3.5.0 headers are missing (no ${_cccl_version_h}). "
    "Run scripts/install-deps.sh (it fetches nvidia-cuda-cccl==13.3.5.0.6 into .deps/), "
    "or point -DCCCL_CACHE_CCCL_INCLUDE_DIR at a CCCL 3.5.0 include directory.")
endif()
file(STRINGS "${_cccl_version_h}" _cccl_version_line REGEX "^#define CCCL_VERSION [0-9]+")
string(REGEX MATCH "[0-9]+$" _cccl_version "${_cccl_version_line}")
if(NOT _cccl_version STREQUAL CCCL_CACHE_CCCL_PINNED_VERSION)
  message(FATAL_ERROR "${CCCL_CACHE_CCCL_INCLUDE_DIR} holds CCCL_VERSION ${_cccl_version}; "
    "cccl-cache is pinned to ${CCCL_CACHE_CCCL_PINNED_VERSION} (3.5.0). Run scripts/install-deps.sh.")
endif()
add_library(cccl_cache_cccl INTERFACE)
add_library(cccl_cache::cccl ALIAS cccl_cache_cccl)
# BEFORE: ahead of every other include directory; -I is searched before nvcc's -isystem
# <toolkit>/include/cccl anyway.
target_include_directories(cccl_cache_cccl BEFORE INTERFACE
  $<BUILD_INTERFACE:$<$<COMPILE_LANGUAGE:CUDA>:${CCCL_CACHE_CCCL_INCLUDE_DIR}>>)
# Installed copy, found by libalgos at run time relative to the binary holding it
# (nvrtc_compile.cpp): <prefix>/share/cccl_cache/cccl-3.5.0/include.
set(CCCL_CACHE_CCCL_INSTALL_SUBDIR "${CMAKE_INSTALL_DATADIR}/cccl_cache/cccl-3.5.0/include")
