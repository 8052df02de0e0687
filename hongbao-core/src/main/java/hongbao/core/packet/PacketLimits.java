package hongbao.core.packet;

/**
 * The configurable bounds of a send request. The defaults are the API contract's; a benchmark may
 * raise {@code maxCount} for a hot packet.
 */
public record PacketLimits(
    int maxCount,
    long maxAmountFen,
    long maxExpirySeconds,
    long defaultExpirySeconds,
    int maxGreetingLength,
    int maxPasswordLength) {

  /**
   * The most shares any packet can have, whatever is configured: the grab store arms a packet in
   * one script call, which must stay a reasonable one. The one definition of this cap.
   */
  public static final int COUNT_CEILING = 100_000;

  public static final PacketLimits DEFAULTS =
      new PacketLimits(10_000, 20_000_000L, 604_800L, 86_400L, 64, 64);

  public PacketLimits {
    if (maxCount < 1 || maxCount > COUNT_CEILING) {
      throw new IllegalArgumentException(
          "the largest count must be 1.." + COUNT_CEILING + ": " + maxCount);
    }
  }

  public PacketLimits withMaxCount(int count) {
    return new PacketLimits(
        count,
        maxAmountFen,
        maxExpirySeconds,
        defaultExpirySeconds,
        maxGreetingLength,
        maxPasswordLength);
  }
}
