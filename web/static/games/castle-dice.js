/* Castle Dice on the phone: the prompt for this phone, the tray (General Supply), the step's
 * controls with big touch targets, the live scoreboard, the card table and the end screen.
 * Vanilla JS, no CDN. Called by the shell: CompanionGames["castle-dice"].render(root, view, ctx). */
"use strict";
(function () {
  const RES = ["wood", "stone", "gold", "land", "iron"];
  const ANIMALS = ["horse", "pig", "cow", "chicken"];
  const VILLAGERS = ["worker", "farmer", "merchant", "guard"];
  // short labels from the catalogue (no emoji: a table screen may have no emoji font)
  let T = (k) => k;
  const KEY = (k) => (RES.includes(k) ? "castle.res." + k : ANIMALS.includes(k) ? "castle.animal." + k
    : VILLAGERS.includes(k) ? "castle.villager." + k : k === "barbarian" || k === "barn" ? "castle.face." + k : k);
  const ICON = new Proxy({}, { get: (_o, k) => T(KEY(String(k))).slice(0, 2) });
  const CSS = `
  .cd .prompt{font-size:1.15rem;font-weight:600}
  .cd .prompt.mine{border:3px solid var(--accent)}
  .cd .dice{display:flex;flex-wrap:wrap;gap:.4rem}
  .cd .die{min-width:64px;min-height:64px;flex-direction:column;border-radius:.7rem;font-weight:700;padding:.3rem .4rem;font-size:.95rem}
  .cd .die .ico{font-size:1.5rem;line-height:1}
  .cd .die.unsure{border-style:dashed;border-color:var(--warn)}
  .cd .die.wood{background:#e9d3b5}.cd .die.stone{background:#dedede}.cd .die.gold{background:#f6e08a}
  .cd .die.land{background:#cfe6b8}.cd .die.iron{background:#b9c6d6}
  .cd .die.sel{outline:4px solid var(--accent)}
  .cd .sbwrap{overflow-x:auto;max-width:100%}
  .cd table.sb{width:100%;border-collapse:collapse;font-size:.72rem}
  .cd table.sb td,.cd table.sb th{padding:.2rem .15rem;text-align:center;border-bottom:1px solid var(--line)}
  .cd table.sb th{font-size:.72rem;font-weight:600}
  .cd table.sb tr.turn{background:#fde6c8}
  .cd .stepper{display:flex;align-items:center;gap:.3rem;margin:.2rem 0}
  .cd .stepper .lbl{flex:1}
  .cd .stepper .val{min-width:2rem;text-align:center;font-weight:700;font-size:1.2rem}
  .cd .grid2{display:grid;grid-template-columns:1fr 1fr;gap:.4rem}
  .cd .cardrow{display:flex;gap:.4rem;align-items:center;border-bottom:1px dashed var(--line);padding:.3rem 0}
  .cd .notices{font-size:.85rem;max-height:9rem;overflow:auto;padding-left:2rem;margin:0}
  .cd .winner{font-size:1.6rem;font-weight:800;text-align:center}
  .cd .power{font-size:.85rem}
  `;

  function injectStyle() {
    if (document.getElementById("cd-style")) return;
    const st = document.createElement("style");
    st.id = "cd-style";
    st.textContent = CSS;
    document.head.append(st);
  }

  function faceLabel(face, t) {
    if (face === null || face === undefined) return "?";
    const m = /^(wood|stone|gold|land|iron)(\d)$/.exec(face);
    if (m) return `${m[2]} ${t("castle.res." + m[1])}`;
    if (ANIMALS.includes(face)) return t("castle.animal." + face);
    if (face === "barbarian") return t("castle.face.barbarian");
    if (face === "barn") return t("castle.face.barn");
    if (RES.includes(face)) return t("castle.res." + face);
    return face;
  }
  function faceIcon(face) {
    if (!face) return "?";
    const m = /^(wood|stone|gold|land|iron)(\d)$/.exec(face);
    return m ? "●".repeat(Number(m[2])) : face === "barbarian" ? "✕" : "◆";
  }
  const costText = (cost, t) => Object.entries(cost || {}).map(([r, k]) => `${k} ${t("castle.res." + r)}`).join(", ") || "—";
  const uniq = (xs) => xs.filter((x, i) => xs.indexOf(x) === i);

  function stepper(el, label, value, min, max, onChange, id) {
    const val = el("span", { class: "val", id, text: String(value) });
    let v = value;
    const set = (nv) => { v = Math.max(min, Math.min(max, nv)); val.textContent = String(v); onChange(v); };
    return el("div", { class: "stepper" }, el("span", { class: "lbl", text: label }),
      el("button", { type: "button", "aria-label": "−", onclick: () => set(v - 1) }, "−"), val,
      el("button", { type: "button", "aria-label": "+", onclick: () => set(v + 1) }, "+"));
  }

  function render(root, view, ctx) {
    injectStyle();
    const { el, t, lang, me } = ctx;
    T = t;
    const host = me.role === "host";
    const seat = me.role === "player" ? me.seat : null;
    const acts = host ? view.actions.host : (seat !== null ? (view.actions[String(seat)] || []) : []);
    const can = (a) => acts.includes(a);
    const board = view.board;
    const mineSeat = seat !== null ? seat : view.turn_seat;  // whom the host acts for by default
    const send = (action) => ctx.act(action).catch(() => {});
    const box = el("div", { class: "cd", id: "castle" });

    // ---- prompt
    const prompt = (seat !== null ? view.prompts[String(seat)] : view.prompt) || view.prompt;
    const myTurn = seat !== null && (view.turn_seat === seat || (view.pending && view.pending.seat === seat));
    box.append(el("div", { class: "card prompt" + (myTurn ? " mine" : ""), id: "cd-prompt", "data-step": view.step,
      "data-turn": view.turn_seat === null ? "" : String(view.turn_seat), text: prompt[lang] }));
    const beforePrompt = ctx.before && ctx.before.prompts && seat !== null ? ctx.before.prompts[String(seat)] : null;
    if (myTurn && beforePrompt && beforePrompt[lang] !== prompt[lang]) ctx.speak(prompt[lang]);

    if (view.finished) {
      box.append(endScreen(view, ctx));
    } else {
      const controls = stepControls(view, ctx, can, host, seat, send);
      if (controls) box.append(controls);
    }
    box.append(supplyCard(view, ctx, can, host, seat, send));
    box.append(scoreboard(view, ctx));
    box.append(noticesCard(view, ctx));
    if (!view.finished && (can("build") || host)) box.append(cardTable(view, ctx, can, host, seat, send));
    if (can("adjust")) box.append(adjustBox(view, ctx, host, seat, send));
    root.append(box);
  }

  // ---------------------------------------------------------------------------------------------
  function stepControls(view, ctx, can, host, seat, send) {
    const { el, t } = ctx;
    const card = el("div", { class: "card", id: "cd-controls" });
    const p = view.pending;
    const forSeat = host ? (p ? p.seat : view.turn_seat) : seat;
    const b = forSeat !== null && forSeat !== undefined ? view.board[forSeat] : null;
    const botTurn = view.turn_seat !== null && view.turn_seat !== undefined && view.board[view.turn_seat].bot;
    const bigDone = (label) => el("button", { class: "primary big", id: "cd-next", onclick: () => send({ type: "next" }) },
      label || t("castle.ui.done"));

    if (p && (can("farmer_bonus") || can("villager_choice"))) {
      if (p.kind === "farmer") {
        const farmers = view.board[p.seat].villagers.farmer;
        const need = farmers >= 3 ? 2 : 1;
        const chosen = [];
        if (farmers === 1) {
          card.append(el("button", { class: "primary big", id: "cd-farmer", onclick: () => send({ type: "farmer_bonus" }) },
            `+1 ${t("castle.animal." + p.animal)}`));
        } else {
          const row = el("div", { class: "grid2" });
          for (const a of ANIMALS) {
            const btn = el("button", { type: "button", "data-animal": a, onclick: () => {
              chosen.push(a);
              btn.classList.add("sel");
              if (chosen.length >= need) send({ type: "farmer_bonus", animals: chosen.slice(0, need) });
            } }, t("castle.animal." + a));
            row.append(btn);
          }
          card.append(row);
        }
      } else {
        const from = el("select", { id: "cd-cow-from" }, VILLAGERS.map((v) => el("option", { value: v, text: t("castle.villager." + v) })));
        const to = el("select", { id: "cd-cow-to" }, VILLAGERS.map((v) => el("option", { value: v, text: t("castle.villager." + v) })));
        const res = el("select", { id: "cd-cow-res" }, RES.map((r) => el("option", { value: r, text: t("castle.res." + r) })));
        card.append(el("h3", { text: t("castle.ui.villager_choice") }), from, el("div", { text: "→" }), to,
          el("label", { text: t("castle.ui.guard_on") }), res,
          el("button", { class: "primary big", onclick: () => {
            const action = { type: "villager_choice", from: from.value, to: to.value };
            if (to.value === "guard") action.resource = res.value;
            send(action);
          } }, t("castle.ui.villager_choice")));
      }
      card.append(el("button", { class: "big", id: "cd-skip", onclick: () => send({ type: "skip" }) }, t("castle.ui.skip")));
      return card;
    }

    switch (view.step) {
      case "first_player": {
        if (can("first_roll")) {
          card.append(el("button", { class: "primary big", id: "cd-first-roll",
            onclick: () => send({ type: "next" }) }, t("castle.ui.roll")));
          if (!host) {
            const w = { n: 0 };
            card.append(stepper(ctx.el, t("castle.res.wood"), 0, 0, 6, (v) => { w.n = v; }, "cd-first-wood"),
              el("button", { onclick: () => send({ type: "first_roll", wood: w.n }) }, t("castle.ui.send")));
          }
        }
        if (can("set_first")) {
          card.append(el("div", { class: "row" }, view.board.map((x) => el("button", {
            onclick: () => send({ type: "set_first", seat: x.seat }) }, "1. " + x.name))));
        }
        break;
      }
      case "draw": {
        if (!can("draw_cards") || !b) break;
        const st = { discard: 0, castle: 0, village: 0 };
        const limit = b.hand_limit;
        card.append(el("div", { class: "muted", text: `${t("castle.ui.hand")}: ${b.hand} → ${limit}` }),
          stepper(el, t("castle.ui.discard"), 0, 0, b.hand, (v) => { st.discard = v; }, "cd-discard"),
          stepper(el, t("castle.ui.castle"), 0, 0, 6, (v) => { st.castle = v; }, "cd-castle"),
          stepper(el, t("castle.ui.village"), 0, 0, 6, (v) => { st.village = v; }, "cd-village"),
          el("button", { class: "primary", id: "cd-draw", onclick: () => send({ type: "draw_cards", seat: forSeat, ...st }) },
            t("castle.ui.draw")), bigDone());
        break;
      }
      case "choose_dice": {
        if (botTurn && can("next")) { card.append(bigDone(t("castle.ui.next"))); break; }
        if (!b || !can("choose_dice")) break;
        const pick = {};
        const need = b.extra_dice;
        const total = el("div", { class: "muted", id: "cd-pick-total", text: `0 / ${need}` });
        card.append(el("div", { class: "muted", text: Object.entries(b.pool).map(([k, n]) => `${n}× ${t("castle.res." + k)}`).join(", ") }));
        for (const r of RES) {
          card.append(stepper(el, `${t("castle.res." + r)} (${view.bank[r]})`, 0, 0, view.bank[r], (v) => {
            pick[r] = v;
            total.textContent = `${Object.values(pick).reduce((a, c) => a + c, 0)} / ${need}`;
          }, "cd-pick-" + r));
        }
        card.append(total, el("button", { class: "primary big", id: "cd-choose", onclick: () => {
          const dice = {};
          for (const [k, v] of Object.entries(pick)) if (v) dice[k] = v;
          send({ type: "choose_dice", seat: forSeat, dice });
        } }, t("castle.ui.choose")));
        break;
      }
      case "roll": {
        if (!can("roll")) break;
        const bot = view.bot_seat;
        const rollSeat = host ? view.order.find((i) => !view.board[i].rolled)
          : (!view.board[seat].rolled ? seat : (bot !== null && !view.board[bot].rolled ? bot : null));
        if (rollSeat === undefined || rollSeat === null) break;
        const rb = view.board[rollSeat];
        card.append(el("button", { class: "primary big", id: "cd-roll", onclick: () => send({ type: "roll", seat: rollSeat }) },
          `${t("castle.ui.roll")} (${rb.name})`));
        // manual entry: one face picker per die of the pool
        const pickers = [];
        const form = el("details", { class: "card", id: "cd-enter-roll" }, el("summary", {}, t("castle.ui.enter_roll")));
        for (const [typ, n] of Object.entries(rb.pool)) {
          for (let i = 0; i < n; i++) {
            const sel = el("select", { "data-type": typ }, uniq(view.die_faces[typ]).map((f) =>
              el("option", { value: f, text: `${t("castle.res." + typ)}: ${faceLabel(f, t)}` })));
            pickers.push(sel);
            form.append(sel);
          }
        }
        form.append(el("button", { class: "primary", id: "cd-send-roll", onclick: () => send({ type: "roll", seat: rollSeat, source: "manual",
          dice: pickers.map((s) => ({ type: s.dataset.type, face: s.value })) }) }, t("castle.ui.send")));
        card.append(form);
        if (host) card.append(bigDone("" + t("castle.ui.next")));
        break;
      }
      case "gather": {
        if (botTurn && can("next")) { card.append(bigDone(t("castle.ui.next"))); break; }
        if (can("next")) card.append(bigDone(t("castle.ui.next")));
        if (can("take") && b) card.append(el("p", { class: "muted", id: "cd-tap-hint", text: t("castle.ui.tap_die", { name: b.name }) }));
        break;
      }
      case "market": {
        if (!can("sell_sets") || !b) break;
        const sets = Math.min(...ANIMALS.map((a) => b.animals[a]));
        if (!view.feast) card.append(el("button", { class: "primary", id: "cd-sell", disabled: !sets,
          onclick: () => send({ type: "sell_sets", seat: forSeat, sets: 1 }) }, `${t("castle.ui.sell")} (${sets})`));
        card.append(bardsStepper(view, ctx, forSeat, send), bigDone());
        break;
      }
      case "merchants": {
        if (!can("upgrade")) break;
        const ms = host ? view.board.filter((x) => !x.bot && !x.done && x.merchants_left > 0) : [view.board[seat]];
        for (const x of ms) {
          card.append(el("div", { class: "muted", text: `${x.name}: ${x.merchants_left} × ${t("castle.villager.merchant")}` }),
            el("div", { class: "grid2" }, RES.slice(0, 4).map((r, i) => el("button", {
              "data-from": r, disabled: !x.res[r] || !x.merchants_left,
              onclick: () => send({ type: "upgrade", seat: x.seat, from: r }) },
            `${t("castle.res." + r)} → ${t("castle.res." + RES[i + 1])}`))));
        }
        card.append(host ? bigDone(t("castle.ui.next")) : el("button", { class: "primary big", id: "cd-next",
          onclick: () => send({ type: "done" }) }, t("castle.ui.done")));
        break;
      }
      case "build": {
        if (!can("build")) break;
        card.append(el("p", { class: "muted", text: t("castle.ui.cards") + " ↓" }));
        card.append(host ? bigDone(t("castle.ui.next")) : el("button", { class: "primary big", id: "cd-next",
          onclick: () => send({ type: "done" }) }, t("castle.ui.done")));
        break;
      }
      case "scoring": {
        if (!can("done")) break;
        const who = host ? view.board.filter((x) => !x.bot) : [view.board[seat]];
        for (const x of who) card.append(el("div", { class: "muted", text: x.name }), bardsStepper(view, ctx, x.seat, send));
        card.append(host ? bigDone(t("castle.ui.next")) : el("button", { class: "primary big", id: "cd-next",
          onclick: () => send({ type: "done" }) }, t("castle.ui.done")));
        break;
      }
      default:
        if (can("next")) card.append(bigDone());
    }
    return card.childNodes.length ? card : null;
  }

  function bardsStepper(view, ctx, s, send) {
    const b = view.board[s];
    let v = b.bards;
    return ctx.el("div", {}, stepper(ctx.el, `${ctx.t("castle.ui.bards")} (${ctx.t("castle.ui.market_cards")}: ${b.market_cards})`,
      b.bards, 0, b.market_cards, (nv) => { v = nv; }, "cd-bards-" + s),
    ctx.el("button", { id: "cd-bards-save-" + s, onclick: () => send({ type: "bards", seat: s, count: v }) }, ctx.t("castle.ui.save")));
  }

  // ---------------------------------------------------------------------------------------------
  function supplyCard(view, ctx, can, host, seat, send) {
    const { el, t } = ctx;
    const card = el("div", { class: "card", id: "cd-supply" });
    card.append(el("h3", { text: `${t("castle.ui.supply")} (${view.supply.length})` }));
    const dice = el("div", { class: "dice", id: "cd-tray" });
    const canTake = can("take");
    const pork = can("pork_chops") && view.turn_seat !== null;
    const porkBox = el("div", { id: "cd-pork" });
    for (const d of view.supply) {
      const btn = el("button", { class: `die ${d.type}${d.face === null ? " unsure" : ""}`, "data-die": d.id,
        "data-face": d.face || "", title: t("castle.res." + d.type),
        onclick: () => {
          if (d.face === null) { correct(d); return; }
          if (canTake) send({ type: "take", die: d.id });
          else correct(d);
        } },
      el("span", { class: "ico", text: faceIcon(d.face) }), el("span", { text: d.face === null ? t("castle.ui.unsure") : faceLabel(d.face, t) }));
      dice.append(btn);
    }
    card.append(dice);
    // corrections (and confirming unsure readings): pick a die, then its real face
    const fix = el("div", { id: "cd-fix" });
    function correct(d) {
      if (!can("correct_die")) return;
      fix.replaceChildren(el("div", { class: "muted", text: `${t("castle.ui.correct")}: ${t("castle.res." + d.type)} #${d.id}` }),
        el("div", { class: "dice" }, uniq(view.die_faces[d.type]).map((f) => el("button", { class: `die ${d.type}`, "data-fix": f,
          onclick: () => send({ type: "correct_die", die: d.id, face: f }) }, el("span", { class: "ico", text: faceIcon(f) }), faceLabel(f, t)))));
    }
    if (view.supply.length && can("correct_die")) {
      card.append(el("details", {}, el("summary", {}, t("castle.ui.correct")),
        el("div", { class: "dice" }, view.supply.concat(view.board.flatMap((b) => b.camp)).map((d) => el("button", {
          class: `die ${d.type}`, onclick: () => correct(d) }, faceIcon(d.face), " #" + d.id)))));
    }
    card.append(fix);
    if (pork && view.supply.length) {
      const holdsPig = view.powers.pig === view.turn_seat && !view.pig_used;
      const dSel = el("select", { id: "cd-pork-die" }, view.supply.map((d) => el("option", { value: String(d.id), text: `#${d.id} ${t("castle.res." + d.type)}` })));
      const fSel = el("select", { id: "cd-pork-face" });
      const fill = () => {
        const d = view.supply.find((x) => String(x.id) === dSel.value);
        fSel.replaceChildren(...uniq(view.die_faces[d.type]).filter((f) => f !== "barbarian").map((f) => el("option", { value: f, text: faceLabel(f, t) })));
      };
      dSel.addEventListener("change", fill);
      fill();
      porkBox.append(el("details", { open: holdsPig }, el("summary", {}, t("castle.ui.pork")), dSel, fSel,
        el("div", { class: "row" },
          el("button", { class: "primary", disabled: !holdsPig, id: "cd-pork-go",
            onclick: () => send({ type: "pork_chops", die: Number(dSel.value), face: fSel.value, source: "pig" }) }, t("castle.ui.pork")),
          el("button", { onclick: () => send({ type: "pork_chops", die: Number(dSel.value), face: fSel.value, source: "daughter" }) },
            t("castle.ui.daughter")))));
      card.append(porkBox);
    }
    const camps = view.board.filter((b) => b.barbarians).map((b) => `${b.name}: ${b.barbarians}`);
    if (camps.length) card.append(el("p", { class: "muted", id: "cd-camps", text: `${t("castle.ui.camp")}: ${camps.join(" · ")}` }));
    card.append(el("p", { class: "muted", id: "cd-bank", text: `${t("castle.ui.bank")}: ` +
      RES.map((r) => `${t("castle.res." + r)} ${view.bank[r]}`).join(" · ") }));
    return card;
  }

  function scoreboard(view, ctx) {
    const { el, t } = ctx;
    const head = el("tr", {}, el("th", { text: "" }), RES.map((r) => el("th", { title: t("castle.res." + r), text: ICON[r] })),
      ANIMALS.map((a) => el("th", { title: t("castle.animal." + a), text: ICON[a] })),
      el("th", { title: t("castle.ui.villagers"), text: t("castle.ui.villagers").slice(0, 2) }), el("th", { text: ICON.barbarian }), el("th", { text: t("castle.ui.vp") }));
    const rows = view.board.map((b) => el("tr", { class: view.turn_seat === b.seat ? "turn" : "", "data-seat": b.seat },
      el("td", { style: "text-align:left;font-weight:700;max-width:5.5rem;overflow:hidden;text-overflow:ellipsis;white-space:nowrap",
        text: (view.first === b.seat ? "① " : "") + b.name }),
      RES.map((r) => el("td", { "data-res": r, text: b.bot ? "–" : String(b.res[r]) })),
      ANIMALS.map((a) => el("td", { "data-animal": a, text: String(b.animals[a]) })),
      el("td", { title: VILLAGERS.map((v) => `${t("castle.villager." + v)} ${b.villagers[v]}`).join(", "), text: b.bot ? "–" : String(b.villager_total) }),
      el("td", { text: String(b.barbarians) }),
      el("td", { "data-vp": b.vp === null ? "" : String(b.vp), style: "font-weight:700", text: b.vp === null ? "–" : String(b.vp) })));
    const powers = ANIMALS.map((a) => {
      const h = view.powers[a];
      return `${t("castle.animal." + a)} (${t("castle.power." + a)}): ${h === null ? t("castle.ui.nobody") : view.names[h]}`;
    });
    const details = view.board.filter((b) => !b.bot).map((b) => el("div", { class: "muted" },
      `${b.name}: ${VILLAGERS.map((v) => `${t("castle.villager." + v)} ${b.villagers[v]}`).join(", ")}` +
      (b.guards.length ? ` (${t("castle.ui.guard_on")}: ${b.guards.map((r) => t("castle.res." + r)).join(", ")})` : "") +
      ` · ${t("castle.ui.hand")} ${b.hand}/${b.hand_limit} · ${t("castle.ui.market_cards")} ${b.market_cards}` +
      (b.built.length ? ` · ${b.built.map((c) => c.name[ctx.lang]).join(", ")}` : "")));
    return el("div", { class: "card", id: "cd-scoreboard" },
      el("h3", { text: `${t("castle.ui.scoreboard")} · ${view.round}/7` }),
      el("div", { class: "sbwrap" }, el("table", { class: "sb" }, head, rows)),
      el("div", { class: "power", id: "cd-powers" }, powers.map((p) => el("div", { text: p }))), details);
  }

  function noticesCard(view, ctx) {
    const { el, t, lang } = ctx;
    return el("details", { class: "card", id: "cd-notices", open: true }, el("summary", {}, t("castle.ui.notices")),
      el("ol", { class: "notices", reversed: true }, view.notices.slice().reverse().map((n) => el("li", { text: n[lang] }))));
  }

  // ---------------------------------------------------------------------------------------------
  function cardTable(view, ctx, can, host, seat, send) {
    const { el, t, lang } = ctx;
    const s = seat !== null ? seat : (view.board.find((b) => !b.bot && !b.done) || view.board[0]).seat;
    const who = el("select", { id: "cd-build-seat" }, view.board.filter((b) => !b.bot).map((b) => el("option", { value: String(b.seat), selected: b.seat === s, text: b.name })));
    const guardRes = el("select", { id: "cd-guard-res" }, RES.map((r) => el("option", { value: r, text: t("castle.res." + r) })));
    const card = el("details", { class: "card", id: "cd-cards", open: view.step === "build" }, el("summary", {}, t("castle.ui.cards")));
    if (host) card.append(who);
    card.append(el("label", { text: t("castle.ui.guard_on") }), guardRes);
    const me = () => view.board[host ? Number(who.value) : s];
    for (const [id, c] of Object.entries(view.cards)) {
      const affordable = Object.entries(c.cost).every(([r, k]) => me().res[r] >= k);
      card.append(el("div", { class: "cardrow", "data-card": id },
        el("div", { class: "grow" }, el("b", { text: c.name[lang] }), ` ${c.vp} ${t("castle.ui.vp")} · ${costText(c.cost, t)}`),
        can("build") ? el("button", { class: affordable ? "primary" : "", "data-build": id, onclick: () => {
          const a = { type: "build", seat: host ? Number(who.value) : s, card: id };
          if (c.villager === "guard") a.resource = guardRes.value;
          send(a);
        } }, t("castle.ui.build")) : null));
    }
    // a new card (entered once, then kept in the game's card table), or an entry edited
    const form = el("details", { id: "cd-new-card" });
    function fill(initial, editId) {
      const c0 = initial || { name: { en: "", el: "" }, deck: "castle", effect: "castle_part", vp: 0, cost: {} };
      const nm = el("input", { id: "cd-new-name", placeholder: t("castle.ui.name"), value: c0.name[lang] || "" });
      const vp = { n: c0.vp };
      const cost = Object.assign({}, c0.cost);
      const deck = el("select", { id: "cd-new-deck" }, ["castle", "village", "market"].map((d) => el("option", { value: d, selected: d === c0.deck, text: t("castle.deck." + d) })));
      const effects = ["castle_part", "extra_die", "stays", "action"].concat(c0.effect === "villager" ? ["villager"] : []);
      const effect = el("select", { id: "cd-new-effect", disabled: c0.effect === "villager" }, effects.map((d) => el("option", { value: d, selected: d === c0.effect, text: d === "villager" ? t("castle.ui.villagers") : t("castle.effect." + d) })));
      const spec = () => {
        const id = editId || (nm.value || "card").toLowerCase().normalize("NFD").replace(/[^a-z0-9]+/g, "_").replace(/^_|_$/g, "") || ("card_" + Date.now() % 100000);
        const c = {}; for (const [k, v] of Object.entries(cost)) if (v) c[k] = v;
        const def = { deck: deck.value, vp: vp.n, cost: c, phase: "build" };
        if (c0.effect !== "villager") def.effect = effect.value;
        if (!editId) def.name = nm.value || id;
        else if (nm.value && nm.value !== c0.name[lang]) def.name = Object.assign({}, c0.name, { [lang]: nm.value });
        return { id, def };
      };
      form.replaceChildren(el("summary", {}, editId ? `${t("castle.ui.edit")}: ${c0.name[lang]}` : t("castle.ui.new_card")), nm, deck, effect,
        stepper(el, t("castle.ui.vp"), c0.vp, -5, 20, (v) => { vp.n = v; }, "cd-new-vp"),
        RES.map((r) => stepper(el, `${t("castle.ui.cost")}: ${t("castle.res." + r)}`, c0.cost[r] || 0, 0, 9, (v) => { cost[r] = v; }, "cd-new-cost-" + r)));
      if (can("build") && !editId) form.append(el("button", { class: "primary", id: "cd-new-build", onclick: () => {
        const { id, def } = spec();
        send({ type: "build", seat: host ? Number(who.value) : s, card: id, define: def });
      } }, t("castle.ui.build")));
      form.append(el("button", { id: "cd-new-save", onclick: () => { const { id, def } = spec(); send({ type: "card_edit", id, ...def }); } }, t("castle.ui.save")));
      if (editId) form.append(el("button", { onclick: () => fill(null, null) }, t("castle.ui.new_card")));
    }
    fill(null, null);
    for (const row of card.querySelectorAll(".cardrow")) {
      const id = row.dataset.card;
      if (can("card_edit")) row.append(el("button", { "data-edit": id, onclick: () => { fill(view.cards[id], id); form.open = true; form.scrollIntoView(); } }, t("castle.ui.edit")));
    }
    card.append(form);
    return card;
  }

  // a hand correction of a board (card effects the companion does not know, a wrong count...)
  function adjustBox(view, ctx, host, seat, send) {
    const { el, t } = ctx;
    const humans = view.board.filter((b) => !b.bot);
    const who = el("select", { id: "cd-adj-seat" }, humans.map((b) => el("option", { value: String(b.seat), selected: b.seat === seat, text: b.name })));
    const fields = { res: RES, animals: ANIMALS, villagers: ["worker", "farmer", "merchant"], hand: [null], market_cards: [null] };
    const label = (f, k) => k ? t((f === "res" ? "castle.res." : f === "animals" ? "castle.animal." : "castle.villager.") + k)
      : t(f === "hand" ? "castle.ui.hand" : "castle.ui.market_cards");
    const what = el("select", { id: "cd-adj-what" }, Object.entries(fields).flatMap(([f, ks]) => ks.map((k) =>
      el("option", { value: `${f}:${k || ""}`, text: label(f, k) }))));
    const val = { n: 0 };
    const current = () => {
      const b = view.board[Number(host ? who.value : seat)];
      const [f, k] = what.value.split(":");
      if (f === "villagers") return b.villagers[k];
      return k ? b[f][k] : b[f];
    };
    const holder = el("div");
    const redraw = () => { val.n = current(); holder.replaceChildren(stepper(el, t("castle.ui.correct"), val.n, 0, 20, (v) => { val.n = v; }, "cd-adj-val")); };
    who.addEventListener("change", redraw);
    what.addEventListener("change", redraw);
    redraw();
    const guards = el("div", { class: "row", id: "cd-adj-guards" }, RES.map((r) => el("label", {},
      el("input", { type: "checkbox", value: r, style: "width:auto;min-height:auto", checked: view.board[seat !== null ? seat : humans[0].seat].guards.includes(r) }),
      " " + t("castle.res." + r))));
    return el("details", { class: "card", id: "cd-adjust" }, el("summary", {}, t("castle.ui.adjust")),
      host ? who : null, what, holder,
      el("button", { id: "cd-adj-save", onclick: () => {
        const [f, k] = what.value.split(":");
        send({ type: "adjust", seat: Number(host ? who.value : seat), field: f, key: k || null, value: val.n });
      } }, t("castle.ui.save")),
      el("label", { text: t("castle.ui.guard_on") }), guards,
      el("button", { onclick: () => send({ type: "adjust", seat: Number(host ? who.value : seat), field: "guards",
        value: [...guards.querySelectorAll("input:checked")].map((x) => x.value) }) }, t("castle.ui.save")));
  }

  function endScreen(view, ctx) {
    const { el, t, lang } = ctx;
    const r = view.result;
    const card = el("div", { class: "card", id: "cd-end" });
    card.append(el("div", { class: "winner", id: "cd-winner", text: `${t("castle.ui.winner")}: ${view.winner.join(", ")}` }));
    if (r.tie_broken_by) card.append(el("p", { class: "muted", text: t("castle.ui.tie_broken", { res: "@castle.res." + r.tie_broken_by }) }));
    if (r.shared) card.append(el("p", { class: "muted", text: t("castle.ui.shared") }));
    card.append(el("h3", { text: t("castle.ui.breakdown") }));
    for (const p of r.players) {
      card.append(el("div", { class: "cardrow", "data-seat": p.seat }, el("div", { class: "grow" }, el("b", { text: p.name }),
        el("ul", {}, p.parts.map((x) => el("li", { text: `${x.kind === "castle" ? x.name[lang] : t("castle.part." + x.kind, { count: x.count })}: ${x.vp > 0 ? "+" : ""}${x.vp}` })))),
      el("div", { style: "font-size:1.6rem;font-weight:800", "data-total": String(p.total), text: String(p.total) })));
    }
    if (r.solo_result) card.append(el("p", { text: r.solo_result }));
    card.append(el("div", { class: "row" },
      el("a", { class: "button", id: "cd-export-json", href: `/api/games/${ctx.id}/export/bgstats.json`, download: "" }, `${t("castle.ui.export")} BG Stats`),
      el("a", { class: "button", id: "cd-export-csv", href: `/api/games/${ctx.id}/export/csv`, download: "" }, `${t("castle.ui.export")} CSV`)));
    return card;
  }

  function setupFields(names, ctx) {
    const { el, t } = ctx;
    return el("div", {}, el("label", { for: "cd-first", text: t("castle.step.first_player") }),
      el("select", { id: "cd-first" }, el("option", { value: "", text: t("castle.ui.roll_first") }), names.map((n, i) => el("option", { value: String(i), text: n }))));
  }
  function setupOptions(box) {
    const f = box.querySelector("#cd-first");
    return f && f.value !== "" ? { first_player: Number(f.value) } : {};
  }
  function describeEvent(e, ctx) {
    const { t } = ctx;
    if (e.type === "take" || e.type === "pork_chops") return `${t("castle.ui.take")} #${e.die}`;
    if (e.type === "roll") return "" + t("castle.step.roll");
    if (e.type === "build") return `${t("castle.ui.build")}: ${e.card}`;
    if (e.type === "upgrade") return `${t("castle.res." + e.from)} → ${t("castle.res." + e.to)}`;
    if (e.type === "correct_die") return `${t("castle.ui.correct")} #${e.die}: ${faceLabel(e.face, t)}`;
    return null;
  }

  window.CompanionGames["castle-dice"] = { render, setupFields, setupOptions, describeEvent, faceLabel };
})();
