#!/usr/bin/env bash
# Installs the tabletop companion on Raspberry Pi OS Bookworm (Pi 4, Pi 5, Zero 2 W) as a service.
#
#   sudo deploy/install.sh                 # install or update (safe to run again)
#   deploy/install.sh --dry-run            # print every step, change nothing (no root needed)
#   sudo deploy/install.sh --hotspot       # also add a Wi-Fi hotspot profile for tables without Wi-Fi
#
# Steps: apt packages (python3-picamera2, python3-lgpio, espeak-ng, avahi-daemon, ...), a service
# user in the video/gpio/audio groups, a venv with --system-site-packages (so picamera2 and lgpio
# from apt are visible) with the companion installed in it, the systemd unit, a polkit rule for the
# shut-down button, the avahi service file and host name (companion.local), then the service starts.
set -euo pipefail

SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PREFIX=/opt/tabletop-companion
DATA_DIR=/var/lib/tabletop-companion
SERVICE_USER=companion
SERVICE_NAME=tabletop-companion
HOSTNAME_WANTED=companion
PORT=8000
DRY_RUN=0
DO_APT=1
HOTSPOT=0
HOTSPOT_AUTO=0
HOTSPOT_SSID=companion
HOTSPOT_PSK=""
START=1
STAGE=""

usage() {
    sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
    cat <<USAGE

Options:
  --dry-run              print every step without doing it
  --stage DIR            like --dry-run, but write the files it would install under DIR
                         (DIR/etc/systemd/system/...), to inspect or test them
  --prefix DIR           where the venv goes (default $PREFIX)
  --data DIR             the event log and config.toml (default $DATA_DIR)
  --user NAME            the service user (default $SERVICE_USER)
  --hostname NAME        the host name phones can use as NAME.local (default $HOSTNAME_WANTED;
                         --hostname "" keeps the current one)
  --port N               the port announced over mDNS (default $PORT)
  --no-apt               skip apt-get (packages already installed)
  --no-start             install but do not (re)start the service
  --hotspot              install the NetworkManager hotspot profile (off until started)
  --hotspot-auto         ... and let it come up by itself when no known Wi-Fi is in reach
  --hotspot-ssid NAME    the hotspot's name (default $HOTSPOT_SSID)
  --hotspot-password PW  its WPA2 password, 8-63 characters (default: a random one, printed)
  -h, --help             this help
USAGE
}

while [ $# -gt 0 ]; do
    case "$1" in
        --dry-run) DRY_RUN=1 ;;
        --stage) DRY_RUN=1; STAGE="$2"; shift ;;
        --prefix) PREFIX="$2"; shift ;;
        --data) DATA_DIR="$2"; shift ;;
        --user) SERVICE_USER="$2"; shift ;;
        --hostname) HOSTNAME_WANTED="$2"; shift ;;
        --port) PORT="$2"; shift ;;
        --no-apt) DO_APT=0 ;;
        --no-start) START=0 ;;
        --hotspot) HOTSPOT=1 ;;
        --hotspot-auto) HOTSPOT=1; HOTSPOT_AUTO=1 ;;
        --hotspot-ssid) HOTSPOT_SSID="$2"; shift ;;
        --hotspot-password) HOTSPOT_PSK="$2"; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done

STEP=0
step() {
    STEP=$((STEP + 1))
    printf '\n== %d. %s\n' "$STEP" "$*"
}

# run CMD...: runs a command, or prints it in a dry run
run() {
    if [ "$DRY_RUN" -eq 1 ]; then
        printf '+ %s\n' "$*"
    else
        "$@"
    fi
}

# sed_escape TEXT: TEXT made safe as the replacement of a sed s### command
sed_escape() {
    printf '%s' "$1" | sed -e 's/[#&\\]/\\&/g'
}

