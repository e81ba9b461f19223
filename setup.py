"""Builds the navlab extension with the project's own CMake build (see pyproject.toml)."""
import pathlib
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = pathlib.Path(__file__).parent.resolve()


class CMakeExtension(Extension):
    def __init__(self, name: str) -> None:
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    """Configures build-python/ for the interpreter running pip and builds only `_navlab`."""

    def build_extension(self, ext: Extension) -> None:
        build = ROOT / "build-python"
        subprocess.check_call([
            "cmake", "-S", str(ROOT), "-B", str(build), "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
            "-DNAVLAB_TESTS=OFF", "-DNAVLAB_BENCH=OFF", "-DNAVLAB_PYTHON=ON", f"-DPython_EXECUTABLE={sys.executable}",
        ])
        subprocess.check_call(["cmake", "--build", str(build), "--target", "_navlab"])
        built = next((build / "python" / "navlab").glob("_navlab*.so"))
        target = pathlib.Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(built, target)


setup(
    packages=["navlab"],
    package_dir={"": "python"},
    package_data={"navlab": ["*.pyi", "py.typed"]},
    ext_modules=[CMakeExtension("navlab._navlab")],
    cmdclass={"build_ext": CMakeBuild},
)
