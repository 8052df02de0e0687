package hongbao.redis.campaign;

import hongbao.core.campaign.Campaign;

/**
 * The Redis keys of the red-packet rain. Everything of one home slot {@code j} of a campaign
 * carries the tag {@code {cp:<campaign>:<j>}}: its sub-pool of every round, the win counters and
 * win numbers of the users whose home it is, the recorded wins, the users' tap logs — so one script
 * on one slot sees all it needs, on one server or a cluster. An edited campaign's version {@code v}
 * ≥ 2 has keys of its own under {@code {cp:<campaign>:<j>:v<v>}}, so the pools of two versions
 * never mix (an arming of an old version writes nothing the new one reads); version 1 keeps the
 * original tag, so the keys of campaigns created before versions existed are still found.
 * Immutable.
 */
final class RainKeys {

  private final String prefix;

  RainKeys(String prefix) {
    this.prefix = prefix;
  }

  /** Concatenated, not formatted: every tap builds a few of these. */
  private String tag(Campaign campaign, int pool) {
    String version = campaign.version() == 1 ? "" : ":v" + campaign.version();
    return prefix + ":cp:{cp:" + campaign.id() + ":" + pool + version + "}";
  }

  String armed(Campaign campaign, int pool) {
    return tag(campaign, pool) + ":armed";
  }

  String pool(Campaign campaign, int pool, int round) {
    return tag(campaign, pool) + ":r" + round;
  }

  String wins(Campaign campaign, int pool) {
    return tag(campaign, pool) + ":wins";
  }

  String seq(Campaign campaign, int pool) {
    return tag(campaign, pool) + ":seq";
  }

  String won(Campaign campaign, int pool) {
    return tag(campaign, pool) + ":won";
  }

  /** The tail's reservations, marked with the count that holds them. */
  String held(Campaign campaign, int pool) {
    return tag(campaign, pool) + ":held";
  }

  /** The Redis generation after whose restart the pools were last repaired. */
  String repaired() {
    return prefix + ":cp:repaired";
  }

  /** The round's taps and wins counted in this slot in one second (for the live view). */
  String liveIn(Campaign campaign, int pool, int round, long second) {
    return tag(campaign, pool) + ":live:" + round + ":" + second;
  }

  /** The times of a user's last taps let through, for the per-user tap limit. */
  String tapLog(Campaign campaign, int pool, String userId) {
    return tag(campaign, pool) + ":tl:" + userId;
  }
}
