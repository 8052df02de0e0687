package hongbao.sdk;

/**
 * What is given: {@code tradeNo} is the global idempotency key (the caller builds it from the
 * activity and the user, e.g. {@code <campaign>_<round>_<user>_<n>}), {@code amount} in fen for
 * CASH or a count for coupons and items, {@code desc} at most 48 bytes of UTF-8.
 */
public record Bonus(String tradeNo, String type, long amount, String desc) {}
