package hongbao.redis.campaign;

import java.util.Locale;

/**
 * The Redis keys of the red-packet rain. Everything of one home slot {@code j} of a campaign
 * carries the tag {@code {cp:<campaign>:<j>}}: its sub-pool of every round, the win counters and
 * win numbers of the users whose home it is, the recorded wins, the per-second tap counters — so
 * one script on one slot sees all it needs, on one server or a cluster. Immutable.
 */
final class RainKeys {

  private final String prefix;

  RainKeys(String prefix) {
    this.prefix = prefix;
  }

  private String tag(String campaignId, int pool) {
    return String.format(Locale.ROOT, "%s:cp:{cp:%s:%d}", prefix, campaignId, pool);
  }

  String armed(String campaignId, int pool) {
    return tag(campaignId, pool) + ":armed";
  }

  String pool(String campaignId, int pool, int round) {
    return tag(campaignId, pool) + ":r" + round;
  }

  String wins(String campaignId, int pool) {
    return tag(campaignId, pool) + ":wins";
  }

  String seq(String campaignId, int pool) {
    return tag(campaignId, pool) + ":seq";
  }

  String won(String campaignId, int pool) {
    return tag(campaignId, pool) + ":won";
  }

  /** The round's taps and wins counted in this slot in one second (for the live view). */
  String liveIn(String campaignId, int pool, int round, long second) {
    return tag(campaignId, pool) + ":live:" + round + ":" + second;
  }

  String tapsIn(String campaignId, int pool, long second) {
    return tag(campaignId, pool) + ":tps:" + second;
  }
}
