// The HTTP contract of API.md, as the browser sees it. Every call resolves to {status, body};
// transport failures become a synthetic UNAVAILABLE error so pages show one kind of problem.

const STORE = window.localStorage;

export const session = {
  get user() {
    return STORE.getItem("hb.user");
  },
  get token() {
    return STORE.getItem("hb.token");
  },
  get adminToken() {
    return STORE.getItem("hb.adminToken");
  },
  signIn(user, token) {
    STORE.setItem("hb.user", user);
    STORE.setItem("hb.token", token);
  },
  setAdminToken(token) {
    if (token) STORE.setItem("hb.adminToken", token);
    else STORE.removeItem("hb.adminToken");
  },
  /** Forgets everything that lets this browser act for someone, the admin token too. */
  signOut() {
    STORE.removeItem("hb.user");
    STORE.removeItem("hb.token");
    STORE.removeItem("hb.adminToken");
  },
};

/** The service's answer to GET /ui/settings, filled in by loadSettings() before the first page. */
export const settings = { devMode: false, loginUrl: null, publicUrl: null, limits: null,
  userIdPattern: "[A-Za-z0-9_.@-]{1,64}" };

export async function loadSettings() {
  const result = await call("GET", "/ui/settings");
  if (result.status === 200) Object.assign(settings, result.body);
}

/** The user id a token speaks for (its "sub" claim); null when it is not a JWT. */
export function subjectOf(token) {
  try {
    const payload = token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/");
    const bytes = Uint8Array.from(atob(payload), (c) => c.charCodeAt(0));
    const sub = JSON.parse(new TextDecoder().decode(bytes)).sub;
    return typeof sub === "string" ? sub : null;
  } catch {
    return null;
  }
}

/** Where a packet's envelope opens: under HONGBAO_PUBLIC_URL when set, as the QR code says. */
export function shareLink(id) {
  const base = settings.publicUrl ?? location.origin;
  return base + "/#/grab/" + id;
}

/** An Idempotency-Key; crypto.randomUUID needs a secure context, getRandomValues does not. */
export function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export async function call(method, path, { token, body, headers = {} } = {}) {
  const init = { method, headers: { ...headers } };
  if (token) init.headers.Authorization = "Bearer " + token;
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  try {
    const response = await fetch(path, init);
    const text = await response.text();
    let parsed = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = text;
    }
    return { status: response.status, body: parsed };
  } catch (e) {
    return { status: 0, body: { error: { code: "UNAVAILABLE", message: String(e) } } };
  }
}

export function errorOf(result) {
  return result.body && result.body.error ? result.body.error : { code: "UNKNOWN", message: "" };
}

export const api = {
  devToken: (userId, admin = false) => call("POST", "/api/v1/dev/tokens", { body: { userId, admin } }),
  wallet: (token) => call("GET", "/api/v1/wallet", { token }),
  topUp: (adminToken, userId, amount) =>
    call("POST", "/api/v1/admin/topups", {
      token: adminToken,
      body: { userId, amount },
      headers: { "Idempotency-Key": newKey() },
    }),
  send: (token, body, key) =>
    call("POST", "/api/v1/packets", { token, body, headers: { "Idempotency-Key": key } }),
  details: (token, id) => call("GET", "/api/v1/packets/" + encodeURIComponent(id), { token }),
  grab: (token, id, password) =>
    call("POST", "/api/v1/packets/" + encodeURIComponent(id) + "/grab", {
      token,
      body: password ? { password } : {},
    }),
  list: (token, box, cursor) => call("GET", "/api/v1/packets?box=" + box + "&limit=20"
    + (cursor ? "&cursor=" + encodeURIComponent(cursor) : ""), { token }),
  /** The share QR code as an object URL for an <img> (the request needs the bearer token). */
  qr: async (token, id) => {
    try {
      const response = await fetch("/api/v1/packets/" + encodeURIComponent(id) + "/qr.svg",
        { headers: { Authorization: "Bearer " + token } });
      if (!response.ok) return null;
      return URL.createObjectURL(await response.blob());
    } catch {
      return null;
    }
  },
  withdraw: (token, body, key) =>
    call("POST", "/api/v1/withdrawals", { token, body, headers: { "Idempotency-Key": key } }),
  withdrawals: (token) => call("GET", "/api/v1/withdrawals?limit=20", { token }),
  switches: (adminToken) => call("GET", "/api/v1/admin/switches", { token: adminToken }),
  setSwitch: (adminToken, name, enabled) =>
    call("PUT", "/api/v1/admin/switches/" + name, { token: adminToken, body: { enabled } }),
  reconciliation: (adminToken) => call("GET", "/api/v1/admin/reconciliation", { token: adminToken }),
  metrics: async () => {
    try {
      const response = await fetch("/metrics");
      return { status: response.status, body: await response.text() };
    } catch (e) {
      return { status: 0, body: "" };
    }
  },
};
