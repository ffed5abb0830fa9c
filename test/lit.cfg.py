# lit configuration shared by test/checkers (the clang-tidy check) and
# test/scanner (the standalone scanner). Run through CTest, which passes the
# build's lit.site.cfg.py as the parameter wrapguard_site_config.
import os
import shutil

import lit.formats

if not hasattr(config, "wrapguard_obj_root"):
    site = lit_config.params.get("wrapguard_site_config")
    if not site:
        lit_config.fatal("run lit through ctest, or pass --param wrapguard_site_config=BUILD/test/lit.site.cfg.py")
    lit_config.load_config(config, site)
else:
    config.name = "wrapguard"
    config.test_format = lit.formats.ShTest(execute_external=False)
    config.suffixes = [".cpp", ".test"]
    config.excludes = ["Inputs"]
    config.test_source_root = os.path.dirname(__file__)
    config.test_exec_root = os.path.join(config.wrapguard_obj_root, "test")

    tools = config.llvm_tools_dir
    config.environment["PATH"] = os.pathsep.join(
        [tools, os.path.join(config.wrapguard_obj_root, "bin"), config.environment.get("PATH", "")])
    # Tests must not depend on the user's terminal or locale.
    config.environment["LC_ALL"] = "C.UTF-8"
    config.environment.pop("TERM", None)

    src = config.wrapguard_src_root
    node_bin = os.path.join(config.wrapguard_obj_root, "node", "node_modules", ".bin")
    config.substitutions.extend([
        ("%check_wrapguard", "%s %s" % (config.python_executable,
                                        os.path.join(src, "test", "check-wrapguard.py"))),
        ("%clang_tidy", config.clang_tidy),
        ("%clangxx", config.clangxx),
        ("%plugin", config.wrapguard_plugin),
        ("%wrapguard", config.wrapguard_scanner),
        ("%shim_include", os.path.join(src, "shim", "include")),
        ("%sarif_validate", os.path.join(node_bin, "sarif-multitool") + " validate"),
        ("%python", config.python_executable),
        ("%srcroot", src),
    ])
    # test/check-wrapguard.py (%check_wrapguard) finds its tools here.
    config.environment["WRAPGUARD_CLANG_TIDY"] = config.clang_tidy
    config.environment["WRAPGUARD_PLUGIN"] = config.wrapguard_plugin
    config.environment["WRAPGUARD_FILECHECK"] = config.filecheck
    config.environment["WRAPGUARD_CLANGXX"] = config.clangxx
    config.environment["WRAPGUARD_SHIM_INCLUDE"] = os.path.join(src, "shim", "include")
    if os.path.isdir("/usr/include/torch/csrc/api/include"):
        config.available_features.add("libtorch")
