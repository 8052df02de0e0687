package hongbao.redis.reward;

import hongbao.core.Invariants;
import hongbao.core.Unavailable;
import hongbao.core.money.Amount;
import hongbao.core.reward.Reward;
import hongbao.core.reward.RewardBudget;
import hongbao.redis.LuaScript;
import hongbao.redis.RedisLink;
import hongbao.redis.ScriptReply;
import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScriptOutputType;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * Campaign budgets over {@code keys} Redis keys each. A reservation goes to the key its tradeNo
 * hashes to (so a replay always meets its first reservation there); a dry key borrows allowance
 * from the others, one key at a time, each step an atomic script on one key. The sum of the
 * allowances never exceeds the budget — lending takes before granting gives — and no key reserves
 * beyond its allowance, so no race can spend more than the budget. An edit of a scheduled rain
 * resizes the budget under a new version ({@code budget_layout.lua}, then {@code budget_open.lua}
 * on every key), over the same keys and only while nothing was reserved. Thread-safe.
 */
public final class RedisRewardBudget implements RewardBudget {

  private static final System.Logger LOG = System.getLogger(RedisRewardBudget.class.getName());

  public static final int MAX_KEYS = 1_024;

  /** Borrowing rounds before a reservation gathers instead (see {@link #gatherAndReserve}). */
  static final int BORROW_ROUNDS = 3;

  /**
   * Gathering rounds before a reservation is refused while the budget, less what was reserved,
   * still has room for it: allowance in flight between keys, or lost to a borrower's crash.
   */
  static final int GATHER_ROUNDS_MAX = 32;

  private static final LuaScript OPEN = LuaScript.fromResource("budget_open.lua");
  private static final LuaScript LAYOUT = LuaScript.fromResource("budget_layout.lua");
  private static final LuaScript RESERVE = LuaScript.fromResource("budget_reserve.lua");
  private static final LuaScript LEND = LuaScript.fromResource("budget_lend.lua");
  private static final LuaScript FREEZE = LuaScript.fromResource("budget_freeze.lua");
  private static final LuaScript GRANT = LuaScript.fromResource("budget_grant.lua");
  private static final LuaScript RELEASE = LuaScript.fromResource("budget_release.lua");
  private static final LuaScript TAKE_OVER = LuaScript.fromResource("budget_takeover.lua");
  private static final LuaScript UNQUEUED = LuaScript.fromResource("budget_unqueued.lua");

  /** budget_release.lua's reply for a reservation released. */
  private static final long RELEASED = 1;

  /** budget_release.lua's reply for a reservation there was none of (released before). */
  private static final long NONE = 0;

  private final RedisLink redis;
  private final RewardKeys keys;
  private final int keysPerCampaign;
  private final Clock clock;
  private final Map<String, Layout> layouts = new java.util.concurrent.ConcurrentHashMap<>();

  /**
   * Per campaign on this instance: borrowings hold it shared, a gathering reservation alone (see
   * {@link #gatherAndReserve}).
   */
  private final Map<String, ReadWriteLock> lendings =
      new java.util.concurrent.ConcurrentHashMap<>();

  public RedisRewardBudget(RedisLink redis, RewardKeys keys, int keysPerCampaign, Clock clock) {
    if (keysPerCampaign < 1 || keysPerCampaign > MAX_KEYS) {
      throw new IllegalArgumentException("keys per campaign must be 1.." + MAX_KEYS);
    }
    this.redis = redis;
    this.keys = keys;
    this.keysPerCampaign = keysPerCampaign;
    this.clock = clock;
  }

  /** {@code budget|keys}, or {@code budget|keys|version} once an edit resized the budget. */
  private record Layout(Amount budget, int keys, int version) {
    static Layout parse(String stored) {
      String[] parts = stored.split("\\|");
      return new Layout(
          Amount.fen(Long.parseLong(parts[0])),
          Integer.parseInt(parts[1]),
          parts.length > 2 ? Integer.parseInt(parts[2]) : 1);
    }
  }

