package hongbao.redis.campaign;

import hongbao.core.Invariants;
import hongbao.core.campaign.Campaign;
import hongbao.core.campaign.PrizePools;
import hongbao.core.campaign.Round;
import hongbao.core.campaign.SubPools;
import hongbao.redis.LuaScript;
import hongbao.redis.RedisLink;
import hongbao.redis.ScriptReply;
import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScriptOutputType;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.function.BiConsumer;

/**
 * The rain's prize pools on Redis (standalone or cluster): sub-pool {@code j} of every round lives
 * in home slot {@code j} (see {@link RainKeys}); the scripts are {@code rain_*.lua}. Thread-safe.
 */
public final class RedisPrizePools implements PrizePools {

  private static final LuaScript ARM = LuaScript.fromResource("rain_arm.lua");
  private static final LuaScript TAP = LuaScript.fromResource("rain_tap.lua");
  private static final LuaScript DRAW = LuaScript.fromResource("rain_draw.lua");
  private static final LuaScript RELEASE = LuaScript.fromResource("rain_release.lua");
  private static final LuaScript SETTLE = LuaScript.fromResource("rain_settle.lua");
  private static final LuaScript REHOLD = LuaScript.fromResource("rain_rehold.lua");
  private static final LuaScript RESTORE = LuaScript.fromResource("rain_restore.lua");
  private static final LuaScript COUNT = LuaScript.fromResource("rain_count.lua");
  private static final LuaScript SEAL = LuaScript.fromResource("rain_seal.lua");
  private static final LuaScript CLOSE = LuaScript.fromResource("rain_close.lua");

  private final RedisLink redis;
  private final RainKeys keys;

  public RedisPrizePools(RedisLink redis, String prefix) {
    this.redis = redis;
    this.keys = new RainKeys(prefix);
  }

  @Override
  public List<String> arm(Campaign campaign, String nonce) {
    var markers = new ArrayList<String>(campaign.homePools());
    for (int j = 0; j < campaign.homePools(); j++) {
      var keyList = new ArrayList<String>();
      var args = new ArrayList<String>();
      keyList.add(keys.armed(campaign, j));
      args.add(Integer.toString(campaign.rounds().size()));
      for (Round round : campaign.rounds()) {
        keyList.add(keys.pool(campaign, j, round.number()));
        args.add(Integer.toString(round.prizes().size()));
        for (int line = 0; line < round.prizes().size(); line++) {
          long share =
              j < round.subPools()
                  ? SubPools.share(round.prizes().get(line), line, j, round.subPools())
                  : 0;
          args.add(Long.toString(share));
        }
      }
      args.add(nonce);
      String marker =
          ARM.run(
              redis,
              ScriptOutputType.VALUE,
              keyList.toArray(String[]::new),
              args.toArray(String[]::new));
      markers.add(marker);
    }
    return markers;
  }

  @Override
  public void close(Campaign campaign, String nonce) {
    for (int j = 0; j < campaign.homePools(); j++) {
      CLOSE.run(redis, ScriptOutputType.VALUE, new String[] {keys.armed(campaign, j)}, nonce);
    }
  }

  @Override
  public boolean seal(Campaign campaign, List<String> markers) {
    boolean open = true;
    for (int j = 0; j < campaign.homePools(); j++) {
      if (!OPEN.equals(markers.get(j))) {
        Long sealed =
            SEAL.run(
                redis,
                ScriptOutputType.INTEGER,
                new String[] {keys.armed(campaign, j)},
                markers.get(j));
        open &= sealed == 1;
      }
    }
    return open;
  }

  @Override
  public void discard(Campaign version) {
    for (int j = 0; j < version.homePools(); j++) {
      // One slot's keys share its tag, so one DEL per slot works on a cluster too.
      var slotKeys = new ArrayList<String>();
      slotKeys.add(keys.armed(version, j));
      for (Round round : version.rounds()) {
        slotKeys.add(keys.pool(version, j, round.number()));
      }
      slotKeys.add(keys.wins(version, j));
      slotKeys.add(keys.seq(version, j));
      slotKeys.add(keys.won(version, j));
      slotKeys.add(keys.held(version, j));
      redis.sync().del(slotKeys.toArray(String[]::new));
    }
  }

  @Override
  public boolean open(Campaign campaign) {
    var replies = new ArrayList<RedisFuture<String>>();
    for (int j = 0; j < campaign.homePools(); j++) {
      replies.add(redis.async().get(keys.armed(campaign, j)));
    }
    boolean open = true;
    for (RedisFuture<String> reply : replies) {
      open &= OPEN.equals(await(reply));
    }
    return open;
  }

