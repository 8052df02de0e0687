package hongbao.redis;

import hongbao.core.packet.Packet;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The Redis key layout. Every key of a packet, and the payout stream its grabs feed, carries the
 * packet's shard tag {@code {sNNN}}, so one Lua script only ever touches one hash slot and the
 * layout works unchanged on Redis Cluster. A user's pending hash has its own tag {@code {u:<id>}}.
 *
 * <p>A packet of an activity takes its shard from the activity, not from its own id, and so shares
 * the slot of the activity's counts ({@code {sNNN}:a:<activity>}): the grab script checks and
 * raises a user's count in the same atomic step as the grab, on one Redis or on a cluster. The
 * packet id carries its activity (see {@link Packet#activityOf}), so every key of a packet still
 * follows from the packet id alone.
 *
 * <p>The prefix is {@code hb} in production; tests use their own prefix so that they can share a
 * Redis server without seeing each other's streams. Immutable and thread-safe.
 */
public final class RedisKeys {

  public static final int DEFAULT_SHARDS = 1024;
  public static final String DEFAULT_PREFIX = "hb";

  /** Bounded so that one XREADGROUP over every stream stays a reasonable command. */
  public static final int MAX_SHARDS = 16_384;

  private final int shards;
  private final String prefix;

  public RedisKeys(int shards, String prefix) {
    if (shards < 1 || shards > MAX_SHARDS) {
      throw new IllegalArgumentException("shards must be 1.." + MAX_SHARDS + ": " + shards);
    }
    if (prefix.isEmpty() || prefix.contains("{") || prefix.contains("}")) {
      throw new IllegalArgumentException("prefix must be non-empty without braces: " + prefix);
    }
    this.shards = shards;
    this.prefix = prefix;
    this.shardBases = new String[shards];
    for (int shard = 0; shard < shards; shard++) {
      shardBases[shard] = prefix + ":" + shardTag(shard) + ":";
    }
  }

  public RedisKeys(int shards) {
    this(shards, DEFAULT_PREFIX);
  }

  public static RedisKeys defaults() {
    return new RedisKeys(DEFAULT_SHARDS);
  }

  public int shards() {
    return shards;
  }

  public int shardOf(long packetId) {
    long activity = Packet.activityOf(packetId);
    return activity != 0 ? shardOfActivity(activity) : (int) Math.floorMod(packetId, (long) shards);
  }

  public int shardOfActivity(long activityId) {
    return (int) Math.floorMod(activityId, (long) shards);
  }

  /** The hash tag shared by every key of the shard, e.g. {@code {s017}}. */
  public static String shardTag(int shard) {
    return String.format(Locale.ROOT, "{s%03d}", shard);
  }

  /**
   * {@code <prefix>:<tag>:} of every shard, made once: a grab names five keys, and formatting the
   * tag each time showed in the grab's profile.
   */
  private final String[] shardBases;

  private String shardBase(int shard) {
    return shardBases[shard];
  }

  private String packetBase(long packetId) {
    return shardBase(shardOf(packetId)) + "p:" + packetId;
  }

  public String meta(long packetId) {
    return packetBase(packetId);
  }

  public String shares(long packetId) {
    return packetBase(packetId) + ":shares";
  }

  public String grabs(long packetId) {
    return packetBase(packetId) + ":grabs";
  }

  public String eligible(long packetId) {
    return packetBase(packetId) + ":elig";
  }

  /**
   * An activity's counts: a hash from user id to the ids of the activity's packets the user grabbed
   * ("p1,p2"), plus the field {@code #} that marks the counts as present.
   */
  public String activityGrabs(long activityId) {
    return shardBase(shardOfActivity(activityId)) + "a:" + activityId;
  }

  public String payouts(int shard) {
    return shardBase(shard) + "payouts";
  }

  public String payoutsOf(long packetId) {
    return payouts(shardOf(packetId));
  }

  public String deadLetters(int shard) {
    return payouts(shard) + ":dead";
  }

  /** The dead-letter stream in the same slot as a payout stream. */
  public static String deadLettersOf(String payoutStream) {
    return payoutStream + ":dead";
  }

  public static boolean isDeadLetters(String stream) {
    return stream.endsWith(":dead");
  }

  public String pending(String userId) {
    return prefix + ":{u:" + userId + "}:pending";
  }

  public String switches() {
    return prefix + ":switches";
  }

  public List<String> allPayoutStreams() {
    var streams = new ArrayList<String>(shards);
    for (int shard = 0; shard < shards; shard++) {
      streams.add(payouts(shard));
    }
    return streams;
  }

  public List<String> allDeadLetterStreams() {
    var streams = new ArrayList<String>(shards);
    for (int shard = 0; shard < shards; shard++) {
      streams.add(deadLetters(shard));
    }
    return streams;
  }

  /** A glob matching every key under this prefix; for test clean-up. */
  public String everythingPattern() {
    return prefix + ":*";
  }
}
