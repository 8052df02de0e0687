package hongbao.core.campaign;

import hongbao.core.reward.FundedBudgets;
import hongbao.core.reward.RewardBook;
import java.util.Optional;

/**
 * The budgets PostgreSQL funds: a red-packet rain's from its stored current version (an edit may
 * have resized it), until it returned its unspent budget; any other campaign's from the reward
 * book's escrow funding, under version 1.
 */
public final class BookedBudgets implements FundedBudgets {

  private final CampaignStore rains;
  private final RewardBook book;

  public BookedBudgets(CampaignStore rains, RewardBook book) {
    this.rains = rains;
    this.book = book;
  }

  @Override
  public Optional<Funded> find(String campaignId) {
    Optional<Campaign> rain = rains.find(campaignId);
    if (rain.isPresent()) {
      return rains.returned(campaignId).isPresent()
          ? Optional.empty()
          : Optional.of(new Funded(rain.get().budget(), rain.get().version()));
    }
    return book.campaign(campaignId).map(books -> new Funded(books.budget(), 1));
  }
}
