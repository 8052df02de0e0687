package hongbao.core.campaign;

import hongbao.core.money.Amount;
import hongbao.core.reconcile.Audit;
import hongbao.core.reward.RewardBook;
import hongbao.core.reward.RewardKind;
import hongbao.core.reward.RewardRecord;
import hongbao.core.reward.RewardTypes;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The rain's books, checked, for every recent campaign:
 *
 * <ul>
 *   <li>budget = spent (cash credited) + escrow left + returned, in the ledger;
 *   <li>every prize line: left in the pools + won = what the round held (none over-issued, none
 *       lost);
 *   <li>no user won more than {@code maxWinsPerUser};
 *   <li>every win the reward book issued is recorded in the pools (a win Redis lost and that could
 *       not be put back, {@link PrizeRecovery}, was issued twice over its line);
 *   <li>the CASH won fits the budget;
 *   <li>the unspent budget went back at most once, only after the end (on the clock of the closer
 *       that returned it), and it is exactly the budget less the CASH won and the cash other
 *       senders' rewards took from the campaign;
 *   <li>no ended campaign waits for its return longer than {@code returnDue} after its end: the
 *       closer returns it {@code grace} after the end, so one still waiting later is stuck (its
 *       return fails every pass, or no instance runs the closer), and its escrow is named as the
 *       reconciler names an expired packet not refunded.
 * </ul>
 */
public final class CampaignAudit implements Audit {

  static final int CAMPAIGNS_CHECKED_MAX = 1_000;

  private final CampaignStore store;
  private final Campaigns campaigns;
  private final PrizePools pools;
  private final RewardBook book;
  private final RewardTypes types;
  private final Clock clock;
  private final Duration returnDue;

  /**
   * @param clock the campaigns' clock (the closer's)
   * @param returnDue how long after its end a campaign's return may take before it is stuck: the
   *     closer's grace and some passes beyond it
   */
  public CampaignAudit(
      CampaignStore store,
      Campaigns campaigns,
      PrizePools pools,
      RewardBook book,
      RewardTypes types,
      Clock clock,
      Duration returnDue) {
    this.store = store;
    this.campaigns = campaigns;
    this.pools = pools;
    this.book = book;
    this.types = types;
    this.clock = clock;
    this.returnDue = returnDue;
  }

  @Override
  public List<String> discrepancies() {
    var lines = new ArrayList<String>();
    for (String id : store.recent(CAMPAIGNS_CHECKED_MAX)) {
      campaigns.find(id).ifPresent(c -> check(c, lines));
    }
    checkOverdue(lines);
    return lines;
  }

  /**
   * Names the campaigns ended more than {@code returnDue} ago and not returned, oldest end first
   * (the order the store gives them in, so the first one not yet due ends the check). The clock is
   * read before the store: a campaign returned meanwhile is not named.
   */
  private void checkOverdue(List<String> lines) {
    Instant dueBefore = clock.instant().minus(returnDue);
    for (String id : store.unreturned(CAMPAIGNS_CHECKED_MAX)) {
      Optional<Campaign> campaign = campaigns.find(id);
      if (campaign.isEmpty()) {
        continue;
      }
      Instant endsAt = campaign.get().endsAt();
      if (!endsAt.isBefore(dueBefore)) {
        return;
      }
      String escrow = book.campaign(id).map(b -> b.escrow().toString()).orElse("nothing");
      lines.add(
          "campaign %s: ended at %s and its unspent budget not returned: escrow holds %s"
              .formatted(id, endsAt, escrow));
    }
  }

