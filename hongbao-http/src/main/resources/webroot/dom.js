// What every page is built with: the element builder, money and time as the reader's language
// writes them, error texts that name the server's limits, and timers that stop when the page goes.
// Page modules (app.js, packets.js, share.js, and any later page) import from here.

import { settings } from "./api.js";
import { language, t, tf } from "./i18n.js";
import { formatFen } from "./money.js";

/** Builds an element: h("div.card#id", {attrs}, children...). */
export function h(spec, attrs = {}, ...children) {
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

export const yuan = (fen) => h("span.amount", {}, h("small", { text: "¥" }), formatFen(fen));

export const locale = () => (language() === "zh" ? "zh-CN" : "en-GB");

export function time(iso) {
  if (!iso) return "";
  return new Date(iso).toLocaleString(locale(), {
    month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit",
  });
}

function unit(value, name, fractionDigits = 0) {
  return new Intl.NumberFormat(locale(), {
    style: "unit", unit: name, unitDisplay: "short", maximumFractionDigits: fractionDigits,
  }).format(value);
}

/** 850 → "850毫秒" / "850 ms", 3400 → "3.4秒", 125000 → "2分钟5秒": Intl, never hand-made words. */
export function duration(millis) {
  if (millis === null || millis === undefined) return "—";
  if (millis < 1000) return unit(millis, "millisecond", 1);
  if (millis < 60_000) return unit(Math.floor(millis / 100) / 10, "second", 1);
  const totalSeconds = Math.floor(millis / 1000);
  const parts = {
    days: Math.floor(totalSeconds / 86_400),
    hours: Math.floor((totalSeconds % 86_400) / 3600),
    minutes: Math.floor((totalSeconds % 3600) / 60),
    seconds: totalSeconds % 60,
  };
  if (typeof Intl.DurationFormat === "function") {
    return new Intl.DurationFormat(locale(), { style: "short" }).format(parts);
  }
  return Object.entries(parts).filter(([, n]) => n > 0)
    .map(([name, n]) => unit(n, name.slice(0, -1))).join(" ");
}

/** An error code as a sentence; the limits ones say the limits this server keeps. */
export function errorText(error) {
  const limits = settings.limits;
  if (limits && error.code === "INVALID_AMOUNT") {
    return tf("amountLimits", { max: formatFen(limits.maxAmount) });
  }
  if (limits && error.code === "INVALID_COUNT") return tf("countLimits", { max: limits.maxCount });
  if (limits && error.code === "INVALID_EXPIRY") {
    return tf("expiryLimits", { max: duration(limits.maxExpirySeconds * 1000) });
  }
  const known = t(error.code);
  return known === error.code ? error.message || t("UNKNOWN") : known;
}

let stopTimers = [];

/** Runs fn every so often until the page changes (or stopTimers is called). */
export function every(millis, fn) {
  const id = setInterval(fn, millis);
  stopTimers.push(() => clearInterval(id));
}

export function stopTimersNow() {
  stopTimers.forEach((stop) => stop());
  stopTimers = [];
}

/** An in-page question with 确定 / 取消; resolves true when confirmed. */
export function confirmDialog(message, confirmText) {
  return new Promise((resolve) => {
    const close = (answer) => {
      backdrop.remove();
      resolve(answer);
    };
    const backdrop = h("div.modal-backdrop", { "data-testid": "confirm" },
      h("div.modal", { role: "alertdialog", "aria-modal": "true" },
        h("p", { text: message }),
        h("div.row", {},
          h("button.btn.ghost.small", { type: "button", "data-testid": "confirm-cancel", text: t("cancel"),
            onclick: () => close(false) }),
          h("button.btn.small", { type: "button", "data-testid": "confirm-ok", text: confirmText,
            onclick: () => close(true) }))));
    document.body.append(backdrop);
  });
}
