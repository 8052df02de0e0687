package hongbao.core.reward;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Instant;

/**
 * Settles a budget freeze that an edit left behind ({@link RewardBudget#freeze}: it ended, neither
 * let go by its edit nor lifted by the resize). Whether the edit committed is for the books to say:
 * their read waits for an edit in flight; a version newer than the keys' is armed now, which
 * resizes the keys and lifts the freeze; then whatever freeze ended is let go. Reserving on the old
 * keys instead would make the resize of a committed edit impossible for good.
 */
public final class LapsedFreezes {

  private static final Logger LOG = System.getLogger(LapsedFreezes.class.getName());

  private final RewardBudget budget;
  private final FundedBudgets books;
  private final Clock clock;

  /** {@code clock}: the budget's (its freezes end by it). */
  public LapsedFreezes(RewardBudget budget, FundedBudgets books, Clock clock) {
    if (!books.booked()) {
      throw new IllegalArgumentException("a lapsed freeze is settled from the books only");
    }
    this.budget = budget;
    this.books = books;
    this.clock = clock;
  }

  public void settle(String campaignId) {
    // Taken before the read: only a freeze ended by then is one the read can speak for.
    Instant readAt = clock.instant();
    books.find(campaignId).ifPresent(b -> budget.open(campaignId, b.budget(), b.version()));
    budget.thawEnded(campaignId, readAt);
    LOG.log(Level.WARNING, "campaign " + campaignId + ": an edit's lapsed budget freeze settled");
  }
}
