package hongbao.core.reward;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;

/**
 * Settles a budget freeze that an edit left behind ({@link RewardBudget#freeze}: it ended, neither
 * let go by its edit nor lifted by the resize). Whether the edit committed is for the books to say:
 * their read waits for an edit in flight; the budget is opened at their version, which resizes the
 * keys and lifts the freeze when it is newer than the keys'; then the freezes seen ended before the
 * read are let go, where the keys still hold them as seen. Reserving on the old keys instead would
 * make the resize of a committed edit impossible for good.
 */
public final class LapsedFreezes {

  private static final Logger LOG = System.getLogger(LapsedFreezes.class.getName());

  private final RewardBudget budget;
  private final FundedBudgets books;

  public LapsedFreezes(RewardBudget budget, FundedBudgets books) {
    if (!books.booked()) {
      throw new IllegalArgumentException("a lapsed freeze is settled from the books only");
    }
    this.budget = budget;
    this.books = books;
  }

  public void settle(String campaignId) {
    // Seen before the read: only a freeze that had ended by then is one the read can speak for.
    RewardBudget.Lapsed seen = budget.lapsed(campaignId);
    if (seen.none()) {
      return; // settled meanwhile
    }
    books.find(campaignId).ifPresent(b -> budget.open(campaignId, b.budget(), b.version()));
    budget.thawLapsed(campaignId, seen);
    LOG.log(Level.WARNING, "campaign " + campaignId + ": an edit's lapsed budget freeze settled");
  }
}
