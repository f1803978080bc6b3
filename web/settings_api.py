"""The host's settings under /api/settings, and the /settings page that edits them.

Only the host of a running game may read or change them (``Authorization: Bearer <host token>``
or ``?token=``). ``PUT`` validates everything first, then writes ``<data dir>/config.toml`` (via
``companion.config.save``) and edition overrides in ``<data dir>/editions/<game>.toml``, and
applies what it can at once: language and voice (read at every call), the camera (the capture
thread restarts), the pin map (the button panel is rebuilt). Host and port need a restart.
"""

from __future__ import annotations

import copy
import datetime as _dt
import importlib
import importlib.util
import logging
import tomllib
from pathlib import Path
from typing import Any

from flask import Blueprint, current_app, jsonify, render_template_string, request

from companion import config as config_mod
from companion import games as games_mod
from companion.games import NotAllowed

log = logging.getLogger(__name__)
bp = Blueprint("settings", __name__, url_prefix="/api/settings")
page_bp = Blueprint("settings_page", __name__)

PINS = ("draw", "next", "undo", "shutdown", "led", "buzzer")
# section -> key -> (kind, argument, applies_live)
SCHEMA: dict[str, dict[str, tuple[str, Any, bool]]] = {
    "server": {
        "lang": ("choice", ("el", "en"), True),
        "game": ("choice", tuple(games_mod.GAMES), True),
        "host": ("str", 64, False),
        "port": ("int", (1, 65535), False),
    },
    "speech": {"enabled": ("bool", None, True)},
    "camera": {
        "source": ("camera", None, True),
        "fps": ("number", (1, 30), True),
        "width": ("int", (160, 4096), True),
        "height": ("int", (120, 3072), True),
        "lock_exposure": ("bool", None, True),
        "preview_fps": ("number", (1, 15), False),
        "watch_fps": ("number", (1, 30), False),
        "preview_width": ("int", (160, 1920), False),
        "lost_after_s": ("number", (0.5, 30), False),
        "retry_every_s": ("number", (0.5, 60), False),
    },
    "sets": {"castle-dice": ("set", "castle-dice", True), "augustus": ("set", "augustus", True)},
    "buttons": {
        **{pin: ("int", (0, 27), True) for pin in PINS},
        "bounce_ms": ("int", (0, 200), True),
        "hold_seconds": ("number", (0.5, 10), True),
        "shutdown_hold_seconds": ("number", (2, 30), True),
        "shutdown_command": ("str", 200, False),
    },
}


class SettingsError(ValueError):
    def __init__(self, en: str, el: str, status: int = 400) -> None:
        super().__init__(en)
        self.messages = {"en": en, "el": el}
        self.status = status


@bp.errorhandler(SettingsError)
def _settings_error(err: SettingsError):
    lang = "el" if (request.args.get("lang") or request.accept_languages.best_match(["el", "en"])) == "el" else "en"
    return jsonify({"error": err.messages[lang], "messages": err.messages, "code": "settings"}), err.status


