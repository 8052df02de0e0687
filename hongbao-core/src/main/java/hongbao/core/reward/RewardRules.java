package hongbao.core.reward;

import hongbao.core.RejectedException;
import hongbao.core.Rejection;
import hongbao.core.Text;
import hongbao.core.packet.SendRules;
import java.util.regex.Pattern;

/**
 * The limits of a reward request, in one place. They are tight because the encrypted token carries
 * every field and must stay within 512 characters: with these maxima the body is at most 294 bytes,
 * sealed 327, base64 436 characters, plus the user id prefix (65): 501.
 */
public final class RewardRules {

  public static final Pattern TRADE_NO = Pattern.compile("[A-Za-z0-9_.:-]{1,128}");
  public static final Pattern CAMPAIGN_ID = Pattern.compile("[A-Za-z0-9_.:-]{1,32}");
  public static final Pattern SCENE = Pattern.compile("[A-Za-z0-9_.:-]{0,32}");
  public static final int DESC_MAX_UTF8_BYTES = 48;
  public static final long AMOUNT_MAX = 100_000_000_000L;

  /** Campaign budgets are bounded like top-ups: 1 fen to 1 billion yuan. */
  public static final long BUDGET_MAX = 100_000_000_000L;

  private RewardRules() {}

  static void check(
      String tradeNo,
      String userId,
      String campaignId,
      String scene,
      String type,
      long amount,
      String desc) {
    if (tradeNo == null || !TRADE_NO.matcher(tradeNo).matches()) {
      throw invalid("tradeNo must be 1-128 characters of [A-Za-z0-9_.:-]");
    }
    if (!SendRules.isUserId(userId)) {
      throw invalid("userId must be 1-64 characters of [A-Za-z0-9_.@-]");
    }
    if (campaignId == null || !CAMPAIGN_ID.matcher(campaignId).matches()) {
      throw invalid("campaignId must be 1-32 characters of [A-Za-z0-9_.:-]");
    }
    if (scene == null || !SCENE.matcher(scene).matches()) {
      throw invalid("scene must be at most 32 characters of [A-Za-z0-9_.:-]");
    }
    if (type == null || !RewardType.NAME.matcher(type).matches()) {
      throw invalid("type must be 1-32 characters of [A-Z0-9_]");
    }
    if (desc == null || utf8Bytes(desc) > DESC_MAX_UTF8_BYTES) {
      throw invalid("desc must be at most " + DESC_MAX_UTF8_BYTES + " bytes of UTF-8");
    }
    if (amount < 1 || amount > AMOUNT_MAX) {
      throw new RejectedException(
          Rejection.INVALID_AMOUNT, "amount must be between 1 and " + AMOUNT_MAX);
    }
  }

  /**
   * A request's free text is held to the HTTP API's rule ({@link Text}): an SDK caller may cut a
   * string mid-character. Checked where a request comes in, not on rewards decoded from queues and
   * tokens.
   */
  static void checkText(String desc) {
    Text.fault(desc)
        .ifPresent(
            fault -> {
              throw invalid("desc " + fault);
            });
  }

  static void checkCampaign(String campaignId, long budget) {
    if (campaignId == null || !CAMPAIGN_ID.matcher(campaignId).matches()) {
      throw invalid("campaignId must be 1-32 characters of [A-Za-z0-9_.:-]");
    }
    if (budget < 1 || budget > BUDGET_MAX) {
      throw new RejectedException(
          Rejection.INVALID_AMOUNT, "budget must be between 1 and " + BUDGET_MAX);
    }
  }

  /** The UTF-8 length of a string, counted without a charset (surrogate pairs are 4 bytes). */
  static int utf8Bytes(String text) {
    int bytes = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < 0x80) {
        bytes += 1;
      } else if (c < 0x800) {
        bytes += 2;
      } else if (Character.isHighSurrogate(c)) {
        bytes += 4;
        i++;
      } else {
        bytes += 3;
      }
    }
    return bytes;
  }

  private static RejectedException invalid(String message) {
    return new RejectedException(Rejection.INVALID_REQUEST, message);
  }
}
