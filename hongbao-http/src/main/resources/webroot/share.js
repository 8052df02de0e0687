// A packet's share card: the link (under HONGBAO_PUBLIC_URL when the operator set it) and its QR
// code, drawn by the server with ZXing. Used right after sending and again from the details page.

import { api, session, shareLink } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

export function shareCard(id, ...extra) {
  const link = shareLink(id);
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
  const qr = h("div.qr", { "data-testid": "share-qr" });
  api.qr(session.token, id).then((url) => {
    if (url) qr.replaceChildren(h("img", { src: url, alt: link, "data-testid": "share-qr-image" }));
    else qr.replaceChildren(h("p.muted", { text: t("qrFailed") }));
  });
  return h("section.card.share", { "data-testid": "share" },
    ...extra,
    qr,
    h("div.muted", { text: t("shareHint") }),
    h("label", { text: t("shareLink") }),
    h("div.linkbox", {}, input, copy));
}
