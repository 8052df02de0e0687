// The red-packet rain page (rain.html?c=<campaignId>): the campaign's next round counts down,
// packets fall while a round runs, a tap on one asks the server whether it won. Won rewards'
// tokens are kept in localStorage and sent with the statement, so the list shows them even
// before the server has credited them; the withdraw button pays them out (forced credit).

import { call, errorOf, newKey, session } from "./api.js";
import { formatFen } from "./money.js";

const TEXT = {
  title: ["红包雨", "Red-packet rain"],
  signIn: ["登录", "Sign in"],
  userName: ["用户名", "User name"],
  startsIn: ["距开始", "Starts in"],
  endsIn: ["本场剩余", "Round ends in"],
  ended: ["活动已结束", "The rain is over"],
  round: ["第 %s 场", "Round %s"],
  of: ["共 %s 场", "of %s"],
  tapHint: ["点红包！", "Tap the packets!"],
  waitHint: ["红包雨还没开始，先等等", "The rain has not started yet"],
  won: ["恭喜你抢到", "You won"],
  coupon: ["%s × %s", "%s × %s"],
  ok: ["收下", "Keep it"],
  missed: ["差一点！再试试", "So close! Try again"],
  limit: ["你已达到本次活动的中奖上限", "You have won all you can in this campaign"],
  slow: ["点太快啦", "Slow down a little"],
  rewards: ["我的奖励", "My rewards"],
  noRewards: ["还没有奖励", "No rewards yet"],
  CREDITED: ["已入账", "Credited"],
  PENDING: ["入账中", "Pending"],
  credited: ["已入账 ¥%s", "Credited ¥%s"],
  pending: ["入账中 ¥%s", "Pending ¥%s"],
  withdraw: ["全部提现", "Withdraw all"],
  withdrawn: ["提现已提交：%s", "Withdrawal sent: %s"],
  noCampaign: ["没有这个活动", "No such campaign"],
  prizesLeft: ["剩余红包 %s", "%s packets left"],
  campaign: ["活动编号", "Campaign id"],
  create: ["创建红包雨（管理员）", "Create a rain (admin)"],
  name: ["名称", "Name"],
  budgetFen: ["预算（分）", "Budget (fen)"],
  startsInSeconds: ["几秒后开始", "Starts in (s)"],
  durationSeconds: ["时长（秒）", "Duration (s)"],
  amountFen: ["每个红包（分）", "Each prize (fen)"],
  count: ["红包个数", "Prizes"],
  maxWins: ["每人最多中奖", "Max wins per user"],
  tapsPerSecond: ["每秒最多点击", "Taps per second"],
  spent: ["已发 ¥%s", "Spent ¥%s"],
  open: ["进入", "Open"],
  live: ["实时（管理员）", "Live (admin)"],
  liveTaps: ["点击/秒 %s", "taps/s %s"],
  liveWins: ["中奖/秒 %s", "wins/s %s"],
  liveTotals: ["点击 %s · 中奖 %s", "%s taps · %s wins"],
  liveLeft: ["剩余 %s / %s", "%s of %s left"],
  liveSpent: ["已发 ¥%s / 预算 ¥%s", "spent ¥%s of ¥%s"],
  liveQueue: ["队列 %s 积压 %s", "queue %s lag %s"],
  liveType: ["%s 发放 %s/秒（上限 %s）", "%s issued %s/s (limit %s)"],
  fused: ["已熔断", "fused"],
};

let lang = localStorage.getItem("hb.lang") || (navigator.language.startsWith("zh") ? "zh" : "en");

function t(key, ...args) {
  const entry = TEXT[key];
  let text = entry ? entry[lang === "zh" ? 0 : 1] : key;
  for (const arg of args) text = text.replace("%s", arg);
  return text;
}

function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "text") el.textContent = value;
    else if (key === "class") el.className = value;
    else el.setAttribute(key, value);
  }
  el.append(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return el;
}

const root = document.getElementById("rain");
const campaignId = new URLSearchParams(location.search).get("c") ?? "";
const TOKENS = "hb.rainTokens";
const TOKENS_MAX = 500;
let campaign = null;
let spawner = null;
let limitReached = false;

function keptTokens() {
  try {
    return JSON.parse(localStorage.getItem(TOKENS) || "[]");
  } catch {
    return [];
  }
}

