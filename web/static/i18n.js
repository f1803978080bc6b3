/* The shared el/en catalogue (companion/messages.toml, served as /api/i18n) for the teach, camera
 * and settings scripts: fetched once per page.
 *   TabletopI18n.load().then(() => TabletopI18n.t("el", "ui.camera.ok", {n: 2}));
 */
window.TabletopI18n = (function () {
  "use strict";
  let cat = null, pending = null;
  function load() {
    if (cat) return Promise.resolve(cat);
    if (!pending) {
      pending = fetch("/api/i18n")
        .then((r) => { if (!r.ok) throw new Error(r.statusText); return r.json(); })
        .then((c) => { cat = c; return c; })
        .catch(() => { pending = null; return null; });  // tried again on the next load()
    }
    return pending;
  }
  function t(lang, key, params) {
    const c = cat || {};
    let text = (c[lang] && c[lang][key]) || (c.en && c.en[key]) || key;
    for (const [k, v] of Object.entries(params || {})) text = text.split("{" + k + "}").join(String(v));
    return text;
  }
  return { load, t };
})();
