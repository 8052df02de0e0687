package hongbao.core.reward;

import java.util.List;

/** A campaign's rewards in the reward book a page at a time ({@link RewardBook#byCampaign}). */
@FunctionalInterface
public interface RewardPages {

  /**
   * Up to {@code limit} rewards of {@code campaignId} whose tradeNo sorts after {@code
   * afterTradeNo} (null: from the first), in the book's order of tradeNos; fewer than {@code limit}
   * only on the last page. Pass the last tradeNo of a page to read the next.
   */
  List<RewardRecord> page(String campaignId, String afterTradeNo, int limit);
}
