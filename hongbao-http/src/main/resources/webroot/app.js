// The single-page web UI: hash routes (#/signin, #/wallet, #/send, #/packets/<box>, #/grab/<id>,
// #/details/<id>, #/admin), each rendered by one page function into <main id="view">. A new page
// registers itself with route(). Amounts stay integer fen until money.js formats them.

import { api, errorOf, loadSettings, newKey, session, settings, subjectOf } from "./api.js";
import { confirmDialog, duration, errorText, every, h, stopTimersNow, time } from "./dom.js";
import { language, setLanguage, t, tf } from "./i18n.js";
import { formatFen, parseYuan } from "./money.js";
import { packetsPage } from "./packets.js";
import { shareCard } from "./share.js";

const view = document.getElementById("view");

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

function goToWhereSignInWasAskedFor() {
  const after = sessionStorage.getItem("hb.after");
  sessionStorage.removeItem("hb.after");
  location.hash = after && !after.startsWith("#/signin") ? after : "#/wallet";
}

/**
 * Adopts a token from outside dev mode (pasted, or brought back by the operator's login page):
 * the service must accept it, and its "sub" claim names the user. Returns an error text or null.
 */
async function adoptToken(token) {
  const user = subjectOf(token);
  if (!user) return t("tokenInvalid");
  const check = await api.wallet(token);
  if (check.status === 401) return t("tokenInvalid");
  if (check.status !== 200) return errorText(errorOf(check));
  session.signIn(user, token);
  return null;
}

// --- sign in ---------------------------------------------------------------------------------

/** Why a user name is refused, in words that help: Chinese names are the usual case. */
function userNameProblem(user) {
  if (new RegExp("^(?:" + settings.userIdPattern + ")$").test(user)) return null;
  return /[^\x00-\x7f]/.test(user) ? t("userNameChinese") : t("userNameHint");
}

function devSignIn() {
  const input = h("input#user", { name: "user", autocomplete: "username", placeholder: "alice",
    maxlength: 64, "data-testid": "signin-user", value: session.user ?? "" });
  const error = h("div.form-error", { "data-testid": "signin-error" });
  const button = h("button.btn", { type: "submit", "data-testid": "signin-submit", text: t("signIn") });
  return h("form.card", {
    onsubmit: async (e) => {
      e.preventDefault();
      const user = input.value.trim();
      error.textContent = userNameProblem(user) ?? "";
      if (error.textContent) return;
      button.disabled = true;
      const result = await api.devToken(user, false);
      button.disabled = false;
      if (result.status !== 200) {
        error.textContent = errorText(errorOf(result));
        return;
      }
      session.signIn(user, result.body.token);
      goToWhereSignInWasAskedFor();
    },
  },
    h("label", { for: "user", text: t("userName") }), input,
    h("div.hint", { text: t("userNameHint") }), error, button,
    h("p.muted", { text: t("devMode") }));
}

/** Without dev mode: the operator's login page when configured, and a pasted token always. */
function tokenSignIn() {
  const input = h("textarea#token", { rows: 3, placeholder: "eyJ…", autocomplete: "off", spellcheck: "false",
    "data-testid": "signin-token" });
  // A token the login page brought back and the service refused: say so here.
  const error = h("div.form-error", { "data-testid": "signin-error",
    text: sessionStorage.getItem("hb.signinError") ?? "" });
  sessionStorage.removeItem("hb.signinError");
  const button = h("button.btn.ghost", { type: "submit", "data-testid": "signin-token-submit", text: t("signIn") });
  input.addEventListener("input", () => (error.textContent = ""));
  const login = settings.loginUrl
    ? h("section.card", {},
      h("a.btn", { "data-testid": "signin-login", text: t("signInWithLogin"),
        href: settings.loginUrl + (settings.loginUrl.includes("?") ? "&" : "?")
          + "redirect_uri=" + encodeURIComponent(location.origin + location.pathname) }),
      h("p.muted", { text: t("loginHint") }))
    : null;
  return [login, h("form.card", {
    onsubmit: async (e) => {
      e.preventDefault();
      button.disabled = true;
      error.textContent = (await adoptToken(input.value.trim())) ?? "";
      button.disabled = false;
      if (!error.textContent) goToWhereSignInWasAskedFor();
    },
  },
    h("label", { for: "token", text: t("signInToken") }), input,
    h("div.hint", { text: t("tokenHint") }), error, button)];
}