function keep(token) {
  const tokens = keptTokens().filter((k) => k !== token);
  tokens.push(token);
  localStorage.setItem(TOKENS, JSON.stringify(tokens.slice(-TOKENS_MAX)));
}

function signInForm() {
  const input = h("input", { name: "user", placeholder: "alice", "data-testid": "rain-user" });
  return h("form", { class: "card", onsubmit: async (e) => {
      e.preventDefault();
      const answer = await call("POST", "/api/v1/dev/tokens", { body: { userId: input.value.trim() } });
      if (answer.status === 200) {
        session.signIn(input.value.trim(), answer.body.token);
        start();
      }
    } },
    h("label", { text: t("userName") }), input,
    h("button", { class: "btn", type: "submit", text: t("signIn") }));
}

/** The round running at `now`, or the next one, from the campaign's rounds. */
function phase(now) {
  for (const round of campaign.rounds) {
    const starts = Date.parse(round.startsAt);
    const ends = Date.parse(round.endsAt);
    if (now >= starts && now < ends) return { running: true, round, until: ends };
    if (now < starts) return { running: false, round, until: starts };
  }
  return { running: false, round: null, until: null };
}

function clockText(millis) {
  const seconds = Math.max(0, Math.ceil(millis / 1000));
  const m = Math.floor(seconds / 60);
  return String(m).padStart(2, "0") + ":" + String(seconds % 60).padStart(2, "0");
}

function toast(sky, text) {
  sky.querySelector(".rain-toast")?.remove();
  const note = h("div", { class: "rain-toast", "data-testid": "rain-toast", text });
  sky.append(note);
  setTimeout(() => note.remove(), 1500);
}

function showWin(reward) {
  const prize = reward.type === "CASH"
    ? "¥" + formatFen(reward.amount)
    : t("coupon", reward.type, String(reward.amount));
  const overlay = h("div", { class: "rain-win", "data-testid": "rain-win" },
    h("div", { class: "rain-win-card" },
      h("div", { text: t("won") }),
      h("span", { class: "amount", "data-testid": "rain-win-amount", text: prize }),
      h("button", { class: "btn gold", type: "button", "data-testid": "rain-win-ok", text: t("ok"),
        onclick: () => overlay.remove() })));
  document.body.append(overlay);
}

async function tapPacket(sky, packet) {
  packet.remove();
  const answer = await call("POST", "/api/v1/campaigns/" + encodeURIComponent(campaignId) + "/taps",
    { token: session.token, body: {} });
  if (answer.status === 429) return toast(sky, t("slow"));
  if (answer.status !== 200) return toast(sky, errorOf(answer).message);
  const outcome = answer.body.outcome;
  if (outcome === "WON") {
    keep(answer.body.reward.token);
    showWin(answer.body.reward);
    refreshRewards();
  } else if (outcome === "MISSED") {
    toast(sky, t("missed"));
  } else if (outcome === "LIMIT_REACHED") {
    limitReached = true;
    toast(sky, t("limit"));
  } else {
    loadCampaign();
  }
}

function spawn(sky) {
  const packet = h("button", { class: "rain-packet", type: "button", "data-testid": "rain-packet",
    "aria-label": t("title") });
  packet.style.left = Math.floor(Math.random() * 82) + "%";
  packet.style.animationDuration = (3 + Math.random() * 2).toFixed(2) + "s";
  packet.addEventListener("click", () => tapPacket(sky, packet), { once: true });
  packet.addEventListener("animationend", () => packet.remove());
  sky.append(packet);
}

const rewardsList = h("ul", { class: "rain-rewards", "data-testid": "rain-rewards" });
const totals = h("div", { class: "rain-totals", "data-testid": "rain-totals" });
const withdrawNote = h("div", { class: "muted", "data-testid": "rain-withdrawn" });
let cashTotal = 0;

async function refreshRewards() {
  const answer = await call("POST", "/api/v1/rewards/statement",
    { token: session.token, body: { tokens: keptTokens() } });
  if (answer.status !== 200) return;
  const items = answer.body.items.filter((item) => item.tradeNo.startsWith(campaignId + "_"));
  cashTotal = items.filter((i) => i.type === "CASH").reduce((sum, i) => sum + i.amount, 0);
  rewardsList.replaceChildren(...(items.length === 0
    ? [h("li", { class: "muted", text: t("noRewards") })]
    : items.map((item) => h("li", { "data-testid": "rain-reward", "data-status": item.status },
        h("span", { text: item.type === "CASH" ? "¥" + formatFen(item.amount) : item.type + " × " + item.amount }),
        h("span", { class: "st-" + item.status, text: t(item.status) })))));
  totals.replaceChildren(
    h("span", { text: t("credited", formatFen(answer.body.creditedAmount)) }),
    h("span", { text: t("pending", formatFen(answer.body.pendingAmount)) }));
}

