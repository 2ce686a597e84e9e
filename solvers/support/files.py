"""Writing outputs safely: atomically, and never over a file the user gave as input.

Every command's ``--out``, ``--plot``, ``--proof-dir`` and side files (``-scatter.png``,
``FILE-2.yaml``, a proof beside its certificate) and the workshop's *save*
(:mod:`trailkit.solvers.frontends.workshop`) write through here, so all follow one rule
(CONTRACT 1.4 §7), checked before any work (:func:`check_outputs`): never over an input
of the same command (``--force`` or not), nor over another output, nothing existing
replaced unless the caller allows it, and nothing but a regular file (or a link to one,
followed) ever replaced: not a folder, a FIFO or a device, ``--force`` or not
(:func:`check_output`), nor the current folder. A crash or a full disk never leaves a
half-written file (a full disk says so: :func:`cannot_write`).

Files that belong together are replaced as a set, so a kill between two renames never
leaves half of each: a certificate and its proof's side file (:func:`write_pair`: the
JSON is switched to name the new proof, written beside the old), and the files of
``prove --proof-dir`` (:func:`write_folder`: a new folder exchanged with the old).
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import stat
import tempfile
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

from trailkit.models.errors import TrailkitError
from trailkit.models.formats.inputs import kind_of

__all__ = ["atomic_write", "cannot_write", "check_folder", "check_output", "check_outputs",
           "nearly_full", "no_space", "refuse_overwrite", "same_file", "spec_inputs", "switch",
           "write_beside", "write_folder", "write_pair"]


def check_output(out: str | Path, option: str = "--out") -> Path:
    """The regular file that writing ``out`` will create or replace (a symbolic link to a
    file is followed, so the link stays and its file is replaced); raises
    :class:`TrailkitError` when ``out`` is anything else: a folder, a FIFO, a device, a
    socket, or a place that cannot be written. Nothing but a regular file is ever
    replaced, whatever ``--force`` says (as root, ``--out /dev/null --force`` once
    replaced the machine's ``/dev/null`` with a file)."""
    target = Path(os.path.realpath(out))
    try:
        seen = os.stat(target)
    except FileNotFoundError:
        seen = None
    except OSError as exc:
        raise TrailkitError(f"cannot write {option} {out}: {exc.strerror or exc}") from None
    if seen is not None and not stat.S_ISREG(seen.st_mode):
        raise TrailkitError(f"cannot write {option} {out}: it is {kind_of(seen.st_mode)}, "
                            "not a regular file, and trailkit replaces nothing else (with "
                            "--force or without); name a file")
    folder = target.parent
    if not folder.is_dir():
        raise TrailkitError(f"cannot write {option} {out}: the folder {folder} does not "
                            "exist; make it first or name another place")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise TrailkitError(f"cannot write {option} {out}: the folder {folder} is not "
                            "writable here; name another place")
    if seen is not None and not os.access(target, os.W_OK):
        raise TrailkitError(f"cannot write {option} {out}: the file is read-only; make it "
                            "writable first, or name another file")
    return target


def refuse_overwrite(out: str | Path, inputs: Iterable[str | Path], *,
                     allow_existing: bool, option: str = "--out") -> None:
    """Raise if ``out`` is one of the ``inputs``, cannot be written as a regular file
    (:func:`check_output`), or exists and ``allow_existing`` is false: the rules of
    :func:`check_outputs` for one file."""
    check_outputs([(out, option)], inputs, force=allow_existing)


def check_outputs(outputs: Iterable[tuple[str | Path, str]], inputs: Iterable[str | Path],
                  *, force: bool) -> None:
    """Check, before any work, every file a command will write: ``outputs`` as (path, the
    option that names it: ``--out``, ``--plot``, ...), side files included. Each must be
    none of the command's ``inputs`` (the same file, by any name: ``--force`` or not),
    none of the other outputs, writable as a regular file (:func:`check_output`), and
    not there yet unless ``force``; raises :class:`TrailkitError` naming the first that
    is not."""
    given = [str(path) for path in inputs]
    seen: list[tuple[str, str]] = []
    for out, option in outputs:
        name = str(out)
        for source in given:
            if same_file(name, source):
                raise TrailkitError(f"refusing to write {option} {name}: it is the input "
                                    f"file {source} of this command, which trailkit never "
                                    f"writes over (--force or not); choose another {option}")
        for earlier, what in seen:
            if same_file(name, earlier):
                twice = "is named twice" if (option, name) == (what, earlier) \
                    else f"is also where {what} {earlier} is written"
                raise TrailkitError(f"{option} {name} {twice}; give each output its own "
                                    "name")
        seen.append((name, option))
        target = check_output(out, option)
        if target.exists() and not force:
            raise TrailkitError(f"{name} already exists; pass --force to replace it")


def spec_inputs(spec: str | Path, outputs: Iterable[str | Path | None]) -> list[str]:
    """The files a command reading the spec file ``spec`` reads: the spec, and the side
    files it names (``edges_file:``, ``dominoes_file:``): the ``inputs`` of
    :func:`check_outputs`. Side files lie in the spec's folder, so they are looked for
    only when one of ``outputs`` is a file there already (a second read of the spec)."""
    from trailkit.models.spec import MAX_SPEC_BYTES
    from trailkit.models.spec.edges.side_files import side_files_named

    folder = Path(os.path.realpath(spec)).parent
    there = [out for out in outputs if out is not None and os.path.lexists(out)
             and Path(os.path.realpath(out)).is_relative_to(folder)]
    named = side_files_named(spec, MAX_SPEC_BYTES) if there else []
    return [str(spec)] + [str(path) for path in named]


def same_file(first: str | Path, second: str | Path) -> bool:
    """Whether two names are one file: the same path once links are followed, or the same
    file on the disk (a hard link)."""
    if os.path.realpath(first) == os.path.realpath(second):
        return True
    try:
        return os.path.samefile(first, second)
    except OSError:
        return False


def atomic_write(path: str | Path, content: str | bytes,
                 like: os.stat_result | None = None) -> None:
    """Write ``content`` (text as UTF-8, or bytes) to ``path`` via a temporary file and a
    rename, so a crash or a full disk never leaves a half-written file behind. Only a
    regular file is ever replaced (:func:`check_output`, asked again just before); a
    link to one is followed. The file gets the permissions the umask allows (0644 under
    umask 022), not the temporary file's private 0600; or, ``like`` another file (the
    one it replaces), that file's mode, owner and group (as far as this process may
    give them: root gives any)."""
    tmp = write_beside(path, content, like)
    try:
        switch(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_beside(path: str | Path, content: str | bytes,
                 like: os.stat_result | None = None) -> Path:
    """Write ``content`` to a new temporary file next to the file ``path`` names (after
    :func:`check_output`) and return its path: half of :func:`atomic_write`, for files
    replaced as a set (write all, then :func:`switch` each)."""
    target = check_output(path)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp",
                                   dir=target.parent)
    except OSError as exc:
        raise cannot_write(path, exc) from None
    try:
        data = content.encode("utf-8") if isinstance(content, str) else content
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            if like is not None:
                _own_like(handle.fileno(), like)
            os.fchmod(handle.fileno(), stat.S_IMODE(like.st_mode) if like is not None
                      else 0o666 & ~_umask())
            os.fsync(handle.fileno())
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise cannot_write(path, exc) from None
        raise
    return Path(tmp)


def _own_like(fd: int, like: os.stat_result) -> None:
    """Give the open file ``fd`` the owner and group of ``like`` (before its mode: a
    change of owner clears set-id bits); where this process may not (not root), the
    group alone if it may, else they stay its own, as any editor's save leaves them."""
    for owner in (like.st_uid, -1):
        try:
            os.fchown(fd, owner, like.st_gid)
            return
        except PermissionError:
            continue


def switch(tmp: str | Path, path: str | Path) -> None:
    """Rename the finished temporary file ``tmp`` onto ``path`` (a link followed), after
    checking once more that ``path`` is a regular file or nothing."""
    target = check_output(path)
    try:
        os.replace(tmp, target)
    except OSError as exc:
        raise cannot_write(path, exc) from None


#: The errors of a full disk (or a full quota, or a file over the system's size limit).
NO_SPACE = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG})