function signInPage() {
  return [
    h("div.signin-hero", {}, h("div.seal"), h("h1", { text: t("appName") }),
      h("p.muted", { text: t("tagline") })),
    ...(settings.devMode ? [devSignIn()] : tokenSignIn()),
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
      // Dev mode mints an operator token; otherwise only an operator's saved admin token may.
      let adminToken = session.adminToken;
      if (settings.devMode) {
        const admin = await api.devToken("ops", true);
        if (admin.status !== 200) {
          topUpError.textContent = errorText(errorOf(admin));
          return;
        }
        adminToken = admin.body.token;
      }
      const done = await api.topUp(adminToken, session.user, fen);
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
    topUpError, settings.devMode ? h("div.hint", { text: t("topUpHint") }) : null);

  const withdrawals = h("div", { "data-testid": "withdrawals" }, h("p.muted", { text: t("loading") }));
  const showWithdrawals = async () => {
    const list = await api.withdrawals(session.token);
    if (list.status !== 200) {
      withdrawals.replaceChildren(h("div.form-error", { text: errorText(errorOf(list)) }));
      return;
    }
    const items = list.body.items;
    withdrawals.replaceChildren(items.length === 0
      ? h("p.muted", { text: t("noWithdrawals") })
      : h("ul.entries", {}, items.map((w) =>
          h("li", { "data-testid": "withdrawal", "data-id": w.id, "data-status": w.status },
            h("div.entry-icon.WITHDRAW", { text: "提" }),
            h("div.entry-main", {},
              h("div.entry-title", {}, h("span.wd-status." + w.status, { text: t("wd" + w.status) })),
              h("div.muted", { text: time(w.createdAt) + (w.gatewayRef ? " · " + w.gatewayRef : "") })),
            h("div.amount", { text: "¥" + formatFen(w.amount) })))));
    // Pending ones settle within seconds: look again until none is left.
    if (!items.some((w) => w.status === "PENDING")) stopTimersNow();
  };
  const withdrawInput = h("input", { inputmode: "decimal", placeholder: "50.00", "data-testid": "withdraw-amount" });
  const withdrawError = h("div.field-error", { "data-testid": "withdraw-error" });
  let withdrawKey = newKey();
  let withdrawBody = null;
  const withdraw = h("form", {
    onsubmit: async (e) => {
      e.preventDefault();
      withdrawError.textContent = "";
      const fen = parseYuan(withdrawInput.value);
      if (fen === null || fen < 1) {
        withdrawError.textContent = t("yuanFormat");
        return;
      }
      // A retry of the same withdrawal reuses its key, so a lost answer never withdraws twice.
      const body = { amount: fen };
      if (withdrawBody !== JSON.stringify(body)) withdrawKey = newKey();
      withdrawBody = JSON.stringify(body);
      const done = await api.withdraw(session.token, body, withdrawKey);
      if (handleAuth(done)) return;
      if (done.status !== 202) {
        withdrawError.textContent = errorText(errorOf(done));
        return;
      }
      render();
    },
  },
    h("label", { text: t("withdraw") + " (¥)" }),
    h("div.row", {}, withdrawInput,
      h("button.btn.small", { type: "submit", "data-testid": "withdraw-submit", text: t("withdraw") })),
    withdrawError, h("div.hint", { text: t("withdrawHint") }));
  showWithdrawals();
  every(2000, showWithdrawals);

  const entries = wallet.entries.length === 0
    ? h("p.muted", { text: t("noEntries") })
    : h("ul.entries", { "data-testid": "entries" }, wallet.entries.map((entry) => {
        const icon = { TOPUP: "充", SEND: "发", GRAB: "抢", REFUND: "退", WITHDRAW: "提",
          WITHDRAW_RETURN: "退", REWARD: "奖", COMPENSATION: "补" }[entry.kind] ?? "·";
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
    settings.devMode || session.adminToken ? h("section.card", {}, topUp) : null,
    h("section.card", {}, withdraw),
    h("h2", { text: t("withdrawals") }),
    h("section.card", {}, withdrawals),
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
    [60, 3600, 86400, 259200, 604800].map((seconds) =>
      h("option", { value: seconds, selected: seconds === 86400, text: duration(seconds * 1000) }))));
  recipients.node.hidden = true;
  const amountLabel = amount.node.querySelector("label");
  const totalBox = h("div.send-total", { "data-testid": "send-total" });
  /** The total in fen the form asks for, or null while the amount or the count is not a number. */
  const totalFen = () => {
    const fen = parseYuan(amount.input.value);
    const shares = /^\d{1,7}$/.test(count.input.value.trim()) ? Number.parseInt(count.input.value, 10) : null;
    if (fen === null) return null;
    if (type !== "FIXED") return fen;
    return shares === null ? null : fen * shares;
  };
  const showTotal = () => {
    const fen = totalFen();
    totalBox.replaceChildren(h("small", { text: t("total") + " ¥" }),
      fen !== null && Number.isSafeInteger(fen) ? formatFen(fen) : "0.00");
  };
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
        // 普通红包 asks for one share's amount, as WeChat does; the others for the total.
        amountLabel.textContent = t(value === "FIXED" ? "perShareYuan" : "amountYuan");
        showTotal();
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
    oninput: (e) => {
      showTotal();
      Object.values(fields).forEach((f) => {
        if (f.input === e.target) {
          f.error.textContent = "";
          f.input.classList.remove("invalid");
        }
      });
    },
    onsubmit: async (e) => {
      e.preventDefault();
      clearErrors();
      const entered = parseYuan(amount.input.value);
      const shares = /^\d{1,7}$/.test(count.input.value.trim()) ? Number.parseInt(count.input.value, 10) : null;
      const names = recipients.input.value.split(/[,，\s]+/).filter(Boolean);
      if (entered === null || entered < 1) return fail(amount, t("yuanFormat"));
      if (shares === null) return fail(count, t("countFormat"));
      const limits = settings.limits;
      if (shares < 1 || (limits && shares > limits.maxCount)) return fail(count, errorText({ code: "INVALID_COUNT" }));
      const fen = totalFen();
      if (fen < shares || (limits && fen > limits.maxAmount)) return fail(amount, errorText({ code: "INVALID_AMOUNT" }));
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
    h("label", { text: t("type") }), segmented, typeHint,
    amount.node, count.node, totalBox,
    recipients.node, greeting.node, password.node, passwordMatch.node, expiry.node, formError, submit);
  showTotal();
  return [h("h1", { text: t("send") }), form];
}

function sharePanel(packet, body) {
  return [
    shareCard(packet.id,
      h("h1", { text: t("sent") }),
      h("div.muted", { "data-testid": "share-summary",
        text: t("kind" + body.type) + " · " + tf("shares", { n: body.count }) + " · ¥" + formatFen(body.amount) })),
    h("div.row", {},
      h("a.btn", { href: "#/grab/" + packet.id, "data-testid": "share-open", text: t("openIt") }),
      h("a.btn.ghost", { href: "#/details/" + packet.id, text: t("viewDetails") })),
    h("button.btn.ghost", { type: "button", text: t("sendAnother"), onclick: () => render() }),
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
    envelopeKind(packet),
    h("div.greet", { text: packet.greeting ?? t("defaultGreeting") }),
    h("div.open-area", {}, pw ? h("div.pw-row", {}, pw, mic) : null, openBtn, notice),
    resultBox);
  const luck = h("section.card.luck", { "data-testid": "luck", hidden: true });

  // What became of my share: the payout is asked about until it is paid, so the envelope never
  // says the money is in the wallet while it is still on its way.
  const followPayout = (payout) => {
    const show = async () => {
      const now = await api.details(session.token, id);
      if (now.status !== 200) return;
      const mine = now.body.grabs.find((g) => g.userId === session.user);
      payout.dataset.paid = String(Boolean(mine && mine.paid));
      payout.textContent = mine && mine.paid ? t("paidNote") : t("payingNote");
      luck.replaceChildren(h("h2", { text: t("seeEveryonesLuck") }), luckList(now.body));
      luck.hidden = false;
      if (mine && mine.paid && now.body.status !== "ACTIVE") stopTimersNow();
    };
    show();
    every(1000, show);
  };

  const showOutcome = (outcome) => {
    const details = h("a.btn.ghost.small", { href: "#/details/" + id, "data-testid": "grab-details",
      text: t("seeEveryonesLuck") + " →" });
    const from = h("div.muted", { "data-testid": "grab-from",
      text: packet.sender + t("from") + " · " + (packet.greeting ?? t("defaultGreeting")) });
    if (outcome.outcome === "GRABBED" || outcome.outcome === "ALREADY_GRABBED") {
      const payout = h("div.payout", { "data-testid": "grab-payout", "data-paid": "false", text: t("payingNote") });
      resultBox.replaceChildren(
        from,
        h("div.headline", { text: outcome.outcome === "GRABBED" ? t("youGot") : t("alreadyGrabbed") }),
        h("div.won", { "data-testid": "grab-amount" }, h("small", { text: "¥" }), formatFen(outcome.amount)),
        payout, h("p"), details);
      followPayout(payout);
    } else {
      resultBox.replaceChildren(from, h("div.headline", { text: t(outcome.outcome) }), h("p"), details);
    }
    resultBox.dataset.outcome = outcome.outcome;
    openBtn.hidden = true;
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
  // Opened before: show the share taken instead of asking to open it again.
  const earlier = packet.grabs.find((g) => g.userId === session.user);
  if (earlier) showOutcome({ outcome: "ALREADY_GRABBED", amount: earlier.amount });
  return [h("div.stage", {}, envelope), luck];
}

/** What kind of packet this is, said before it is opened: 专属, 口令, or the split. */
function envelopeKind(packet) {
  const kinds = [t("kind" + packet.type)];
  if (packet.hasPassword) kinds.push(t("kindPassword"));
  const note = packet.type === "EXCLUSIVE" ? t("exclusiveNote") : packet.hasPassword ? t("passwordNote") : null;
  return h("div.kind", { "data-testid": "envelope-kind", "data-type": packet.type,
    "data-password": String(Boolean(packet.hasPassword)) },
    h("span.kind-badge", { text: kinds.join(" · ") }), note ? h("div.kind-note", { text: note }) : null);
}

/** 看看大家的手气: every share taken so far, the best luck marked once the packet is done. */
function luckList(p) {
  if (p.grabs.length === 0) return h("p.muted", { text: t("noGrabs") });
  const best = p.bestLuck;
  return h("ul.entries", { "data-testid": "grabs" }, p.grabs.map((g) =>
    h("li", {},
      h("div.entry-icon.GRAB", { text: g.userId.slice(0, 1).toUpperCase() }),
      h("div.entry-main", {},
        h("div.entry-title", {}, g.userId,
          best && best.userId === g.userId ? h("span.badge", { "data-testid": "best-luck", text: "★ " + t("bestLuck") }) : null),
        h("div.muted", { text: time(g.at) + (g.paid ? "" : " · " + t("unpaid")) })),
      h("div.amount", { text: "¥" + formatFen(g.amount) }))));
}

// --- details ---------------------------------------------------------------------------------

async function detailsPage(id) {
  if (!requireSignIn()) return [];
  const box = h("div", { "data-testid": "details" });
  // Made once, so the refresh below neither fetches the QR code again nor folds the card away.
  let shown = false;
  const shareBody = h("div", { hidden: true });
  const share = h("div.reshare", {},
    h("button.btn.ghost", { type: "button", "data-testid": "details-share", text: t("share"),
      onclick: () => {
        if (!shown) shareBody.replaceChildren(shareCard(id));
        shown = true;
        shareBody.hidden = !shareBody.hidden;
      } }),
    shareBody);
  const load = async () => {
    const result = await api.details(session.token, id);
    if (handleAuth(result)) return;
    if (result.status !== 200) {
      box.replaceChildren(h("div.form-error", { text: t("notFound") }));
      return;
    }
    box.replaceChildren(...detailsView(result.body, share).filter(Boolean));
    if (result.body.status !== "ACTIVE") stopTimersNow();
  };
  await load();
  every(2000, load);
  return [box];
}

function detailsView(p, share) {
  const pct = Math.floor((p.grabbedCount * 100) / p.count);
  const best = p.bestLuck;
  const mine = p.grabs.find((g) => g.userId === session.user);
  const statusKey = p.status === "EXPIRED" ? "EXPIRED_STATUS" : p.status;
  return [
    h("section.card.hero", {},
      h("div.label", {}, p.sender + t("from") + " · " + t("kind" + p.type) + (p.hasPassword ? " · " + t("kindPassword") : "")),
      h("div.greet", { style: "font-size:20px;font-weight:700;margin:6px 0;color:var(--gold-pale)",
        text: p.greeting ?? t("defaultGreeting") }),
      h("div.big", {}, h("small", { text: "¥" }), formatFen(p.amount)),
      h("div.progress", {}, h("div", { style: "width:" + pct + "%" })),
      h("div.sub", { "data-testid": "grabbed-count" },
        t("grabbedOf") + " " + p.grabbedCount + "/" + p.count + " · ¥" + formatFen(p.grabbedAmount) + " / ¥" + formatFen(p.amount)),
      h("div.stats", {},
        h("div.stat", {}, h("div.k", { text: t("status") }), h("div.v", { "data-testid": "status", "data-status": p.status, text: t(statusKey) })),
        h("div.stat", {}, h("div.k", { text: t("timeToEmpty") }), h("div.v", { "data-testid": "time-to-empty", text: duration(p.timeToEmptyMillis) })),
        p.refundedAmount > 0
          ? h("div.stat", {}, h("div.k", { text: t("refunded") }), h("div.v", { "data-testid": "refunded", text: "¥" + formatFen(p.refundedAmount) }))
          : null,
        best
          ? h("div.stat", {}, h("div.k", { text: t("bestLuck") }), h("div.v", { text: best.userId }))
          : null)),
    mine
      ? h("section.card.mine", { "data-testid": "my-share", "data-paid": String(mine.paid) },
        h("div.muted", { text: t("yourShare") }),
        h("div.won", {}, h("small", { text: "¥" }), formatFen(mine.amount)),
        h("div.muted", { text: mine.paid ? t("paidNote") : t("payingNote") }))
      : null,
    p.status === "ACTIVE" && !mine
      ? h("a.btn.gold", { href: "#/grab/" + p.id, "data-testid": "details-open", text: "開 · " + t("openIt") })
      : null,
    p.status === "ACTIVE" ? share : null,
    h("h2", { text: t("seeEveryonesLuck") }),
    h("section.card", {}, luckList(p)),
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

/** A switch's name in words; one this UI does not know yet reads "Some switch", not "some_switch". */
function switchLabel(name) {
  const known = name === "withdrawals" ? t("withdrawalsSwitch") : t(name);
  if (known !== name) return known;
  const words = name.replace(/[_-]+/g, " ").replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function adminPage() {
  const tokenInput = h("input", { placeholder: "eyJ…", value: session.adminToken ?? "", "data-testid": "admin-token" });
  const body = h("div");
  const tokenCard = h("section.card", {},
    h("label", { text: t("adminToken") }), tokenInput,
    h("div.row", { style: "margin-top:10px" },
      h("button.btn.ghost.small", { type: "button", text: t("saveToken"),
        onclick: () => { session.setAdminToken(tokenInput.value.trim()); render(); } }),
      !settings.devMode ? null : h("button.btn.gold.small", { type: "button", "data-testid": "admin-dev", text: t("useDevAdmin"),
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
    const label = switchLabel(name);
    const input = h("input", { type: "checkbox", checked: enabled, "data-testid": "switch-" + name,
      "aria-label": label,
      onchange: async () => {
        // The toggle stays disabled until the server has answered, so that what it shows once
        // usable again is the server's state, not the click's.
        input.disabled = true;
        // Turning a part of production off hits every user at once: ask first.
        if (!input.checked && !(await confirmDialog(tf("confirmOff", { name: label }), t("turnOff")))) {
          input.checked = true;
          input.disabled = false;
          return;
        }
        const result = await api.setSwitch(token, name, input.checked);
        if (result.status === 200) showSwitches(result.body);
        else {
          input.checked = !input.checked;
          input.disabled = false;
          error.textContent = errorText(errorOf(result));
        }
      } });
    const note = t(name + "Note");
    return h("div.switch-row", {},
      h("div", {}, h("div.entry-title", { text: label }), note === name + "Note" ? null : h("div.muted", { text: note })),
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
      stat("p99", m.p99 === null ? "—" : m.p99 === Infinity ? "> max" : duration(m.p99 * 1000), "metric-p99"));
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

const hooks = { requireSignIn, handleAuth };

/**
 * [pattern, page(...captures), tab]: the first pattern matching the hash renders. A page in a
 * module of its own exports its page function (taking `hooks`) and gets one line here.
 */
const ROUTES = [
  [/^#\/signin$/, () => signInPage(), null],
  [/^#\/wallet$/, () => walletPage(), "wallet"],
  [/^#\/send$/, () => sendPage(), "send"],
  [/^#\/packets(?:\/(received|sent))?$/, (box) => packetsPage(box ?? "received", hooks), "packets"],
  [/^#\/grab\/([\w-]+)$/, (id) => grabPage(id), null],
  [/^#\/details\/([\w-]+)$/, (id) => detailsPage(id), null],
  [/^#\/admin$/, () => adminPage(), "admin"],
];

function chrome(tab, hash) {
  document.querySelectorAll("[data-t]").forEach((el) => (el.textContent = t(el.dataset.t)));
  document.getElementById("lang").textContent = language() === "zh" ? "EN" : "中文";
  const signout = document.getElementById("signout");
  signout.textContent = t("signOut");
  signout.hidden = !session.token;
  document.getElementById("who").textContent = session.user ?? "";
  // Never on the sign-in page: its links lead nowhere until someone is signed in.
  document.getElementById("tabs").hidden = !session.token || hash.startsWith("#/signin");
  document.querySelectorAll(".tabs a").forEach((a) => a.classList.toggle("active", a.dataset.tab === tab));
}

let renderCount = 0;

async function render() {
  stopTimersNow();
  const hash = location.hash || (session.token ? "#/wallet" : "#/signin");
  const route = ROUTES.find(([pattern]) => pattern.test(hash));
  if (!route) {
    location.hash = session.token ? "#/wallet" : "#/signin";
    return;
  }
  const [pattern, page, tab] = route;
  chrome(tab, hash);
  const mine = ++renderCount;
  const nodes = await page(...pattern.exec(hash).slice(1));
  if (mine !== renderCount) return;
  view.replaceChildren(...nodes.filter(Boolean));
  view.dataset.page = hash.split("/")[1];
  chrome(tab, hash);
}

/**
 * The operator's login page sends people back to <the UI>#token=<JWT>: take the token, drop it
 * from the address (and from history), and go on signed in.
 */
async function tokenFromLogin() {
  const match = /^#token=([^&]+)/.exec(location.hash);
  if (!match) return;
  history.replaceState(null, "", location.pathname + location.search);
  const problem = await adoptToken(decodeURIComponent(match[1]));
  if (problem) {
    sessionStorage.setItem("hb.signinError", problem);
    location.hash = "#/signin";
  } else {
    goToWhereSignInWasAskedFor();
  }
}

document.getElementById("lang").addEventListener("click", () => {
  setLanguage(language() === "zh" ? "en" : "zh");
  render();
});
document.getElementById("signout").addEventListener("click", () => {
  session.signOut();
  location.hash = "#/signin";
});
setLanguage(language());
await loadSettings();
await tokenFromLogin();
window.addEventListener("hashchange", render);
render();