  @Override
  public Restored restore(
      Campaign campaign,
      Round round,
      int pool,
      String tradeNo,
      String userId,
      List<Integer> lines) {
    var args = new ArrayList<String>();
    args.add(tradeNo);
    args.add(Integer.toString(round.number()));
    args.add(userId);
    lines.forEach(line -> args.add(Integer.toString(line)));
    Long line =
        RESTORE.run(
            redis,
            ScriptOutputType.INTEGER,
            new String[] {keys.pool(campaign, pool, round.number()), keys.won(campaign, pool)},
            args.toArray(String[]::new));
    return line >= 0 ? Restored.TAKEN : line == -2 ? Restored.ALREADY : Restored.DRY;
  }

  @Override
  public void raiseCounts(Campaign campaign, String userId, long wins, long lastSeq) {
    int home = SubPools.home(userId, campaign.homePools());
    COUNT.run(
        redis,
        ScriptOutputType.INTEGER,
        new String[] {keys.wins(campaign, home), keys.seq(campaign, home)},
        userId,
        Long.toString(wins),
        Long.toString(lastSeq));
  }

  @Override
  public HomeReply tap(
      Campaign campaign,
      Round round,
      String userId,
      String tradeNoPrefix,
      long nowMillis,
      boolean draw,
      double u) {
    String[] scriptKeys = tapKeys(campaign, round, userId, nowMillis);
    String[] args = tapArgs(campaign, round, userId, tradeNoPrefix, nowMillis, draw, u);
    return homeReply(TAP.run(redis, ScriptOutputType.VALUE, scriptKeys, args));
  }

  @Override
  public CompletionStage<HomeReply> tapAsync(
      Campaign campaign,
      Round round,
      String userId,
      String tradeNoPrefix,
      long nowMillis,
      boolean draw,
      double u) {
    String[] scriptKeys = tapKeys(campaign, round, userId, nowMillis);
    String[] args = tapArgs(campaign, round, userId, tradeNoPrefix, nowMillis, draw, u);
    return TAP.<String>runAsync(redis, ScriptOutputType.VALUE, scriptKeys, args)
        .thenApply(RedisPrizePools::homeReply);
  }

  private String[] tapKeys(Campaign campaign, Round round, String userId, long nowMillis) {
    int home = SubPools.home(userId, campaign.homePools());
    int roundNumber = round == null ? 0 : round.number();
    long nowSecond = Math.floorDiv(nowMillis, 1_000);
    return new String[] {
      keys.tapLog(campaign, home, userId),
      keys.wins(campaign, home),
      keys.seq(campaign, home),
      keys.pool(campaign, home, roundNumber),
      keys.won(campaign, home),
      keys.liveIn(campaign, home, roundNumber, nowSecond),
      keys.armed(campaign, home),
      keys.held(campaign, home)
    };
  }

  private static String[] tapArgs(
      Campaign campaign,
      Round round,
      String userId,
      String tradeNoPrefix,
      long nowMillis,
      boolean draw,
      double u) {
    return new String[] {
      userId,
      Integer.toString(campaign.tapsPerUserPerSecond()),
      round == null ? "0" : "1",
      Integer.toString(campaign.maxWinsPerUser()),
      draw ? "1" : "0",
      Double.toString(u),
      Integer.toString(round == null ? 0 : round.prizes().size()),
      tradeNoPrefix,
      Integer.toString(round == null ? 0 : round.number()),
      Long.toString(nowMillis)
    };
  }

  private static HomeReply homeReply(String reply) {
    return switch (ScriptReply.verdict(reply)) {
      case "RATE" -> new HomeReply.RateLimited();
      case "IDLE" -> new HomeReply.Idle();
      case "LOST" -> new HomeReply.Lost();
      case "LIMIT" -> new HomeReply.LimitReached();
      case "MISS" -> new HomeReply.Missed();
      case "WON" ->
          new HomeReply.Won(
              Math.toIntExact(ScriptReply.number(reply, 0)), ScriptReply.number(reply, 1));
      case "RESERVED" -> new HomeReply.Reserved(ScriptReply.number(reply, 0));
      default -> throw new Invariants.InvariantViolation("rain_tap.lua replied " + reply);
    };
  }

  @Override
  public int drawAt(
      Campaign campaign,
      Round round,
      int pool,
      String tradeNo,
      String userId,
      long nowSecond,
      double u) {
    Long line =
        DRAW.run(
            redis,
            ScriptOutputType.INTEGER,
            new String[] {
              keys.pool(campaign, pool, round.number()),
              keys.won(campaign, pool),
              keys.liveIn(campaign, pool, round.number(), nowSecond),
              keys.armed(campaign, pool)
            },
            Double.toString(u),
            Integer.toString(round.prizes().size()),
            tradeNo,
            Integer.toString(round.number()),
            userId);
    return line.intValue();
  }