  @Override
  public void open(String campaignId, Amount budget, int version) {
    int n = (int) Math.min(keysPerCampaign, budget.fen());
    String held =
        LAYOUT.run(
            redis,
            ScriptOutputType.VALUE,
            new String[] {keys.campaigns()},
            campaignId,
            Long.toString(budget.fen()),
            Integer.toString(n),
            Integer.toString(version));
    Layout layout = Layout.parse(held);
    layouts.put(campaignId, layout);
    if (layout.version() > version) {
      return; // an old copy of an edited campaign: the newer version is set up by its own arming
    }
    if (!layout.budget().equals(budget)) {
      throw new hongbao.core.RejectedException(
          hongbao.core.Rejection.IDEMPOTENCY_CONFLICT,
          "campaign " + campaignId + " has another budget");
    }
    long share = budget.fen() / layout.keys();
    for (int k = 0; k < layout.keys(); k++) {
      long init = k == 0 ? budget.fen() - share * (layout.keys() - 1) : share;
      Long ok =
          OPEN.run(
              redis,
              ScriptOutputType.INTEGER,
              new String[] {keys.budget(campaignId, k)},
              Long.toString(budget.fen()),
              Long.toString(init),
              Integer.toString(version));
      Invariants.check(
          ok != -1,
          "budget key %d of %s was spent from before version %d could resize it",
          k,
          campaignId,
          version);
      Invariants.check(ok != 0, "budget key %d of %s holds another budget", k, campaignId);
    }
  }

  /**
   * How a campaign's budget is laid out. Cached per instance: the number of keys never changes (a
   * resize keeps it), and the budget is only the borrowing's step size here; {@link #state} and
   * {@link #open} read it afresh, so a resized budget shows at once.
   */
  private Layout layout(String campaignId) {
    Layout known = layouts.get(campaignId);
    return known != null ? known : freshLayout(campaignId);
  }

  private Layout freshLayout(String campaignId) {
    String stored = redis.sync().hget(keys.campaigns(), campaignId);
    if (stored == null) {
      return null;
    }
    Layout layout = Layout.parse(stored);
    layouts.put(campaignId, layout);
    return layout;
  }

  private static int keyOf(String tradeNo, int keys) {
    return Math.floorMod(tradeNo.hashCode(), keys);
  }

  @Override
  public Reservation reserve(Reward reward, Amount cost, String token, boolean sync) {
    Layout layout = layout(reward.campaignId());
    if (layout == null) {
      return new Reservation.UnknownCampaign();
    }
    int k = keyOf(reward.tradeNo(), layout.keys());
    ReadWriteLock lending = lending(reward.campaignId());
    for (int round = 0; round < BORROW_ROUNDS; round++) {
      String reply = reserveOn(k, reward, cost, token, sync, 0);
      Reservation settled = settled(reply);
      if (settled != null) {
        return settled;
      }
      long need = cost.fen() - ScriptReply.number(reply, 0);
      Borrowed borrowed;
      lending.readLock().lock();
      try {
        borrowed = borrow(reward.campaignId(), layout, k, need);
      } finally {
        lending.readLock().unlock();
      }
      if (borrowed.moved() == 0) {
        break;
      }
    }
    return gatherAndReserve(layout, k, reward, cost, token, sync);
  }

  /**
   * The last attempts of a reservation that borrowing did not satisfy. Near the end of a budget
   * racing borrowers take each other's allowance back and forth, and allowance one has lent and not
   * yet granted is on no key: a rain, whose budget is exactly its prizes, had wins refused while
   * their cost was in flight. So here, with no other borrowing of this instance under way (they
   * take the campaign's lock shared, this takes it alone), each round lends every other key's spare
   * allowance to this one and reserves with it in one script. The reservation is refused when,
   * after that, the budget less what the keys reserved leaves less than it costs; or, while
   * allowance stays missing (in flight on other instances, or lost to a borrower that died between
   * lending and granting), after {@value #GATHER_ROUNDS_MAX} rounds.
   */
  private Reservation gatherAndReserve(
      Layout cached, int k, Reward reward, Amount cost, String token, boolean sync) {
    String campaignId = reward.campaignId();
    Lock alone = lending(campaignId).writeLock();
    alone.lock();
    try {
      // Fresh: an edit may have resized the budget since this instance cached it.
      Layout layout = Objects.requireNonNullElse(freshLayout(campaignId), cached);
      long spare = 0;
      for (int round = 0; round < GATHER_ROUNDS_MAX; round++) {
        Borrowed lent = lendAll(campaignId, layout, k);
        String reply = reserveOn(k, reward, cost, token, sync, lent.moved());
        Reservation settled = settled(reply);
        if (settled != null) {
          return settled;
        }
        spare = ScriptReply.number(reply, 0);
        if (layout.budget().fen() - reservedOnKeys(campaignId, layout) < cost.fen()) {
          break;
        }
        if (lent.frozenLender()) {
          // The room is on keys an edit holds still: not a want of budget.
          if (lapsedFreeze(campaignId)) {
            return new Reservation.LapsedFreeze();
          }
          throw frozen();
        }
      }
      return new Reservation.Insufficient(Amount.fen(spare));
    } finally {
      alone.unlock();
    }
  }