def cannot_write(path: str | Path, exc: OSError) -> TrailkitError:
    """The error for a write that failed with ``exc``, the caller having removed what it
    began: a full disk says so, and that nothing was written."""
    if exc.errno in NO_SPACE:
        return no_space(path)
    return TrailkitError(f"cannot write {path}: {exc.strerror or exc}")


def no_space(path: str | Path, kept: str = "nothing was written") -> TrailkitError:
    """The error for a write to ``path`` that found the disk full (``kept``: what is
    left, said after the cause)."""
    return TrailkitError(f"cannot write {path}: no space left on device: {kept}; free "
                         "some space, or name a place on another disk")


def nearly_full(path: str | Path, room: int = 1 << 20) -> bool:
    """Whether the file system holding ``path`` (a file or a folder) has less than
    ``room`` bytes, or no file entry, left: what a write error that does not say why (as
    SQLite's "disk I/O error") most likely met."""
    folder = Path(path) if Path(path).is_dir() else Path(path).parent
    try:
        seen = os.statvfs(folder)
    except OSError:
        return False
    return seen.f_bavail * seen.f_frsize < room or (seen.f_files > 0 and seen.f_favail == 0)


def _umask() -> int:
    """The process umask (read without changing it where Linux allows)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_pair(side: str | Path, side_content: str | bytes, main: str | Path,
               main_for: Callable[[str], str | bytes]) -> None:
    """Write ``side`` and ``main``, a file that names its side file (``main_for(name)`` is
    its content when it names the side file ``name``, next to it), as a set: at every
    moment ``main`` names a side file that is whole, the old one or the new one.

    The new side file is written beside the old under a temporary name, and ``main`` is
    switched to name it (the one rename that changes sets); then the side file gets its
    own name through a second link to it, ``main`` is switched to that name, and the
    temporary name goes. A kill at any point leaves ``main`` naming a whole file (and
    perhaps a stray temporary file)."""
    tmp = write_beside(side, side_content)
    try:
        atomic_write(main, main_for(tmp.name))
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    twin = _second_name(tmp, side)
    try:
        switch(twin, side)
    except BaseException:
        twin.unlink(missing_ok=True)
        raise
    atomic_write(main, main_for(Path(side).name))
    tmp.unlink(missing_ok=True)


def _second_name(tmp: Path, side: str | Path) -> Path:
    """A second temporary name of ``tmp``'s content: a hard link, or a copy where the
    file system has none."""
    for attempt in range(100):
        twin = tmp.with_name(f"{tmp.name}.{attempt}")
        try:
            os.link(tmp, twin)
            return twin
        except FileExistsError:
            continue
        except OSError:
            return write_beside(side, tmp.read_bytes())
    return write_beside(side, tmp.read_bytes())


def check_folder(folder: str | Path, own: Iterable[str], *, allow_existing: bool,
                 option: str = "--proof-dir", inputs: Iterable[str | Path] = ()) -> Path:
    """The folder ``folder`` names (a link followed), if :func:`write_folder` may write its
    files there: nothing there yet, or a folder whose files named in ``own`` (when some
    exist, with ``allow_existing``) are regular files and none of the command's
    ``inputs``; raises :class:`TrailkitError` otherwise, before any work is done."""
    real = Path(os.path.realpath(folder))
    for name in sorted(set(own)):
        for given in inputs:
            if same_file(real / name, given):
                raise TrailkitError(f"refusing to write {option} {folder}: its file {name} "
                                    f"is {given}, which this command reads or writes "
                                    f"(--force or not); choose another {option}")
    try:
        seen = os.stat(real)
    except FileNotFoundError:
        check_output(real, option)  # its parent must be a writable folder
        return real
    except OSError as exc:
        raise TrailkitError(f"cannot write {option} {folder}: {exc.strerror or exc}") from None
    if not stat.S_ISDIR(seen.st_mode):
        raise TrailkitError(f"cannot write {option} {folder}: it is {kind_of(seen.st_mode)}, "
                            "not a folder; name a folder (trailkit makes it if need be)")
    present = [name for name in sorted(set(own)) if os.path.lexists(real / name)]
    if present and not allow_existing:
        raise TrailkitError(f"{Path(folder) / present[0]} already exists; pass --force to "
                            "replace the files in it")
    for name in present:
        check_output(real / name, option)
    writable = real.parent if _replaced_whole(real, own) else real
    if not os.access(writable, os.W_OK | os.X_OK):
        raise TrailkitError(f"cannot write {option} {folder}: the folder {writable} is "
                            "not writable here (the new files are made beside the old)")
    return real


def _replaced_whole(folder: Path, own: Iterable[str]) -> bool:
    """Whether :func:`write_folder` replaces the existing folder ``folder`` as a whole: it
    holds no file but those named in ``own``, and it is not the current folder nor one
    that holds it (a shell there would be left in a deleted folder)."""
    try:
        here = Path(os.path.realpath(os.getcwd()))
    except OSError:  # the current folder is gone already: nothing to keep it from
        return _holds_only(folder, own)
    return _holds_only(folder, own) and not here.is_relative_to(folder)


def _holds_only(folder: Path, own: Iterable[str]) -> bool:
    """Whether the folder ``folder`` holds no file but those named in ``own``."""
    ours = set(own)
    return all(name in ours for name in os.listdir(folder))


def write_folder(folder: str | Path, contents: Mapping[str, Callable[[], str | bytes]],
                 own: Iterable[str]) -> list[Path]:
    """Replace the files of the folder ``folder`` (checked by :func:`check_folder`) with
    ``contents`` (file name to a function making its text), as a set where the folder is
    their own: the new folder is written beside the old under a temporary name, then the
    two are exchanged in one step (``renameat2(RENAME_EXCHANGE)``; where the system has
    none, two renames, the old set whole under a temporary name in between), so either
    the old set or the new one is whole. In a folder that also holds other files (which
    are never touched), and in the current folder (never itself replaced), the files are
    all written first, then each put in place atomically, and a file of ``own`` not in
    ``contents`` is removed. A full disk leaves nothing behind. Returns the files
    written."""
    real = check_folder(folder, own, allow_existing=True)
    if real.exists() and not _replaced_whole(real, own):
        return _write_one_by_one(folder, real, contents, own)
    try:
        fresh = Path(tempfile.mkdtemp(prefix=f".{real.name}.", suffix=".tmp", dir=real.parent))
    except OSError as exc:
        raise cannot_write(folder, exc) from None
    try:
        os.chmod(fresh, stat.S_IMODE(os.stat(real).st_mode) if real.exists()
                 else 0o777 & ~_umask())
        for name, make in contents.items():
            _write_new(fresh / name, make())
        old = _put_in_place(fresh, real)
    except OSError as exc:
        _remove_set(fresh, own)
        raise cannot_write(folder, exc) from None
    except BaseException:
        _remove_set(fresh, own)
        raise
    if old is not None:
        _remove_set(old, own)
    return [Path(folder) / name for name in contents]


def _write_one_by_one(folder: str | Path, real: Path,
                      contents: Mapping[str, Callable[[], str | bytes]],
                      own: Iterable[str]) -> list[Path]:
    """:func:`write_folder` in a folder shared with other files: each file written
    beside its place first (none left when one cannot be), then each put in place
    atomically, and a stale file of ``own`` removed."""
    made: dict[str, Path] = {}
    try:
        for name, make in contents.items():
            made[name] = write_beside(real / name, make())
        for name, tmp in made.items():
            switch(tmp, real / name)
    finally:
        for tmp in made.values():
            tmp.unlink(missing_ok=True)
    for name in set(own) - set(contents):
        with contextlib.suppress(FileNotFoundError):
            (real / name).unlink()
    return [Path(folder) / name for name in contents]


def _write_new(path: Path, content: str | bytes) -> None:
    """Write a file in a folder nobody else sees yet (flushed to the disk)."""
    data = content.encode("utf-8") if isinstance(content, str) else content
    with open(path, "xb") as handle:
        handle.write(data)
        handle.flush()
        os.fchmod(handle.fileno(), 0o666 & ~_umask())
        os.fsync(handle.fileno())


def _put_in_place(fresh: Path, real: Path) -> Path | None:
    """Move the folder ``fresh`` to ``real``; returns where the old folder went (to be
    removed), or ``None`` when there was none."""
    try:
        if not real.exists():
            os.rename(fresh, real)
            return None
        if _exchange(fresh, real):
            return fresh
        aside = Path(tempfile.mkdtemp(prefix=f".{real.name}.", suffix=".old", dir=real.parent))
        os.rename(real, aside)  # the old set stays whole here ...
        os.rename(fresh, real)  # ... until the new one is in place
        return aside
    except OSError as exc:
        raise cannot_write(real, exc) from None


def _exchange(first: Path, second: Path) -> bool:
    """Swap two paths in one step (Linux ``renameat2`` with ``RENAME_EXCHANGE``); ``False``
    where the system cannot."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        call = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_cwd, exchange = -100, 2
    if call(at_cwd, os.fsencode(first), at_cwd, os.fsencode(second), exchange) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP):
        return False
    raise OSError(code, os.strerror(code))


def _remove_set(folder: Path, own: Iterable[str]) -> None:
    """Remove a folder of ours: its files named in ``own``, then the folder if empty (a
    file of another name is never removed)."""
    for name in own:
        (folder / name).unlink(missing_ok=True)
    with contextlib.suppress(OSError):
        folder.rmdir()
