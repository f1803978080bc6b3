/* Augustus on the phone: the herald's bag, the last token large, the call spoken aloud. */
"use strict";
(function () {
  const icon = (tok) => `/static/icons/augustus/${tok}.svg`;
  const ORDER = ["swords", "shield", "chariot", "catapult", "standard", "dagger", "joker"];

  function tokenName(view, tok, lang) {
    return (view.tokens && view.tokens[tok] && view.tokens[tok][lang]) || tok;
  }

  function render(root, view, ctx) {
    const { el, t, lang, me } = ctx;
    const h = view.herald;
    const isHerald = me.role === "player" && me.seat === h.herald_seat;
    const mayDraw = me.role === "host" || isHerald;

    // speak the call once per new draw (not on first load)
    if (ctx.before && ctx.before.herald && h.draws > ctx.before.herald.draws && view.call) {
      ctx.speak(view.call[lang]);
    }

    const last = h.last;
    const big = el("div", { class: "card token-big", id: "last-token", "data-token": last || "" },
      last ? el("img", { src: icon(last), alt: tokenName(view, last, lang) }) : el("p", { class: "muted", text: t("aug.none_yet") }),
      last ? el("div", { class: "name", id: "last-name", text: tokenName(view, last, lang) }) : null,
      view.call && last === "joker" ? el("p", { id: "call", text: view.call[lang] }) : null);

    const heraldLine = el("div", { class: "card row" },
      el("div", { class: "grow" },
        el("div", { class: "muted", text: t("aug.herald") }),
        el("div", { id: "herald-name", style: "font-size:1.4rem;font-weight:700", text: h.herald })),
      el("div", {}, el("div", { class: "muted", text: t("aug.draws") }), el("div", { id: "draw-count", style: "font-size:1.4rem;font-weight:700", text: String(h.draws) })));

    const parts = [big, heraldLine];
    if (isHerald) parts.push(el("p", { class: "muted", text: t("aug.your_turn") }));
    if (h.mode === "real") parts.push(el("p", { class: "muted", text: t("aug.real_bag") }));

    if (h.pending && mayDraw) {
      const pick = el("div", { class: "pick" }, ORDER.filter((k) => k in h.full_bag).map((tok) => el("button", {
        "data-token": tok, disabled: !h.bag[tok],
        onclick: () => ctx.act({ type: "confirm_token", token: tok }).catch(() => {}),
      }, el("img", { src: icon(tok), alt: "" }), tokenName(view, tok, lang))));
      parts.push(el("div", { class: "card", id: "pending" },
        el("p", { text: t("aug.pending", { reason: h.pending.reason || "?" }) }), pick,
        el("button", { onclick: () => ctx.act({ type: "dismiss_pending" }).catch(() => {}) }, t("aug.dismiss"))));
    }

    if (mayDraw) {
      parts.push(el("button", {
        class: "primary big", id: "draw",
        onclick: async (ev) => {
          ev.currentTarget.disabled = true;
          try { await ctx.act({ type: "draw" }); } catch (e) { /* toast shown */ }
        },
      }, t("aug.draw")));
    }

    const drawn = el("div", { class: "card" }, el("h3", { text: t("aug.drawn") }),
      el("div", { class: "tokens-row", id: "drawn" }, h.drawn.map((tok) => el("img", { src: icon(tok), alt: tokenName(view, tok, lang), title: tokenName(view, tok, lang) }))));

    const total = Object.values(h.bag).reduce((a, b) => a + b, 0);
    const maxOdds = Math.max(0.0001, ...Object.values(view.odds));
    const rows = ORDER.filter((k) => k in h.bag).concat(Object.keys(h.bag).filter((k) => !ORDER.includes(k)));
    const bag = el("div", { class: "card" }, el("h3", { text: `${t("aug.in_bag")}: ${total} · ${t("aug.next_odds")}` }),
      el("table", { class: "bag", id: "bag" }, rows.map((tok) => {
        const p = view.odds[tok] || 0;
        return el("tr", { "data-token": tok },
          el("td", {}, el("img", { src: icon(tok), alt: "" })),
          el("td", { text: tokenName(view, tok, lang) }),
          el("td", { text: `${h.bag[tok]}/${h.full_bag[tok]}` }),
          el("td", { style: "width:35%" }, el("div", { class: "oddsbar", style: `width:${Math.round((p / maxOdds) * 100)}%` })),
          el("td", { text: `${(p * 100).toFixed(1)}%` }));
      })));
    parts.push(drawn, bag);
    root.append(...parts);
  }

  function setupFields(names, ctx) {
    const { el, t } = ctx;
    return el("div", {},
      el("label", { for: "aug-herald", text: t("ui.first_herald") }),
      el("select", { id: "aug-herald" }, names.map((n, i) => el("option", { value: String(i), text: n }))),
      el("label", { for: "aug-mode", text: t("aug.mode") }),
      el("select", { id: "aug-mode" },
        el("option", { value: "virtual", text: t("aug.mode.virtual") }),
        el("option", { value: "real", text: t("aug.mode.real") })));
  }

  function setupOptions(box) {
    const herald = box.querySelector("#aug-herald");
    const mode = box.querySelector("#aug-mode");
    return { herald: herald && herald.value ? Number(herald.value) : 0, mode: mode ? mode.value : "virtual" };
  }

  function describeEvent(e, ctx) {
    const view = null;
    if (e.type === "draw") return `${ctx.t("aug.draw")}: ${ctx.t("augustus.token." + e.token)}`;
    if (e.type === "undo") return `${ctx.t("ui.undo")} #${e.target}`;
    return view;
  }

  window.CompanionGames.augustus = { render, setupFields, setupOptions, describeEvent };
})();