# put_file SRC DEST MODE [SED-SCRIPT]: installs a file (with @KEY@ substitutions)
put_file() {
    local src="$1" dest="$2" mode="$3" script="${4:-}"
    if [ "$DRY_RUN" -eq 1 ]; then
        printf '+ install -m %s %s %s%s\n' "$mode" "${src#"$SRC"/}" "$dest" "${script:+ (filled in)}"
        [ -n "$STAGE" ] || return 0
        dest="$STAGE$dest"
    fi
    local tmp
    tmp="$(mktemp)"
    if [ -n "$script" ]; then
        sed -e "$script" "$src" > "$tmp"
    else
        cat "$src" > "$tmp"
    fi
    install -D -m "$mode" "$tmp" "$dest"
    rm -f "$tmp"
}

if [ "$DRY_RUN" -eq 0 ] && [ "$(id -u)" -ne 0 ]; then
    echo "install.sh: run it as root (sudo deploy/install.sh), or with --dry-run to see the plan." >&2
    exit 1
fi
if [ "$DRY_RUN" -eq 1 ]; then
    echo "Dry run: nothing is changed. The plan for installing from $SRC:"
fi

step "Check the system"
CODENAME="$(sed -n 's/^VERSION_CODENAME=//p' /etc/os-release 2>/dev/null || true)"
CODENAME="${CODENAME:-unknown}"
MODEL="not a Raspberry Pi"
if [ -r /proc/device-tree/model ]; then
    MODEL="$(tr -d '\0' < /proc/device-tree/model)"
fi
echo "OS: $CODENAME; board: $MODEL"
if [ "$CODENAME" != "bookworm" ]; then
    echo "Note: made for Raspberry Pi OS Bookworm; on $CODENAME some packages may be named differently."
fi

step "Install system packages"
APT_PACKAGES=(python3 python3-venv python3-pip python3-numpy python3-picamera2 python3-lgpio
              espeak-ng alsa-utils avahi-daemon libopenblas0)
if [ "$DO_APT" -eq 1 ]; then
    run apt-get update
    run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${APT_PACKAGES[@]}"
else
    echo "skipped (--no-apt): ${APT_PACKAGES[*]}"
fi

step "Create the service user $SERVICE_USER (groups: video, gpio, audio)"
if id -u "$SERVICE_USER" >/dev/null 2>&1; then
    echo "user $SERVICE_USER exists"
else
    run useradd --system --user-group --home-dir "$DATA_DIR" --no-create-home --shell /usr/sbin/nologin "$SERVICE_USER"
fi
for group in video gpio audio; do
    if getent group "$group" >/dev/null 2>&1 || [ "$DRY_RUN" -eq 1 ]; then
        run usermod -a -G "$group" "$SERVICE_USER"
    else
        echo "no group $group on this system: skipped"
    fi
done
run install -d -m 0750 -o "$SERVICE_USER" -g "$SERVICE_USER" "$DATA_DIR"

step "Make the venv in $PREFIX/venv (it sees picamera2 and lgpio from apt)"
run install -d -m 0755 "$PREFIX"
if [ -x "$PREFIX/venv/bin/python" ]; then
    echo "venv exists: reused"
else
    run python3 -m venv --system-site-packages "$PREFIX/venv"
fi
# a clean copy of the source is built, so no root-owned build/ folder is left in your checkout
if [ "$DRY_RUN" -eq 1 ]; then
    printf '+ %s\n' "rm -rf $PREFIX/src && mkdir -p $PREFIX/src" \
        "tar -C $SRC --exclude=.git --exclude=.venv --exclude=build --exclude='*.egg-info' -cf - . | tar -C $PREFIX/src -xf -"
else
    rm -rf "$PREFIX/src"
    mkdir -p "$PREFIX/src"
    tar -C "$SRC" --exclude=.git --exclude=.venv --exclude=build --exclude='*.egg-info' -cf - . | tar -C "$PREFIX/src" -xf -