async function withdrawAll() {
  if (cashTotal <= 0) return;
  const answer = await call("POST", "/api/v1/withdrawals", {
    token: session.token,
    body: { amount: cashTotal, tokens: keptTokens() },
    headers: { "Idempotency-Key": newKey() },
  });
  withdrawNote.textContent = answer.status === 202
    ? t("withdrawn", answer.body.status)
    : errorOf(answer).message;
  refreshRewards();
}

/** An operator's form: one round of CASH prizes starting soon (dev mode mints the admin token). */
function createForm() {
  const input = (name, value) => h("input", { name, value, inputmode: "numeric", "data-testid": "rain-new-" + name });
  const fields = {
    name: h("input", { name: "name", value: "除夕红包雨", "data-testid": "rain-new-name" }),
    budget: input("budget", "100000"),
    startsIn: input("startsIn", "10"),
    duration: input("duration", "60"),
    amount: input("amount", "88"),
    count: input("count", "1000"),
    maxWins: input("maxWins", "3"),
    taps: input("taps", "10"),
  };
  const error = h("div", { class: "field-error", "data-testid": "rain-new-error" });
  const row = (key, el) => h("div", {}, h("label", { text: t(key) }), el);
  return h("form", { class: "card", "data-testid": "rain-new", onsubmit: async (e) => {
      e.preventDefault();
      let admin = session.adminToken;
      if (!admin) {
        const minted = await call("POST", "/api/v1/dev/tokens", { body: { userId: "ops", admin: true } });
        if (minted.status !== 200) return (error.textContent = errorOf(minted).message);
        admin = minted.body.token;
        session.setAdminToken(admin);
      }
      const int = (el) => Number.parseInt(el.value, 10);
      const startsAt = new Date(Date.now() + int(fields.startsIn) * 1000).toISOString();
      const body = {
        name: fields.name.value, budget: int(fields.budget),
        rounds: [{ startsAt, durationSeconds: int(fields.duration),
          prizes: [{ type: "CASH", amount: int(fields.amount), count: int(fields.count) }] }],
        maxWinsPerUser: int(fields.maxWins), tapsPerUserPerSecond: int(fields.taps),
      };
      const created = await call("POST", "/api/v1/admin/campaigns",
        { token: admin, body, headers: { "Idempotency-Key": newKey() } });
      if (created.status !== 201) return (error.textContent = errorOf(created).message);
      location.search = "?c=" + encodeURIComponent(created.body.id);
    } },
    h("h2", { text: t("create") }),
    row("name", fields.name), row("budgetFen", fields.budget), row("startsInSeconds", fields.startsIn),
    row("durationSeconds", fields.duration), row("amountFen", fields.amount), row("count", fields.count),
    row("maxWins", fields.maxWins), row("tapsPerSecond", fields.taps), error,
    h("button", { class: "btn gold", type: "submit", "data-testid": "rain-new-submit", text: t("create") }));
}

/**
 * The operator's live view (shown when the page holds an admin token): polls the campaign's live
 * figures every second — taps/s and wins/s per round, prizes left per line, budget spent, the
 * reward queues' lag and each prize type's issue rate against its limit.
 */
