"""The proof cache of ``solvable verify``: proved symbolic verdicts kept on disk across runs,
authenticated so that nobody but the user can make ``verify`` report a proof it never ran.

What is stored: a symbolic claim's proof takes no input (``Theorem.verify`` passes no
option to a symbolic check), so its verdict is a function of the code and of the computer
algebra only.  A ``proved`` verdict is stored under a content hash of every ``.py`` file of
the ``solvable`` and ``numerics`` packages, the Python, sympy, mpmath and numpy versions and
the claim id (:meth:`ProofCache.key`): any edit of any module, or another sympy, is a miss.
Numeric claims, monitors and failed verdicts are never stored.

The trust model (``docs/proof_cache.md``).  The key of an entry is public: anyone can
compute it from the source.  So an entry is trusted only when all of these hold, and
anything else is a miss (the claim is proved again), never an error:

* it carries an HMAC-SHA256 (:func:`hmac.new`) of its fields under a per-user secret: 32
  random bytes (:func:`secrets.token_hex`) in ``proof-cache.key`` of the user's config
  directory (:func:`default_key_file`), created on first use with mode ``0600`` in a
  directory of mode ``0700``.  A secret file or folder that is not the user's, that others
  may read or write, or that is not a regular file turns the cache off with a warning
  (:attr:`ProofCache.disabled`): a secret others can read or replace authenticates nothing;
* the cache directory and its ``proofs/`` folder are real directories (not symlinks) owned
  by the user and not writable by group or others; otherwise the cache is off, with a
  warning that says why and how to fix it (``chmod go-w``), and ``verify`` proves everything;
* the entry is a regular file owned by the user (opened with ``O_NOFOLLOW | O_NONBLOCK``: a
  symlink, a FIFO or a device is a miss, and never blocks) of at most
  :data:`MAX_ENTRY_BYTES` bytes.

Entries are written atomically (a ``0600`` temporary file and ``os.replace``).  On a
platform without POSIX owners (Windows) the ownership and mode checks are skipped and the
HMAC alone authenticates.  Location: ``$SOLVABLE_CACHE_DIR`` if set, else
``$XDG_CACHE_HOME/solvable``, else ``~/.cache/solvable`` (:func:`default_cache_dir`).
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import importlib.util
import json
import os
import platform
import secrets
import stat
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import mpmath
import numpy as np
import sympy as sp

from solvable._core.claims import Theorem, Verdict

__all__ = [
    "CACHE_ENV",
    "CONFIG_ENV",
    "MAX_ENTRY_BYTES",
    "ProofCache",
    "default_cache_dir",
    "default_key_file",
    "source_digest",
    "source_files",
]

CACHE_ENV = "SOLVABLE_CACHE_DIR"
CONFIG_ENV = "SOLVABLE_CONFIG_DIR"
# Bumped whenever the entry layout changes: old entries then miss instead of misreading.
# 2: entries carry an HMAC ("mac") under the user's secret.
_FORMAT = 2
# An entry is about 300 bytes (the longest detail is under 1 kB); a larger file is no
# entry of ours, and reading it is capped so a huge file cannot exhaust memory.
MAX_ENTRY_BYTES = 64 * 1024
_KEY_NAME = "proof-cache.key"
_KEY_HEX = 64  # 32 random bytes, hex


def _user_dir(env: str, xdg: str, fallback: str) -> Path:
    explicit = os.environ.get(env, "")
    if explicit:
        return Path(explicit).expanduser()
    base = os.environ.get(xdg, "")
    if base and os.path.isabs(base):  # the XDG specification: relative paths are ignored
        return Path(base) / "solvable"
    return Path.home() / fallback / "solvable"


def default_cache_dir() -> Path:
    """Where proofs are cached: ``$SOLVABLE_CACHE_DIR`` when set (non-empty), else
    ``$XDG_CACHE_HOME/solvable`` (when that is an absolute path, as the XDG specification
    requires), else ``~/.cache/solvable``.  Not created here."""
    return _user_dir(CACHE_ENV, "XDG_CACHE_HOME", ".cache")


def default_key_file() -> Path:
    """The user's secret for the cache's HMAC: ``proof-cache.key`` in
    ``$SOLVABLE_CONFIG_DIR``, else ``$XDG_CONFIG_HOME/solvable``, else
    ``~/.config/solvable``.  Kept apart from the cache: whoever may write the cache must
    not be able to replace the secret.  Not created here."""
    return _user_dir(CONFIG_ENV, "XDG_CONFIG_HOME", ".config") / _KEY_NAME


def _package_dir(name: str) -> Path | None:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def source_files() -> list[Path]:
    """Every ``.py`` file of the installed ``solvable`` and ``numerics`` packages, sorted:
    what a proof may depend on (a proof calls model code, which calls the core; hashing
    all of it, not only the modules a claim imports, cannot miss a dependency)."""
    files: list[Path] = []
    for name in ("solvable", "numerics"):
        root = _package_dir(name)
        if root is not None:
            files.extend(p for p in root.rglob("*.py") if "__pycache__" not in p.parts)
    return sorted(files)


def source_digest(files: Sequence[Path] | None = None) -> str:
    """SHA-256 of the package source: each file's path relative to the files' common
    folder, its length and its bytes, in sorted order, plus the versions a proof depends on
    (Python, sympy, mpmath, numpy) and the entry format.

    Parameters
    ----------
    files : sequence of pathlib.Path, optional
        The files to hash; default :func:`source_files`.

    Returns
    -------
    str
        64 hexadecimal digits.
    """
    files = source_files() if files is None else sorted(Path(f) for f in files)
    h = hashlib.sha256()
    versions = (
        f"format {_FORMAT}; {platform.python_implementation()} {sys.version}; "
        f"sympy {sp.__version__}; mpmath {mpmath.__version__}; numpy {np.__version__}"
    )
    h.update(versions.encode())
    # names relative to the files' common folder (the checkout, or site-packages), so that
    # two copies of the same code agree and a renamed or moved file changes the digest
    base = os.path.commonpath([str(f.parent) for f in files]) if files else ""
    for path in files:
        data = path.read_bytes()
        rel = os.path.relpath(path, base).replace(os.sep, "/")
        h.update(f"\0{rel}\0{len(data)}\0".encode())
        h.update(data)
    return h.hexdigest()


# ---------------------------------------------------------------------------
# ownership and modes (POSIX; skipped where there are no owners)
# ---------------------------------------------------------------------------
_POSIX = hasattr(os, "geteuid")


def _untrusted_dir(path: Path) -> str | None:
    """Why the existing ``path`` is no directory to trust (``None`` when it is one): it
    must be a directory itself (not a symlink), owned by this user, not writable by group
    or others."""
    st = os.lstat(path)
    if not stat.S_ISDIR(st.st_mode):
        return f"{path} is not a directory (a symlink or a file)"
    if _POSIX and st.st_uid != os.geteuid():
        return f"{path} belongs to uid {st.st_uid}, not to this user (uid {os.geteuid()})"
    if _POSIX and st.st_mode & 0o022:
        return (f"{path} is writable by group or others (mode {stat.S_IMODE(st.st_mode):o}); "
                f"`chmod go-w {path}` to use it")  # fmt: skip
    return None


def _read_private(path: Path, limit: int, private: bool) -> bytes | None:
    """The bytes of ``path`` if it is a regular file of this user of at most ``limit``
    bytes (and, with ``private``, readable by nobody else), else ``None``.  Opened without
    following a symlink and without blocking (a FIFO), then checked on the open file."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except OSError:  # missing, a symlink (ELOOP), unreadable
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > limit:
            return None
        if _POSIX and (st.st_uid != os.geteuid() or (private and st.st_mode & 0o077)):
            return None
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, limit + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        return None if size > limit else b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(fd)


