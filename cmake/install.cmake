# SPDX-License-Identifier: BSD-3-Clause
# Install rules and the CMake package: `cmake --install build --prefix P` puts the library, the
# public headers of the parts that were built, the `dctx` command and lib/cmake/dctx/ (config,
# version, targets) under P, so that find_package(dctx) works from P.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(DCTX_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/dctx)

install(TARGETS dctx EXPORT dctxTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
target_include_directories(dctx PUBLIC $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)

# Public headers: the core's always, those of optional parts when they are built.
set(DCTX_PUBLIC_HEADERS backend.hpp dctx.h dctx.hpp device.hpp electrostatics.hpp plan.hpp
                         poisson.hpp restore.hpp types.hpp view.hpp)
if(DCTX_BLOCK8)
  list(APPEND DCTX_PUBLIC_HEADERS block8.hpp image.hpp)
endif()
if(DCTX_IMAGE_IO)
  list(APPEND DCTX_PUBLIC_HEADERS image_io.hpp)
endif()
list(TRANSFORM DCTX_PUBLIC_HEADERS PREPEND ${PROJECT_SOURCE_DIR}/include/dctx/)
if(DCTX_OPENCL)
  list(APPEND DCTX_PUBLIC_HEADERS ${PROJECT_SOURCE_DIR}/src/opencl/include/dctx/opencl.hpp)
endif()
if(DCTX_CUDA)
  list(APPEND DCTX_PUBLIC_HEADERS ${PROJECT_SOURCE_DIR}/src/cuda/include/dctx/cuda.hpp)
endif()
install(FILES ${DCTX_PUBLIC_HEADERS} ${PROJECT_BINARY_DIR}/include/dctx/version.hpp
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/dctx)
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/dctx)

# The distributed library (DCTX_MPI) and its header, as the component `mpi` (target dctx::mpi).
if(TARGET dctx_mpi)
  install(TARGETS dctx_mpi EXPORT dctxMpiTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(FILES ${PROJECT_SOURCE_DIR}/src/mpi/include/dctx/mpi.hpp
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/dctx)
  install(EXPORT dctxMpiTargets NAMESPACE dctx:: DESTINATION ${DCTX_CMAKE_DIR})
endif()

if(TARGET dctx_cli)
  install(TARGETS dctx_cli EXPORT dctxTargets RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  set_target_properties(dctx_cli PROPERTIES EXPORT_NAME cli)
endif()

install(EXPORT dctxTargets NAMESPACE dctx:: DESTINATION ${DCTX_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/dctxConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/dctxConfig.cmake
                              INSTALL_DESTINATION ${DCTX_CMAKE_DIR})
# 0.x: a minor version may break the API, so only the same minor version is compatible.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/dctxConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/dctxConfig.cmake ${PROJECT_BINARY_DIR}/dctxConfigVersion.cmake
        DESTINATION ${DCTX_CMAKE_DIR})
