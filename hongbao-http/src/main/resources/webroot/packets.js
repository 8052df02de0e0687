// 红包记录: the packets I received and the ones I sent (GET /api/v1/packets?box=...), newest first,
// a page at a time. A received item shows my share, which each item of the list carries
// (myShare), so a page costs one request whatever its length.

import { api, errorOf, session } from "./api.js";
import { errorText, h, time } from "./dom.js";
import { t, tf } from "./i18n.js";
import { formatFen } from "./money.js";

export async function packetsPage(box, { requireSignIn, handleAuth }) {
  if (!requireSignIn()) return [];
  const list = h("ul.entries", { "data-testid": "packet-list", "data-box": box });
  const summary = h("div.sub", { "data-testid": "packet-summary" });
  const more = h("button.btn.ghost", { type: "button", "data-testid": "packet-more", text: t("loadMore"),
    hidden: true });
  let shown = 0;
  let totalFen = 0;
  const total = h("div.big", { "data-testid": "packet-total" });
  const error = h("div.form-error");

  const loadPage = async (cursor) => {
    more.disabled = true;
    const result = await api.list(session.token, box, cursor);
    more.disabled = false;
    if (handleAuth(result)) return;
    if (result.status !== 200) {
      error.textContent = errorText(errorOf(result));
      return;
    }
    const { items, nextCursor } = result.body;
    list.append(...items.map((p) => item(box, p, p.myShare)));
    shown += items.length;
    // What the pages loaded so far add up to: my shares received, or the packets' amounts sent.
    for (const p of items) totalFen += box === "received" ? p.myShare?.amount ?? 0 : p.amount;
    total.replaceChildren(h("small", { text: "¥" }), formatFen(totalFen));
    summary.textContent = tf(box === "received" ? "receivedTotal" : "sentTotal", { n: shown })
      + (nextCursor ? "+" : "");
    more.hidden = !nextCursor;
    more.onclick = () => loadPage(nextCursor);
  };
  await loadPage(null);

  const tab = (which, key) => h("a", { href: "#/packets/" + which, role: "button",
    "aria-pressed": String(which === box), "data-testid": "box-" + which, text: t(key) });
  return [
    h("h1", { text: t("records") }),
    h("div.segmented.links", {}, tab("received", "received"), tab("sent", "sentBox")),
    h("section.card.hero.compact", {},
      h("div.label", { text: session.user }), total, summary),
    h("section.card", {}, shown === 0
      ? h("p.muted", { "data-testid": "packet-empty", text: t(box === "received" ? "noReceived" : "noSent") })
      : list, more),
    error,
  ];
}

function item(box, p, grab) {
  const statusKey = p.status === "EXPIRED" ? "EXPIRED_STATUS" : p.status;
  const title = box === "received" ? p.sender + t("from") : t("kind" + p.type);
  const amount = box === "received" ? grab?.amount ?? null : p.amount;
  return h("li", { "data-testid": "packet-item", "data-id": p.id },
    h("div.entry-icon." + (box === "received" ? "GRAB" : "SEND"), { text: p.sender.slice(0, 1).toUpperCase() }),
    h("div.entry-main", {},
      h("a", { href: "#/details/" + p.id },
        h("div.entry-title", { text: title }),
        h("div.muted", { text: (p.greeting ?? t("defaultGreeting")) }),
        h("div.muted", { text: time(p.createdAt) + " · " + t(statusKey) + " · "
          + tf("grabbedShares", { g: p.grabbedCount, n: p.count }) }))),
    h("div.amount", { "data-testid": "packet-amount" }, "¥" + formatFen(amount),
      box === "received" && grab && !grab.paid ? h("div.muted", { text: t("unpaid") }) : null));
}
