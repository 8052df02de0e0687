package hongbao.app.settings;

import hongbao.core.ops.InstallSettings;

/**
 * The layout of an install's Redis data, kept with the install as its packet id alphabet is.
 *
 * <p>A packet lives under the shard tag of its id modulo {@code HONGBAO_SHARDS}, and so do its
 * payout tasks' streams. Instances that disagree on the count look for a packet where it is not and
 * re-arm it there from the ledger, selling its unpaid shares a second time; an instance with fewer
 * shards never reads the payout streams of the others, and closes their packets as if no payout
 * were waiting, refunding the grabbers' money to the sender. So the first start of an install
 * stores its count, and a start with another count stops instead: changing it needs the data moved.
 */
public final class InstallLayout {

  /** The install setting holding the shard count. */
  public static final String SHARDS = "redis.shards";

  private InstallLayout() {}

  /**
   * {@code configured}, stored for the install if it has no count yet.
   *
   * @throws IllegalStateException when the install's data is laid out in another count
   */
  public static int shards(int configured, InstallSettings settings) {
    String stored = settings.keep(SHARDS, Integer.toString(configured));
    if (!stored.equals(Integer.toString(configured))) {
      throw new IllegalStateException(
          "HONGBAO_SHARDS="
              + configured
              + " differs from the "
              + stored
              + " shards this install's Redis data is laid out in: set HONGBAO_SHARDS="
              + stored
              + " (another count would look for packets and payouts where they are not)");
    }
    return configured;
  }
}
