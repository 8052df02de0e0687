package hongbao.redis.grab;

import hongbao.core.Invariants;
import hongbao.core.grab.ArmResult;
import hongbao.core.grab.ArmedPacket;
import hongbao.core.grab.Closing;
import hongbao.core.grab.GrabAttempt;
import hongbao.core.grab.GrabOutcome;
import hongbao.core.grab.GrabRecord;
import hongbao.core.grab.GrabStore;
import hongbao.core.grab.PacketState;
import hongbao.core.grab.Recovered;
import hongbao.core.money.Amount;
import hongbao.core.packet.Packet;
import hongbao.core.packet.PacketLimits;
import hongbao.core.password.PasswordLock;
import hongbao.redis.LuaScript;
import hongbao.redis.RedisFaults;
import hongbao.redis.RedisKeys;
import hongbao.redis.RedisLink;
import hongbao.redis.ScriptReply;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * The grab store on Redis: every operation on a packet is one Lua script on the packet's shard (see
 * {@code resources/lua/}). A grab is asynchronous end to end; arm, close and state are synchronous
 * because their callers (send, sweeper, details page) are not on the hot path.
 *
 * <p>A GRABBED grab also puts the amount into the user's pending hash ({@code {u:<id>}}), which the
 * payout worker clears on ack. On one server grab.lua writes it in the same atomic step as the
 * payout task, so the ack can never come first and a grab costs one command. On a cluster the hash
 * is in the user's slot, which the packet's script may not touch: one {@code pending.lua} call
 * after the reply writes it there, not awaited. Every other script names keys of the packet's shard
 * only. Thread-safe: Lettuce connections are, and this class holds no mutable state. The connection
 * must not be shared with blocking commands (BLPOP, XREADGROUP BLOCK).
 */
public final class RedisGrabStore implements GrabStore {

  private static final System.Logger LOG = System.getLogger(RedisGrabStore.class.getName());

  /**
   * How long a packet's keys outlive its expiry by default (the ledger keeps it forever): the one
   * definition of this default.
   */
  public static final Duration DEFAULT_KEY_GRACE = Duration.ofDays(7);

  /** Bounded so that one arm stays one reasonable script call. */
  public static final int MAX_SHARES = PacketLimits.COUNT_CEILING;

  private static final LuaScript ARM = LuaScript.fromResource("arm.lua");
  private static final LuaScript GRAB = LuaScript.fromResource("grab.lua");
  private static final LuaScript CLOSE = LuaScript.fromResource("close.lua");
  private static final LuaScript STATE = LuaScript.fromResource("state.lua");
  private static final LuaScript RECOVER = LuaScript.fromResource("recover.lua");
  private static final LuaScript OWED = LuaScript.fromResource("owed.lua");
  private static final LuaScript HOLD = LuaScript.fromResource("hold.lua");
  private static final LuaScript PENDING = LuaScript.fromResource("pending.lua");

  /**
   * How far a close looks through a shard's payout stream for tasks of a packet the store has no
   * state of; a longer stream makes it try again later.
   */
  static final int CLOSE_SCAN_MAX = 50_000;

  /**
   * How far a claim looks through a shard's payout streams for what a packet's other grabs are
   * owed; a longer stream answers the claim 503. Lower than a close's: a claim is a user's request,
   * and one repeated with the same receipt (it is refused each time) must not hold Redis for long.
   */
  static final int OWED_SCAN_MAX = 5_000;

  private final RedisLink redis;
  private final RedisKeys keys;
  private final Duration keyGrace;
  private final String pendingTtlMillis;

  /** Whether grab.lua writes the pending entry itself: every key is on one server. */
  private final boolean pendingInScript;

