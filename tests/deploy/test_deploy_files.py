"""deploy/: shellcheck, systemd-analyze verify, install.sh --dry-run, avahi and hotspot files."""

from __future__ import annotations

import configparser
import os
import shutil
import stat
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
SCRIPTS = sorted([*DEPLOY.glob("*.sh"), *(ROOT / "scripts").glob("*.sh")])
UNIT = DEPLOY / "tabletop-companion.service"


def test_there_are_scripts_to_check():
    assert DEPLOY / "install.sh" in SCRIPTS


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck is not installed (make sysdeps)")
@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_shellcheck_clean(script):
    r = subprocess.run(["shellcheck", "--severity=style", str(script)], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed (make sysdeps)")
def test_systemd_unit_verifies(tmp_path):
    # the unit's ExecStart must exist for verify to pass: point it at a stand-in executable
    exe = tmp_path / "opt" / "venv" / "bin" / "companion"
    exe.parent.mkdir(parents=True)
    exe.write_text("#!/bin/sh\nexit 0\n")
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    unit = tmp_path / UNIT.name
    unit.write_text(UNIT.read_text().replace("/opt/tabletop-companion", str(tmp_path / "opt")))
    r = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True,
                       env=dict(os.environ, SYSTEMD_LOG_LEVEL="notice"))
    problems = [line for line in (r.stdout + r.stderr).splitlines() if UNIT.name in line or "error" in line.lower()]
    assert r.returncode == 0 and not problems, r.stdout + r.stderr


def test_unit_keeps_the_promises():
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str
    text = UNIT.read_text()
    unit.read_string(text)
    svc = unit["Service"]
    assert svc["User"] == "companion" and svc["Restart"] == "on-failure"
    for group in ("video", "gpio"):
        assert group in svc["SupplementaryGroups"].split()
    assert svc["NoNewPrivileges"] == "yes" and svc["ProtectSystem"] == "strict"
    assert svc["DevicePolicy"] == "closed"
    for dev in ("char-video4linux", "char-gpiochip", "char-media", "char-dma_heap"):
        assert f"DeviceAllow={dev} rw" in text
    assert "--system-site-packages" in (DEPLOY / "install.sh").read_text()


def dry_run(*args):
    return subprocess.run(["bash", str(DEPLOY / "install.sh"), "--dry-run", *args], capture_output=True,
                          text=True, timeout=30, cwd=ROOT)


def test_install_dry_run_prints_the_full_plan():
    r = dry_run()
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "nothing is changed" in out
    for needle in ("apt-get install", "python3-picamera2", "python3-lgpio", "espeak-ng", "avahi-daemon",
                   "venv --system-site-packages", "pip install", "usermod -a -G video",
                   "usermod -a -G gpio", "/etc/systemd/system/tabletop-companion.service",
                   "/etc/avahi/services/tabletop-companion.service", "/etc/polkit-1/rules.d/",
                   "systemctl daemon-reload", "systemctl enable tabletop-companion.service",
                   "systemctl restart tabletop-companion.service"):
        assert needle in out, f"the plan does not mention {needle!r}"
    steps = [line for line in out.splitlines() if line.startswith("== ")]
    assert len(steps) >= 8
    assert dry_run().stdout == out  # the same plan every time: nothing was changed


def test_install_dry_run_with_the_hotspot_and_options():
    r = dry_run("--hotspot", "--hotspot-password", "dice&tokens#1", "--prefix", "/srv/tc", "--no-apt")
    assert r.returncode == 0, r.stderr
    assert "companion-hotspot.nmconnection" in r.stdout and "nmcli connection reload" in r.stdout
    assert "/srv/tc/venv" in r.stdout and "apt-get install" not in r.stdout
    bad = dry_run("--hotspot", "--hotspot-password", "short")
    assert bad.returncode != 0 and "8 to 63" in bad.stderr


def test_install_refuses_without_root_unless_dry_run():
    if os.geteuid() == 0:
        pytest.skip("running as root: the refusal cannot be seen")
    r = subprocess.run(["bash", str(DEPLOY / "install.sh")], capture_output=True, text=True, timeout=30)
    assert r.returncode != 0 and "--dry-run" in r.stderr


def test_install_rejects_unknown_options():
    r = subprocess.run(["bash", str(DEPLOY / "install.sh"), "--bogus"], capture_output=True, text=True)
    assert r.returncode == 2 and "unknown option" in r.stderr


def test_avahi_service_file_is_valid():
    root = ET.parse(DEPLOY / "tabletop-companion.avahi.service").getroot()
    assert root.tag == "service-group"
    assert root.find("service/type").text == "_http._tcp"
    assert root.find("service/port").text == "8000"


def test_hotspot_profile_is_an_access_point():
    text = "\n".join(line for line in (DEPLOY / "companion-hotspot.nmconnection").read_text().splitlines()
                     if not line.startswith("#"))
    prof = configparser.ConfigParser(interpolation=None)
    prof.read_string(text)
    assert prof["wifi"]["mode"] == "ap" and prof["ipv4"]["method"] == "shared"
    assert prof["wifi-security"]["key-mgmt"] == "wpa-psk"


def test_deploy_readme_has_wiring_bom_mounting_update():
    text = (DEPLOY / "README.md").read_text()
    for heading in ("## Wiring", "## Bill of materials", "## Mounting the camera", "## Update"):
        assert heading in text
    assert "GPIO17" in text and "GND" in text and "LED" in text


def test_staged_install_writes_filled_in_files_that_verify(tmp_path):
    stage, prefix = tmp_path / "root", tmp_path / "opt"
    r = subprocess.run(["bash", str(DEPLOY / "install.sh"), "--stage", str(stage), "--prefix", str(prefix),
                        "--user", "tabletop", "--data", "/srv/tabletop", "--port", "8080", "--hotspot",
                        "--hotspot-ssid", "Τραπέζι", "--hotspot-password", "dice&tok#ens"],
                       capture_output=True, text=True, timeout=30)
    assert r.returncode == 0, r.stderr
    unit = stage / "etc/systemd/system/tabletop-companion.service"
    text = unit.read_text()
    assert "User=tabletop" in text and "Group=tabletop" in text
    assert f"ExecStart={prefix}/venv/bin/companion serve --data /srv/tabletop" in text
    assert "ReadWritePaths=/srv/tabletop" in text and "StateDirectory=" not in text
    hotspot = stage / "etc/NetworkManager/system-connections/companion-hotspot.nmconnection"
    assert stat.S_IMODE(hotspot.stat().st_mode) == 0o600  # NetworkManager ignores readable secrets
    assert "psk=dice&tok#ens" in hotspot.read_text() and "ssid=Τραπέζι" in hotspot.read_text()
    assert "@UUID@" not in hotspot.read_text()
    assert "<port>8080</port>" in (stage / "etc/avahi/services/tabletop-companion.service").read_text()
    assert '"tabletop"' in (stage / "etc/polkit-1/rules.d/50-tabletop-companion.rules").read_text()
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not installed")
    exe = prefix / "venv/bin/companion"
    exe.parent.mkdir(parents=True)
    exe.write_text("#!/bin/sh\nexit 0\n")
    exe.chmod(0o755)
    v = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True)
    assert v.returncode == 0 and unit.name not in v.stdout + v.stderr, v.stdout + v.stderr