  @Override
  public void release(Campaign campaign, String userId, long seq, String tradeNo) {
    int home = SubPools.home(userId, campaign.homePools());
    RELEASE.run(
        redis,
        ScriptOutputType.INTEGER,
        reservationKeys(campaign, home),
        userId,
        Long.toString(seq),
        tradeNo);
  }

  /**
   * What the scripts of a tail's reservation name, in this order: count, last number, marks, then
   * {@code more} of the same slot.
   */
  private String[] reservationKeys(Campaign campaign, int home, String... more) {
    var named = new String[3 + more.length];
    named[0] = keys.wins(campaign, home);
    named[1] = keys.seq(campaign, home);
    named[2] = keys.held(campaign, home);
    System.arraycopy(more, 0, named, 3, more.length);
    return named;
  }

  @Override
  public Rehold rehold(Campaign campaign, String userId, long seq, String tradeNo) {
    int home = SubPools.home(userId, campaign.homePools());
    String reply =
        REHOLD.run(
            redis,
            ScriptOutputType.VALUE,
            reservationKeys(campaign, home, keys.armed(campaign, home)),
            userId,
            Long.toString(seq),
            tradeNo,
            Integer.toString(campaign.maxWinsPerUser()));
    return switch (reply) {
      case "HELD" -> Rehold.HELD;
      case "LIMIT" -> Rehold.LIMIT_REACHED;
      case "TAKEN" -> Rehold.TAKEN;
      case "LOST" -> Rehold.LOST;
      default -> throw new Invariants.InvariantViolation("rain_rehold.lua replied " + reply);
    };
  }

  @Override
  public boolean settle(Campaign campaign, String userId, long seq, String tradeNo) {
    int home = SubPools.home(userId, campaign.homePools());
    Long kept =
        SETTLE.run(
            redis,
            ScriptOutputType.INTEGER,
            reservationKeys(campaign, home),
            userId,
            Long.toString(seq),
            tradeNo);
    return kept == 1;
  }

  @Override
  public String repairedGeneration() {
    return await(redis.async().get(keys.repaired()));
  }

  @Override
  public void markRepaired(String generation) {
    await(redis.async().set(keys.repaired(), generation));
  }

  @Override
  public Pulse pulse(Campaign campaign, Round round) {
    int lines = round.prizes().size();
    String[] fields = new String[lines + 1];
    fields[0] = "t";
    for (int line = 0; line < lines; line++) {
      fields[line + 1] = Integer.toString(line);
    }
    var replies = new ArrayList<RedisFuture<List<KeyValue<String, String>>>>();
    for (int j = 0; j < campaign.homePools(); j++) {
      replies.add(redis.async().hmget(keys.pool(campaign, j, round.number()), fields));
    }
    long taps = 0;
    long[] left = new long[lines];
    for (RedisFuture<List<KeyValue<String, String>>> reply : replies) {
      List<KeyValue<String, String>> values = await(reply);
      taps += number(values.get(0));
      for (int line = 0; line < lines; line++) {
        left[line] += number(values.get(line + 1));
      }
    }
    var leftList = new ArrayList<Long>(lines);
    for (long l : left) {
      leftList.add(l);
    }
    return new Pulse(taps, leftList);
  }

  @Override
  public List<Beat> beats(Campaign campaign, Round round, long fromSecond, int seconds) {
    var replies = new ArrayList<RedisFuture<List<KeyValue<String, String>>>>();
    for (int s = 0; s < seconds; s++) {
      for (int j = 0; j < campaign.homePools(); j++) {
        replies.add(
            redis
                .async()
                .hmget(keys.liveIn(campaign, j, round.number(), fromSecond + s), "t", "w"));
      }
    }
    var beats = new ArrayList<Beat>(seconds);
    int next = 0;
    for (int s = 0; s < seconds; s++) {
      long taps = 0;
      long wins = 0;
      for (int j = 0; j < campaign.homePools(); j++) {
        List<KeyValue<String, String>> values = await(replies.get(next++));
        taps += number(values.get(0));
        wins += number(values.get(1));
      }
      beats.add(new Beat(fromSecond + s, taps, wins));
    }
    return beats;
  }

  @Override
  public void forEachWin(Campaign campaign, BiConsumer<String, Win> each) {
    for (int j = 0; j < campaign.homePools(); j++) {
      redis.forEachInHash(
          keys.won(campaign, j),
          (tradeNo, record) -> {
            String[] parts = record.split("\\|", 3);
            each.accept(
                tradeNo, new Win(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]), parts[2]));
          });
    }
  }

  private static long number(KeyValue<String, String> value) {
    return value.hasValue() ? Long.parseLong(value.getValue()) : 0;
  }

  /** Sorted as every Redis reply is: an outage is {@link hongbao.core.Unavailable}, a bug not. */
  private <T> T await(RedisFuture<T> future) {
    return redis.await(future, "reading a prize pool");
  }
}