fi
run "$PREFIX/venv/bin/python" -m pip install --quiet --upgrade pip
run "$PREFIX/venv/bin/python" -m pip install --quiet --upgrade --constraint "$PREFIX/src/deploy/constraints-pi.txt" "$PREFIX/src"
put_file "$SRC/deploy/README.md" "$PREFIX/README.md" 0644

step "Install the systemd unit $SERVICE_NAME.service"
UNIT_SED="s#/opt/tabletop-companion#$PREFIX#g; s#/var/lib/tabletop-companion#$DATA_DIR#g; s#^User=companion#User=$SERVICE_USER#; s#^Group=companion#Group=$SERVICE_USER#"
if [ "$DATA_DIR" != /var/lib/tabletop-companion ]; then
    # StateDirectory= only manages folders under /var/lib; any other folder must be writable
    UNIT_SED="$UNIT_SED; s#^StateDirectory=.*#ReadWritePaths=$DATA_DIR#; /^StateDirectoryMode=/d"
fi
put_file "$SRC/deploy/tabletop-companion.service" "/etc/systemd/system/$SERVICE_NAME.service" 0644 "$UNIT_SED"
put_file "$SRC/deploy/50-tabletop-companion.rules" "/etc/polkit-1/rules.d/50-tabletop-companion.rules" 0644 "s#@USER@#$SERVICE_USER#g"

step "Announce the page over mDNS (avahi) as $HOSTNAME_WANTED.local"
put_file "$SRC/deploy/tabletop-companion.avahi.service" "/etc/avahi/services/tabletop-companion.service" 0644 "s#<port>8000</port>#<port>$PORT</port>#"
if [ -n "$HOSTNAME_WANTED" ] && [ "$(hostname)" != "$HOSTNAME_WANTED" ]; then
    run hostnamectl set-hostname "$HOSTNAME_WANTED"
    run sed -i "s/^127\.0\.1\.1[[:space:]].*/127.0.1.1\t$HOSTNAME_WANTED/" /etc/hosts
else
    echo "host name: $(hostname) (unchanged)"
fi
run systemctl enable avahi-daemon.service
run systemctl reload-or-restart avahi-daemon.service

step "Wi-Fi hotspot profile (optional)"
if [ "$HOTSPOT" -eq 1 ]; then
    if [ -z "$HOTSPOT_PSK" ]; then
        HOTSPOT_PSK="$(tr -dc 'a-km-np-z2-9' < /dev/urandom | head -c 12 || true)"
        echo "hotspot password: $HOTSPOT_PSK"
    fi
    if [ "${#HOTSPOT_PSK}" -lt 8 ] || [ "${#HOTSPOT_PSK}" -gt 63 ]; then
        echo "install.sh: the hotspot password must have 8 to 63 characters." >&2
        exit 2
    fi
    UUID="$(cat /proc/sys/kernel/random/uuid)"
    AUTO=false
    [ "$HOTSPOT_AUTO" -eq 1 ] && AUTO=true
    put_file "$SRC/deploy/companion-hotspot.nmconnection" \
        /etc/NetworkManager/system-connections/companion-hotspot.nmconnection 0600 \
        "s#@SSID@#$(sed_escape "$HOTSPOT_SSID")#; s#@PSK@#$(sed_escape "$HOTSPOT_PSK")#; s#@UUID@#$UUID#; s#@AUTOCONNECT@#$AUTO#"
    run nmcli connection reload
    echo "start it with: sudo nmcli connection up companion-hotspot (then open http://10.42.0.1:$PORT)"
else
    echo "skipped (add --hotspot for tables without Wi-Fi)"
fi

step "Start the service"
run systemctl daemon-reload
run systemctl enable "$SERVICE_NAME.service"
if [ "$START" -eq 1 ]; then
    run systemctl restart "$SERVICE_NAME.service"
else
    echo "not started (--no-start)"
fi

step "Done"
echo "Phones: open http://$HOSTNAME_WANTED.local:$PORT or scan the QR code (journalctl -u $SERVICE_NAME shows the address)."
echo "Update later with: git pull && sudo deploy/install.sh"