  private void check(Campaign campaign, List<String> lines) {
    String id = campaign.id();
    Optional<RewardBook.CampaignBooks> books = book.campaign(id);
    if (books.isEmpty()) {
      lines.add("campaign %s: no escrow in the ledger".formatted(id));
      return;
    }
    RewardBook.CampaignBooks b = books.get();
    if (!b.budget().equals(b.credited().plus(b.escrow()).plus(b.returned()))) {
      lines.add(
          "campaign %s: budget %s != spent %s + escrow %s + returned %s"
              .formatted(id, b.budget(), b.credited(), b.escrow(), b.returned()));
    }
    Map<String, PrizePools.Win> wins = pools.wins(campaign);
    Amount cashWon = checkPools(campaign, wins, lines);
    checkUsers(campaign, wins, lines);
    Amount othersCash = checkIssued(campaign, wins, lines);
    if (cashWon.compareTo(campaign.budget()) > 0) {
      lines.add("campaign %s: CASH won %s over the budget".formatted(id, cashWon));
    }
    Optional<CampaignStore.Return> returned = store.returned(id);
    if (returned.isPresent()) {
      Amount amount = returned.get().amount();
      Amount expected = campaign.budget().minus(cashWon).minus(othersCash);
      if (!amount.equals(expected) || !b.returned().equals(amount)) {
        lines.add(
            "campaign %s: returned %s (ledger %s), expected budget - CASH won - others' cash = %s"
                .formatted(id, amount, b.returned(), expected));
      }
      if (returned.get().at().isBefore(campaign.endsAt())) {
        lines.add("campaign %s: budget returned before the campaign ended".formatted(id));
      }
    } else if (b.returned().isPositive()) {
      lines.add("campaign %s: the ledger returned %s unmarked".formatted(id, b.returned()));
    }
  }

  /** Checks every prize line of every round; returns the CASH won. */
  private Amount checkPools(
      Campaign campaign, Map<String, PrizePools.Win> wins, List<String> lines) {
    long[][] won = new long[campaign.rounds().size()][];
    for (Round round : campaign.rounds()) {
      won[round.number() - 1] = new long[round.prizes().size()];
    }
    for (PrizePools.Win win : wins.values()) {
      won[win.round() - 1][win.line()]++;
    }
    Amount cash = Amount.ZERO;
    for (Round round : campaign.rounds()) {
      List<Long> left = pools.pulse(campaign, round).left();
      for (int line = 0; line < round.prizes().size(); line++) {
        PrizeLine prize = round.prizes().get(line);
        long taken = won[round.number() - 1][line];
        if (left.get(line) + taken != prize.count()) {
          lines.add(
              "campaign %s round %d line %d: %d left + %d won != %d held"
                  .formatted(
                      campaign.id(), round.number(), line, left.get(line), taken, prize.count()));
        }
        boolean isCash =
            types.find(prize.type()).map(t -> t.kind() == RewardKind.CASH).orElse(false);
        if (isCash) {
          cash = cash.plus(Amount.fen(prize.amount()).times(taken));
        }
      }
    }
    return cash;
  }

  /**
   * Checks that every win the book holds is in the pools; returns the CASH other senders' rewards
   * took from the campaign (the reward API takes any campaign with a budget), which the return
   * leaves out as it leaves out the prizes.
   */
  private Amount checkIssued(
      Campaign campaign, Map<String, PrizePools.Win> wins, List<String> lines) {
    Amount others = Amount.ZERO;
    for (RewardRecord reward : book.byCampaign(campaign.id())) {
      String tradeNo = reward.reward().tradeNo();
      if (PrizeRecovery.roundOf(campaign, tradeNo).isEmpty()) {
        if (reward.kind() == RewardKind.CASH && reward.status() == RewardRecord.Status.CREDITED) {
          others = others.plus(reward.amount());
        }
      } else if (!wins.containsKey(tradeNo)) {
        lines.add(
            "campaign %s: issued win %s is not recorded in the pools"
                .formatted(campaign.id(), tradeNo));
      }
    }
    return others;
  }

  private static void checkUsers(
      Campaign campaign, Map<String, PrizePools.Win> wins, List<String> lines) {
    var perUser = new HashMap<String, Integer>();
    wins.values().forEach(w -> perUser.merge(w.userId(), 1, Integer::sum));
    perUser.forEach(
        (user, count) -> {
          if (count > campaign.maxWinsPerUser()) {
            lines.add(
                "campaign %s: user %s won %d times, more than %d"
                    .formatted(campaign.id(), user, count, campaign.maxWinsPerUser()));
          }
        });
  }
}
