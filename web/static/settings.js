/* The host's settings page: language, voice, camera, pin map, edition data.
 * Vanilla JS, no build step. Mount into an element:
 *   TabletopSettings.mount(document.getElementById("x"), {token: "...", lang: "el"})
 * Without a token it looks for the host token in ?token= or in the tokens the phone page keeps
 * (localStorage "companion.token.<game>") and uses the first one the companion accepts.
 */
(function () {
  "use strict";

  // The texts come from the shared el/en catalogue (web/static/i18n.js, loaded before this script).
  const I18N = window.TabletopI18n;
  const NS = "ui.settings.";
  const SOURCES = ["auto", "picamera2", "usb:0", "usb:1", "synthetic", "none"];
  const PINS = ["draw", "next", "undo", "shutdown", "led", "buzzer"];

  function h(tag, attrs, ...kids) {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "on") for (const [ev, fn] of Object.entries(v)) el.addEventListener(ev, fn);
      else if (k === "class") el.className = v;
      else if (v === true) el.setAttribute(k, "");
      else if (v !== false && v != null) el.setAttribute(k, v);
    }
    for (const kid of kids.flat()) if (kid != null) el.append(kid.nodeType ? kid : document.createTextNode(String(kid)));
    return el;
  }

  function candidateTokens(opts) {
    const out = [];
    if (opts.token) out.push(opts.token);
    const q = new URLSearchParams(location.search).get("token");
    if (q) out.push(q);
    try {
      for (let i = 0; i < localStorage.length; i++) {
        const key = localStorage.key(i);
        if (key && key.startsWith("companion.token.")) out.push(localStorage.getItem(key));
      }
    } catch (e) { /* private mode */ }
    return [...new Set(out.filter(Boolean))];
  }

  async function call(method, path, token, body, lang) {
    const headers = { "Authorization": "Bearer " + token, "X-Lang": lang };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const res = await fetch(path + (path.includes("?") ? "&" : "?") + "lang=" + lang,
      { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const data = await res.json().catch(() => ({}));
    if (!res.ok) { const err = new Error(data.error || res.statusText); err.status = res.status; err.data = data; throw err; }
    return data;
  }

  function mount(root, opts) {
    opts = opts || {};
    let lang = opts.lang || localStorage.getItem("lang") ||
      ((navigator.language || "en").toLowerCase().startsWith("el") ? "el" : "en");
    const t = (k) => I18N.t(lang, NS + k);
    let token = null, data = null, pollTimer = null;
    const note = h("p", { class: "settings-note", role: "status", "aria-live": "polite" });

    function say(text, kind) { note.textContent = text || ""; note.dataset.kind = kind || ""; }

    async function findToken() {
      for (const tok of candidateTokens(opts)) {
        try { data = await call("GET", "/api/settings", tok, undefined, lang); return tok; }
        catch (e) { if (e.status !== 401 && e.status !== 403) throw e; }
      }
      return null;
    }

    function field(label, input) { return h("label", { class: "settings-field" }, h("span", {}, label), input); }

    function numberInput(name, value, step, min, max) {
      return h("input", { type: "number", name, value, step: step || 1, min, max, inputmode: "decimal" });
    }

    function render() {
      const c = data.config, schema = data.schema;
      root.replaceChildren();
      const form = h("form", { class: "settings", on: { submit: (ev) => { ev.preventDefault(); save(form); } } });
      const langSel = h("select", { name: "server.lang" },
        ...["el", "en"].map((l) => h("option", { value: l, selected: c.server.lang === l }, l === "el" ? "Ελληνικά" : "English")));
      const gameSel = h("select", { name: "server.game" },
        ...schema.server.game.arg.map((g) => h("option", { value: g, selected: c.server.game === g }, g)));
      const voice = h("input", { type: "checkbox", name: "speech.enabled", checked: !!(c.speech || {}).enabled });
      form.append(h("fieldset", {}, h("legend", {}, t("general")),
        field(t("lang"), langSel), field(t("game"), gameSel), field(t("voice"), voice)));

      // camera
      const cam = c.camera || {};
      const known = SOURCES.includes(cam.source);
      const srcSel = h("select", { name: "camera.source_choice" },
        ...SOURCES.map((s) => h("option", { value: s, selected: cam.source === s }, s)),
        h("option", { value: "", selected: !known }, t("custom")));
      const srcText = h("input", { type: "text", name: "camera.source_text", value: known ? "" : cam.source || "",
        placeholder: "replay:/home/companion/tray", hidden: known });
      srcSel.addEventListener("change", () => { srcText.hidden = srcSel.value !== ""; });
      const camStatus = h("output", { class: "camera-status" });
      const img = h("img", { class: "camera-preview", alt: t("preview"), hidden: true, width: 320 });
      const toggle = h("button", { type: "button", class: "secondary", on: { click: () => {
        if (img.hidden) { img.src = "/api/camera/preview.mjpg"; img.hidden = false; toggle.textContent = t("hide"); }
        else { img.removeAttribute("src"); img.hidden = true; toggle.textContent = t("preview"); }
      } } }, t("preview"));
      form.append(h("fieldset", {}, h("legend", {}, t("camera")),
        field(t("source"), srcSel), srcText,
        field(t("fps"), numberInput("camera.fps", cam.fps || 10, 1, 1, 30)),
        field(t("lock"), h("input", { type: "checkbox", name: "camera.lock_exposure", checked: cam.lock_exposure !== false })),
        h("button", { type: "button", class: "secondary relock", on: { click: async () => {
          try { await call("POST", "/api/camera/relock", token, undefined, lang); say(t("relocked"), "ok"); }
          catch (e) { say(e.status ? e.message : t("offline"), "error"); }
        } } }, t("relock")),
        field(t("status"), camStatus), toggle, img));

      // the set each game's camera reads with: built-in, or one the players taught
      const sets = c.sets || {};
      form.append(h("fieldset", { class: "sets" }, h("legend", {}, t("sets")),
        ...Object.entries(data.sets || {}).map(([game, names]) => {
          const now = sets[game] || names[0];  // a folder path from config.toml stays choosable
          return field(I18N.t(lang, "ui.game." + game), h("select", { name: "sets." + game },
            ...[...new Set([...names, now])].map((n, i) => h("option", { value: n, selected: now === n },
              i === 0 ? t("builtin") + " (" + n + ")" : n))));
        })));

      // buttons
      const b = c.buttons || {};
      form.append(h("fieldset", {}, h("legend", {}, t("buttons")),
        ...PINS.map((p) => field(t(p), numberInput("buttons." + p, b[p] || 0, 1, 0, 27))),
        field(t("hold_seconds"), numberInput("buttons.hold_seconds", b.hold_seconds || 2, 0.1, 0.5, 10)),
        field(t("shutdown_hold_seconds"), numberInput("buttons.shutdown_hold_seconds", b.shutdown_hold_seconds || 5, 0.5, 2, 30)),
        field(t("bounce_ms"), numberInput("buttons.bounce_ms", b.bounce_ms == null ? 20 : b.bounce_ms, 1, 0, 200))));

      // editions: every number of the edition data is editable; provenance is shown beside it
      for (const [game, ed] of Object.entries(data.editions || {})) {
        const box = h("fieldset", { class: "edition", "data-game": game },
          h("legend", {}, t("editions") + ": " + game + (ed.overridden ? " (" + t("changed") + ")" : "")));
        if (ed.data.edition) box.append(h("p", { class: "small" }, ed.data.edition));
        walk(ed.data, [], box);
        const reset = h("label", { class: "settings-field" }, h("span", {}, t("reset")),
          h("input", { type: "checkbox", name: "reset." + game }));
        box.append(reset);
        form.append(box);
      }
      form.append(h("button", { type: "submit", class: "primary" }, t("save")), note);
      root.append(h("h1", {}, t("title")), form);
      refreshCamera(camStatus);
    }

    // every number of the edition data gets an input; a table's provenance is shown under it
    function walk(node, path, box) {
      const entries = Object.entries(node);
      for (const [k, v] of entries) {
        if (typeof v !== "number") continue;
        const p = [...path, k];
        const label = (k === "count" && path.length ? path.slice(-1) : p.slice(-3)).join(" · ");
        box.append(h("label", { class: "settings-field" }, h("span", {}, label),
          h("input", { type: "number", step: Number.isInteger(v) ? 1 : 0.1, min: 0,
            "data-path": JSON.stringify(p), "data-int": Number.isInteger(v), value: v })));
      }
      if (typeof node.provenance === "string" && entries.some(([, v]) => typeof v === "number")) {
        box.append(h("small", { class: "provenance" }, node.provenance));
      }
      for (const [k, v] of entries) {
        if (v && typeof v === "object" && !Array.isArray(v)) walk(v, [...path, k], box);
      }
    }

    async function refreshCamera(out) {
      clearTimeout(pollTimer);
      if (!root.isConnected) return;
      try {
        const s = await (await fetch("/api/camera", { cache: "no-store" })).json();
        out.textContent = (s.message && (s.message[lang] || s.message.en)) || s.state;
        out.dataset.state = s.state;
      } catch (e) { out.textContent = t("offline"); }
      pollTimer = setTimeout(() => refreshCamera(out), 3000);
    }

    function collect(form) {
      const cfg = { server: {}, speech: {}, camera: {}, buttons: {}, sets: {} };
      const get = (n) => form.elements.namedItem(n);
      cfg.server.lang = get("server.lang").value;
      cfg.server.game = get("server.game").value;
      cfg.speech.enabled = get("speech.enabled").checked;
      const choice = get("camera.source_choice").value;
      cfg.camera.source = choice || get("camera.source_text").value.trim();
      cfg.camera.fps = Number(get("camera.fps").value);
      cfg.camera.lock_exposure = get("camera.lock_exposure").checked;
      for (const game of Object.keys(data.sets || {})) cfg.sets[game] = get("sets." + game).value;
      for (const p of PINS) cfg.buttons[p] = parseInt(get("buttons." + p).value || "0", 10);
      cfg.buttons.hold_seconds = Number(get("buttons.hold_seconds").value);
      cfg.buttons.shutdown_hold_seconds = Number(get("buttons.shutdown_hold_seconds").value);
      cfg.buttons.bounce_ms = parseInt(get("buttons.bounce_ms").value, 10);
      const editions = {}, resets = [];
      for (const box of form.querySelectorAll("fieldset.edition")) {
        const game = box.dataset.game;
        if (form.elements.namedItem("reset." + game).checked) { resets.push(game); continue; }
        const copy = JSON.parse(JSON.stringify(data.editions[game].data));
        let changed = false;
        for (const input of box.querySelectorAll("input[data-path]")) {
          const path = JSON.parse(input.dataset.path);
          let node = copy;
          for (const k of path.slice(0, -1)) node = node[k];
          const last = path[path.length - 1];
          const v = input.dataset.int === "true" ? parseInt(input.value, 10) : Number(input.value);
          if (node[last] !== v) { node[last] = v; changed = true; }
        }
        if (changed) editions[game] = copy;
      }
      return { config: cfg, editions, reset_editions: resets };
    }

    async function save(form) {
      say(t("saving"));
      try {
        const res = await call("PUT", "/api/settings", token, collect(form), lang);
        data = await call("GET", "/api/settings", token, undefined, lang);
        if (res.config && res.config.server && res.config.server.lang) { /* the page keeps its own language */ }
        render();
        say(t("saved") + (res.restart_needed && res.restart_needed.length ? " " + t("restart") + res.restart_needed.join(", ") : ""), "ok");
      } catch (e) {
        say(e.status ? e.message : t("offline"), "error");
      }
    }

    I18N.load().then(() => {
      root.replaceChildren(h("p", {}, t("loading")));
      return findToken();
    }).then((tok) => {
      if (!tok) { root.replaceChildren(h("p", { class: "settings-note", "data-kind": "error" }, t("need_host"))); return; }
      token = tok;
      render();
    }).catch(() => root.replaceChildren(h("p", { class: "settings-note", "data-kind": "error" }, t("offline"))));

    return { setLang(l) { lang = l; if (data) render(); }, unmount() { clearTimeout(pollTimer); root.replaceChildren(); } };
  }

  window.TabletopSettings = { mount };
})();