function livePanel() {
  const body = h("div", { class: "rain-live-body" });
  const panel = h("div", { class: "card rain-live", "data-testid": "rain-live" },
    h("h2", { text: t("live") }), body);
  const line = (testid, text, attrs = {}) => h("div", { "data-testid": testid, text, ...attrs });
  const poll = async () => {
    const answer = await call("GET", "/api/v1/admin/campaigns/" + encodeURIComponent(campaignId) + "/live",
      { token: session.adminToken });
    if (answer.status !== 200) {
      body.replaceChildren(line("rain-live-error", errorOf(answer).message));
      return;
    }
    const live = answer.body;
    const rounds = live.rounds.filter((r) => r.status === "RUNNING" || r.seconds.length > 0);
    const shown = rounds.length > 0 ? rounds : live.rounds.filter((r) => r.status === "SCHEDULED").slice(0, 1);
    body.replaceChildren(
      line("rain-live-spent", t("liveSpent", formatFen(live.spent), formatFen(live.budget)),
        { "data-spent": live.spent }),
      ...shown.map((r) => h("div", { class: "rain-live-round", "data-testid": "rain-live-round",
          "data-round": r.round, "data-wins": r.wins, "data-taps": r.taps, "data-left": r.prizesLeft },
        h("strong", { text: t("round", r.round) + " · " + r.status }),
        line("rain-live-rates", t("liveTaps", r.tapsPerSecond) + " · " + t("liveWins", r.winsPerSecond)),
        line("rain-live-totals", t("liveTotals", r.taps, r.wins)),
        ...r.prizes.map((p) => line("rain-live-left",
          (p.type === "CASH" ? "¥" + formatFen(p.amount) : p.type + " × " + p.amount) + " · "
            + t("liveLeft", p.left, p.count), { "data-left": p.left })))),
      ...live.queues.map((q) => line("rain-live-queue", t("liveQueue", q.queue, q.lag))),
      ...live.types.map((ty) => line("rain-live-type",
        t("liveType", ty.type, ty.issuedPerSecond, ty.ratePerSecond) + (ty.fused ? " · " + t("fused") : ""))));
  };
  poll();
  setInterval(poll, 1000);
  return panel;
}

async function loadCampaign() {
  const answer = await call("GET", "/api/v1/campaigns/" + encodeURIComponent(campaignId),
    { token: session.token });
  if (answer.status === 200) campaign = answer.body;
  return answer;
}

async function start() {
  document.getElementById("who").textContent = session.user ?? "";
  if (!session.token) {
    root.replaceChildren(signInForm());
    return;
  }
  if (!campaignId) {
    const input = h("input", { name: "campaign", placeholder: "c_1k3f9", "data-testid": "rain-campaign" });
    root.replaceChildren(h("form", { class: "card", onsubmit: (e) => {
        e.preventDefault();
        location.search = "?c=" + encodeURIComponent(input.value.trim());
      } },
      h("label", { text: t("campaign") }), input,
      h("button", { class: "btn", type: "submit", text: t("open") })), createForm());
    return;
  }
  const answer = await loadCampaign();
  if (answer.status !== 200) {
    root.replaceChildren(h("div", { class: "card", text: t("noCampaign") }));
    return;
  }
  const clock = h("div", { class: "rain-clock", "data-testid": "rain-clock" });
  const status = h("div", { class: "rain-status", "data-testid": "rain-status" });
  const sky = h("div", { class: "rain-sky", "data-testid": "rain-sky" });
  root.replaceChildren(
    h("div", { class: "rain-head" }, h("h1", { text: campaign.name }), clock, status),
    sky,
    h("div", { class: "card" }, h("h2", { text: t("rewards") }), totals, rewardsList,
      h("button", { class: "btn", type: "button", "data-testid": "rain-withdraw", text: t("withdraw"),
        onclick: withdrawAll }), withdrawNote));
  if (session.adminToken) root.append(livePanel());
  const tick = () => {
    const now = Date.now();
    const p = phase(now);
    sky.classList.toggle("idle", !p.running);
    if (!p.round) {
      clock.textContent = "00:00";
      status.textContent = t("ended");
    } else {
      clock.textContent = clockText(p.until - now);
      const round = campaign.rounds.find((r) => r.round === p.round.round);
      status.textContent = [t(p.running ? "endsIn" : "startsIn"), t("round", p.round.round),
        t("of", campaign.rounds.length), t("prizesLeft", round.prizesLeft),
        t("spent", formatFen(campaign.spent))].join(" · ");
    }
    if (p.running && !limitReached && !spawner) {
      spawner = setInterval(() => spawn(sky), 450);
    } else if ((!p.running || limitReached) && spawner) {
      clearInterval(spawner);
      spawner = null;
    }
  };
  tick();
  setInterval(tick, 250);
  setInterval(loadCampaign, 2000);
  refreshRewards();
  setInterval(refreshRewards, 5000);
}

document.getElementById("lang").textContent = lang === "zh" ? "EN" : "中文";
document.getElementById("rain-title").textContent = t("title");
document.getElementById("lang").addEventListener("click", () => {
  lang = lang === "zh" ? "en" : "zh";
  localStorage.setItem("hb.lang", lang);
  location.reload();
});
start();
