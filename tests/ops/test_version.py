"""A real version: every build names itself from its package metadata, which
setuptools-scm took from git (``server.version``), in ``--version``, in ``welcome``, in
the ``Server`` header and in ``kupferkessel_build_info``; and the project builds from a
clean git clone and from its sdist, where there is no git."""

from __future__ import annotations

import importlib.metadata
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from client.cli import main as cli_main
from server.app import SERVER_VERSION
from server.version import version
from tests.server.wsclient import WsClient, http_get, serving

ROOT = Path(__file__).resolve().parents[2]


def test_the_version_is_the_installed_builds(capsys: pytest.CaptureFixture[str]) -> None:
    installed = importlib.metadata.version("kupferkessel")
    assert version() == SERVER_VERSION == installed
    assert installed != "0.1.0"  # what every build called itself
    with pytest.raises(SystemExit) as done:
        cli_main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.strip() == f"kupferkessel {installed}"


async def test_welcome_and_the_server_header_name_the_build(tmp_path: Path) -> None:
    async with serving(tmp_path / "kk.db") as server:
        client = await WsClient.open(server.port, None)
        welcome = await client.request("hello", protocol=[1, 2], client="v")
        assert welcome.server_version == version()
        _, headers, _ = await http_get(server.port, "/healthz")
        assert headers["server"] == f"kupferkessel/{version()}"
        await client.close()


def _run(*argv: str | Path, cwd: Path) -> str:
    done = subprocess.run(
        [str(a) for a in argv], cwd=cwd, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return done.stdout


def _wheel_version(folder: Path) -> str:
    (wheel,) = folder.glob("kupferkessel-*.whl")
    found = re.match(r"kupferkessel-([^-]+)-", wheel.name)
    assert found is not None
    return found.group(1)


@pytest.mark.e2e
@pytest.mark.long
def test_it_builds_from_a_clean_clone_and_from_its_sdist_without_git(tmp_path: Path) -> None:
    """A clone's build is named from git (the commits since the last tag and the
    commit); its sdist carries that version in PKG-INFO, so the wheel built from the
    sdist, with no git anywhere, has the same one; a bare copy of the sources still
    builds, as the fallback version."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    clone = tmp_path / "clone"
    _run("git", "clone", "-q", ROOT, clone, cwd=tmp_path)
    head = _run("git", "rev-parse", "--short", "HEAD", cwd=clone).strip()
    # the build backend of [build-system] is installed with the test extra: each build
    # uses it rather than setting up an isolated environment (about 15 s each)
    _run(
        sys.executable,
        "-m",
        "build",
        "--sdist",
        "--no-isolation",
        "-o",
        tmp_path / "sdist",
        clone,
        cwd=tmp_path,
    )
    (sdist,) = (tmp_path / "sdist").glob("kupferkessel-*.tar.gz")
    from_git = sdist.name.removeprefix("kupferkessel-").removesuffix(".tar.gz")
    assert head in from_git and from_git != "0.1.0", from_git
    with tarfile.open(sdist) as tar:
        tar.extractall(tmp_path / "unpacked", filter="data")
    (unpacked,) = (tmp_path / "unpacked").iterdir()
    assert not (unpacked / ".git").exists()
    pip = (sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w")
    _run(*pip, tmp_path / "wheel", unpacked, cwd=tmp_path)
    assert _wheel_version(tmp_path / "wheel") == from_git
    (wheel,) = (tmp_path / "wheel").glob("kupferkessel-*.whl")
    with zipfile.ZipFile(wheel) as whl:  # the languages travel with it, read at run time
        carried = set(whl.namelist())
    for lang in ("de", "fr", "es"):
        assert f"client/i18n/locales/{lang}/LC_MESSAGES/messages.po" in carried, lang
    assert "shared/data/names.json" in carried
    bare = tmp_path / "bare"  # the committed sources alone: no git, no PKG-INFO
    _run("git", "archive", "-o", tmp_path / "bare.tar", "HEAD", cwd=clone)
    with tarfile.open(tmp_path / "bare.tar") as tar:
        tar.extractall(bare, filter="data")
    _run(*pip, tmp_path / "bare-wheel", bare, cwd=tmp_path)
    assert _wheel_version(tmp_path / "bare-wheel") == "0.1.0"
