package hongbao.core.reward;

import hongbao.core.money.Amount;
import hongbao.core.reconcile.Audit;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The reward books, checked. For every campaign:
 *
 * <ul>
 *   <li>budget reserved (summed over its keys) = the sum of the costs of its accepted trades, and
 *       never more than the budget;
 *   <li>escrow = budget − cash credited − returned;
 *   <li>every credited reward was accepted with the same request and cost;
 *   <li>every accepted reward is credited, failed (refused for good, or given up on: in the failure
 *       stream), or younger than {@code stuckAfter} (still on a queue, parked or held);
 * </ul>
 *
 * and every credited cash reward has exactly one ledger transfer; every entry of the failure stream
 * is reported for an operator to settle. Reads are not one snapshot: rewards in flight are not
 * discrepancies until they are older than {@code stuckAfter}; the sums that only grow while rewards
 * land (cash credited, budget reserved) are read before and after what they are compared with; and
 * a campaign is reported only if it still looks off on a second and third reading.
 */
public final class RewardAudit implements Audit {

  public static final int FAILURES_REPORTED_MAX = 100;

  private static final int READINGS = 3;

  /**
   * Entries of the failure stream read to tell a failed reward from a stuck one. A reward given up
   * after {@link RewardHandler#MAX_ATTEMPTS} outages, or delivered too often, is in the stream only
   * (the reward book may be what was down): it is failed, reported once as such, not stuck too.
   * Past this many entries the others are reported as stuck, still a discrepancy each.
   */
  static final int FAILURES_READ_MAX = 10_000;

  private final RewardBook book;
  private final RewardBudget budget;
  private final FailureLog failures;
  private final Clock clock;
  private final Duration stuckAfter;

  public RewardAudit(
      RewardBook book, RewardBudget budget, FailureLog failures, Clock clock, Duration stuckAfter) {
    this.book = book;
    this.budget = budget;
    this.failures = failures;
    this.clock = clock;
    this.stuckAfter = stuckAfter;
  }

  @Override
  public List<String> discrepancies() {
    var lines = new ArrayList<String>();
    Set<String> failed = Set.copyOf(failures.tradeNos(FAILURES_READ_MAX));
    for (RewardBook.CampaignBooks campaign : book.campaigns()) {
      List<String> found = check(campaign, failed);
      for (int reading = 1; reading < READINGS && !found.isEmpty(); reading++) {
        Optional<RewardBook.CampaignBooks> again = book.campaign(campaign.campaignId());
        if (again.isEmpty()) {
          break;
        }
        found = check(again.get(), failed);
      }
      lines.addAll(found);
    }
    lines.addAll(book.problems());
    for (String failure : failures.entries(FAILURES_REPORTED_MAX)) {
      lines.add("reward failed and awaits an operator: " + failure);
    }
    return lines;
  }

  /** One reading of a campaign: its ledger books, then its budget keys, then its rewards. */
  private List<String> check(RewardBook.CampaignBooks campaign, Set<String> failed) {
    var lines = new ArrayList<String>();
    String id = campaign.campaignId();
    RewardBudget.BudgetState state = budget.state(id);
    if (state == null) {
      lines.add("campaign %s: funded in the ledger but its budget is not open".formatted(id));
      return lines;
    }
    if (!state.budget().equals(campaign.budget())) {
      lines.add(
          "campaign %s: budget keys hold %s, the ledger %s"
              .formatted(id, state.budget(), campaign.budget()));
    }
    if (state.reserved().compareTo(state.budget()) > 0
        || state.allowance().compareTo(state.budget()) > 0) {
      lines.add(
          "campaign %s: over budget: reserved %s, allowance %s, budget %s"
              .formatted(id, state.reserved(), state.allowance(), state.budget()));
    }
    Map<String, RewardBudget.Trade> trades = budget.trades(id);
    Amount costs =
        trades.values().stream().map(RewardBudget.Trade::cost).reduce(Amount.ZERO, Amount::plus);
    if (!costs.equals(state.reserved()) && !between(costs, state.reserved(), reservedNow(id))) {
      lines.add(
          "campaign %s: reserved %s but its accepted rewards cost %s"
              .formatted(id, state.reserved(), costs));
    }
    Amount expectedEscrow = campaign.budget().minus(campaign.credited()).minus(campaign.returned());
    if (!campaign.escrow().equals(expectedEscrow)) {
      lines.add(
          "campaign %s: escrow holds %s, expected %s (budget %s - credited %s - returned %s)"
              .formatted(
                  id,
                  campaign.escrow(),
                  expectedEscrow,
                  campaign.budget(),
                  campaign.credited(),
                  campaign.returned()));
    }
    checkRewards(id, campaign, trades, failed, lines);
    return lines;
  }

