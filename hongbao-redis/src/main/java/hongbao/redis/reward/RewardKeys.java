package hongbao.redis.reward;

import java.util.Locale;

/**
 * The Redis key layout of the reward pipeline. Keys that a script touches together share a hash
 * tag, so the layout works unchanged on Redis Cluster: a budget key and its trades ({@code
 * {<campaign>:<k>}}), a user's token copies ({@code {<user>}}), a type's bucket ({@code {<type>}}).
 * Immutable.
 */
public final class RewardKeys {

  private final String prefix;

  public RewardKeys(String prefix) {
    if (prefix.isEmpty() || prefix.contains("{") || prefix.contains("}")) {
      throw new IllegalArgumentException("prefix must be non-empty without braces: " + prefix);
    }
    this.prefix = prefix;
  }

  /** campaignId -> "budget|keys": which campaigns have a budget, and over how many keys. */
  public String campaigns() {
    return prefix + ":rw:campaigns";
  }

  public String budget(String campaignId, int key) {
    return String.format(Locale.ROOT, "%s:rwb:{%s:%d}", prefix, campaignId, key);
  }

  public String trades(String campaignId, int key) {
    return budget(campaignId, key) + ":t";
  }

  /** The token copies of one user in one campaign: tradeNo -> token. */
  public String tokens(String userId, String campaignId) {
    return prefix + ":rwt:{" + userId + "}:" + campaignId;
  }

  /** The campaigns in which a user has token copies. */
  public String tokenCampaigns(String userId) {
    return prefix + ":rwt:{" + userId + "}";
  }

  public String types() {
    return prefix + ":rw:types";
  }

  public String bucket(String type) {
    return prefix + ":rwr:{" + type + "}";
  }

  /** The type's tokens taken in one second of the clock (a short-lived counter). */
  public String issuedIn(String type, long second) {
    return bucket(type) + ":issued:" + second;
  }

  /** A backup topic: a reward stream. */
  public String stream(String topic) {
    return prefix + ":rwq:{" + topic + "}";
  }

  /**
   * The streams of a Redis topic split {@code n} ways: {@code n == 1} is {@link #stream} itself;
   * more are {@code {<topic>:<i>}}, so that a cluster spreads them over slots (and masters).
   */
  public java.util.List<String> streams(String topic, int n) {
    if (n < 1 || n > MAX_STREAMS_PER_TOPIC) {
      throw new IllegalArgumentException("streams per topic must be 1.." + MAX_STREAMS_PER_TOPIC);
    }
    if (n == 1) {
      return java.util.List.of(stream(topic));
    }
    var streams = new java.util.ArrayList<String>(n);
    for (int i = 0; i < n; i++) {
      streams.add(String.format(Locale.ROOT, "%s:rwq:{%s:%d}", prefix, topic, i));
    }
    return java.util.List.copyOf(streams);
  }

  public static final int MAX_STREAMS_PER_TOPIC = 1_024;

  public String parked(String type) {
    return prefix + ":rwp:{" + type + "}";
  }

  /** Who sends a type's parked rewards back: a lease, in the slot of the type's stream. */
  public String unparking(String type) {
    return parked(type) + ":unparking";
  }

  public String parkedTypes() {
    return prefix + ":rwp:types";
  }

  /** One bucket of the tradeNo claims: tradeNo -> the campaign that holds it. */
  public String tradeClaims(int bucket) {
    return prefix + ":rwn:{" + bucket + "}";
  }

  /**
   * Beside {@link #tradeClaims}, in its slot: tradeNo -> the claiming request's digest. A key of
   * its own, so that the claims keep the shape every earlier version reads.
   */
  public String tradeClaimDigests(int bucket) {
    return tradeClaims(bucket) + ":d";
  }

  public String failures() {
    return prefix + ":rw:failed";
  }
}
