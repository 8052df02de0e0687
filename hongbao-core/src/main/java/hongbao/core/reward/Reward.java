package hongbao.core.reward;

import hongbao.core.money.Amount;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;

/**
 * One reward as it was accepted: what the encrypted token carries and what the queues carry. {@code
 * tradeNo} is the global idempotency key; {@link #digest()} identifies the request (every field but
 * the time it was accepted), so a replay with another body is recognised.
 */
public record Reward(
    String tradeNo,
    String userId,
    String campaignId,
    String scene,
    String type,
    Amount amount,
    String desc,
    Instant awardedAt) {

  public Reward {
    RewardRules.check(tradeNo, userId, campaignId, scene, type, amount.fen(), desc);
  }

  /**
   * SHA-256 over the request's fields, each preceded by its length in chars, so that no two
   * different requests share an encoding. Chars are hashed as two bytes each: no charset needed.
   */
  public String digest() {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      for (String field :
          new String[] {
            tradeNo, userId, campaignId, scene, type, Long.toString(amount.fen()), desc
          }) {
        update(sha, field.length());
        for (int i = 0; i < field.length(); i++) {
          char c = field.charAt(i);
          sha.update((byte) (c >>> 8));
          sha.update((byte) c);
        }
      }
      return HexFormat.of().formatHex(sha.digest(), 0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every JVM", e);
    }
  }

  private static void update(MessageDigest sha, int value) {
    sha.update((byte) (value >>> 24));
    sha.update((byte) (value >>> 16));
    sha.update((byte) (value >>> 8));
    sha.update((byte) value);
  }

  /** The ledger's unique transfer key for a CASH reward. */
  public String transferKey() {
    return "reward:" + tradeNo;
  }
}