  /**
   * The budget reserved, read again after the trades. A reservation and its trade are written
   * together, as are a release and the trade's removal: while only reservations land, the trades
   * read between two readings of the sum cost no less than the first and no more than the second
   * (releases only, the other way round). A campaign reserving without pause is thus clean; books
   * off by less than what moved between the readings look clean until it is quiet.
   */
  private Amount reservedNow(String campaignId) {
    RewardBudget.BudgetState again = budget.state(campaignId);
    return again == null ? Amount.ZERO : again.reserved();
  }

  private static boolean between(Amount value, Amount one, Amount other) {
    Amount low = one.compareTo(other) <= 0 ? one : other;
    Amount high = one.compareTo(other) <= 0 ? other : one;
    return value.compareTo(low) >= 0 && value.compareTo(high) <= 0;
  }

  /** The ledger's cash credited to the campaign's rewards, read again. */
  private Amount creditedSince(RewardBook.CampaignBooks campaign) {
    return book.campaign(campaign.campaignId())
        .map(RewardBook.CampaignBooks::credited)
        .orElse(campaign.credited());
  }

  private void checkRewards(
      String id,
      RewardBook.CampaignBooks campaign,
      Map<String, RewardBudget.Trade> trades,
      Set<String> failed,
      List<String> lines) {
    var settled = new HashMap<String, RewardRecord>();
    Amount creditedCash = Amount.ZERO;
    List<RewardRecord> rows = book.byCampaign(id);
    // A reward reserved and credited (a synchronous send) after the trades were read: read them
    // again, once, rather than take it for never accepted.
    Map<String, RewardBudget.Trade> accepted =
        rows.stream()
                .anyMatch(
                    r ->
                        r.status() == RewardRecord.Status.CREDITED
                            && !trades.containsKey(r.reward().tradeNo()))
            ? budget.trades(id)
            : trades;
    for (RewardRecord record : rows) {
      settled.put(record.reward().tradeNo(), record);
      if (record.status() != RewardRecord.Status.CREDITED) {
        continue;
      }
      if (record.kind() == RewardKind.CASH) {
        creditedCash = creditedCash.plus(record.amount());
      }
      RewardBudget.Trade trade = accepted.get(record.reward().tradeNo());
      Amount cost = record.kind() == RewardKind.CASH ? record.amount() : Amount.ZERO;
      if (trade == null) {
        lines.add("reward %s: credited but never accepted".formatted(record.reward().tradeNo()));
      } else if (!trade.digest().equals(record.digest()) || !trade.cost().equals(cost)) {
        lines.add(
            "reward %s: credited with another request or cost than accepted"
                .formatted(record.reward().tradeNo()));
      }
    }
    // Credits only add up: the rows, read between two readings of the ledger's sum, must lie
    // between them, however many credits landed meanwhile. The second reading is taken only when
    // the rows are over the first: an aggregate over the campaign's transfers, not paid for
    // nothing.
    int againstFirst = creditedCash.compareTo(campaign.credited());
    if (againstFirst < 0
        || (againstFirst > 0 && creditedCash.compareTo(creditedSince(campaign)) > 0)) {
      lines.add(
          "campaign %s: the ledger credited %s but the reward book %s"
              .formatted(id, campaign.credited(), creditedCash));
    }
    long stuckBefore = clock.millis() - stuckAfter.toMillis();
    trades.forEach(
        (tradeNo, trade) -> {
          if (!settled.containsKey(tradeNo)
              && !failed.contains(tradeNo)
              && trade.acceptedAtMillis() < stuckBefore) {
            lines.add(
                "reward %s: accepted %d s ago, neither credited nor failed"
                    .formatted(tradeNo, (clock.millis() - trade.acceptedAtMillis()) / 1000));
          }
        });
  }
}
