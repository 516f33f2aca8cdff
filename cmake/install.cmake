# Installs the libraries, headers and a CMake package config so that another project can
#   find_package(cccl_cache) and link cccl_cache::cache / cccl_cache::algos.
include(CMakePackageConfigHelpers)
set(_targets cccl_cache_cache)
if(TARGET cccl_cache_algos)
  list(APPEND _targets cccl_cache_algos)
endif()
install(TARGETS ${_targets} EXPORT cccl_cacheTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY libcache/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
if(TARGET cccl_cache_algos)
  install(DIRECTORY libalgos/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
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
