// The single-page web UI: hash routes (#/signin, #/wallet, #/send, #/grab/<id>, #/details/<id>,
// #/admin), each rendered by one page function into <main id="view">. Amounts stay integer fen
// until money.js formats them.

import { api, errorOf, newKey, session } from "./api.js";
import { language, setLanguage, t } from "./i18n.js";
import { formatFen, parseYuan } from "./money.js";
import { qrSvg } from "./qr.js";

const view = document.getElementById("view");
let stopTimers = [];

/** Builds an element: h("div.card#id", {attrs}, children...). */
function h(spec, attrs = {}, ...children) {
  const [, tag, rest = ""] = /^([a-z0-9]+)(.*)$/.exec(spec);
  const el = document.createElement(tag);
  for (const part of rest.match(/[.#][^.#]+/g) ?? []) {
    if (part[0] === ".") el.classList.add(part.slice(1));
    else el.id = part.slice(1);
  }
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "text") el.textContent = value;
    else el.setAttribute(key, value === true ? "" : value);
  }
  el.append(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return el;
}

const yuan = (fen) => h("span.amount", {}, h("small", { text: "¥" }), formatFen(fen));

function time(iso) {
  if (!iso) return "";
  const d = new Date(iso);
  return d.toLocaleString(language() === "zh" ? "zh-CN" : "en-GB", {
    month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit",
  });
}

function duration(millis) {
  if (millis === null || millis === undefined) return "—";
  if (millis < 1000) return millis + " ms";
  const seconds = Math.floor(millis / 1000);
  if (seconds < 60) return seconds + "." + String(Math.floor((millis % 1000) / 100)) + " s";
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return minutes + " min " + (seconds % 60) + " s";
  return Math.floor(minutes / 60) + " h " + (minutes % 60) + " min";
}

function errorText(error) {
  const known = t(error.code);
  return known === error.code ? error.message || t("UNKNOWN") : known;
}

function every(millis, fn) {
  const id = setInterval(fn, millis);
  stopTimers.push(() => clearInterval(id));
}

function requireSignIn() {
  if (session.token) return true;
  sessionStorage.setItem("hb.after", location.hash);
  location.hash = "#/signin";
  return false;
}

function handleAuth(result) {
  if (result.status === 401) {
    session.signOut();
    requireSignIn();
    return true;
  }
  return false;
}

// --- sign in ---------------------------------------------------------------------------------

function signInPage() {
  const input = h("input#user", { name: "user", autocomplete: "username", placeholder: "alice",
    maxlength: 64, "data-testid": "signin-user", value: session.user ?? "" });
  const error = h("div.form-error");
  const button = h("button.btn", { type: "submit", "data-testid": "signin-submit", text: t("signIn") });
  const form = h("form.card", {
    onsubmit: async (e) => {
      e.preventDefault();
      const user = input.value.trim();
      error.textContent = "";
      if (!/^[A-Za-z0-9_.@-]{1,64}$/.test(user)) {
        error.textContent = t("userNameHint");
        return;
      }
      button.disabled = true;
      const result = await api.devToken(user, false);
      button.disabled = false;
      if (result.status !== 200) {
        error.textContent = errorText(errorOf(result));
        return;
      }
      session.signIn(user, result.body.token);
      const after = sessionStorage.getItem("hb.after");
      sessionStorage.removeItem("hb.after");
      location.hash = after && !after.startsWith("#/signin") ? after : "#/wallet";
    },
  },
    h("label", { for: "user", text: t("userName") }), input,
    h("div.hint", { text: t("userNameHint") }), error, button,
    h("p.muted", { text: t("devMode") }));
  return [
    h("div.signin-hero", {}, h("div.seal"), h("h1", { text: t("appName") }),
      h("p.muted", { text: t("tagline") })),
    form,
  ];
}

// --- wallet ----------------------------------------------------------------------------------

async function walletPage() {
  if (!requireSignIn()) return [];
  const result = await api.wallet(session.token);
  if (handleAuth(result)) return [];
  if (result.status !== 200) return [h("div.form-error", { text: errorText(errorOf(result)) })];
  const wallet = result.body;
  const topUpInput = h("input", { inputmode: "decimal", placeholder: "100.00", "data-testid": "topup-amount" });
  const topUpError = h("div.field-error");
  const topUp = h("form", {
    onsubmit: async (e) => {
      e.preventDefault();
      topUpError.textContent = "";
      const fen = parseYuan(topUpInput.value);
      if (fen === null || fen < 1) {
        topUpError.textContent = t("yuanFormat");
        return;
      }
      const admin = await api.devToken("ops", true);
      if (admin.status !== 200) {
        topUpError.textContent = errorText(errorOf(admin));
        return;
      }
      const done = await api.topUp(admin.body.token, session.user, fen);
      if (done.status !== 200) {
        topUpError.textContent = errorText(errorOf(done));
        return;
      }
      render();
    },
  },
    h("label", { text: t("topUp") + " (¥)" }),
    h("div.row", {}, topUpInput,
      h("button.btn.gold.small", { type: "submit", "data-testid": "topup-submit", text: t("topUp") })),
    topUpError, h("div.hint", { text: t("topUpHint") }));

  const entries = wallet.entries.length === 0
    ? h("p.muted", { text: t("noEntries") })
    : h("ul.entries", { "data-testid": "entries" }, wallet.entries.map((entry) => {
        const icon = { TOPUP: "充", SEND: "发", GRAB: "抢", REFUND: "退" }[entry.kind] ?? "·";
        const title = entry.packetId
          ? h("a", { href: "#/details/" + entry.packetId, text: t(entry.kind) })
          : h("span", { text: t(entry.kind) });
        return h("li", {},
          h("div.entry-icon." + entry.kind, { text: icon }),
          h("div.entry-main", {}, h("div.entry-title", {}, title), h("div.muted", { text: time(entry.at) })),
          h("div.amount." + (entry.amount >= 0 ? "plus" : "minus"),
            { text: (entry.amount >= 0 ? "+" : "") + formatFen(entry.amount) }));
      }));
  return [
    h("section.card.hero", {},
      h("div.label", { text: t("balance") }),
      h("div.big", { "data-testid": "balance" }, h("small", { text: "¥" }), formatFen(wallet.balance)),
      h("div.sub", {}, t("pending") + " ¥", h("span", { "data-testid": "pending", text: formatFen(wallet.pendingAmount) }))),
    h("section.card", {}, topUp),
    h("h2", { text: t("entries") }),
    h("section.card", {}, entries),
  ];
}

// --- send ------------------------------------------------------------------------------------

function field(id, labelKey, input, hintKey) {
  const error = h("div.field-error", { id: id + "-error", "data-testid": id + "-error" });
  return { error, input, node: h("div", {}, h("label", { for: id, text: t(labelKey) }), input,
    hintKey ? h("div.hint", { text: t(hintKey) }) : null, error) };
}

function sendPage() {
  if (!requireSignIn()) return [];
  let type = "LUCKY";
  const amount = field("amount", "amountYuan",
    h("input#amount", { inputmode: "decimal", placeholder: "88.88", "data-testid": "send-amount" }));
  const count = field("count", "count",
    h("input#count", { inputmode: "numeric", placeholder: "8", value: "8", "data-testid": "send-count" }));
  const recipients = field("recipients", "recipients",
    h("input#recipients", { placeholder: "bob, carol", "data-testid": "send-recipients" }));
  const greeting = field("greeting", "greeting",
    h("input#greeting", { maxlength: 64, value: t("defaultGreeting"), "data-testid": "send-greeting" }));
  const password = field("password", "password",
    h("input#password", { maxlength: 64, autocomplete: "off", "data-testid": "send-password" }), "passwordHint");
  const passwordMatch = field("passwordMatch", "passwordMatch",
    h("select#passwordMatch", { "data-testid": "send-password-match" },
      [["PINYIN", "matchPINYIN"], ["EXACT", "matchEXACT"], ["85", "match85"], ["70", "match70"]].map(
        ([value, key]) => h("option", { value, text: t(key) }))));
  const expiry = field("expiry", "expiry", h("select#expiry", { "data-testid": "send-expiry" },
    [["minute1", 60], ["hour1", 3600], ["hour24", 86400], ["day3", 259200], ["day7", 604800]].map(
      ([key, seconds]) => h("option", { value: seconds, selected: seconds === 86400, text: t(key) }))));
  recipients.node.hidden = true;
  const typeHint = h("div.hint", { text: t("typeHintLUCKY") });
  const segmented = h("div.segmented", { role: "group" }, ["LUCKY", "FIXED", "EXCLUSIVE"].map((value) =>
    h("button", { type: "button", "data-type": value, "data-testid": "type-" + value.toLowerCase(),
      "aria-pressed": String(value === type), text: t(value),
      onclick: () => {
        type = value;
        segmented.querySelectorAll("button").forEach((b) =>
          b.setAttribute("aria-pressed", String(b.dataset.type === value)));
        recipients.node.hidden = value !== "EXCLUSIVE";
        typeHint.textContent = t("typeHint" + value);
      } })));
  const formError = h("div.form-error", { "data-testid": "send-error" });
  const submit = h("button.btn", { type: "submit", "data-testid": "send-submit", text: t("stuffEnvelope") });
  const fields = { amount, count, recipients, greeting, password, passwordMatch, expiry };
  let key = newKey();
  let lastBody = null;

  const clearErrors = () => {
    Object.values(fields).forEach((f) => {
      f.error.textContent = "";
      f.input.classList.remove("invalid");
    });
    formError.textContent = "";
  };
  const fail = (f, message) => {
    f.error.textContent = message;
    f.input.classList.add("invalid");
  };

  const form = h("form.card", {
    novalidate: true,
    // An error belongs to what was submitted: editing the field takes its error away.
    oninput: (e) => Object.values(fields).forEach((f) => {
      if (f.input === e.target) {
        f.error.textContent = "";
        f.input.classList.remove("invalid");
      }
    }),
    onsubmit: async (e) => {
      e.preventDefault();
      clearErrors();
      const fen = parseYuan(amount.input.value);
      const shares = /^\d{1,5}$/.test(count.input.value.trim()) ? Number.parseInt(count.input.value, 10) : null;
      const names = recipients.input.value.split(/[,，\s]+/).filter(Boolean);
      if (fen === null || fen < 1) return fail(amount, t("yuanFormat"));
      if (shares === null || shares < 1) return fail(count, t("countFormat"));
      if (type === "FIXED" && fen % shares !== 0) return fail(amount, t("fixedDivisible"));
      if (type === "EXCLUSIVE" && names.length !== shares) return fail(recipients, t("recipientsCount"));
      const body = {
        amount: fen, count: shares, type,
        greeting: greeting.input.value.trim() || null,
        expiresInSeconds: Number.parseInt(expiry.input.value, 10),
        password: password.input.value || null,
        ...(password.input.value ? { passwordMatch: /^\d+$/.test(passwordMatch.input.value)
          ? Number.parseInt(passwordMatch.input.value, 10) : passwordMatch.input.value } : {}),
        recipients: type === "EXCLUSIVE" ? names : null,
      };
      // A retry of the very same packet reuses its key, so a lost answer never sends twice.
      if (lastBody !== JSON.stringify(body)) key = newKey();
      lastBody = JSON.stringify(body);
      submit.disabled = true;
      const result = await api.send(session.token, body, key);
      submit.disabled = false;
      if (handleAuth(result)) return;
      if (result.status !== 201) {
        const error = errorOf(result);
        const target = { INVALID_AMOUNT: amount, INSUFFICIENT_FUNDS: amount, INVALID_COUNT: count,
          INVALID_EXPIRY: expiry }[error.code];
        if (target) fail(target, errorText(error));
        else formError.textContent = errorText(error) + (error.message && error.code === "INVALID_REQUEST" ? " — " + error.message : "");
        return;
      }
      view.replaceChildren(...sharePanel(result.body, body));
    },
  },
    amount.node, count.node,
    h("label", { text: t("type") }), segmented, typeHint,
    recipients.node, greeting.node, password.node, passwordMatch.node, expiry.node, formError, submit);
  return [h("h1", { text: t("send") }), form];
}

function sharePanel(packet, body) {
  const link = location.origin + location.pathname + "#/grab/" + packet.id;
  const input = h("input", { readonly: true, value: link, "data-testid": "share-link" });
  const copy = h("button.btn.gold.small", { type: "button", text: t("copy"),
    onclick: async () => {
      input.select();
      try {
        await navigator.clipboard.writeText(link);
      } catch {
        document.execCommand("copy");
      }
      copy.textContent = t("copied");
    } });
  return [
    h("section.card.share", { "data-testid": "share" },
      h("h1", { text: t("sent") }),
      h("div.muted", {}, t(body.type) + " · " + body.count + " × · ¥" + formatFen(body.amount)),
      h("div.qr", { "data-testid": "share-qr" }, qrSvg(link)),
      h("label", { text: t("shareLink") }),
      h("div.linkbox", {}, input, copy),
      h("div.row", {},
        h("a.btn", { href: "#/grab/" + packet.id, "data-testid": "share-open", text: t("openIt") }),
        h("a.btn.ghost", { href: "#/details/" + packet.id, text: t("viewDetails") })),
      h("button.btn.ghost", { type: "button", text: t("sendAnother"), onclick: () => render() })),
  ];
}

// --- grab ------------------------------------------------------------------------------------

async function grabPage(id) {
  if (!requireSignIn()) return [];
  const result = await api.details(session.token, id);
  if (handleAuth(result)) return [];
  if (result.status !== 200) return [h("div.form-error", { text: t("notFound") })];
  const packet = result.body;
  const notice = h("div.notice", { "data-testid": "grab-notice" });
  const pw = packet.hasPassword
    ? h("input.pw", { placeholder: t("passwordPlaceholder"), "data-testid": "grab-password", autocomplete: "off" })
    : null;
  // Say the 口令 instead of typing it, where the browser can recognise speech; the button is not
  // there at all where it cannot. The recognised text is sent as the password, matched by pinyin.
  const Recognition = window.SpeechRecognition || window.webkitSpeechRecognition;
  const mic = packet.hasPassword
    ? h("button.mic", { type: "button", "data-testid": "grab-mic", "aria-label": t("speak"),
      title: t("speak"), hidden: !Recognition })
    : null;
  // Drawn, not an emoji: phones and test browsers without an emoji font would show a box.
  if (mic) {
    mic.innerHTML = '<svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">'
      + '<rect x="9" y="3" width="6" height="11" rx="3" fill="currentColor"/>'
      + '<path d="M6 11a6 6 0 0 0 12 0M12 17v4M8.5 21h7" fill="none" stroke="currentColor"'
      + ' stroke-width="2" stroke-linecap="round"/></svg>';
  }
  const resultBox = h("div.result", { "data-testid": "grab-result" });
  const openBtn = h("button.open-btn", { type: "button", "data-testid": "grab-open", "aria-label": t("open"),
    text: "開" });
  const envelope = h("div.envelope", { "data-testid": "envelope" },
    h("div.flap"),
    h("div.sender", {}, h("div.avatar", { text: packet.sender.slice(0, 1).toUpperCase() }),
      packet.sender + t("from")),
    h("div.greet", { text: packet.greeting ?? t("defaultGreeting") }),
    h("div.open-area", {}, pw ? h("div.pw-row", {}, pw, mic) : null, openBtn, notice),
    resultBox);

  const showOutcome = (outcome) => {
    const details = h("a.btn.ghost.small", { href: "#/details/" + id, "data-testid": "grab-details", text: t("viewDetails") + " →" });
    if (outcome.outcome === "GRABBED" || outcome.outcome === "ALREADY_GRABBED") {
      resultBox.replaceChildren(
        h("div.headline", { text: outcome.outcome === "GRABBED" ? t("youGot") : t("alreadyGrabbed") }),
        h("div.won", { "data-testid": "grab-amount" }, h("small", { text: "¥" }), formatFen(outcome.amount)),
        h("div.muted", { text: t("payoutNote") }), h("p"), details);
    } else {
      const key = outcome.outcome === "EXPIRED" ? "EXPIRED" : outcome.outcome;
      resultBox.replaceChildren(h("div.headline", { text: t(key) }), h("p"), details);
    }
    resultBox.dataset.outcome = outcome.outcome;
    envelope.classList.add("opened");
  };

  if (mic && Recognition) {
    mic.addEventListener("click", () => {
      const recognition = new Recognition();
      recognition.lang = "zh-CN";
      recognition.interimResults = false;
      recognition.maxAlternatives = 1;
      notice.textContent = t("listening");
      mic.classList.add("listening");
      recognition.onresult = (event) => {
        const heard = event.results[0][0].transcript;
        pw.value = heard;
        notice.textContent = "";
        openBtn.click();
      };
      recognition.onerror = () => {
        notice.textContent = t("micError");
      };
      recognition.onend = () => mic.classList.remove("listening");
      try {
        recognition.start();
      } catch {
        notice.textContent = t("micError");
        mic.classList.remove("listening");
      }
    });
  }

  openBtn.addEventListener("click", async () => {
    notice.textContent = "";
    openBtn.classList.add("spinning");
    openBtn.disabled = true;
    const started = Date.now();
    const answer = await api.grab(session.token, id, pw ? pw.value : null);
    // Let the coin turn at least once: the opening is part of the fun.
    await new Promise((r) => setTimeout(r, Math.max(0, 700 - (Date.now() - started))));
    openBtn.classList.remove("spinning");
    openBtn.disabled = false;
    if (handleAuth(answer)) return;
    if (answer.status !== 200) {
      notice.textContent = errorText(errorOf(answer));
      return;
    }
    if (answer.body.outcome === "WRONG_PASSWORD") {
      notice.textContent = t("WRONG_PASSWORD");
      envelope.classList.remove("shake");
      void envelope.offsetWidth;
      envelope.classList.add("shake");
      return;
    }
    showOutcome(answer.body);
  });
  return [h("div.stage", {}, envelope)];
}

// --- details ---------------------------------------------------------------------------------

async function detailsPage(id) {
  if (!requireSignIn()) return [];
  const box = h("div", { "data-testid": "details" });
  const load = async () => {
    const result = await api.details(session.token, id);
    if (handleAuth(result)) return;
    if (result.status !== 200) {
      box.replaceChildren(h("div.form-error", { text: t("notFound") }));
      return;
    }
    box.replaceChildren(...detailsView(result.body).filter(Boolean));
    if (result.body.status !== "ACTIVE") stopTimers.forEach((stop) => stop());
  };
  await load();
  every(2000, load);
  return [box];
}

function detailsView(p) {
  const pct = Math.floor((p.grabbedCount * 100) / p.count);
  const best = p.bestLuck;
  const grabs = p.grabs.length === 0
    ? h("p.muted", { text: t("noGrabs") })
    : h("ul.entries", { "data-testid": "grabs" }, p.grabs.map((g) =>
        h("li", {},
          h("div.entry-icon.GRAB", { text: g.userId.slice(0, 1).toUpperCase() }),
          h("div.entry-main", {},
            h("div.entry-title", {}, g.userId,
              best && best.userId === g.userId ? h("span.badge", { "data-testid": "best-luck", text: "★ " + t("bestLuck") }) : null),
            h("div.muted", { text: time(g.at) + (g.paid ? "" : " · " + t("unpaid")) })),
          h("div.amount", { text: "¥" + formatFen(g.amount) }))));
  const statusKey = p.status === "EXPIRED" ? "EXPIRED_STATUS" : p.status;
  return [
    h("section.card.hero", {},
      h("div.label", {}, p.sender + t("from") + " · " + t(p.type)),
      h("div.greet", { style: "font-size:20px;font-weight:700;margin:6px 0;color:var(--gold-pale)",
        text: p.greeting ?? t("defaultGreeting") }),
      h("div.big", {}, h("small", { text: "¥" }), formatFen(p.amount)),
      h("div.progress", {}, h("div", { style: "width:" + pct + "%" })),
      h("div.sub", { "data-testid": "grabbed-count" },
        t("grabbedOf") + " " + p.grabbedCount + "/" + p.count + " · ¥" + formatFen(p.grabbedAmount) + " / ¥" + formatFen(p.amount)),
      h("div.stats", {},
        h("div.stat", {}, h("div.k", { text: t("status") }), h("div.v", { "data-testid": "status", "data-status": p.status, text: t(statusKey) })),
        h("div.stat", {}, h("div.k", { text: t("timeToEmpty") }), h("div.v", { text: duration(p.timeToEmptyMillis) })),
        p.refundedAmount > 0
          ? h("div.stat", {}, h("div.k", { text: t("refunded") }), h("div.v", { "data-testid": "refunded", text: "¥" + formatFen(p.refundedAmount) }))
          : null,
        best
          ? h("div.stat", {}, h("div.k", { text: t("bestLuck") }), h("div.v", { text: best.userId }))
          : null)),
    p.status === "ACTIVE"
      ? h("a.btn.gold", { href: "#/grab/" + p.id, text: "開 · " + t("openIt") })
      : null,
    h("h2", { text: t("grabbedOf") }),
    h("section.card", {}, grabs),
  ];
}

// --- admin -----------------------------------------------------------------------------------

function parseMetrics(text) {
  let grabs = 0;
  const outcomes = {};
  let backlog = null;
  const buckets = [];
  for (const line of text.split("\n")) {
    if (line.startsWith("#") || !line.trim()) continue;
    const match = /^([a-zA-Z_:][\w:]*)(\{[^}]*\})?\s+(\S+)/.exec(line);
    if (!match) continue;
    const [, name, labels = "", value] = match;
    if (name === "hongbao_grabs_total") {
      const n = Number(value);
      grabs += n;
      const outcome = /outcome="([^"]*)"/.exec(labels);
      if (outcome) outcomes[outcome[1]] = n;
    } else if (name === "hongbao_payout_backlog") {
      backlog = Number(value);
    } else if (name === "hongbao_grab_latency_seconds_bucket") {
      const le = /le="([^"]*)"/.exec(labels);
      if (le) buckets.push([le[1] === "+Inf" ? Infinity : Number(le[1]), Number(value)]);
    }
  }
  buckets.sort((a, b) => a[0] - b[0]);
  const total = buckets.length ? buckets[buckets.length - 1][1] : 0;
  let p99 = null;
  if (total > 0) {
    const bucket = buckets.find(([, cumulative]) => cumulative >= total * 0.99);
    p99 = bucket ? bucket[0] : null;
  }
  return { grabs, outcomes, backlog, p99 };
}

