"""DUMP payloads for the command fuzzer: a real value's DUMP bytes mutated (bytes flipped, cut,
repeated, lengths pushed to the extremes) with the trailer's CRC64 written again, so RESTORE's
checksum lets the mutation through to the value decoders. Standard library only."""

import struct

_POLY = 0x95AC9329AC4BC9B5  # CRC-64/Jones, reflected, as Redis's crc64.c


def _table():
    t = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ _POLY if c & 1 else c >> 1
        t.append(c)
    return t


_TABLE = _table()


def crc64(data, crc=0):
    for b in data:
        crc = _TABLE[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc


assert crc64(b"123456789") == 0xE9C6D914C4B8D9CA


def resign(body):
    """body (payload + 2-byte RDB version) with its CRC64 trailer appended."""
    return body + struct.pack("<Q", crc64(body))


_EDGES = [b"\x00", b"\xff", b"\x7f", b"\x80", b"\xc0", b"\xfe", b"\x3f\xff",
          b"\x80\xff\xff\xff\xff", b"\x81\xff\xff\xff\xff\xff\xff\xff\xff",
          b"\x81\x7f\xff\xff\xff\xff\xff\xff\xff"]


def mutate(dump, rng):
    """A mutated copy of a DUMP reply (with a valid CRC64 unless the dump is too short)."""
    if len(dump) < 10:
        return dump
    body = bytearray(dump[:-8])
    payload_end = len(body) - 2  # the RDB version's two bytes stay
    for _ in range(rng.randint(1, 4)):
        r = rng.random()
        i = rng.randrange(max(1, payload_end))
        if r < 0.35:
            body[i] = rng.randrange(256)
        elif r < 0.55:
            body[i:i + 1] = rng.choice(_EDGES)
        elif r < 0.7:
            cut = rng.randrange(max(1, payload_end))
            del body[cut:payload_end]
        elif r < 0.85:
            j = min(payload_end, i + rng.randint(1, 16))
            body[j:j] = body[i:j] * rng.randint(1, 3)
        else:
            body[i] ^= 1 << rng.randrange(8)
        payload_end = len(body) - 2
    return resign(bytes(body)) if rng.random() < 0.95 else bytes(body) + dump[-8:]