  /** Loads the scripts on every master of {@code redis}. */
  public RedisGrabStore(RedisLink redis, RedisKeys keys, Duration keyGrace) {
    if (keyGrace.isNegative()) {
      throw new IllegalArgumentException("keyGrace must not be negative: " + keyGrace);
    }
    this.redis = redis;
    this.keys = keys;
    this.keyGrace = keyGrace;
    // PEXPIRE needs a positive TTL; a zero grace still keeps a pending entry for a moment.
    this.pendingTtlMillis = Long.toString(Math.max(1, keyGrace.toMillis()));
    this.pendingInScript = !redis.isCluster();
    for (LuaScript script : List.of(ARM, GRAB, CLOSE, STATE, RECOVER, HOLD, PENDING)) {
      script.load(redis);
    }
  }

  /** On one server, over a connection the caller owns. */
  public RedisGrabStore(
      StatefulRedisConnection<String, String> connection, RedisKeys keys, Duration keyGrace) {
    this(RedisLink.of(connection), keys, keyGrace);
  }

  @Override
  public CompletionStage<GrabOutcome> grab(GrabAttempt attempt) {
    long id = attempt.packetId();
    String[] scriptKeys =
        withActivity(
            id,
            keys.meta(id),
            keys.shares(id),
            keys.grabs(id),
            keys.eligible(id),
            keys.payoutsOf(id));
    if (pendingInScript) {
      scriptKeys = Arrays.copyOf(scriptKeys, scriptKeys.length + 1);
      scriptKeys[scriptKeys.length - 1] = keys.pending(attempt.userId());
    }
    String password = attempt.passwordKey() == null ? "" : attempt.passwordKey();
    return GRAB.<String>runAsync(
            redis,
            ScriptOutputType.VALUE,
            scriptKeys,
            attempt.userId(),
            Long.toString(attempt.at().toEpochMilli()),
            password,
            Long.toString(id),
            Long.toString(attempt.random()),
            pendingInScript ? pendingTtlMillis : "")
        .thenApply(reply -> toOutcome(reply, attempt));
  }

  private GrabOutcome toOutcome(String reply, GrabAttempt attempt) {
    return switch (ScriptReply.verdict(reply)) {
      case "GRABBED" -> {
        Amount amount = Amount.fen(ScriptReply.number(reply, 0));
        if (!pendingInScript) {
          recordPending(attempt, amount);
        }
        Instant created =
            ScriptReply.has(reply, 2) ? Instant.ofEpochMilli(ScriptReply.number(reply, 2)) : null;
        yield new GrabOutcome.Grabbed(
            amount, Math.toIntExact(ScriptReply.number(reply, 1)), created, "");
      }
      case "ALREADY_GRABBED" ->
          new GrabOutcome.AlreadyGrabbed(Amount.fen(ScriptReply.number(reply, 0)));
      case "EXPIRED" -> GrabOutcome.EXPIRED;
      case "NOT_ELIGIBLE" -> GrabOutcome.NOT_ELIGIBLE;
      case "WRONG_PASSWORD" -> GrabOutcome.WRONG_PASSWORD;
      case "LIMIT_REACHED" -> GrabOutcome.LIMIT_REACHED;
      case "SOLD_OUT" -> GrabOutcome.SOLD_OUT;
      case "NOT_FOUND" -> GrabOutcome.NOT_FOUND;
      case "HELD" -> GrabOutcome.HELD;
      default -> throw new Invariants.InvariantViolation("unknown grab reply " + reply);
    };
  }

  /**
   * The keys of a script on a packet, with the activity's counts last for a packet of an activity
   * (the same slot: the packet takes its shard from the activity).
   */
  private String[] withActivity(long packetId, String... packetKeys) {
    long activity = Packet.activityOf(packetId);
    if (activity == 0) {
      return packetKeys;
    }
    String[] all = Arrays.copyOf(packetKeys, packetKeys.length + 1);
    all[packetKeys.length] = keys.activityGrabs(activity);
    return all;
  }

