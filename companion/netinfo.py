"""The address phones use to reach the companion, and its QR code for the terminal."""

from __future__ import annotations

import socket
import subprocess

import segno


def lan_ip() -> str | None:
    """The machine's LAN IPv4 address, or None when it has only loopback.

    Asks the kernel which source address it would use for an outside address (no packet is sent),
    then falls back to the interfaces' addresses.
    """
    for probe in ("192.0.2.1", "10.255.255.255"):
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.connect((probe, 9))
                ip = s.getsockname()[0]
            if ip and not ip.startswith("127.") and ip != "0.0.0.0":
                return ip
        except OSError:
            pass
    try:
        out = subprocess.run(["hostname", "-I"], capture_output=True, text=True, timeout=2).stdout
        for ip in out.split():
            if "." in ip and not ip.startswith("127."):
                return ip
    except (OSError, subprocess.SubprocessError):
        pass
    return None


def phone_url(host: str, port: int) -> str:
    """The URL to print and encode: the LAN address unless the server is bound to one address."""
    if host in ("0.0.0.0", "", "::"):
        host = lan_ip() or "127.0.0.1"
    return f"http://{host}:{port}/" if port != 80 else f"http://{host}/"


def terminal_qr(url: str) -> str:
    """The QR code of ``url`` drawn with block characters for a terminal."""
    import io

    buf = io.StringIO()
    segno.make(url, error="l").terminal(out=buf, compact=True, border=2)
    return buf.getvalue()
