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

  public static final PacketLimits DEFAULTS =
      new PacketLimits(10_000, 20_000_000L, 604_800L, 86_400L, 64, 64);

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
