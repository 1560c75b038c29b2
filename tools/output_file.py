"""Writes the report tools' files the way g500 writes its outputs (docs/output.md).

A regular file, or a path that does not exist yet, is written to PATH.g500-tmp.HOST.PID beside it
and renamed onto it only when complete (a symlink is followed and its target replaced); a
character device, a FIFO or "-" (standard output) is written in place; anything else is refused.
Temporaries left by processes of this host that no longer exist are removed on the way.
Errors are raised as OutputError with a one-line message.
"""
import errno
import io
import os
import socket
import stat
import sys

TEMP_INFIX = ".g500-tmp."


class OutputError(Exception):
    pass


def _process_gone(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


def _remove_stale_temporaries(target, host):
    directory, name = os.path.split(target)
    prefix = name + TEMP_INFIX + host + "."
    try:
        entries = os.listdir(directory or ".")
    except OSError:
        return
    for entry in entries:
        pid_text = entry[len(prefix):]
        if entry.startswith(prefix) and pid_text.isdigit() and len(pid_text) <= 9:
            if int(pid_text) == os.getpid() or _process_gone(int(pid_text)):
                try:
                    os.unlink(os.path.join(directory, entry))
                except OSError:
                    pass


def _write_stream(path, data):
    try:
        # Non-blocking open: a FIFO that nobody reads fails (ENXIO) instead of waiting.
        fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
    except OSError as e:
        if e.errno == errno.ENXIO:
            raise OutputError(f"cannot write '{path}': it is a FIFO that no process is reading") from None
        raise OutputError(f"cannot write '{path}': {e.strerror}") from None
    try:
        os.set_blocking(fd, True)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    except OSError as e:
        raise OutputError(f"writing '{path}' failed: {e.strerror}") from None
    finally:
        os.close(fd)


def _write_replacing(path, target, data, mode):
    directory = os.path.dirname(target) or "."
    if not os.path.isdir(directory):
        raise OutputError(f"cannot write '{path}': directory '{directory}' does not exist")
    host = socket.gethostname() or "localhost"
    _remove_stale_temporaries(target, host)
    temp = f"{target}{TEMP_INFIX}{host}.{os.getpid()}"
    try:
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
        with os.fdopen(fd, "wb") as f:
            os.fchmod(f.fileno(), mode)
            f.write(data)
        os.replace(temp, target)
    except OSError as e:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise OutputError(f"cannot write '{path}': {e.strerror}") from None


def write_output(path, data):
    """Writes `data` (str or bytes) to `path` as described above."""
    if isinstance(data, str):
        data = data.encode()
    if not path:
        raise OutputError("an output path is empty")
    if path == "-":
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    try:
        st = os.stat(path)
    except FileNotFoundError:
        st = None
    except OSError as e:
        raise OutputError(f"cannot write '{path}': {e.strerror}") from None
    if st is not None and (stat.S_ISCHR(st.st_mode) or stat.S_ISFIFO(st.st_mode)):
        _write_stream(path, data)
        return
    if st is not None and not stat.S_ISREG(st.st_mode):
        kind = "a directory" if stat.S_ISDIR(st.st_mode) else "not a regular file"
        raise OutputError(f"cannot write '{path}': it is {kind} (an output must be a regular file, "
                          "a character device, a FIFO or -)")
    mode = stat.S_IMODE(st.st_mode) if st is not None else 0o666 & ~_umask()
    _write_replacing(path, os.path.realpath(path), data, mode)


def save_figure(fig, path, **savefig_args):
    """matplotlib's fig.savefig(path, ...) through write_output (format from the extension)."""
    buffer = io.BytesIO()
    extension = os.path.splitext(path)[1].lstrip(".").lower() or "png"
    fig.savefig(buffer, format=extension, **savefig_args)
    write_output(path, buffer.getvalue())


def _umask():
    current = os.umask(0)
    os.umask(current)
    return current