  private ReadWriteLock lending(String campaignId) {
    return lendings.computeIfAbsent(campaignId, id -> new ReentrantReadWriteLock());
  }

  /** What the campaign's keys have reserved together, every key asked before a reply is read. */
  private long reservedOnKeys(String campaignId, Layout layout) {
    var replies = new ArrayList<RedisFuture<String>>();
    for (int k = 0; k < layout.keys(); k++) {
      replies.add(redis.async().hget(keys.budget(campaignId, k), "used"));
    }
    long reserved = 0;
    for (var reply : replies) {
      String used = redis.await(reply, "reading a budget's reservations");
      reserved += used == null ? 0 : Long.parseLong(used);
    }
    return reserved;
  }

  /**
   * @param granted allowance other keys lent key {@code k} for this reservation, granted to it in
   *     the same script
   */
  private String reserveOn(
      int k, Reward reward, Amount cost, String token, boolean sync, long granted) {
    return RESERVE.run(
        redis,
        ScriptOutputType.VALUE,
        new String[] {keys.budget(reward.campaignId(), k), keys.trades(reward.campaignId(), k)},
        reward.tradeNo(),
        reward.digest(),
        Long.toString(cost.fen()),
        Long.toString(clock.millis()),
        token,
        sync ? "sync" : "async",
        Long.toString(granted));
  }

  /** What a reply of budget_reserve.lua settles; null for DRY (the key lacks allowance). */
  private static Reservation settled(String reply) {
    return switch (ScriptReply.verdict(reply)) {
      case "OK" -> new Reservation.Reserved();
      case "REPLAY" -> new Reservation.Replay(ScriptReply.rest(reply));
      case "SYNC" -> syncReplay(ScriptReply.rest(reply));
      case "CONFLICT" -> new Reservation.Conflict();
      case "UNKNOWN" -> new Reservation.UnknownCampaign();
      // Refused at once: borrowing could only gather allowance the closing has counted out.
      case "CLOSED" -> new Reservation.Insufficient(Amount.ZERO);
      case "DRY" -> null;
      case "LAPSED" -> new Reservation.LapsedFreeze();
      case "FROZEN" -> throw frozen();
      default -> throw new Invariants.InvariantViolation("budget_reserve.lua replied " + reply);
    };
  }

  private static Unavailable frozen() {
    return new Unavailable(
        "redis", "the campaign's budget is being resized by an edit; send again", null);
  }

  /** What a borrowing moved, and whether a key it asked was frozen (and so lent nothing). */
  private record Borrowed(long moved, boolean frozenLender) {}

  /**
   * Gathers at least {@code need} fen of allowance from the other keys into key {@code k}, plus a
   * quarter of a key's share so that the next reservations do not borrow at once again.
   *
   * @return how much was moved (possibly less than needed, when the campaign is nearly spent)
   */
  private Borrowed borrow(String campaignId, Layout layout, int k, long need) {
    long share = layout.budget().fen() / layout.keys();
    Borrowed lent = lend(campaignId, layout, k, need + share / 4, need);
    if (lent.moved() > 0) {
      Long granted =
          GRANT.run(
              redis,
              ScriptOutputType.INTEGER,
              new String[] {keys.budget(campaignId, k)},
              Long.toString(lent.moved()));
      if (granted == 0) {
        // The campaign closed since, or Redis lost the key (the next reservation on it finds that
        // out): what was lent stays unspent and goes back with its escrow.
        return new Borrowed(0, lent.frozenLender());
      }
    }
    return lent;
  }

  /** Takes every other key's spare allowance, for key {@code k} to be granted it. */
  private Borrowed lendAll(String campaignId, Layout layout, int k) {
    return lend(campaignId, layout, k, layout.budget().fen(), layout.budget().fen());
  }

