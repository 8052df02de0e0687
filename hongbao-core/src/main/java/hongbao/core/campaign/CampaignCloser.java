package hongbao.core.campaign;

import hongbao.core.Invariants;
import hongbao.core.RejectedException;
import hongbao.core.money.Amount;
import hongbao.core.reward.FundedBudgets;
import hongbao.core.reward.LapsedFreezes;
import hongbao.core.reward.RewardBudget;
import hongbao.core.reward.RewardKind;
import hongbao.core.reward.RewardPages;
import hongbao.core.reward.RewardRecord;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Returns an ended campaign's unspent budget to the funding account, exactly once, however many
 * instances run it:
 *
 * <ol>
 *   <li>wait {@code grace} after the last round's end, so taps in flight have finished;
 *   <li>arm the campaign again, as a tap after a Redis loss would ({@link PrizeRecovery}): if Redis
 *       lost its pools, prize types or budget keys since the last tap, they are rebuilt from the
 *       books (what exists is left as it is), so the wins below and the closing sum are the books'
 *       and not what the loss left;
 *   <li>issue again every win the pools recorded that the reward budget has no trade for (a tap
 *       that died between its draw and its issue), or whose trade is marked unqueued (no queue took
 *       its send, and its tap's retry draws anew): issuing is idempotent by tradeNo, so a win is
 *       issued once whoever does it;
 *   <li>close the budget (nothing more can be reserved) and read what was reserved: the CASH of the
 *       issued wins and other senders' rewards, all of which will be credited unless Redis lost
 *       their trades (below);
 *   <li>move budget − reserved − what the credited rewards took beyond their trades back, in one
 *       transaction that marks the campaign returned; a second instance finds it marked and moves
 *       nothing.
 * </ol>
 *
 * <p>The last term is zero unless Redis lost trades that were already credited (their keys were
 * opened again empty, or rolled back to an older state). A credited reward's CASH left the escrow
 * whatever the budget holds now: if the budget holds no trade for its tradeNo, that CASH was not
 * reserved now, and returning budget − reserved would ask the escrow for more than it holds; if it
 * holds a trade of another request under the same tradeNo (a win number drawn again after the loss,
 * another prize), that trade's cost will never be credited (the tradeNo is taken), and the book's
 * reward is what was paid. The reconciler names each such trade ("credited but never accepted",
 * "credited with another request or cost than accepted").
 */
public final class CampaignCloser {

  private static final System.Logger LOG = System.getLogger(CampaignCloser.class.getName());

  static final int CAMPAIGNS_PER_PASS = 100;

  /**
   * Wins and rewards looked at together: a rain may hold millions of each, so the closer reads them
   * a page at a time and asks the budget for the trades of one page only.
   */
  static final int PAGE = 1_000;

  private final CampaignStore store;
  private final Campaigns campaigns;
  private final PrizePools pools;
  private final PrizeIssuer issuer;
  private final RewardBudget budget;
  private final BudgetClosing closing;
  private final RewardPages book;
  private final Clock clock;
  private final Duration grace;

  /**
   * @param book a campaign's rewards in the reward book, a page at a time
   */
  public CampaignCloser(
      CampaignStore store,
      Campaigns campaigns,
      PrizePools pools,
      PrizeIssuer issuer,
      RewardBudget budget,
      BudgetClosing closing,
      RewardPages book,
      Clock clock,
      Duration grace) {
    this.store = store;
    this.campaigns = campaigns;
    this.pools = pools;
    this.issuer = issuer;
    this.budget = budget;
    this.closing = closing;
    this.book = book;
    this.clock = clock;
    this.grace = grace;
  }

  /**
   * One pass over the campaigns not yet returned; returns how many this pass returned.
   *
   * <p>A campaign that cannot be closed now (a lost win the reward pipeline refuses to issue, an
   * outage) is left for the next pass and the others are closed meanwhile: the campaigns come
   * oldest end first, so one that fails every pass would otherwise keep every later one from ever
   * being returned. The pass then fails with the first such failure, for the loop to report and
   * back off; an invariant violation stops it at once.
   *
   * @throws RuntimeException the first campaign's failure, after the others were closed
   */
  public int closeOnce() {
    int returned = 0;
    RuntimeException first = null;
    for (String id : store.unreturned(CAMPAIGNS_PER_PASS)) {
      try {
        if (close(id)) {
          returned++;
        }
      } catch (Invariants.InvariantViolation bug) {
        throw bug;
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "campaign " + id + " not closed this pass: " + e);
        if (first == null) {
          first = e;
        } else if (e != first) {
          first.addSuppressed(e);
        }
      }
    }
    if (first != null) {
      throw first;
    }
    return returned;
  }

  /** A rain's budget as stored now: the read waits for an edit in flight. */
  private Optional<FundedBudgets.Funded> booked(String id) {
    return store.find(id).map(c -> new FundedBudgets.Funded(c.budget(), c.version()));
  }

  /** Closes one campaign if it ended long enough ago; true if this call returned its budget. */
  private boolean close(String id) {
    // The clock first: a copy got after it is right at that instant (see Campaigns), so a copy an
    // edit replaced never looks ended.
    Instant now = clock.instant();
    Campaign campaign = campaigns.get(id);
    if (now.isBefore(campaign.startsAt()) && budget.lapsedFreeze(id)) {
      // An edit's freeze left behind refuses every reward of a sender without the books; only
      // before the first round (edits happen then, and a round's first win settles it too).
      new LapsedFreezes(budget, this::booked).settle(id);
    }
    if (now.isBefore(campaign.endsAt().plus(grace))) {
      return false;
    }
    campaigns.arming().arm(campaign);
    reissueLostWins(campaign);
    Amount reserved = closing.close(id);
    Amount unspent = campaign.budget().minus(reserved).minus(creditedBeyondTrades(id));
    if (unspent.isNegative()) {
      // Keys opened again after a loss took more than the escrow still held: crediting refuses
      // the excess (the failure stream), and nothing is left to return.
      LOG.log(Level.ERROR, "campaign " + id + ": reserved and credited exceed its budget");
      unspent = Amount.ZERO;
    }
    return store.returnUnspent(id, unspent, clock.instant());
  }

  /**
   * What the settled rewards took from the escrow beyond what the budget, now closed, holds
   * reserved for their tradeNos. A credited reward paid the CASH the book credited: beyond its
   * trade's cost, or all of it when the budget holds no trade for it. A trade of another request
   * under a settled reward's tradeNo (its digest differs) will never be spent, the tradeNo being
   * taken: its cost counts against what was paid, so the term is negative when it reserved more. A
   * failed reward's own trade stays reserved: an operator may retry it.
   */
  private Amount creditedBeyondTrades(String id) {
    Amount beyond = Amount.ZERO;
    String after = null;
    while (true) {
      List<RewardRecord> page = book.page(id, after, PAGE);
      Map<String, RewardBudget.Trade> trades =
          budget.trades(id, page.stream().map(r -> r.reward().tradeNo()).toList());
      for (RewardRecord record : page) {
        boolean credited = record.status() == RewardRecord.Status.CREDITED;
        Amount paid = credited && record.kind() == RewardKind.CASH ? record.amount() : Amount.ZERO;
        RewardBudget.Trade trade = trades.get(record.reward().tradeNo());
        if (trade == null) {
          beyond = beyond.plus(paid);
        } else if (credited || !trade.digest().equals(record.digest())) {
          beyond = beyond.plus(paid.minus(trade.cost()));
        }
      }
      if (page.size() < PAGE) {
        return beyond;
      }
      after = page.getLast().reward().tradeNo();
    }
  }

  /**
   * Issues the wins the pools recorded that were never issued (a tap that died between its draw and
   * the issue: no trade), and those whose send no queue took (the tap was answered 503, and its
   * retry draws anew: the trade is marked unqueued). Issued again, such a trade's replay sends the
   * event unless the reward book has it already.
   */
  private void reissueLostWins(Campaign campaign) {
    var page = new HashMap<String, PrizePools.Win>();
    pools.forEachWin(
        campaign,
        (tradeNo, win) -> {
          page.put(tradeNo, win);
          if (page.size() == PAGE) {
            reissueLost(campaign, page);
            page.clear();
          }
        });
    reissueLost(campaign, page);
  }

  /** Issues the wins of one page that have no trade or an unqueued one. */
  private void reissueLost(Campaign campaign, Map<String, PrizePools.Win> wins) {
    if (wins.isEmpty()) {
      return;
    }
    Map<String, RewardBudget.Trade> trades = budget.trades(campaign.id(), wins.keySet());
    wins.forEach(
        (tradeNo, win) -> {
          RewardBudget.Trade trade = trades.get(tradeNo);
          if (trade == null || trade.unqueued()) {
            Round round = campaign.round(win.round());
            try {
              issuer.issue(campaign, round, win.userId(), tradeNo, round.prizes().get(win.line()));
            } catch (RejectedException refused) {
              if (!PrizeIssuer.neverIssuable(refused)) {
                throw refused;
              }
              // The budget was spent otherwise, or another campaign holds the tradeNo: this win
              // never will be issued. The campaign closes all the same, and its return falls short
              // of its CASH won for the reconciler to name, rather than keep the rest of its budget
              // forever.
              LOG.log(
                  Level.ERROR,
                  "campaign "
                      + campaign.id()
                      + ": lost win "
                      + tradeNo
                      + " cannot be issued: "
                      + refused.getMessage());
            }
          }
        });
  }
}
