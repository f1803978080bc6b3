"""The OpenAPI description of /api, served at /api/openapi.json."""

from __future__ import annotations

_ERR = {"description": "A sentence saying what was wrong",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
_STATE = {"description": "The public state of the game",
          "content": {"application/json": {"schema": {"$ref": "#/components/schemas/State"}}}}
_GAME_ID = {"name": "game_id", "in": "path", "required": True, "schema": {"type": "string"}}
_AUTH = [{"bearer": []}]


def _json_body(ref: str) -> dict:
    return {"required": True, "content": {"application/json": {"schema": {"$ref": ref}}}}


OPENAPI: dict = {
    "openapi": "3.1.0",
    "info": {
        "title": "Tabletop companion",
        "version": "0.1.0",
        "description": "Games, seats, actions and live state of the companion at the table. "
                       "Errors are 4xx JSON objects with an 'error' sentence (and 'messages' in el and en).",
    },
    "components": {
        "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer",
                                       "description": "The host token (from POST /api/games) or a seat token "
                                                      "(from POST /api/join)."}},
        "schemas": {
            "Error": {"type": "object", "required": ["error"], "properties": {
                "error": {"type": "string"}, "code": {"type": "string"},
                "messages": {"type": "object", "properties": {"el": {"type": "string"}, "en": {"type": "string"}}}}},
            "NewGame": {"type": "object", "required": ["players"], "properties": {
                "game": {"type": "string", "enum": ["augustus", "castle-dice"], "default": "augustus"},
                "players": {"type": "array", "items": {"type": "string", "minLength": 1, "maxLength": 40},
                            "description": "Names in seat order (any Unicode)."},
                "lang": {"type": "string", "enum": ["el", "en"]},
                "options": {"type": "object", "description": "Game options, e.g. augustus: "
                            "{bag: {swords: 6, ...}, herald: 0, mode: 'virtual'|'real'}"}}},
            "Created": {"type": "object", "properties": {
                "id": {"type": "string"}, "host_token": {"type": "string"},
                "join_code": {"type": "string"}, "join_url": {"type": "string"}}},
            "Action": {"type": "object", "required": ["type"], "additionalProperties": True, "properties": {
                "type": {"type": "string", "description": "augustus: draw (optionally with token for a "
                         "physical draw), token_unsure, confirm_token, dismiss_pending; every game: undo"}}},
            "Join": {"type": "object", "required": ["code"], "properties": {
                "code": {"type": "string"}, "seat": {"type": ["integer", "null"]}, "game": {"type": "string"}}},
            "State": {"type": "object", "additionalProperties": True, "properties": {
                "id": {"type": "string"}, "game": {"type": "string"}, "status": {"type": "string"},
                "version": {"type": "integer"}, "players": {"type": "array", "items": {"type": "string"}},
                "herald": {"type": "object", "description": "augustus: {bag, drawn, last, herald, draws, ...}"},
                "odds": {"type": "object", "additionalProperties": {"type": "number"}}}},
        },
    },
    "paths": {
        "/api/games": {
            "get": {"summary": "Past and running games", "responses": {"200": {"description": "games"}}},
            "post": {"summary": "Create a game; the caller becomes its host",
                     "requestBody": _json_body("#/components/schemas/NewGame"),
                     "responses": {"201": {"description": "created", "content": {"application/json": {
                         "schema": {"$ref": "#/components/schemas/Created"}}}}, "400": _ERR}},
        },
        "/api/games/{game_id}": {"get": {"summary": "The public state (what a spectator may see)",
                                         "parameters": [_GAME_ID], "responses": {"200": _STATE, "404": _ERR}}},
        "/api/games/{game_id}/actions": {"post": {
            "summary": "Send an action; acknowledged once its event is durable",
            "parameters": [_GAME_ID], "security": _AUTH, "requestBody": _json_body("#/components/schemas/Action"),
            "responses": {"200": _STATE, "400": _ERR, "403": _ERR, "404": _ERR, "409": _ERR}}},
        "/api/games/{game_id}/events": {"get": {"summary": "The append-only event log (undos included)",
                                                "parameters": [_GAME_ID],
                                                "responses": {"200": {"description": "events"}, "404": _ERR}}},
        "/api/games/{game_id}/stream": {"get": {
            "summary": "Live channel (server-sent events): 'state' with the public state on connect and after "
                       "every change", "parameters": [_GAME_ID],
            "responses": {"200": {"description": "text/event-stream"}, "404": _ERR}}},
        "/api/games/{game_id}/me": {"get": {"summary": "Who the token belongs to, and what it may do",
                                            "parameters": [_GAME_ID], "security": _AUTH,
                                            "responses": {"200": {"description": "role"}, "403": _ERR}}},
        "/api/games/{game_id}/qr.svg": {"get": {"summary": "QR code of the join URL (host only, ?token=)",
                                                "parameters": [_GAME_ID],
                                                "responses": {"200": {"description": "SVG"}, "403": _ERR}}},
        "/api/games/{game_id}/seats/{seat}/free": {"post": {
            "summary": "Free a claimed seat (host only)", "security": _AUTH,
            "parameters": [_GAME_ID, {"name": "seat", "in": "path", "required": True, "schema": {"type": "integer"}}],
            "responses": {"200": _STATE, "403": _ERR}}},
        "/api/games/{game_id}/export/{fmt}": {"get": {
            "summary": "The game as BG Stats JSON (fmt=bgstats.json) or CSV (fmt=csv)",
            "parameters": [_GAME_ID, {"name": "fmt", "in": "path", "required": True,
                                      "schema": {"type": "string", "enum": ["bgstats.json", "csv"]}}],
            "responses": {"200": {"description": "the export"}, "404": _ERR}}},
        "/api/join": {"post": {"summary": "Claim a seat with the join code (seat null: spectator)",
                               "requestBody": _json_body("#/components/schemas/Join"),
                               "responses": {"200": {"description": "token"}, "403": _ERR, "409": _ERR}}},
        "/api/join/{code}": {"get": {"summary": "The game a join code belongs to",
                                     "parameters": [{"name": "code", "in": "path", "required": True,
                                                     "schema": {"type": "string"}}],
                                     "responses": {"200": _STATE, "403": _ERR}}},
        "/api/settings": {
            "get": {"summary": "The host's settings: config, edition data, their schema, the camera's status and "
                               "the dice/token sets each game may read with (host token)", "security": _AUTH,
                    "responses": {"200": {"description": "settings"}, "401": _ERR, "403": _ERR}},
            "put": {"summary": "Change settings {config: {section: {key: value}}, editions: {game: data}, "
                               "reset_editions: [game]}: all checked first, then written and put in force",
                    "security": _AUTH, "responses": {"200": {"description": "what was applied and what needs a "
                                                                          "restart"}, "400": _ERR, "403": _ERR}}},
        "/api/camera": {"get": {"summary": "The camera's state (ok, lost, none, ...), the roll watcher's state and "
                                           "last reading", "responses": {"200": {"description": "status"}}}},
        "/api/camera/events": {"get": {"summary": "Live camera status (server-sent events)",
                                       "responses": {"200": {"description": "text/event-stream"}}}},
        "/api/camera/preview.mjpg": {"get": {"summary": "The tray preview with the reader's boxes (MJPEG)",
                                             "responses": {"200": {"description": "multipart/x-mixed-replace"}}}},
        "/api/camera/frame.jpg": {"get": {"summary": "One preview frame (JPEG)",
                                          "responses": {"200": {"description": "JPEG"}, "503": _ERR}}},
        "/api/camera/relock": {"post": {"summary": "Let the camera adapt to the light and lock again (host token)",
                                        "security": _AUTH, "responses": {"200": {"description": "ok"},
                                                                         "403": _ERR, "409": _ERR}}},
        "/api/teach/sessions": {"post": {
            "summary": "Start teaching a dice/token set {like: castle-dice|augustus-tokens|<taught set>, "
                       "faces: ['TYPE/FACE'], name, per_face}: the steps with prompts in el and en",
            "responses": {"201": {"description": "the session"}, "400": _ERR}}},
        "/api/teach/sessions/{sid}": {"get": {"summary": "A teach session: its steps and captures",
                                              "parameters": [{"name": "sid", "in": "path", "required": True,
                                                              "schema": {"type": "string"}}],
                                              "responses": {"200": {"description": "the session"}, "404": _ERR}}},
        "/api/teach/sessions/{sid}/capture": {"post": {
            "summary": "Capture one face from the live camera {type, face} or from an uploaded photo (multipart: "
                       "type, face, image)", "responses": {"200": {"description": "the crop kept"}, "400": _ERR,
                                                         "404": _ERR, "409": _ERR}}},
        "/api/teach/sessions/{sid}/preview/{typ}/{face}/{n}.png": {"get": {
            "summary": "A captured crop", "responses": {"200": {"description": "PNG"}, "404": _ERR}}},
        "/api/teach/sessions/{sid}/redo": {"post": {"summary": "Forget the last capture of {type, face} (all: true "
                                                               "forgets every capture of it)",
                                                    "responses": {"200": {"description": "ok"}, "400": _ERR}}},
        "/api/teach/sessions/{sid}/save": {"post": {
            "summary": "Save the set under <data>/sets/<name> {name, use: true}: it is learned at once, and a set "
                       "whose faces are a game's (castle-dice, augustus) becomes what that game's camera reads "
                       "with (used_for, used_message in el and en)",
            "responses": {"200": {"description": "the set, warnings, learn_seconds, used_for"},
                          "400": _ERR, "409": _ERR}}},
        "/api/i18n": {"get": {"summary": "Message catalogues (el, en)", "responses": {"200": {"description": "ok"}}}},
        "/api/health": {"get": {"summary": "Liveness", "responses": {"200": {"description": "ok"}}}},
        "/api/openapi.json": {"get": {"summary": "This document", "responses": {"200": {"description": "ok"}}}},
    },
}