def _load_or_create_key(path: Path) -> bytes:
    """The secret in ``path``, created (``0600`` in a ``0700`` folder, atomically: a
    temporary file hard-linked to its name, so two first runs agree on one secret) when
    absent.  Raises ``PermissionError`` with the reason when it cannot be trusted."""
    folder = path.parent
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    if (why := _untrusted_dir(folder)) is not None:
        raise PermissionError(f"the secret's folder cannot be trusted: {why}")
    if not os.path.lexists(path):
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=folder)  # mode 0600
        try:
            with os.fdopen(fd, "w", encoding="ascii") as fh:
                fh.write(secrets.token_hex(_KEY_HEX // 2))
            with contextlib.suppress(FileExistsError):  # another process was first
                os.link(tmp, path)
        finally:
            os.unlink(tmp)
    data = _read_private(path, _KEY_HEX, private=True)
    if data is None or len(data) != _KEY_HEX:
        raise PermissionError(
            f"the secret {path} is not a private regular file of this user holding "
            f"{_KEY_HEX} hex digits (mode 0600); delete it to make a new one"
        )
    try:
        return bytes.fromhex(data.decode("ascii"))
    except ValueError:
        raise PermissionError(f"the secret {path} is not {_KEY_HEX} hex digits; delete it "
                              f"to make a new one") from None  # fmt: skip


class ProofCache:
    """Proved symbolic verdicts on disk, authenticated (module docstring).

    Parameters
    ----------
    directory : str or pathlib.Path, optional
        The cache directory; default :func:`default_cache_dir`.  Entries live in its
        ``proofs/`` sub-directory, one JSON file per (source digest, claim).
    digest : str, optional
        The source digest; default :func:`source_digest` of the installed packages,
        computed once here.
    key_file : str or pathlib.Path, optional
        The user's secret; default :func:`default_key_file`.

    Attributes
    ----------
    disabled : str or None
        Why the cache is off (an untrusted directory or secret), for one warning; while
        it is set every lookup is a miss and nothing is written.
    write_error : str or None
        The first failed write (read-only or full disk), for one warning.
    """

    def __init__(self, directory: str | os.PathLike[str] | None = None,
                 digest: str | None = None,
                 key_file: str | os.PathLike[str] | None = None) -> None:  # fmt: skip
        self.directory = Path(default_cache_dir() if directory is None else directory)
        self.digest = source_digest() if digest is None else digest
        self.key_file = Path(default_key_file() if key_file is None else key_file)
        self.write_error: str | None = None
        self.disabled: str | None = None
        self._secret: bytes | None = None

    def key(self, claim_id: str) -> str:
        """SHA-256 of the source digest and ``claim_id``: the entry's file name (public)."""
        return hashlib.sha256(f"{self.digest}\0{claim_id}".encode()).hexdigest()

    def path(self, claim_id: str) -> Path:
        """The entry file of ``claim_id``."""
        return self.directory / "proofs" / f"{self.key(claim_id)}.json"

    @staticmethod
    def cacheable(thm: Theorem) -> bool:
        """Only symbolic claims: their proofs take no input.  Numeric claims (the
        confirmations) and monitors always run."""
        return thm.kind == "symbolic"

    def _secret_or_none(self) -> bytes | None:
        if self._secret is None and self.disabled is None:
            try:
                self._secret = _load_or_create_key(self.key_file)
            except OSError as exc:  # PermissionError with the reason, or the disk's own
                self.disabled = f"proof cache off: {exc}"
        return self._secret

    def _trusted_folders(self, create: bool) -> bool:
        """Whether the cache directory and ``proofs/`` exist (made with mode ``0700`` when
        ``create``) and can be trusted; an untrusted one sets :attr:`disabled`."""
        proofs = self.directory / "proofs"
        if create:
            self.directory.mkdir(parents=True, exist_ok=True, mode=0o700)
            proofs.mkdir(exist_ok=True, mode=0o700)
        for folder in (self.directory, proofs):
            if not os.path.lexists(folder):
                return False
            if (why := _untrusted_dir(folder)) is not None:
                self.disabled = f"proof cache off: {why}"
                return False
        return True

    def _mac(self, secret: bytes, fields: dict[str, object]) -> str:
        text = json.dumps(fields, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
        return hmac.new(secret, text.encode("ascii"), hashlib.sha256).hexdigest()

    def get(self, thm: Theorem) -> Verdict | None:
        """The cached ``proved`` verdict of ``thm`` (``seconds`` = the original proof's),
        or ``None`` on a miss: no entry, an untrusted folder or secret, an entry that is
        not a small regular file of the user, not JSON, inconsistent, or whose HMAC does
        not verify (the next :meth:`put` rewrites it)."""
        if not self.cacheable(thm) or self.disabled is not None:
            return None
        try:
            if not self._trusted_folders(create=False):
                return None
        except OSError:
            return None
        secret = self._secret_or_none()
        if secret is None:
            return None
        data = _read_private(self.path(thm.id), MAX_ENTRY_BYTES, private=False)
        if data is None:
            return None
        try:
            entry = json.loads(data.decode("utf-8"))
        except ValueError:  # not UTF-8 / not JSON
            return None
        if not (
            isinstance(entry, dict)
            and entry.get("format") == _FORMAT
            and entry.get("key") == self.key(thm.id)
            and entry.get("id") == thm.id
            and entry.get("status") == "proved"
            and isinstance(entry.get("detail"), str)
            and type(entry.get("residuals")) is int
            and entry["residuals"] >= 1
            and type(entry.get("seconds")) is float
            and isinstance(entry.get("mac"), str)
        ):
            return None
        fields = {k: v for k, v in entry.items() if k != "mac"}
        if not hmac.compare_digest(entry["mac"], self._mac(secret, fields)):
            return None
        # a proved verdict's residuals are all exactly 0: only their number is stored
        zeros = (sp.Integer(0),) * entry["residuals"]
        return Verdict("proved", entry["detail"], residuals=zeros, seconds=entry["seconds"])

    def put(self, thm: Theorem, verdict: Verdict) -> bool:
        """Store a ``proved`` verdict of a symbolic claim (atomically, with its HMAC);
        anything else is not stored.  Returns whether an entry was written; a write that
        fails (read-only or full disk) is remembered in :attr:`write_error` and never
        raised, an untrusted folder or secret in :attr:`disabled`."""
        if not (self.cacheable(thm) and verdict.status == "proved" and verdict.residuals
                and all(r == 0 for r in verdict.residuals)):  # fmt: skip
            return False
        if self.disabled is not None:
            return False
        secret = self._secret_or_none()
        if secret is None:
            return False
        fields: dict[str, object] = {
            "format": _FORMAT,
            "key": self.key(thm.id),
            "id": thm.id,
            "status": "proved",
            "detail": verdict.detail,
            "residuals": len(verdict.residuals),
            "seconds": float(verdict.seconds),
            "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        }
        entry = {**fields, "mac": self._mac(secret, fields)}
        target = self.path(thm.id)
        tmp = None
        try:
            if not self._trusted_folders(create=True):
                return False
            fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".json", dir=target.parent)
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(entry, fh)
            os.replace(tmp, target)  # atomic: a reader sees the old file or the new one
            return True
        except OSError as exc:
            if tmp is not None:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
            if self.write_error is None:
                self.write_error = f"{type(exc).__name__}: {exc}"
            return False
