/* The phone page shell: lobby, join, seats, live state, speech, undo and log.
 * Each game draws itself: window.CompanionGames[game].render(root, view, ctx).
 * No framework, no CDN: the table may be offline. */
"use strict";
window.CompanionGames = window.CompanionGames || {};

(function () {
  const $ = (sel, root) => (root || document).querySelector(sel);
  const app = $("#app");
  let catalogue = { en: {}, el: {} };
  let lang = localStorage.getItem("lang") || ((navigator.language || "en").toLowerCase().startsWith("el") ? "el" : "en");
  let soundOn = localStorage.getItem("sound") === "on";
  let source = null;          // the EventSource of the game on screen
  let current = null;         // {id, view, me, token}
  const listeners = [];

  // ---------- text ----------
  function t(key, params) {
    let text = (catalogue[lang] && catalogue[lang][key]) || (catalogue.en && catalogue.en[key]) || key;
    if (params) {
      for (const [k, v] of Object.entries(params)) {
        let val = v;
        if (v && typeof v === "object" && lang in v) val = v[lang];
        else if (typeof v === "string" && v.startsWith("@")) val = t(v.slice(1));
        text = text.split("{" + k + "}").join(String(val));
      }
    }
    return text;
  }
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") node.className = v;
      else if (k === "text") node.textContent = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children.flat()) {
      if (c === null || c === undefined || c === false) continue;
      node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return node;
  }
  function applyStaticText() {
    document.documentElement.lang = lang;
    document.querySelectorAll("[data-i18n]").forEach((n) => { n.textContent = t(n.dataset.i18n); });
    $("#lang").textContent = lang === "el" ? "EN" : "ΕΛ";
    $("#lang").setAttribute("aria-label", lang === "el" ? "English" : "Ελληνικά");
    $("#sound").textContent = soundOn ? t("ui.sound_short_on") : t("ui.sound_short_off");
    $("#sound").title = soundOn ? t("ui.sound_off") : t("ui.sound_on");
    document.title = t("ui.title");
  }

  // ---------- feedback ----------
  let toastTimer = null;
  function toast(msg) {
    const box = $("#toast");
    box.textContent = msg;
    box.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { box.hidden = true; }, 5000);
  }
  function setConn(state) {
    const c = $("#conn");
    c.className = "conn " + (state === "live" ? "live" : state === "down" ? "down" : "");
    c.textContent = state === "live" ? t("ui.live") : state === "down" ? t("ui.reconnecting") : state === "off" ? "" : t("ui.connecting");
    c.dataset.state = state;
    c.hidden = state === "off";
  }

  // ---------- speech (Web Speech API; iOS needs one tap to unlock) ----------
  function speak(text) {
    if (!soundOn || !text || !("speechSynthesis" in window)) return;
    try {
      const u = new SpeechSynthesisUtterance(text);
      u.lang = lang === "el" ? "el-GR" : "en-GB";
      const voice = speechSynthesis.getVoices().find((v) => v.lang && v.lang.toLowerCase().startsWith(lang));
      if (voice) u.voice = voice;
      speechSynthesis.cancel();
      speechSynthesis.speak(u);
    } catch (e) { /* speech is a nicety, never an error */ }
  }
  $("#sound").addEventListener("click", () => {
    soundOn = !soundOn;
    localStorage.setItem("sound", soundOn ? "on" : "off");
    if (soundOn && "speechSynthesis" in window) {  // the unlocking tap
      try { speechSynthesis.speak(new SpeechSynthesisUtterance(" ")); } catch (e) { /* ignore */ }
    }
    applyStaticText();
  });
  $("#lang").addEventListener("click", () => {
    lang = lang === "el" ? "en" : "el";
    localStorage.setItem("lang", lang);
    applyStaticText();
    if (tray) tray.setLang(lang);
    route();
  });

  // ---------- HTTP ----------
  async function api(method, path, body, token) {
    const headers = { "Accept": "application/json", "X-Lang": lang };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (token) headers["Authorization"] = "Bearer " + token;
    let res;
    try {
      res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    } catch (e) {
      throw new Error(t("ui.reconnecting"));
    }
    let data = null;
    try { data = await res.json(); } catch (e) { data = null; }
    if (!res.ok) {
      const msg = data && (data.messages ? data.messages[lang] : data.error);
      const err = new Error(msg || (t("ui.error") + " " + res.status));
      err.status = res.status;
      throw err;
    }
    return data;
  }
  const tokenKey = (id) => "companion.token." + id;
  const getToken = (id) => localStorage.getItem(tokenKey(id));
  const setToken = (id, tok) => localStorage.setItem(tokenKey(id), tok);

  // ---------- routing ----------
  function go(path) { history.pushState({}, "", path); route(); }
  window.addEventListener("popstate", route);

  function closeStream() {
    if (source) { source.close(); source = null; }
    setConn("off");
  }

  let tray = null;  // the camera strip and tray preview (web/static/camera.js), shown on game pages
  function showTray(on) {
    const wrap = $("#tray-wrap");
    if (!wrap || !window.TabletopCamera) return;
    if (on && !tray) tray = window.TabletopCamera.mount($("#tray"), { lang });
    if (tray) tray.setLang(lang);
    wrap.hidden = !on || !cameraPresent;
  }

  async function route() {
    const path = location.pathname;
    const m = path.match(/^\/g\/([A-Za-z0-9_-]+)/);
    showTray(Boolean(m) || path === "/teach");
    if (m) return showGame(m[1]);
    closeStream();
    current = null;
    if (path === "/teach" && window.TabletopTeach) {
      app.replaceChildren(el("a", { class: "button", href: "/", onclick: (ev) => { ev.preventDefault(); go("/"); } }, "← " + t("ui.back")));
      const box = el("div", { id: "teach" });
      app.append(box);
      window.TabletopTeach.mount(box, { lang });
      return;
    }
    return showLobby();
  }

  // ---------- lobby ----------
  async function showLobby() {
    app.replaceChildren();
    const joinCard = el("form", { class: "card", id: "join-form" },
      el("h2", { text: t("ui.join") }),
      el("label", { for: "join-code", text: t("ui.join_code") }),
      el("div", { class: "row" },
        el("input", { id: "join-code", class: "grow code", autocomplete: "off", autocapitalize: "characters", maxlength: "8", inputmode: "text" }),
        el("button", { class: "primary", type: "submit", text: t("ui.join_go") })));
    joinCard.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const code = $("#join-code").value.trim().toUpperCase();
      try {
        const view = await api("GET", "/api/join/" + encodeURIComponent(code));
        go("/g/" + view.id + "?code=" + encodeURIComponent(code));
      } catch (e) { toast(e.message); }
    });

    const gamesCard = el("div", { class: "card", id: "games" }, el("h2", { text: t("ui.games") }));
    const form = newGameForm();
    const teach = window.TabletopTeach ? el("p", {}, el("a", { class: "button", id: "teach-link", href: "/teach",
      onclick: (ev) => { ev.preventDefault(); go("/teach"); } }, t("ui.teach"))) : null;
    app.append(joinCard, form, gamesCard);
    if (teach) app.append(teach);
    try {
      const data = await api("GET", "/api/games");
      if (!data.games.length) gamesCard.append(el("p", { class: "muted", text: t("ui.no_games") }));
      for (const g of data.games) {
        gamesCard.append(el("div", { class: "row" },
          el("a", { class: "button grow", href: "/g/" + g.id, onclick: (ev) => { ev.preventDefault(); go("/g/" + g.id); } },
            `${gameName(g.game)} · ${g.players.join(", ")}`),
          el("span", { class: "muted", text: t(g.status === "running" ? "ui.running" : "ui.finished") })));
      }
    } catch (e) { toast(e.message); }
  }

  // A game's name in the player's language (the id when the catalogue has none).
  function gameName(id) {
    const name = t("ui.game." + id);
    return name === "ui.game." + id ? id : name;
  }

  function newGameForm() {
    const games = Object.keys(window.CompanionGames).length ? Object.keys(window.CompanionGames) : ["augustus"];
    const select = el("select", { id: "new-game" }, games.map((g) => el("option", { value: g, selected: g === window.COMPANION.defaultGame, text: gameName(g) })));
    const players = el("textarea", { id: "new-players", rows: "4", placeholder: "Άννα\nBen\nΓιώργος" });
    const extra = el("div", { id: "new-extra" });
    const form = el("form", { class: "card", id: "new-form" },
      el("h2", { text: t("ui.new_game") }),
      el("label", { for: "new-game", text: t("ui.game") }), select,
      el("label", { for: "new-players", text: t("ui.players") }), players,
      extra,
      el("p"), el("button", { class: "primary big", type: "submit", text: t("ui.create") }));
    function refreshExtra() {
      extra.replaceChildren();
      const g = window.CompanionGames[select.value];
      const names = players.value.split("\n").map((s) => s.trim()).filter(Boolean);
      if (g && g.setupFields) extra.append(g.setupFields(names, ctxBase()));
    }
    select.addEventListener("change", refreshExtra);
    players.addEventListener("input", refreshExtra);
    refreshExtra();
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const names = players.value.split("\n").map((s) => s.trim()).filter(Boolean);
      const g = window.CompanionGames[select.value];
      const options = g && g.setupOptions ? g.setupOptions(extra) : {};
      try {
        const created = await api("POST", "/api/games", { game: select.value, players: names, options, lang });
        setToken(created.id, created.host_token);
        go("/g/" + created.id);
      } catch (e) { toast(e.message); }
    });
    return form;
  }

  // ---------- a game ----------
  function ctxBase() {
    return { lang, t, el, speak, toast };
  }

  async function showGame(id) {
    if (!current || current.id !== id) {
      closeStream();
      current = { id, view: null, me: { role: "spectator", seat: null }, token: getToken(id) };
    }
    const params = new URLSearchParams(location.search);
    const code = params.get("code");
    app.replaceChildren(el("p", { class: "muted", text: t("ui.connecting") }));
    if (current.token) {
      try {
        current.me = await api("GET", `/api/games/${id}/me`, undefined, current.token);
      } catch (e) {
        if (e.status === 403 || e.status === 401) { localStorage.removeItem(tokenKey(id)); current.token = null; }
        else if (e.status === 404) { app.replaceChildren(el("p", { text: e.message })); return; }
      }
    }
    if (!current.token && code && !current.watching) {
      return showSeats(id, code);
    }
    openStream(id);
  }

  async function showSeats(id, code) {
    let view;
    try { view = await api("GET", `/api/games/${id}`); } catch (e) { app.replaceChildren(el("p", { text: e.message })); return; }
    const box = el("div", { class: "card seats", id: "seats" }, el("h2", { text: t("ui.pick_seat") }));
    for (const s of view.seats) {
      box.append(el("button", {
        class: s.claimed ? "" : "primary", disabled: s.claimed, "data-seat": s.seat,
        onclick: async () => {
          try {
            const res = await api("POST", "/api/join", { code, seat: s.seat, game: id });
            setToken(id, res.token);
            current.token = res.token;
            history.replaceState({}, "", "/g/" + id);
            showGame(id);
          } catch (e) { toast(e.message); }
        },
      }, s.name, s.claimed ? ` (${t("ui.taken")})` : ""));
    }
    box.append(el("button", { id: "watch", onclick: () => { current.watching = true; history.replaceState({}, "", "/g/" + id); openStream(id); } }, t("ui.watch")));
    app.replaceChildren(box);
  }

  function openStream(id) {
    if (source) return render();
    setConn("connecting");
    source = new EventSource(`/api/games/${id}/stream`);
    source.addEventListener("open", () => setConn("live"));
    source.addEventListener("error", () => setConn("down"));  // EventSource retries by itself
    source.addEventListener("state", (ev) => {
      setConn("live");
      const view = JSON.parse(ev.data);
      const before = current.view;
      current.view = view;
      for (const fn of listeners) fn(view, before);
      render(before);
    });
  }

  async function act(action) {
    try {
      const view = await api("POST", `/api/games/${current.id}/actions`, action, current.token);
      return view;
    } catch (e) {
      toast(e.message);
      throw e;
    }
  }

  function render(before) {
    const view = current.view;
    if (!view) return;
    const me = current.me || { role: "spectator", seat: null };
    me.name = me.seat !== null && me.seat !== undefined ? view.players[me.seat] : null;
    const ctx = Object.assign(ctxBase(), { me, act, before, token: current.token, id: current.id });
    const gameRoot = el("section", { id: "game", "data-game": view.game, "data-version": view.version });
    const game = window.CompanionGames[view.game];
    if (game) {
      try { game.render(gameRoot, view, ctx); } catch (e) { gameRoot.append(el("p", { text: String(e) })); }
    } else {
      gameRoot.append(el("p", { text: t("ui.game_unsupported", { game: view.game }) }));
    }
    const who = me.role === "player" ? me.name : t("ui.role." + me.role);
    const header = el("div", { class: "row" },
      el("a", { class: "button", href: "/", onclick: (ev) => { ev.preventDefault(); go("/"); } }, "← " + t("ui.back")),
      el("span", { class: "muted grow", id: "me", "data-role": me.role, text: t("ui.you_are", { who }) }));
    const parts = [header, gameRoot];
    if (me.role === "spectator") parts.push(joinBox());
    parts.push(undoBox(view, me));
    if (me.role === "host") parts.push(hostBox(view));
    parts.push(logBox());
    // keep what the player opened, scrolled or typed across live updates
    const openIds = new Set([...app.querySelectorAll("details[id]")].filter((d) => d.open).map((d) => d.id));
    const closedIds = new Set([...app.querySelectorAll("details[id]")].filter((d) => !d.open).map((d) => d.id));
    const focused = document.activeElement && document.activeElement.id;
    const typed = {};
    app.querySelectorAll("input[id], textarea[id], select[id]").forEach((n) => { typed[n.id] = n.value; });
    app.replaceChildren(...parts);
    app.querySelectorAll("details[id]").forEach((d) => {
      if (openIds.has(d.id)) d.open = true;
      else if (closedIds.has(d.id)) d.open = false;
      if (d.open) d.dispatchEvent(new Event("toggle"));
    });
    app.querySelectorAll("input[id], textarea[id], select[id]").forEach((n) => {
      if (n.id in typed && n.type !== "file" && !n.dataset.fresh) n.value = typed[n.id];
    });
    if (focused) { const f = document.getElementById(focused); if (f) f.focus(); }
  }

  function joinBox() {
    const form = el("form", { class: "card" }, el("label", { for: "seat-code", text: t("ui.enter_code") }),
      el("div", { class: "row" }, el("input", { id: "seat-code", class: "grow code", autocomplete: "off" }),
        el("button", { class: "primary", type: "submit", text: t("ui.join_go") })));
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      current.watching = false;
      const code = $("#seat-code").value.trim().toUpperCase();
      closeStream();
      history.replaceState({}, "", `/g/${current.id}?code=${encodeURIComponent(code)}`);
      showSeats(current.id, code);
    });
    return form;
  }

  function undoBox(view, me) {
    const last = view.last_action;
    const mine = last && (me.role === "host" || (me.role === "player" && last.actor.role === "player" && last.actor.seat === me.seat));
    if (!last || me.role === "spectator") return el("span");
    return el("div", { class: "row" }, el("button", {
      id: "undo", disabled: !mine, onclick: () => act({ type: "undo" }).catch(() => {}),
    }, "↶ " + t("ui.undo")));
  }

  function hostBox(view) {
    const box = el("details", { class: "card", id: "host" }, el("summary", {}, t("ui.invite", { url: (current.me.join_url || location.href).split("/g/")[0], code: current.me.join_code || "" })));
    box.open = view.version === 0;
    box.append(el("p", {}, el("a", { class: "button", id: "settings-link", href: `/settings?token=${encodeURIComponent(current.token)}` }, t("ui.settings"))));
    box.append(el("div", { class: "qr" },
      el("img", { alt: "QR", src: `/api/games/${current.id}/qr.svg?token=${encodeURIComponent(current.token)}` }),
      el("div", { class: "code", id: "join-code-show", text: current.me.join_code || "" })));
    for (const s of view.seats.filter((x) => x.claimed)) {
      box.append(el("button", { onclick: async () => {
        try { await api("POST", `/api/games/${current.id}/seats/${s.seat}/free`, {}, current.token); } catch (e) { toast(e.message); }
      } }, `${t("ui.free_seat")}: ${s.name}`));
    }
    return box;
  }

  function logBox() {
    const box = el("details", { class: "card", id: "log" }, el("summary", {}, t("ui.log")));
    const list = el("ol", { class: "log" });
    box.append(list);
    box.addEventListener("toggle", async () => {
      if (!box.open) return;
      try {
        const data = await api("GET", `/api/games/${current.id}/events`);
        list.replaceChildren(...data.events.slice().reverse().map((e) => el("li", { class: e.undone ? "undone" : "" },
          `#${e.seq} ${describeEvent(e)}`)));
      } catch (err) { toast(err.message); }
    });
    return box;
  }

  function describeEvent(e) {
    const v = current.view;
    const who = e.actor.seat !== null && e.actor.seat !== undefined ? v.players[e.actor.seat] : t("actor." + e.actor.role);
    const game = window.CompanionGames[v.game];
    const text = game && game.describeEvent ? game.describeEvent(e, ctxBase()) : null;
    return `${who}: ${text || t("ui.event." + e.type) || e.type}${e.undone ? " (" + t("ui.undone") + ")" : ""}`;
  }

  // the camera's status, shown inline when a camera is configured
  let cameraPresent = false;
  async function pollCamera() {
    try {
      const res = await fetch("/api/camera", { headers: { Accept: "application/json" } });
      if (res.ok) {
        const s = await res.json();
        const c = $("#camera");
        const present = Boolean(s && s.state && s.state !== "off");
        if (present !== cameraPresent) { cameraPresent = present; showTray(Boolean(current)); }
        c.hidden = !present;
        const lost = present && s.state === "lost";
        c.className = "conn camera " + (lost ? "lost" : "live");
        c.textContent = lost ? t("ui.camera_lost") : t("ui.camera_ok");
        c.dataset.state = lost ? "lost" : "ok";
      }
    } catch (e) { /* the page works without a camera */ }
    setTimeout(pollCamera, 3000);
  }

  window.Companion = { t, el, api, speak, toast, go, onState: (fn) => listeners.push(fn), get lang() { return lang; } };

  (async function start() {
    try { catalogue = await (await fetch("/api/i18n")).json(); } catch (e) { /* keys show instead */ }
    // the teach screen and the games come in scripts after this one: the catalogue may arrive
    // before they have run (a busy Pi, a slow phone), and routing then would show the lobby
    if (document.readyState === "loading") {
      await new Promise((resolve) => document.addEventListener("DOMContentLoaded", resolve, { once: true }));
    }
    applyStaticText();
    route();
    pollCamera();
  })();
})();