  /**
   * On a cluster only. Fire and forget: the grab is already safe in Redis with its payout task; the
   * pending hash only feeds the wallet's pendingAmount, which the ledger cross-checks. The TTL
   * keeps an entry that lost a race with its own ack (landing after the worker's HDEL) from
   * lingering forever.
   */
  private void recordPending(GrabAttempt attempt, Amount amount) {
    PENDING
        .<Long>runAsync(
            redis,
            ScriptOutputType.INTEGER,
            new String[] {keys.pending(attempt.userId())},
            Long.toString(attempt.packetId()),
            Long.toString(amount.fen()),
            pendingTtlMillis)
        .whenComplete(
            (ok, failure) -> {
              if (failure != null) {
                LOG.log(Level.WARNING, "recording pending grab of " + attempt + " failed", failure);
              }
            });
  }

  @Override
  public ArmResult arm(ArmedPacket armed, Instant now) {
    Packet packet = armed.packet();
    List<Amount> shares = armed.shares();
    List<GrabRecord> restored = armed.restored();
    Invariants.check(
        shares.size() <= MAX_SHARES, "packet %s: too many shares %s", packet.id(), shares.size());
    long id = packet.id();
    long expireAtMillis = packet.expiresAt().toEpochMilli();
    var args =
        new ArrayList<String>(
            16 + shares.size() + 3 * restored.size() + packet.recipients().size());
    args.add(Long.toString(packet.amount().fen()));
    args.add(Integer.toString(packet.count()));
    args.add(Long.toString(expireAtMillis));
    args.add(Long.toString(packet.createdAt().toEpochMilli()));
    args.add(packet.hasPassword() ? packet.passwordKey() : "");
    args.add(typeCode(packet));
    args.add(Long.toString(expireAtMillis + keyGrace.toMillis()));
    args.add(Long.toString(now.toEpochMilli()));
    args.add(armed.splitAtGrab() ? "G" : "P");
    args.add(Long.toString(armed.capFen()));
    args.add(Integer.toString(shares.size()));
    args.add(Integer.toString(restored.size()));
    PasswordLock lock = armed.lock();
    args.add(lock == null ? "" : lock.match().code());
    args.add(lock == null || lock.reading() == null ? "" : lock.reading().encode());
    args.add(Integer.toString(armed.grabsPerUserMax()));
    args.add(Long.toString(id));
    shares.forEach(share -> args.add(Long.toString(share.fen())));
    for (GrabRecord grab : restored) {
      args.add(grab.userId());
      args.add(Long.toString(grab.amount().fen()));
      args.add(Long.toString(grab.at().toEpochMilli()));
    }
    args.addAll(packet.recipients());
    String[] scriptKeys =
        withActivity(id, keys.meta(id), keys.shares(id), keys.eligible(id), keys.grabs(id));
    List<Object> reply =
        ARM.run(redis, ScriptOutputType.MULTI, scriptKeys, args.toArray(String[]::new));
    long code = (Long) reply.get(0);
    if (code == 1L) {
      return ArmResult.ARMED;
    }
    if (code == -1L) {
      return ArmResult.TOO_LATE;
    }
    Invariants.check(code == 0L && reply.size() == 4, "packet %s: arm replied %s", id, reply);
    return new ArmResult.Existing(
        Amount.fen(parseLongOr((String) reply.get(1), 0)),
        (int) parseLongOr((String) reply.get(2), 0),
        Instant.ofEpochMilli(parseLongOr((String) reply.get(3), 0)));
  }

  private static long parseLongOr(String text, long absent) {
    return text == null || text.isEmpty() ? absent : Long.parseLong(text);
  }

  private static String typeCode(Packet packet) {
    return switch (packet.type()) {
      case LUCKY -> "L";
      case FIXED -> "F";
      case EXCLUSIVE -> "E";
    };
  }