  /**
   * Takes up to {@code wanted} fen off the other keys' allowance, asking them in turn from the one
   * after {@code k} until {@code enough} is lent.
   */
  private Borrowed lend(String campaignId, Layout layout, int k, long wanted, long enough) {
    long lent = 0;
    boolean frozenLender = false;
    for (int i = 1; i < layout.keys() && lent < enough; i++) {
      int lender = (k + i) % layout.keys();
      long given =
          LEND.<Long>run(
              redis,
              ScriptOutputType.INTEGER,
              new String[] {keys.budget(campaignId, lender)},
              Long.toString(wanted - lent));
      if (given < 0) {
        frozenLender = true;
      } else {
        lent += given;
      }
    }
    return new Borrowed(lent, frozenLender);
  }

  @Override
  public void release(Reward reward) {
    release(reward, "always");
  }

  @Override
  public boolean releaseUnlessReplayed(Reward reward) {
    long released = release(reward, "unless-replayed");
    return released == RELEASED || released == NONE;
  }

  private long release(Reward reward, String mode) {
    Layout layout = layout(reward.campaignId());
    if (layout == null) {
      return 0;
    }
    int k = keyOf(reward.tradeNo(), layout.keys());
    Long released =
        RELEASE.run(
            redis,
            ScriptOutputType.INTEGER,
            new String[] {keys.budget(reward.campaignId(), k), keys.trades(reward.campaignId(), k)},
            reward.tradeNo(),
            mode);
    return released == null ? 0 : released;
  }

  @Override
  public void markUnqueued(Reward reward) {
    Layout layout = layout(reward.campaignId());
    if (layout == null) {
      return;
    }
    int k = keyOf(reward.tradeNo(), layout.keys());
    UNQUEUED.run(
        redis,
        ScriptOutputType.INTEGER,
        new String[] {keys.trades(reward.campaignId(), k)},
        reward.tradeNo());
  }

  @Override
  public boolean takeOver(Reward reward, Instant acceptedBefore, Instant now) {
    Layout layout = layout(reward.campaignId());
    if (layout == null) {
      return false;
    }
    int k = keyOf(reward.tradeNo(), layout.keys());
    Long taken =
        TAKE_OVER.run(
            redis,
            ScriptOutputType.INTEGER,
            new String[] {keys.trades(reward.campaignId(), k)},
            reward.tradeNo(),
            Long.toString(acceptedBefore.toEpochMilli()),
            Long.toString(now.toEpochMilli()));
    return taken != null && taken == 1;
  }

  @Override
  public Freeze freeze(String campaignId, Instant until, String token) {
    Layout layout = freshLayout(campaignId);
    if (layout == null) {
      return Freeze.FROZEN; // never opened: nothing reserved, and the edit's arming opens it
    }
    int k = 0;
    try {
      for (; k < layout.keys(); k++) {
        long frozen = freezeKey(campaignId, k, Long.toString(until.toEpochMilli()), token);
        if (frozen != 1) {
          thawQuietly(campaignId, token, k);
          return frozen == 0 ? Freeze.SPENT_FROM : Freeze.EDIT_IN_PROGRESS;
        }
      }
      return Freeze.FROZEN;
    } catch (RuntimeException e) {
      thawQuietly(campaignId, token, Math.min(k + 1, layout.keys())); // key k's reply may be lost
      throw e;
    }
  }

  @Override
  public void thaw(String campaignId, String token) {
    Layout layout = freshLayout(campaignId);
    if (layout != null) {
      thawKeys(campaignId, token, layout.keys());
    }
  }

  /**
   * Every key's freeze asked for before the first reply is awaited: the campaign closer asks this
   * of every campaign not yet started on each pass, and a campaign may have up to 1,024 keys.
   */
  @Override
  public Lapsed lapsed(String campaignId) {
    Layout layout = freshLayout(campaignId);
    long now = clock.millis();
    var byKey = new ArrayList<String>();
    if (layout == null) {
      return new Lapsed(byKey);
    }
    var replies = new ArrayList<RedisFuture<String>>();
    for (int k = 0; k < layout.keys(); k++) {
      replies.add(redis.async().hget(keys.budget(campaignId, k), "frozen"));
    }
    for (var reply : replies) {
      String frozen = redis.await(reply, "reading a budget freeze");
      boolean ended =
          frozen != null && Long.parseLong(frozen.substring(0, frozen.indexOf('|'))) <= now;
      byKey.add(ended ? frozen : null);
    }
    return new Lapsed(byKey);
  }

  @Override
  public void thawLapsed(String campaignId, Lapsed seen) {
    for (int k = 0; k < seen.byKey().size(); k++) {
      if (seen.byKey().get(k) != null) {
        freezeKey(campaignId, k, "ended", seen.byKey().get(k));
      }
    }
  }

