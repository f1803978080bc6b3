/* The teach screen: guided calibration of a custom dice or token set from the phone.
 *   const t = TabletopTeach.mount(document.getElementById("teach"), {lang: "el", like: "castle-dice"});
 *   t.setLang("en");  t.unmount();
 * It talks to /api/teach (web/teach_api.py): start a session, then for each face in turn show the
 * prompt ("show a WOOD die with the COW face up..."), capture from the live camera (or upload a
 * photo when there is none), show the crops, redo one, and save the set for `read --dice-set`.
 * Plain DOM, no CDN, no framework.
 */
(function () {
  "use strict";

  // The texts come from the shared el/en catalogue (web/static/i18n.js, loaded before this script).
  const I18N = window.TabletopI18n;
  const NS = "ui.teach.";

  function el(tag, attrs, kids) {
    const e = document.createElement(tag);
    Object.entries(attrs || {}).forEach(([k, v]) => {
      if (k === "text") e.textContent = v;
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v);
    });
    (kids || []).forEach((k) => k && e.appendChild(k));
    return e;
  }

  async function api(method, url, body) {
    const opts = { method, headers: {} };
    if (body instanceof FormData) opts.body = body;
    else if (body !== undefined) {
      opts.headers["Content-Type"] = "application/json";
      opts.body = JSON.stringify(body);
    }
    const r = await fetch(url, opts);
    let data = {};
    try { data = await r.json(); } catch (e) { data = {}; }
    if (!r.ok) {
      const err = new Error(data.error || r.statusText);
      err.status = r.status;
      throw err;
    }
    return data;
  }

  function mount(root, opts) {
    opts = opts || {};
    let lang = opts.lang || "en";
    const base = opts.base || "/api/teach";
    const t = (k, params) => I18N.t(lang, k.includes(".") ? k : NS + k, params);
    let session = null, step = 0, message = "", warnings = [], noCamera = false;

    function render() {
      root.textContent = "";
      root.classList.add("teach");
      root.appendChild(el("h2", { text: t("title") }));
      if (!session) return renderStart();
      const s = session.steps[step];
      root.appendChild(el("p", { class: "teach-progress",
        text: `${t("progress", { n: step + 1, total: session.steps.length })} · ${shownName(s)}` }));
      root.appendChild(el("p", { class: "teach-prompt", role: "status", "aria-live": "polite",
        text: s.prompt[lang] || s.prompt.en }));
      const shots = el("div", { class: "teach-shots" });
      (s.previews || []).forEach((src) => {
        shots.appendChild(el("img", { src: src + "?t=" + Date.now(), alt: `${s.face}`, width: "72", height: "72",
          style: "object-fit:contain;margin:2px;border:1px solid #8884" }));
      });
      root.appendChild(shots);
      root.appendChild(el("p", { class: "teach-count", text: `${s.captured} / ${session.per_face}` }));
      const file = el("input", { type: "file", accept: "image/*", capture: "environment", hidden: "",
        onchange: () => file.files[0] && doCapture(file.files[0]) });
      const row = el("div", { class: "teach-actions" }, [
        noCamera ? null : el("button", { type: "button", text: t("capture"), onclick: () => doCapture(null) }),
        el("button", { type: "button", class: "secondary", text: t("upload"), onclick: () => file.click() }),
        el("button", { type: "button", class: "secondary", text: t("redo"), onclick: doRedo }),
        file,
      ]);
      root.appendChild(row);
      root.appendChild(el("div", { class: "teach-nav" }, [
        el("button", { type: "button", class: "secondary", text: t("prev"),
          onclick: () => { step = Math.max(0, step - 1); message = ""; render(); } }),
        el("button", { type: "button", class: "secondary", text: t("next"),
          onclick: () => { step = Math.min(session.steps.length - 1, step + 1); message = ""; render(); } }),
        el("button", { type: "button", text: t("save"), onclick: doSave }),
      ]));
      if (message) root.appendChild(el("p", { class: "teach-message", role: "alert", text: message }));
      if (warnings.length) {
        root.appendChild(el("p", { text: t("warnings") + ":" }));
        root.appendChild(el("ul", {}, warnings.map((w) => el("li", { text: w }))));
      }
    }

    // what the players call the face (and the die type), not its id
    function shownName(s) {
      const face = (s.label && s.label[lang]) || s.face;
      if (session.kind === "tokens") return face;
      return `${(s.type_label && s.type_label[lang]) || s.type} / ${face}`;
    }

    function renderStart() {
      const name = el("input", { id: "teach-name", value: opts.name || "my-set", maxlength: "40" });
      const like = el("select", { id: "teach-like" }, ["castle-dice", "augustus-tokens"].map((v) => {
        const o = el("option", { value: v, text: v });
        if (v === (opts.like || "castle-dice")) o.selected = true;
        return o;
      }));
      const per = el("input", { id: "teach-per", type: "number", min: "1", max: "20", value: String(opts.perFace || 5) });
      root.appendChild(el("label", { for: "teach-name", text: t("name") }));
      root.appendChild(name);
      root.appendChild(el("label", { for: "teach-like", text: t("like") }));
      root.appendChild(like);
      root.appendChild(el("label", { for: "teach-per", text: t("per_face") }));
      root.appendChild(per);
      root.appendChild(el("button", { type: "button", text: t("start"), onclick: async () => {
        try {
          session = await api("POST", `${base}/sessions`, { name: name.value, like: like.value,
            per_face: parseInt(per.value, 10) || 5 });
          step = 0; message = ""; render();
        } catch (e) { message = `${t("ui.error")}: ${e.message}`; render(); }
      } }));
      if (message) root.appendChild(el("p", { role: "alert", text: message }));
    }

    async function refresh() {
      session = await api("GET", `${base}/sessions/${session.id}`);
    }

    async function doCapture(fileObj) {
      const s = session.steps[step];
      try {
        let r;
        if (fileObj) {
          const fd = new FormData();
          fd.append("type", s.type); fd.append("face", s.face); fd.append("image", fileObj);
          r = await api("POST", `${base}/sessions/${session.id}/capture`, fd);
        } else {
          r = await api("POST", `${base}/sessions/${session.id}/capture`, { type: s.type, face: s.face });
        }
        message = r.found ? "" : t("not_found");
        await refresh();
        if (session.steps[step].captured >= session.per_face && step < session.steps.length - 1) step += 1;
      } catch (e) {
        if (e.status === 409) { noCamera = true; message = t("no_camera"); } else message = `${t("ui.error")}: ${e.message}`;
      }
      render();
    }

    async function doRedo() {
      const s = session.steps[step];
      try {
        await api("POST", `${base}/sessions/${session.id}/redo`, { type: s.type, face: s.face });
        await refresh(); message = "";
      } catch (e) { message = `${t("ui.error")}: ${e.message}`; }
      render();
    }

    async function doSave() {
      try {
        const r = await api("POST", `${base}/sessions/${session.id}/save`, { name: session.name });
        warnings = r.warnings || [];
        message = `${t("saved")}: ${r.set} (${r.path})` + (r.used_message ? ". " + r.used_message[lang] : "");
        if (opts.onSaved) opts.onSaved(r);
      } catch (e) { message = `${t("ui.error")}: ${e.message}`; }
      render();
    }

    I18N.load().then(render);
    return {
      setLang(l) { lang = l; render(); },
      unmount() { root.textContent = ""; },
      get session() { return session; },
    };
  }

  window.TabletopTeach = { mount };
})();
