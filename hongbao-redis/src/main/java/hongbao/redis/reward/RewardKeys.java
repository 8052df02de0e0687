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

  /** A backup topic: a reward stream. */
  public String stream(String topic) {
    return prefix + ":rwq:{" + topic + "}";
  }

  public String deadLetters(String topic) {
    return stream(topic) + ":dead";
  }

  public String parked(String type) {
    return prefix + ":rwp:{" + type + "}";
  }

  public String parkedTypes() {
    return prefix + ":rwp:types";
  }

  public String failures() {
    return prefix + ":rw:failed";
  }
}