  /** Lets go of the first {@code count} keys, best effort: a freeze left behind ends in time. */
  private void thawQuietly(String campaignId, String token, int count) {
    try {
      thawKeys(campaignId, token, count);
    } catch (RuntimeException e) {
      LOG.log(
          System.Logger.Level.WARNING,
          "campaign " + campaignId + ": budget keys stay frozen until their freeze ends: " + e);
    }
  }

  private void thawKeys(String campaignId, String token, int count) {
    for (int k = 0; k < count; k++) {
      freezeKey(campaignId, k, "0", token);
    }
  }

  /** budget_freeze.lua on key {@code k}: until {@code until} (epoch ms), or "0" to let go. */
  private long freezeKey(String campaignId, int k, String until, String token) {
    return FREEZE.run(
        redis,
        ScriptOutputType.INTEGER,
        new String[] {keys.budget(campaignId, k)},
        until,
        token,
        Long.toString(clock.millis()));
  }

  @Override
  public BudgetState state(String campaignId) {
    Layout layout = freshLayout(campaignId);
    if (layout == null) {
      return null;
    }
    long reserved = 0;
    long allowance = 0;
    boolean lent = false;
    for (int k = 0; k < layout.keys(); k++) {
      var values =
          redis.sync().hmget(keys.budget(campaignId, k), "cap", "used", "lent", "borrowed");
      if (values.get(0).hasValue()) {
        allowance += Long.parseLong(values.get(0).getValue());
        reserved += Long.parseLong(values.get(1).getValue());
        lent |= nonZero(values.get(2)) || nonZero(values.get(3));
      }
    }
    return new BudgetState(layout.budget(), Amount.fen(reserved), Amount.fen(allowance), lent);
  }

  private static boolean nonZero(io.lettuce.core.KeyValue<String, String> field) {
    return field.hasValue() && Long.parseLong(field.getValue()) != 0;
  }

  @Override
  public Map<String, Trade> trades(String campaignId) {
    Layout layout = layout(campaignId);
    var trades = new HashMap<String, Trade>();
    if (layout == null) {
      return trades;
    }
    for (int k = 0; k < layout.keys(); k++) {
      redis.forEachInHash(
          keys.trades(campaignId, k), (tradeNo, record) -> trades.put(tradeNo, trade(record)));
    }
    return trades;
  }

  /** One HMGET per key the tradeNos fall on, all sent before the first reply is awaited. */
  @Override
  public Map<String, Trade> trades(String campaignId, Collection<String> tradeNos) {
    Layout layout = layout(campaignId);
    var trades = new HashMap<String, Trade>();
    if (layout == null || tradeNos.isEmpty()) {
      return trades;
    }
    var byKey = new TreeMap<Integer, List<String>>();
    for (String tradeNo : tradeNos) {
      byKey.computeIfAbsent(keyOf(tradeNo, layout.keys()), k -> new ArrayList<>()).add(tradeNo);
    }
    var replies = new ArrayList<RedisFuture<List<KeyValue<String, String>>>>();
    byKey.forEach(
        (k, fields) ->
            replies.add(
                redis.async().hmget(keys.trades(campaignId, k), fields.toArray(String[]::new))));
    for (var reply : replies) {
      for (KeyValue<String, String> field : redis.await(reply, "reading trades")) {
        if (field.hasValue()) {
          trades.put(field.getKey(), trade(field.getValue()));
        }
      }
    }
    return trades;
  }

  /**
   * A trade's record: "digest|cost|accepted at (ms)|token", then "|sync", "|replayed", "|unqueued".
   */
  private static Trade trade(String record) {
    String[] parts = record.split("\\|", 4);
    return new Trade(
        parts[0],
        Amount.fen(Long.parseLong(parts[1])),
        Long.parseLong(parts[2]),
        parts.length > 3 && parts[3].contains("|unqueued"));
  }

  /** "at token": when the synchronous send was accepted (ms), then its token. */
  private static Reservation syncReplay(String rest) {
    int space = rest.indexOf(' ');
    Invariants.check(space > 0, "budget_reserve.lua replied SYNC %s", rest);
    return new Reservation.SyncReplay(
        rest.substring(space + 1), Instant.ofEpochMilli(Long.parseLong(rest.substring(0, space))));
  }
}
