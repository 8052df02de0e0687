package hongbao.core.split;

import hongbao.core.Invariants;
import hongbao.core.money.Amount;

/**
 * The limits every split shares: at least one fen per share, at most {@code capFen} per share, a
 * bounded count and amount. Requests outside them are rejected with a message that says which limit
 * failed; results are checked before they leave a policy.
 */
public final class ShareBounds {

  /** No packet is split into more shares than this, whatever the packet limits say. */
  public static final int MAX_COUNT = 1_000_000;

  /** Amounts stay far below 2^53 so the grab script's doubles hold them exactly. */
  public static final long MAX_AMOUNT_FEN = Amount.MAX_FEN;

  private ShareBounds() {}

  /**
   * Rejects an impossible request.
   *
   * @throws IllegalArgumentException naming the limit that fails
   */
  public static void check(long amountFen, int count, long capFen) {
    if (count < 1 || count > MAX_COUNT) {
      throw new IllegalArgumentException(
          "share count must be between 1 and " + MAX_COUNT + ", was " + count);
    }
    if (amountFen > MAX_AMOUNT_FEN) {
      throw new IllegalArgumentException(
          "amount " + amountFen + " fen is above the maximum of " + MAX_AMOUNT_FEN + " fen");
    }
    if (amountFen < count) {
      throw new IllegalArgumentException(
          "amount "
              + amountFen
              + " fen cannot give "
              + count
              + " shares of at least 1 fen each (amount must be >= count)");
    }
    if (capFen < 1) {
      throw new IllegalArgumentException("cap per share must be at least 1 fen, was " + capFen);
    }
    if (!fitsUnderCap(amountFen, count, capFen)) {
      throw new IllegalArgumentException(
          "amount "
              + amountFen
              + " fen cannot be split into "
              + count
              + " shares of at most "
              + capFen
              + " fen each (cap x count must be >= amount)");
    }
  }

  /** {@code amount <= cap * count}, without overflowing when the cap is huge. */
  static boolean fitsUnderCap(long amountFen, long count, long capFen) {
    return Math.ceilDiv(amountFen, count) <= capFen;
  }

  /** Fails loudly when a policy broke its contract: that is a bug, not a bad request. */
  static long[] verified(String policy, long[] shares, long amountFen, int count, long capFen) {
    Invariants.check(
        shares.length == count, "%s gave %d shares, not %d", policy, shares.length, count);
    long sum = 0;
    for (long share : shares) {
      Invariants.check(
          share >= 1 && share <= capFen,
          "%s gave a share of %d fen (cap %d)",
          policy,
          share,
          capFen);
      sum += share;
    }
    Invariants.check(sum == amountFen, "%s shares sum to %d, not %d", policy, sum, amountFen);
    return shares;
  }
}
