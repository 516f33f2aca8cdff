# Installs the libraries, headers, a CMake package config and pkg-config files, so that
# another project can find_package(cccl_cache) and link cccl_cache::cache,
# cccl_cache::algos or cccl_cache::c (the C ABI) with no other settings, or use
# pkg-config (cccl_cache: the C ABI; cccl_cache_algos: the C++ libraries).
# tests/install builds such consumers against an installed tree.
include(CMakePackageConfigHelpers)
set(_targets cccl_cache_cache)
if(TARGET cccl_cache_algos)
  list(APPEND _targets cccl_cache_algos cccl_cache_c)
endif()
install(TARGETS ${_targets} EXPORT cccl_cacheTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY libcache/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
if(TARGET cccl_cache_algos)
  install(DIRECTORY libalgos/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(FILES capi/include/cccl_cache.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  # Relocatable: the prefix is found from the .pc file's own directory.
  file(RELATIVE_PATH _pc_to_prefix /p/${CMAKE_INSTALL_LIBDIR}/pkgconfig /p)
  configure_file(cmake/cccl_cache.pc.in ${CMAKE_CURRENT_BINARY_DIR}/cccl_cache.pc @ONLY)
  list(GET CUDAToolkit_INCLUDE_DIRS 0 _pc_cuda_include)
  configure_file(cmake/cccl_cache_algos.pc.in ${CMAKE_CURRENT_BINARY_DIR}/cccl_cache_algos.pc @ONLY)
  install(FILES ${CMAKE_CURRENT_BINARY_DIR}/cccl_cache.pc ${CMAKE_CURRENT_BINARY_DIR}/cccl_cache_algos.pc
          DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
  # The pinned CCCL headers NVRTC compiles against at run time (nvrtc_compile.cpp finds
  # them relative to the installed binary).
  install(DIRECTORY ${CCCL_CACHE_CCCL_INCLUDE_DIR}/ DESTINATION ${CCCL_CACHE_CCCL_INSTALL_SUBDIR})
endif()
install(EXPORT cccl_cacheTargets NAMESPACE cccl_cache:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/cccl_cache)
configure_package_config_file(cmake/cccl_cacheConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/cccl_cacheConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/cccl_cache)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/cccl_cacheConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/cccl_cacheConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/cccl_cacheConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/cccl_cache)