  @Override
  public Closing close(
      long packetId, Instant packetCreatedAt, Amount amountIfMissing, Instant now) {
    String payouts = keys.payoutsOf(packetId);
    String[] scriptKeys = {
      keys.meta(packetId), keys.shares(packetId), payouts, RedisKeys.deadLettersOf(payouts)
    };
    long nowMillis = now.toEpochMilli();
    Long reply =
        CLOSE.run(
            redis,
            ScriptOutputType.INTEGER,
            scriptKeys,
            Long.toString(nowMillis),
            Long.toString(amountIfMissing.fen()),
            Long.toString(nowMillis + keyGrace.toMillis()),
            Long.toString(packetId),
            Integer.toString(CLOSE_SCAN_MAX),
            packetCreatedAt == null ? "" : Long.toString(packetCreatedAt.toEpochMilli()));
    if (reply == -1L) {
      return Closing.NOT_YET;
    }
    if (reply == -2L) {
      return Closing.BUSY;
    }
    if (reply == -3L) {
      return Closing.HELD;
    }
    Invariants.check(reply >= 0, "packet %s: close replied %s", packetId, reply);
    return new Closing.Closed(Amount.fen(reply));
  }

  @Override
  public Optional<Map<String, Amount>> owedToOthers(
      long packetId, Instant packetCreatedAt, String userId) {
    String payouts = keys.payoutsOf(packetId);
    List<Object> reply =
        OWED.run(
            redis,
            ScriptOutputType.MULTI,
            new String[] {payouts, RedisKeys.deadLettersOf(payouts)},
            Long.toString(packetId),
            userId,
            Integer.toString(OWED_SCAN_MAX),
            packetCreatedAt == null ? "" : Long.toString(packetCreatedAt.toEpochMilli()));
    if (reply.size() == 1 && Long.valueOf(-2L).equals(reply.getFirst())) {
      return Optional.empty();
    }
    Invariants.check(reply.size() % 2 == 0, "packet %s: owed replied %s", packetId, reply);
    var owed = new LinkedHashMap<String, Amount>();
    for (int i = 0; i < reply.size(); i += 2) {
      long fen = (Long) reply.get(i + 1);
      Invariants.check(fen >= 0, "packet %s: owed replied %s", packetId, reply);
      owed.put((String) reply.get(i), Amount.fen(fen));
    }
    return Optional.of(owed);
  }

  @Override
  public List<Recovered> recover(long packetId, List<GrabRecord> grabs, boolean claimed) {
    if (grabs.isEmpty()) {
      return List.of();
    }
    String[] scriptKeys =
        withActivity(
            packetId,
            keys.meta(packetId),
            keys.shares(packetId),
            keys.grabs(packetId),
            keys.payoutsOf(packetId));
    var args = new ArrayList<String>(2 + 3 * grabs.size());
    args.add(claimed ? "CLAIM" : "RESTORE");
    args.add(Long.toString(packetId));
    for (GrabRecord grab : grabs) {
      args.add(grab.userId());
      args.add(Long.toString(grab.amount().fen()));
      args.add(Long.toString(grab.at().toEpochMilli()));
    }
    List<Object> replies =
        RECOVER.run(redis, ScriptOutputType.MULTI, scriptKeys, args.toArray(String[]::new));
    Invariants.check(
        replies.size() == grabs.size(), "packet %s: recover replied %s", packetId, replies);
    var results = new ArrayList<Recovered>(replies.size());
    for (Object each : replies) {
      List<?> reply = (List<?>) each;
      results.add(
          switch ((String) reply.get(0)) {
            case "RECOVERED" ->
                new Recovered.Done(
                    Amount.fen((Long) reply.get(1)), Math.toIntExact((Long) reply.get(2)));
            case "ALREADY_GRABBED" -> new Recovered.AlreadyThere(Amount.fen((Long) reply.get(1)));
            case "EXHAUSTED" -> Recovered.EXHAUSTED;
            case "LIMIT_REACHED" -> Recovered.OVER_LIMIT;
            case "REFUNDED" -> Recovered.REFUNDED;
            case "CLOSED" -> Recovered.CLOSED;
            case "NOT_FOUND" -> Recovered.MISSING;
            default -> throw new Invariants.InvariantViolation("unknown recover reply " + reply);
          });
    }
    return results;
  }

