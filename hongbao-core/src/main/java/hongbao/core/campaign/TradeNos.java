package hongbao.core.campaign;

/**
 * The tradeNo of a win: {@code <campaignId>_<round>_<userId>_<n>}, n the user's n-th win in the
 * campaign. A user id may hold '@', which a tradeNo may not; it is written ':' (a character user
 * ids never hold, so two users never share a tradeNo).
 */
public final class TradeNos {

  private TradeNos() {}

  public static String prefix(String campaignId, int round, String userId) {
    return campaignId + "_" + round + "_" + userId.replace('@', ':') + "_";
  }

  public static String of(String campaignId, int round, String userId, long n) {
    return prefix(campaignId, round, userId) + n;
  }
}