function adminPage() {
  const tokenInput = h("input", { placeholder: "eyJ…", value: session.adminToken ?? "", "data-testid": "admin-token" });
  const body = h("div");
  const tokenCard = h("section.card", {},
    h("label", { text: t("adminToken") }), tokenInput,
    h("div.row", { style: "margin-top:10px" },
      h("button.btn.ghost.small", { type: "button", text: t("saveToken"),
        onclick: () => { session.setAdminToken(tokenInput.value.trim()); render(); } }),
      h("button.btn.gold.small", { type: "button", "data-testid": "admin-dev", text: t("useDevAdmin"),
        onclick: async () => {
          const result = await api.devToken("ops", true);
          if (result.status === 200) {
            session.setAdminToken(result.body.token);
            render();
          }
        } })));
  if (!session.adminToken) {
    body.append(h("p.muted", { text: t("adminNeeded") }));
    return [h("h1", { text: t("admin") }), tokenCard, body];
  }
  const token = session.adminToken;
  const switchesBox = h("div", { "data-testid": "switches" }, h("p.muted", { text: t("loading") }));
  const reconBox = h("div", { "data-testid": "reconciliation" });
  const figures = h("div.stats", { "data-testid": "figures" });
  const error = h("div.form-error");

  const showSwitches = (map) => switchesBox.replaceChildren(...Object.entries(map).map(([name, enabled]) => {
    const input = h("input", { type: "checkbox", checked: enabled, "data-testid": "switch-" + name,
      "aria-label": name,
      onchange: async () => {
        const result = await api.setSwitch(token, name, input.checked);
        if (result.status === 200) showSwitches(result.body);
        else error.textContent = errorText(errorOf(result));
      } });
    return h("div.switch-row", {}, h("div", {}, h("div.entry-title", { text: t(name) }), h("div.muted", { text: name })),
      h("label.toggle", {}, input, h("span")));
  }));
  const reconcile = async () => {
    reconBox.replaceChildren(h("p.muted", { text: t("loading") }));
    const result = await api.reconciliation(token);
    if (result.status !== 200) {
      reconBox.replaceChildren(h("div.form-error", { text: errorText(errorOf(result)) }));
      return;
    }
    const r = result.body;
    reconBox.replaceChildren(
      h("div.verdict." + (r.ok ? "ok" : "bad"), { "data-testid": "reconciliation-verdict", "data-ok": String(r.ok),
        text: (r.ok ? "✓ " : "✗ ") + t(r.ok ? "reconciledOk" : "reconciledBad") }),
      h("div.muted", { text: t("packetsChecked") + ": " + r.packetsChecked }),
      ...(r.discrepancies.length ? [h("pre.discrepancies", { text: JSON.stringify(r.discrepancies, null, 2) })] : []));
  };
  let previous = null;
  const refreshFigures = async () => {
    const result = await api.metrics();
    if (result.status !== 200) return;
    const m = parseMetrics(result.body);
    const now = Date.now();
    const rate = previous ? ((m.grabs - previous.grabs) * 1000) / Math.max(1, now - previous.at) : 0;
    previous = { grabs: m.grabs, at: now };
    const stat = (key, value, testid) => h("div.stat", {}, h("div.k", { text: t(key) }), h("div.v", { "data-testid": testid, text: value }));
    figures.replaceChildren(
      stat("grabsTotal", String(Math.round(m.grabs)), "metric-grabs"),
      stat("grabRate", rate.toFixed(1), "metric-rate"),
      stat("payoutBacklog", m.backlog === null ? "—" : String(Math.round(m.backlog)), "metric-backlog"),
      stat("p99", m.p99 === null ? "—" : m.p99 === Infinity ? "> max" : (m.p99 * 1000).toFixed(1) + " ms", "metric-p99"));
  };
  api.switches(token).then((result) => {
    if (result.status === 200) showSwitches(result.body);
    else switchesBox.replaceChildren(h("div.form-error", { text: errorText(errorOf(result)) }));
  });
  reconcile();
  refreshFigures();
  every(3000, refreshFigures);
  return [
    h("h1", { text: t("admin") }),
    h("h2", { text: t("liveFigures") }), figures,
    h("h2", { text: t("switches") }), h("section.card", {}, switchesBox, error),
    h("h2", { text: t("reconciliation") }),
    h("section.card", {}, reconBox,
      h("button.btn.gold", { type: "button", "data-testid": "reconcile", text: t("runReconciliation"), onclick: reconcile })),
    tokenCard,
  ];
}