  @Override
  public boolean hold(long packetId, Instant createdAt) {
    Long reply =
        HOLD.run(
            redis,
            ScriptOutputType.INTEGER,
            new String[] {keys.meta(packetId)},
            Long.toString(createdAt.toEpochMilli()));
    return reply == 1L;
  }

  /**
   * Redis's run id, a new one at every start of the server; on a cluster the set of the masters'
   * run ids, which changes when any master restarts or a replica takes over (moving slots between
   * masters loses nothing and changes nothing).
   */
  @Override
  public String generation() {
    return redis.generation();
  }

  @Override
  public Optional<PacketState> state(long packetId) {
    String[] scriptKeys = {keys.meta(packetId), keys.shares(packetId), keys.grabs(packetId)};
    List<Object> reply = STATE.run(redis, ScriptOutputType.MULTI, scriptKeys);
    if (reply.isEmpty()) {
      return Optional.empty();
    }
    Map<String, String> meta = pairs(reply.get(0));
    Map<String, String> grabs = pairs(reply.get(1));
    Amount available = Amount.fen((Long) reply.get(2));
    return Optional.of(toState(packetId, meta, grabs, available));
  }

  private static PacketState toState(
      long packetId, Map<String, String> meta, Map<String, String> grabs, Amount available) {
    var records = new ArrayList<GrabRecord>(grabs.size());
    grabs.forEach((user, value) -> records.add(parseGrab(user, value)));
    records.sort(Comparator.comparingInt(GrabRecord::seq));
    String emptiedAt = meta.getOrDefault("emptiedAt", "");
    boolean closed = "C".equals(meta.get("status"));
    Amount remainder = closed ? Amount.fen(Long.parseLong(meta.get("rem"))) : Amount.ZERO;
    var state =
        new PacketState(
            packetId,
            Amount.fen(Long.parseLong(meta.get("total"))),
            Integer.parseInt(meta.get("count")),
            Integer.parseInt(meta.get("taken")),
            Amount.fen(Long.parseLong(meta.get("takenAmount"))),
            available,
            closed,
            remainder,
            emptiedAt.isEmpty() ? null : Instant.ofEpochMilli(Long.parseLong(emptiedAt)),
            records);
    Invariants.check(
        state.grabs().size() == state.taken(),
        "packet %s: %s grabs recorded, %s taken",
        packetId,
        state.grabs().size(),
        state.taken());
    return state;
  }

  private static GrabRecord parseGrab(String user, String value) {
    String[] parts = value.split("\\|", -1);
    Invariants.check(parts.length == 3, "malformed grab %s of %s", value, user);
    return new GrabRecord(
        user,
        Amount.fen(Long.parseLong(parts[0])),
        Instant.ofEpochMilli(Long.parseLong(parts[1])),
        Integer.parseInt(parts[2]));
  }

  private static Map<String, String> pairs(Object flat) {
    List<?> list = (List<?>) flat;
    var map = new LinkedHashMap<String, String>(list.size());
    for (int i = 0; i + 1 < list.size(); i += 2) {
      map.put((String) list.get(i), (String) list.get(i + 1));
    }
    return map;
  }

  @Override
  public Map<Long, Amount> pendingOf(String userId) {
    Map<String, String> raw;
    try {
      raw = redis.sync().hgetall(keys.pending(userId));
    } catch (RuntimeException e) {
      throw RedisFaults.translate(e);
    }
    var pending = new HashMap<Long, Amount>(raw.size());
    raw.forEach(
        (packet, fen) -> pending.put(Long.parseLong(packet), Amount.fen(Long.parseLong(fen))));
    return pending;
  }
}
