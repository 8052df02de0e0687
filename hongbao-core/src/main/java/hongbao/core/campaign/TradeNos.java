package hongbao.core.campaign;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The tradeNo of a win: {@code <campaignId>_<round>_<userId>_<n>}, n the user's n-th win in the
 * campaign. A user id may hold '@', which a tradeNo may not; it is written ':' (a character user
 * ids never hold, so two users never share a tradeNo).
 */
public final class TradeNos {

  private static final Pattern WIN = Pattern.compile("(c_[0-9a-z]+)_[0-9]+_.+_[0-9]+");

  private TradeNos() {}

  public static String prefix(String campaignId, int round, String userId) {
    return campaignId + "_" + round + "_" + userId.replace('@', ':') + "_";
  }

  public static String of(String campaignId, int round, String userId, long n) {
    return prefix(campaignId, round, userId) + n;
  }

  /**
   * The rain campaign whose win {@code tradeNo} would be, by its form ({@code c_<base 36>_<round>_
   * <user>_<n>}, as {@code CampaignService} draws ids); empty for any other form. Sent by anyone
   * else, such a tradeNo could take a user's win before the user wins it (the win would then replay
   * or conflict, and its drawn prize stay unissued): the reward route refuses it when the campaign
   * is a rain.
   */
  public static Optional<String> rainOf(String tradeNo) {
    Matcher win = WIN.matcher(tradeNo);
    return win.matches() ? Optional.of(win.group(1)) : Optional.empty();
  }
}
