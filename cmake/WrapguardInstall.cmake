# `cmake --install BUILD --prefix P`, the CMake package and the .deb.
#
#   P/bin/            wrapguard, wrapguard-clangd, wrapguard-verify
#   P/LIBDIR/         libwrapguard-tidy.so (clang-tidy-19 --load=...), and the
#                     shim's static library
#   P/include/        the shim's public headers (wrapguard/*.h)
#   P/LIBDIR/cmake/wrapguard/
#                     find_package(wrapguard): wrapguard::shim (LibTorch) and
#                     wrapguard::call (the header-only call helpers)
#   P/share/doc/wrapguard/
#                     README.md and docs/
#
# Kept out of the folders' own CMakeLists.txt so that what is shipped reads
# in one place. Included by the top-level CMakeLists.txt after every target
# exists.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# The tools link libLLVM and libclang-cpp (and LibTorch) as shared
# libraries; an LLVM or LibTorch outside the loader's default paths stays
# findable from the installed binaries.
set(CMAKE_INSTALL_RPATH_USE_LINK_PATH ON)

set(WRAPGUARD_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/wrapguard)

if(WRAPGUARD_BUILD_CHECKER)
  set_target_properties(wrapguard wrapguard-clangd PROPERTIES
    INSTALL_RPATH_USE_LINK_PATH ON)
  install(TARGETS wrapguard wrapguard-clangd
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT tools)
  # A module clang-tidy-19 dlopens: it resolves clangTidy's symbols against
  # the clang-tidy-19 executable that loads it.
  install(TARGETS wrapguard-tidy
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT tools)
endif()

if(WRAPGUARD_BUILD_SHIM)
  set_target_properties(wrapguard-verify PROPERTIES INSTALL_RPATH_USE_LINK_PATH ON)
  install(TARGETS wrapguard-verify
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT tools)

  # The targets consumers see as wrapguard::shim and wrapguard::call.
  set_target_properties(wrapguard-shim PROPERTIES EXPORT_NAME shim)
  set_target_properties(wrapguard-call PROPERTIES EXPORT_NAME call)
  install(TARGETS wrapguard-shim wrapguard-call EXPORT wrapguardTargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT shim
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT shim
    INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  # The public headers only (shim/src holds the private ones).
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/shim/include/wrapguard
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT shim
    FILES_MATCHING PATTERN "*.h")
  install(EXPORT wrapguardTargets NAMESPACE wrapguard::
    DESTINATION ${WRAPGUARD_INSTALL_CMAKEDIR} COMPONENT shim)

  # The packages the exported targets name: LibTorch's `torch` targets, and
  # whatever else the shim's targets link through an imported target.
  set(WRAPGUARD_PACKAGE_DEPENDENCIES "find_dependency(Torch)")
  foreach(target wrapguard-shim wrapguard-call)
    get_target_property(links ${target} INTERFACE_LINK_LIBRARIES)
    if(links MATCHES "nlohmann_json::")
      string(APPEND WRAPGUARD_PACKAGE_DEPENDENCIES "\nfind_dependency(nlohmann_json)")
      break()
    endif()
  endforeach()
  configure_package_config_file(
    ${PROJECT_SOURCE_DIR}/cmake/wrapguardConfig.cmake.in
    ${CMAKE_CURRENT_BINARY_DIR}/wrapguardConfig.cmake
    INSTALL_DESTINATION ${WRAPGUARD_INSTALL_CMAKEDIR})
  write_basic_package_version_file(
    ${CMAKE_CURRENT_BINARY_DIR}/wrapguardConfigVersion.cmake
    COMPATIBILITY SameMinorVersion)
  install(FILES
    ${CMAKE_CURRENT_BINARY_DIR}/wrapguardConfig.cmake
    ${CMAKE_CURRENT_BINARY_DIR}/wrapguardConfigVersion.cmake
    DESTINATION ${WRAPGUARD_INSTALL_CMAKEDIR} COMPONENT shim)
endif()

install(FILES ${PROJECT_SOURCE_DIR}/README.md
  DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT doc)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/
  DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT doc
  FILES_MATCHING PATTERN "*.md")

# `cpack -G DEB` in the build folder: one package, wrapguard_VERSION_ARCH.deb,
# that depends on Debian's LLVM 19 and LibTorch. dpkg-shlibdeps (dpkg-dev)
# derives the libraries the binaries load; the rest are named: clang-tidy-19
# hosts the plugin, and the CMake package needs LibTorch's headers and its
# CMake files (libtorch-dev), and Clang's resource headers for the scanner
# to parse code with (libclang-common-19-dev).
set(CPACK_PACKAGE_NAME wrapguard)
set(CPACK_PACKAGE_VENDOR "wrapguard")
set(CPACK_PACKAGE_CONTACT "wrapguard maintainers <wrapguard@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "clang-tidy check, CI scanner and LibTorch shim for calls through possibly empty callables")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(wrapguard_deb_depends "clang-tidy-19, libclang-common-19-dev")
if(WRAPGUARD_BUILD_SHIM)
  string(APPEND wrapguard_deb_depends ", libtorch-dev")
endif()
set(CPACK_DEBIAN_PACKAGE_DEPENDS ${wrapguard_deb_depends})
set(CPACK_GENERATOR DEB)
include(CPack)
