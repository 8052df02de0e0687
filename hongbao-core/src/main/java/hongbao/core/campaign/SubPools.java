package hongbao.core.campaign;

/**
 * How a round's prizes are spread over Redis sub-pools (each in its own hash slot) and which
 * sub-pool is a user's home.
 *
 * <p>A round gets one sub-pool per {@value #PRIZES_PER_SUB_POOL} prizes (at least 1, at most
 * {@value #MAX_SUB_POOLS}): 100,000 prizes → 16 sub-pools, 10,000,000 → 1,024 of about 9,800 each.
 * A sub-pool holds counts per prize line, not the prizes themselves, so its size never grows with
 * the round; the split only spreads the taps, which is what makes one key hot.
 *
 * <p>A user's home is {@code hash(userId) mod homePools} for the whole campaign, where homePools is
 * the largest round's sub-pool count. The home holds the user's win counter; in a round with as
 * many sub-pools, the home is also where the user draws, so the limit check and the draw are one
 * script on one slot.
 */
public final class SubPools {

  public static final long PRIZES_PER_SUB_POOL = 6_250;
  public static final int MAX_SUB_POOLS = 1_024;

  private SubPools() {}

  public static int forPrizes(long prizes) {
    long pools = (prizes + PRIZES_PER_SUB_POOL - 1) / PRIZES_PER_SUB_POOL;
    return (int) Math.max(1, Math.min(MAX_SUB_POOLS, pools));
  }

  /**
   * How many of line {@code line}'s prizes sub-pool {@code pool} of {@code pools} holds: an even
   * split, the remainder one each to the sub-pools after the line's own offset, so that lines with
   * few prizes do not all land in sub-pool 0.
   */
  public static long share(PrizeLine prize, int line, int pool, int pools) {
    long base = prize.count() / pools;
    long extra = prize.count() % pools;
    return base + (Math.floorMod(pool - line, pools) < extra ? 1 : 0);
  }

  /**
   * The user's home sub-pool: FNV-1a over the id's characters (user ids are ASCII, so these are its
   * bytes), stable across JVMs and instances.
   */
  public static int home(String userId, int homePools) {
    int hash = 0x811c9dc5;
    for (int i = 0; i < userId.length(); i++) {
      hash ^= userId.charAt(i);
      hash *= 0x01000193;
    }
    return Math.floorMod(hash, homePools);
  }
}
