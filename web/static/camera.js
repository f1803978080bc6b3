/* The camera strip of the phone page: "camera working / camera lost" live, the last reading,
 * and the tray preview (MJPEG, streamed only while it is shown).
 *   const cam = TabletopCamera.mount(document.getElementById("camera"), {lang: "el"});
 *   cam.setLang("en");  cam.unmount();
 * It polls GET /api/camera every 2 s (one request, no thread held on the companion), so a
 * camera pulled out shows as lost within a few seconds while play goes on by hand.
 */
(function () {
  "use strict";

  // The texts come from the shared el/en catalogue (web/static/i18n.js, loaded before this script).
  const I18N = window.TabletopI18n;
  const NS = "ui.camera.";

  function mount(root, opts) {
    opts = opts || {};
    let lang = opts.lang || "en";
    const every = opts.every || 2000;
    const t = (k) => I18N.t(lang, NS + k);
    let timer = null, last = null, showing = false;

    const badge = document.createElement("span");
    badge.className = "camera-badge";
    badge.setAttribute("role", "status");
    badge.setAttribute("aria-live", "polite");
    const reading = document.createElement("span");
    reading.className = "camera-reading";
    const button = document.createElement("button");
    button.type = "button";
    button.className = "secondary camera-toggle";
    const img = document.createElement("img");
    img.className = "camera-preview";
    img.alt = "";
    img.hidden = true;
    img.style.maxWidth = "100%";
    button.addEventListener("click", () => { showing = !showing; draw(); });
    root.classList.add("camera-strip");
    root.replaceChildren(badge, reading, button, img);

    function faces(r) {
      let dice = (r && (r.dice || r)) || [];
      if (!Array.isArray(dice)) return "";
      if (r && Array.isArray(r.tokens)) dice = dice.concat(r.tokens);
      // a taught set's faces by their names in the player's language (set.toml labels), not their ids
      const name = (d) => (d.label && (d.label[lang] || d.label.en)) || d.face;
      return dice.map((d) => (d.face != null ? name(d) : d.value != null ? d.value : t("unsure"))).join(" · ");
    }

    function draw() {
      const s = last;
      if (!s) { badge.textContent = t("offline"); badge.dataset.state = "offline"; }
      else {
        badge.textContent = ((s.message && (s.message[lang] || s.message.en)) || s.state) + (s.demo ? " " + t("demo") : "");
        badge.dataset.state = s.state;
        const f = faces(s.reading);
        // the roll watcher's state (rolling, dice read...) while the camera works
        const w = s.ok && s.watcher_message ? (s.watcher_message[lang] || s.watcher_message.en) : "";
        reading.textContent = [w, f ? t("reading") + ": " + f : ""].filter(Boolean).join(" · ");
      }
      const canShow = s && s.state !== "off";
      button.hidden = !canShow;
      button.textContent = showing ? t("hide") : t("show");
      if (showing && canShow) {
        if (img.hidden) { img.src = (s.preview || "/api/camera/preview.mjpg") + "?t=" + Date.now(); img.hidden = false; }
      } else if (!img.hidden) {
        img.removeAttribute("src");  // closes the stream: the companion stops encoding
        img.hidden = true;
      }
    }

    async function poll() {
      await I18N.load();
      try {
        const res = await fetch("/api/camera", { cache: "no-store" });
        last = await res.json();
      } catch (e) { last = null; }
      draw();
      if (root.isConnected || opts.always) timer = setTimeout(poll, every);
    }

    poll();
    return {
      setLang(l) { lang = l; draw(); },
      status() { return last; },
      unmount() { clearTimeout(timer); img.removeAttribute("src"); root.replaceChildren(); },
    };
  }

  window.TabletopCamera = { mount };
})();