// --- shell -----------------------------------------------------------------------------------

const ROUTES = [
  [/^#\/signin$/, () => signInPage(), null],
  [/^#\/wallet$/, () => walletPage(), "wallet"],
  [/^#\/send$/, () => sendPage(), "send"],
  [/^#\/grab\/([\w-]+)$/, (id) => grabPage(id), null],
  [/^#\/details\/([\w-]+)$/, (id) => detailsPage(id), null],
  [/^#\/admin$/, () => adminPage(), "admin"],
];

function chrome(tab) {
  document.querySelectorAll("[data-t]").forEach((el) => (el.textContent = t(el.dataset.t)));
  document.getElementById("lang").textContent = language() === "zh" ? "EN" : "中文";
  const signout = document.getElementById("signout");
  signout.textContent = t("signOut");
  signout.hidden = !session.token;
  document.getElementById("who").textContent = session.user ?? "";
  document.getElementById("tabs").hidden = !session.token;
  document.querySelectorAll(".tabs a").forEach((a) => a.classList.toggle("active", a.dataset.tab === tab));
}

let renderCount = 0;

async function render() {
  stopTimers.forEach((stop) => stop());
  stopTimers = [];
  const hash = location.hash || (session.token ? "#/wallet" : "#/signin");
  const route = ROUTES.find(([pattern]) => pattern.test(hash));
  if (!route) {
    location.hash = session.token ? "#/wallet" : "#/signin";
    return;
  }
  const [pattern, page, tab] = route;
  chrome(tab);
  const mine = ++renderCount;
  const nodes = await page(...pattern.exec(hash).slice(1));
  if (mine !== renderCount) return;
  view.replaceChildren(...nodes.filter(Boolean));
  view.dataset.page = hash.split("/")[1];
  chrome(tab);
}

document.getElementById("lang").addEventListener("click", () => {
  setLanguage(language() === "zh" ? "en" : "zh");
  render();
});
document.getElementById("signout").addEventListener("click", () => {
  session.signOut();
  location.hash = "#/signin";
});
window.addEventListener("hashchange", render);
setLanguage(language());
render();
