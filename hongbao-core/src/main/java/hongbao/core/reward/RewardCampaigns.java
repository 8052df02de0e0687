package hongbao.core.reward;

import hongbao.core.money.Amount;

/**
 * The minimal campaign rewards need: an id and a budget moved from the system account into the
 * campaign's escrow (the ledger, once), then spread over the budget keys (idempotent, so a retry
 * after a failure between the two finishes the job).
 */
public final class RewardCampaigns {

  private final RewardBook book;
  private final RewardBudget budget;

  public RewardCampaigns(RewardBook book, RewardBudget budget) {
    this.book = book;
    this.budget = budget;
  }

  /**
   * @return true if this call created the campaign
   * @throws hongbao.core.RejectedException IDEMPOTENCY_CONFLICT when it exists with another budget
   */
  public boolean open(String campaignId, long budgetFen) {
    RewardRules.checkCampaign(campaignId, budgetFen);
    Amount amount = Amount.fen(budgetFen);
    boolean created = book.openCampaign(campaignId, amount);
    budget.open(campaignId, amount);
    return created;
  }
}
