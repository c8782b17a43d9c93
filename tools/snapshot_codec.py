"""The build's memory snapshot, encoded to download less: its static data XORed with the wasm's.

A Pyodide memory snapshot (``makeMemorySnapshot``) is a small header followed by the whole wasm
memory. Its first few MB are the interpreter's static data: the wasm module's data segments, as
instantiating the module writes them, then changed in a few places by start-up (relocations,
globals). The browser already downloads those bytes inside ``pyodide.asm.wasm``; in the snapshot
they are ~1.4 MB of gzip more. XORed with the data segments they become mostly zeros.

Format: Pyodide's header keeps word 3 zero (reserved). An encoded snapshot holds there the
number of bytes XORed, from address 0 (a multiple of 16). The shipped ``pyodide.asm.mjs`` is
patched (tools/build_site.py, PYODIDE_SNAPSHOT_PATCHES) to keep a copy of that much memory right
after the module is instantiated, before any of its code runs (when it will restore a snapshot),
and to XOR it back after restoring; a snapshot with word 3 zero (every snapshot the page and its
workers make themselves) restores as before.
"""

from __future__ import annotations

import struct

#: Pyodide's snapshot header: magic, offset of the memory, length of the JSON, reserved (0).
HEADER = struct.Struct("<4I")
#: Byte offset of the reserved word in the header.
XOR_WORD = 12
_DATA_SECTION = 11
_I32_CONST = 0x41
_END = 0x0B


def _leb128(data: bytes, i: int, signed: bool = False) -> tuple[int, int]:
    """The LEB128 number at ``data[i]`` and the index after it."""
    value = shift = 0
    while True:
        byte = data[i]
        i += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            if signed and byte & 0x40:
                value -= 1 << shift
            return value, i


def data_image(wasm: bytes) -> bytes:
    """Memory 0 right after instantiating ``wasm``: its active data segments at their offsets,
    zeros between them, up to the last segment's end rounded up to 16 bytes. Passive segments
    are not written by instantiation and are left out. ValueError: not a wasm module, or an
    active segment whose offset is not a constant."""
    if wasm[:4] != b"\0asm":
        raise ValueError("not a WebAssembly module")
    segments: list[tuple[int, bytes]] = []
    i = 8
    while i < len(wasm):
        section = wasm[i]
        size, i = _leb128(wasm, i + 1)
        end = i + size
        if section == _DATA_SECTION:
            count, j = _leb128(wasm, i)
            for _ in range(count):
                flags, j = _leb128(wasm, j)
                if flags == 1:  # passive
                    length, j = _leb128(wasm, j)
                    j += length
                    continue
                if flags == 2:
                    memory, j = _leb128(wasm, j)
                    if memory != 0:
                        raise ValueError(f"a data segment for memory {memory}")
                elif flags != 0:
                    raise ValueError(f"data segment flags {flags}")
                if wasm[j] != _I32_CONST:
                    raise ValueError("a data segment whose offset is not an i32.const")
                offset, j = _leb128(wasm, j + 1, signed=True)
                if wasm[j] != _END:
                    raise ValueError("a data segment offset of more than one instruction")
                length, j = _leb128(wasm, j + 1)
                segments.append((offset, wasm[j : j + length]))
                j += length
        i = end
    top = max((offset + len(data) for offset, data in segments), default=0)
    image = bytearray(-(-top // 16) * 16)
    for offset, data in segments:
        image[offset : offset + len(data)] = data
    return bytes(image)


def _xor(a: bytes, b: bytes) -> bytes:
    return (int.from_bytes(a, "little") ^ int.from_bytes(b, "little")).to_bytes(len(a), "little")


def _split(snapshot: bytes) -> tuple[int, int]:
    if len(snapshot) < HEADER.size:
        raise ValueError("too short for a Pyodide memory snapshot")
    _magic, memory, _json, xored = HEADER.unpack_from(snapshot)
    if memory % 16 or memory > len(snapshot):
        raise ValueError("the snapshot header's memory offset is wrong")
    return memory, xored


def encode(snapshot: bytes, image: bytes) -> bytes:
    """``snapshot`` with its first ``len(image)`` bytes of memory XORed with ``image``."""
    memory, xored = _split(snapshot)
    if xored:
        raise ValueError("the snapshot is encoded already")
    if not image or len(image) % 16 or memory + len(image) > len(snapshot):
        raise ValueError("the data image does not fit the snapshot")
    out = bytearray(snapshot)
    struct.pack_into("<I", out, XOR_WORD, len(image))
    out[memory : memory + len(image)] = _xor(snapshot[memory : memory + len(image)], image)
    return bytes(out)


def decode(encoded: bytes, image: bytes) -> bytes:
    """The snapshot ``encode`` took (what the patched ``restoreSnapshot`` puts in memory)."""
    memory, xored = _split(encoded)
    if xored == 0:
        return encoded
    if xored > len(image):
        raise ValueError("the snapshot was XORed with more data than the image holds")
    out = bytearray(encoded)
    struct.pack_into("<I", out, XOR_WORD, 0)
    out[memory : memory + xored] = _xor(encoded[memory : memory + xored], image[:xored])
    return bytes(out)