# -- who may ---------------------------------------------------------------------------------------
def _token() -> str | None:
    header = request.headers.get("Authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip()
    return request.args.get("token")


def require_host() -> str:
    """The id of the running game whose host token this request carries; else 401/403."""
    token = _token()
    if not token:
        raise SettingsError("Only the host can change the settings: open this page from the host's phone.",
                            "Μόνο ο οικοδεσπότης αλλάζει τις ρυθμίσεις: ανοίξτε τη σελίδα από το κινητό του.", 401)
    table = current_app.extensions["table"]
    for game in table.store.games():
        if game.status != "running":
            continue
        try:
            if table.actor_for(game.id, token).is_host:
                return game.id
        except (NotAllowed, LookupError):
            continue
    raise SettingsError("This link is not the host's of a running game, so the settings stay as they are.",
                        "Αυτός ο σύνδεσμος δεν είναι του οικοδεσπότη παιχνιδιού σε εξέλιξη· οι ρυθμίσεις δεν άλλαξαν.",
                        403)


# -- edition data ------------------------------------------------------------------------------------
def _data_dir() -> Path:
    return Path(current_app.config.get("DATA_DIR") or config_mod.default_data_dir())


def edition_default(game: str) -> dict | None:
    """The edition data shipped beside the game's rules (``companion/games/<module>.toml``)."""
    module = games_mod.GAMES.get(game)
    if module is None:
        return None
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.origin:
        return None
    path = Path(spec.origin).with_suffix(".toml")
    if not path.exists():
        return None
    with path.open("rb") as fh:
        return tomllib.load(fh)


def edition_path(data_dir: Path, game: str) -> Path:
    return Path(data_dir) / "editions" / f"{game}.toml"


def load_edition(data_dir: Path, game: str) -> dict | None:
    """The edition data in force: the shipped defaults with the host's override on top."""
    base = edition_default(game)
    path = edition_path(data_dir, game)
    if base is None or not path.exists():
        return base
    with path.open("rb") as fh:
        return config_mod._merge(base, tomllib.load(fh))


def edition_options(game: str, data: dict) -> dict:
    """The ``options`` of a new game that put the edition ``data`` in force. A rules module may
    define ``options_from_edition(data)``; Augustus and Castle Dice are mapped here."""
    rules = games_mod.load(game)
    hook = getattr(rules, "options_from_edition", None)
    if callable(hook):
        return hook(data)
    if game == "augustus":
        return {"bag": {tok: int(spec["count"]) for tok, spec in data.get("tokens", {}).items()}}
    if game == "castle-dice":
        opts: dict = {
            "edition": {
                "dice": {t: {"count": d["count"], "faces": d["faces"]} for t, d in data.get("dice", {}).items()},
                "rounds": {r: {"fixed": v.get("fixed", {}), "extra": v.get("extra", 0)}
                           for r, v in data.get("rounds", {}).items()},
                "solo_faces": data.get("solo_die", {}).get("faces"),
                "feast_rounds": data.get("limits", {}).get("feast_rounds"),
            },
            "cards": {cid: {k: v for k, v in card.items() if k != "provenance"}
                      for cid, card in data.get("cards", {}).items()},
        }
        opts["edition"] = {k: v for k, v in opts["edition"].items() if v is not None}
        thresholds = data.get("solo", {}).get("result_thresholds")
        if thresholds:
            opts["solo_thresholds"] = thresholds
        return opts
    return {}


def _try_edition(game: str, data: dict) -> None:
    """Sets up a throw-away game with ``data``, so the rules themselves judge the numbers."""
    from companion.games import RuleError
    from companion.i18n import t

    rules = games_mod.load(game)
    players = ["A", "B", "C", "D"][: max(2, getattr(rules, "MIN_PLAYERS", 2))]
    try:
        rules.setup(players, edition_options(game, data))
    except RuleError as err:
        raise SettingsError(f"{game}: {t('en', err.key, **err.params)}",
                            f"{game}: {t('el', err.key, **err.params)}") from err
    except (KeyError, TypeError, ValueError) as err:
        raise SettingsError(f"{game}: the edition data does not fit the rules ({err}).",
                            f"{game}: τα δεδομένα έκδοσης δεν ταιριάζουν στους κανόνες ({err}).") from err


def install_edition_overrides(table, data_dir: Path) -> None:
    """New games start with the host's edition data (``<data dir>/editions/<game>.toml``): the
    options it stands for are defaults of ``create_game``; options the request gives win."""
    if getattr(table, "_edition_overrides", False):
        return

    def defaults(game: str) -> dict:
        if not edition_path(data_dir, game).exists():
            return {}
        return edition_options(game, load_edition(data_dir, game) or {})

    table.add_option_defaults(defaults)
    table._edition_overrides = True


def _check_like(default: Any, value: Any, where: str) -> Any:
    """``value`` must have the shape of ``default`` (counts stay whole numbers >= 0, ...)."""
    if isinstance(default, dict):
        if not isinstance(value, dict):
            raise SettingsError(f"{where} must be a table of values.", f"Το {where} πρέπει να είναι πίνακας τιμών.")
        unknown = set(value) - set(default)
        if unknown:
            name = sorted(unknown)[0]
            raise SettingsError(f"{where}.{name} is not part of this edition.",
                                f"Το {where}.{name} δεν ανήκει σε αυτή την έκδοση.")
        return {k: _check_like(default[k], value[k], f"{where}.{k}") if k in value else copy.deepcopy(default[k])
                for k in default}
    if isinstance(default, list):
        if not isinstance(value, list) or len(value) > 200:
            raise SettingsError(f"{where} must be a list.", f"Το {where} πρέπει να είναι λίστα.")
        if not default:
            return value
        return [_check_like(default[min(i, len(default) - 1)], v, f"{where}[{i}]") for i, v in enumerate(value)]
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise SettingsError(f"{where} must be yes or no.", f"Το {where} πρέπει να είναι ναι ή όχι.")
        return value
    if isinstance(default, int):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 10_000:
            raise SettingsError(f"{where} must be a whole number from 0 to 10000.",
                                f"Το {where} πρέπει να είναι ακέραιος από 0 έως 10000.")
        return value
    if isinstance(default, float):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise SettingsError(f"{where} must be a number.", f"Το {where} πρέπει να είναι αριθμός.")
        return float(value)
    if isinstance(default, str):
        if not isinstance(value, str) or len(value) > 500:
            raise SettingsError(f"{where} must be a short text.", f"Το {where} πρέπει να είναι σύντομο κείμενο.")
        return value
    return default


def _mark_provenance(default: Any, new: Any, today: str) -> Any:
    """Where a value was changed and its provenance was not, the provenance says so."""
    if isinstance(default, dict) and isinstance(new, dict):
        out = {k: _mark_provenance(default.get(k), v, today) for k, v in new.items()}
        if "provenance" in default and out.get("provenance") == default["provenance"]:
            changed = [k for k in new if k != "provenance" and new[k] != default.get(k)]
            if changed:
                was = ", ".join(f"{k} was {default.get(k)}" for k in changed)
                out["provenance"] = f"changed on the settings page on {today} ({was}); before: {default['provenance']}"
        return out
    if isinstance(default, list) and isinstance(new, list):
        return [_mark_provenance(default[i] if i < len(default) else None, v, today) for i, v in enumerate(new)]
    return new


# -- config ------------------------------------------------------------------------------------------
def _check_value(section: str, key: str, value: Any) -> Any:
    kind, arg, _ = SCHEMA[section][key]
    name = f"{section}.{key}"
    if kind == "bool":
        if not isinstance(value, bool):
            raise SettingsError(f"{name} must be on or off.", f"Το {name} πρέπει να είναι ναι ή όχι.")
        return value
    if kind in ("int", "number"):
        ok_type = isinstance(value, int) if kind == "int" else isinstance(value, (int, float))
        if isinstance(value, bool) or not ok_type or not arg[0] <= value <= arg[1]:
            what = "a whole number" if kind == "int" else "a number"
            what_el = "ακέραιος" if kind == "int" else "αριθμός"
            raise SettingsError(f"{name} must be {what} from {arg[0]} to {arg[1]}.",
                                f"Το {name} πρέπει να είναι {what_el} από {arg[0]} έως {arg[1]}.")
        return value
    if kind == "choice":
        if value not in arg:
            raise SettingsError(f"{name} must be one of: {', '.join(arg)}.",
                                f"Το {name} πρέπει να είναι ένα από: {', '.join(arg)}.")
        return value
    if kind == "str":
        if not isinstance(value, str) or len(value) > arg:
            raise SettingsError(f"{name} must be a text of at most {arg} characters.",
                                f"Το {name} πρέπει να είναι κείμενο έως {arg} χαρακτήρες.")
        return value
    if kind == "camera":
        from hardware.camera import parse_spec

        try:
            parse_spec(value if isinstance(value, str) else "")
        except ValueError as err:
            raise SettingsError(f"camera.source: {err}.",
                                "Η πηγή της κάμερας πρέπει να είναι auto, picamera2, usb:N, replay:ΔΙΑΔΡΟΜΗ, "
                                "synthetic ή none.") from err
        if not isinstance(value, str):
            raise SettingsError("camera.source must be a text.", "Η πηγή της κάμερας πρέπει να είναι κείμενο.")
        return value.strip()
    if kind == "set":
        from companion.dicesets import GAME_SETS, SetError, check_fits, set_source

        if not isinstance(value, str) or not value.strip() or len(value) > 500:
            raise SettingsError(f"sets.{key} must be the name of a set.", f"Το sets.{key} πρέπει να είναι όνομα σετ.")
        value = value.strip()
        if value == GAME_SETS[arg]:
            return value
        try:
            check_fits(arg, set_source(arg, {"sets": {arg: value}}, _data_dir()))
        except (SetError, OSError) as err:
            raise SettingsError(f"sets.{key}: {err}.",
                                f"Το σετ {value!r} δεν ταιριάζει στο {key}: {err}.") from err
        return value
    raise AssertionError(kind)


def validate_config(current: dict, changes: Any) -> dict:
    """The new whole config, or :class:`SettingsError` saying what is wrong (nothing is applied)."""
    if not isinstance(changes, dict):
        raise SettingsError("The settings must be a JSON object.", "Οι ρυθμίσεις πρέπει να είναι αντικείμενο JSON.")
    new = copy.deepcopy(current)
    for section, values in changes.items():
        if section not in SCHEMA or not isinstance(values, dict):
            raise SettingsError(f"There is no setting group called {section!r}.",
                                f"Δεν υπάρχει ομάδα ρυθμίσεων {section!r}.")
        for key, value in values.items():
            if key not in SCHEMA[section]:
                raise SettingsError(f"There is no setting {section}.{key}.", f"Δεν υπάρχει ρύθμιση {section}.{key}.")
            new.setdefault(section, {})[key] = _check_value(section, key, value)
    pins = [(r, int(new.get("buttons", {}).get(r) or 0)) for r in PINS]
    used: dict[int, str] = {}
    for role, pin in pins:
        if pin and pin in used:
            raise SettingsError(f"GPIO {pin} is set for both {used[pin]} and {role}: give each its own pin.",
                                f"Το GPIO {pin} είναι ορισμένο και για {used[pin]} και για {role}: "
                                "δώστε σε καθένα δικό του pin.")
        used[pin] = role
    b = new.get("buttons", {})
    if float(b.get("shutdown_hold_seconds", 5)) <= float(b.get("hold_seconds", 2)):
        raise SettingsError("The shut-down hold must be longer than the undo hold.",
                            "Το κράτημα για τερματισμό πρέπει να είναι μεγαλύτερο από το κράτημα για αναίρεση.")
    return new


def apply_config(app, old: dict, new: dict) -> tuple[list[str], list[str]]:
    """Puts ``new`` in force in the running companion; returns (applied, needs a restart)."""
    cfg = app.config.get("CONFIG")
    applied: list[str] = []
    restart: list[str] = []
    if cfg is None:
        app.config["CONFIG"] = cfg = {}
    for section, values in new.items():  # in place: everyone holding cfg sees the change
        if isinstance(values, dict):
            cfg.setdefault(section, {}).update(values)
        else:
            cfg[section] = values
    diff = {(s, k) for s in SCHEMA for k in SCHEMA[s] if old.get(s, {}).get(k) != new.get(s, {}).get(k)}
    for section, key in sorted(diff):
        if not SCHEMA[section][key][2]:
            restart.append(f"{section}.{key}")
    if ("server", "game") in diff:
        app.config["DEFAULT_GAME"] = new["server"]["game"]
    if {("server", "lang"), ("speech", "enabled")} & diff:
        applied += [f"{s}.{k}" for s, k in diff if s in ("server", "speech") and SCHEMA[s][k][2]]
    cam_keys = {("camera", k) for k in ("source", "fps", "width", "height", "lock_exposure")}
    runtime = app.extensions.get("camera")
    if cam_keys & diff and runtime is not None:
        c = new["camera"]
        runtime.hub.size = (int(c.get("width", 1024)), int(c.get("height", 768)))
        runtime.hub.lock_controls = bool(c.get("lock_exposure", True))
        runtime.restart(str(c.get("source", "auto")), float(c.get("fps", 10)))
        applied += sorted(f"{s}.{k}" for s, k in cam_keys & diff)
    sets_keys = {("sets", k) for k in SCHEMA["sets"]} & diff
    if sets_keys:  # the herald opens the chosen set at its next draw; the tray switches now
        glue = app.extensions.get("castle_camera")
        if ("sets", "castle-dice") in sets_keys and glue is not None and hasattr(glue, "ensure_reader"):
            glue.ensure_reader()
        applied += sorted(f"{s}.{k}" for s, k in sets_keys)
    button_keys = {("buttons", k) for k in SCHEMA["buttons"] if SCHEMA["buttons"][k][2]}
    panel = app.extensions.get("panel")
    if button_keys & diff and panel is not None and hasattr(panel, "reconfigure"):
        panel.reconfigure(new["buttons"])
        applied += sorted(f"{s}.{k}" for s, k in button_keys & diff)
    elif button_keys & diff:
        restart += sorted(f"{s}.{k}" for s, k in button_keys & diff)
    return applied, restart


def use_set(game: str, name: str) -> list[str]:
    """Makes the taught set ``name`` the one ``game``'s camera reads with (the teach screen calls
    it after saving a set that fits the game): checked, written to config.toml, put in force."""
    current = copy.deepcopy(_current_config())
    new_cfg = validate_config(current, {"sets": {game: name}})
    data_dir = _data_dir()
    file_cfg = config_mod.load(data_dir)
    file_cfg.setdefault("sets", {})[game] = new_cfg["sets"][game]
    config_mod.save(data_dir, _strip_unknown(file_cfg))
    applied, _ = apply_config(current_app, current, new_cfg)
    return applied


def _public_config(cfg: dict) -> dict:
    return {s: {k: cfg.get(s, {}).get(k) for k in SCHEMA[s] if k in cfg.get(s, {})} for s in SCHEMA}


def _current_config() -> dict:
    cfg = current_app.config.get("CONFIG")
    if cfg is None:
        cfg = config_mod.load(_data_dir())
        current_app.config["CONFIG"] = cfg
    return cfg


# -- routes ------------------------------------------------------------------------------------------
@bp.get("")
@bp.get("/")
def get_settings():
    from companion.dicesets import sets_for

    require_host()
    data_dir = _data_dir()
    editions = {}
    for game in games_mod.GAMES:
        default = edition_default(game)
        if default is None:
            continue
        override = edition_path(data_dir, game)
        editions[game] = {"data": load_edition(data_dir, game), "default": default,
                          "overridden": override.exists()}
    runtime = current_app.extensions.get("camera")
    schema = {s: {k: {"kind": v[0], "arg": list(v[1]) if isinstance(v[1], tuple) else v[1], "live": v[2]}
                  for k, v in keys.items()} for s, keys in SCHEMA.items()}
    return jsonify({"config": _public_config(_current_config()), "editions": editions, "schema": schema,
                    "camera": runtime.status() if runtime is not None else None,
                    "sets": {game: sets_for(game, data_dir) for game in SCHEMA["sets"]},
                    "panel": current_app.extensions.get("panel") is not None})


@bp.put("")
@bp.put("/")
def put_settings():
    require_host()
    body = request.get_json(silent=True, force=True)
    if not isinstance(body, dict) or not set(body) <= {"config", "editions", "reset_editions"}:
        raise SettingsError('Send {"config": {...}, "editions": {...}}.', 'Στείλτε {"config": {...}, "editions": {...}}.')
    data_dir = _data_dir()
    current = copy.deepcopy(_current_config())
    new_cfg = validate_config(current, body.get("config", {}))
    # editions: check all before writing any
    edition_writes: dict[str, dict] = {}
    editions = body.get("editions") or {}
    if not isinstance(editions, dict):
        raise SettingsError("editions must be an object: {game: data}.", "Το editions πρέπει να είναι αντικείμενο.")
    today = _dt.date.today().isoformat()
    resets_same: list[str] = []
    for game, data in editions.items():
        default = edition_default(game)
        if default is None:
            raise SettingsError(f"There is no edition data for {game!r}.", f"Δεν υπάρχουν δεδομένα έκδοσης για {game!r}.")
        checked = _check_like(default, data, game)
        if checked == default:  # back to the shipped values: no override file at all
            resets_same.append(game)
            continue
        _try_edition(game, checked)
        edition_writes[game] = _mark_provenance(default, checked, today)
    resets = body.get("reset_editions") or []
    if not isinstance(resets, list) or not all(isinstance(g, str) and g in games_mod.GAMES for g in resets):
        raise SettingsError("reset_editions must list game names.", "Το reset_editions πρέπει να απαριθμεί παιχνίδια.")
    resets = [*resets, *resets_same]

    # everything is valid: write, then apply. Only what the host changed goes to the file, so a
    # one-off command-line choice (--camera, --game) is not made permanent by saving the page.
    changed = [(sec, key) for sec in SCHEMA for key in SCHEMA[sec]
               if current.get(sec, {}).get(key) != new_cfg.get(sec, {}).get(key)]
    if changed:
        file_cfg = config_mod.load(data_dir)
        for sec, key in changed:
            file_cfg.setdefault(sec, {})[key] = new_cfg[sec][key]
        config_mod.save(data_dir, _strip_unknown(file_cfg))
    import tomli_w

    for game, data in edition_writes.items():
        path = edition_path(data_dir, game)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".toml.tmp")
        tmp.write_bytes(tomli_w.dumps(data).encode())
        tmp.replace(path)
    for game in resets:
        edition_path(data_dir, game).unlink(missing_ok=True)
    applied, restart = apply_config(current_app, current, new_cfg)
    applied += [f"editions.{g}" for g in edition_writes] + [f"editions.{g} (reset)" for g in resets]
    log.info("settings changed: %s (restart needed for %s)", applied, restart)
    install_edition_overrides(current_app.extensions["table"], data_dir)
    return jsonify({"ok": True, "applied": applied, "restart_needed": restart,
                    "config": _public_config(_current_config()),
                    "note": {"en": "Edition changes apply to games started from now on.",
                             "el": "Οι αλλαγές έκδοσης ισχύουν για τα παιχνίδια που ξεκινούν από τώρα."}})


def _strip_unknown(cfg: dict) -> dict:
    """Only plain TOML data goes to the file (the live config may carry objects)."""
    out: dict = {}
    for section, values in cfg.items():
        if isinstance(values, dict):
            out[section] = {k: v for k, v in values.items() if isinstance(v, (str, int, float, bool, list, dict))}
        elif isinstance(values, (str, int, float, bool, list)):
            out[section] = values
    return out


PAGE = """<!doctype html>
<html lang="el"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Ρυθμίσεις · Settings</title>
<link rel="stylesheet" href="{{ url_for('static', filename='app.css') }}">
</head><body>
<main id="settings" class="settings-page"></main>
<script src="{{ url_for('static', filename='i18n.js') }}"></script>
<script src="{{ url_for('static', filename='settings.js') }}"></script>
<script>
  TabletopSettings.mount(document.getElementById("settings"), {});
</script>
</body></html>"""


@page_bp.get("/settings")
def settings_page():
    """The host's settings page (the host token comes in ``?token=`` or from the host's page)."""
    return render_template_string(PAGE)
