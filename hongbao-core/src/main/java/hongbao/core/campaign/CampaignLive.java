package hongbao.core.campaign;

import hongbao.core.money.Amount;
import hongbao.core.reward.RewardBudget;
import hongbao.core.reward.RewardType;
import hongbao.core.reward.RewardTypes;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The admin's live view of a campaign: per round the taps and wins of the last seconds, the prizes
 * left per line; the budget spent; the reward queues' lag; each prize type's issue rate against its
 * limit. Every figure is read from shared state (per-second counters in the campaign's slots and
 * the types' buckets, the budget keys, the queues), so any instance answers the same.
 *
 * <p>Rates are over the last {@value #RATE_SECONDS} whole seconds of the clock before the current
 * one (the current second is still filling), counting only seconds in which the round ran.
 */
public final class CampaignLive {

  /** Rates are averaged over this many whole seconds. */
  public static final int RATE_SECONDS = 5;

  /** Seconds of the per-second series, the current one last; the counters live 15 s. */
  public static final int SERIES_SECONDS = 10;

  /**
   * Port: the tokens of a reward type taken (issued) by every instance in each of the last {@code
   * seconds} whole seconds of the reward pipeline's clock.
   */
  @FunctionalInterface
  public interface IssueCounts {
    long[] issuedLast(String type, int seconds);
  }

  /** Port: events waiting per reward queue (topic name → count). */
  @FunctionalInterface
  public interface QueueLags {
    Map<String, Long> lags();
  }

  private final Campaigns campaigns;
  private final PrizePools pools;
  private final RewardBudget budget;
  private final RewardTypes types;
  private final IssueCounts issued;
  private final QueueLags lags;
  private final Clock clock;

  public CampaignLive(
      Campaigns campaigns,
      PrizePools pools,
      RewardBudget budget,
      RewardTypes types,
      IssueCounts issued,
      QueueLags lags,
      Clock clock) {
    this.campaigns = campaigns;
    this.pools = pools;
    this.budget = budget;
    this.types = types;
    this.issued = issued;
    this.lags = lags;
    this.clock = clock;
  }

  /**
   * @throws hongbao.core.RejectedException NOT_FOUND for an unknown campaign
   */
  public Live live(String id) {
    Instant now = clock.instant();
    Campaign campaign = campaigns.get(id);
    long second = now.getEpochSecond();
    var rounds = new ArrayList<RoundLive>();
    Set<String> prizeTypes = new LinkedHashSet<>();
    for (Round round : campaign.rounds()) {
      round.prizes().forEach(p -> prizeTypes.add(p.type()));
      rounds.add(round(campaign, round, now));
    }
    var typeRates = new ArrayList<TypeRate>();
    for (String type : prizeTypes) {
      long[] counts = issued.issuedLast(type, RATE_SECONDS);
      long sum = 0;
      for (long c : counts) {
        sum += c;
      }
      RewardType stored = types.find(type).orElse(null);
      typeRates.add(
          new TypeRate(
              type,
              (double) sum / RATE_SECONDS,
              stored == null ? 0 : stored.ratePerSecond(),
              stored != null && stored.fused()));
    }
    RewardBudget.BudgetState state = budget.state(id);
    return new Live(
        campaign,
        campaign.statusAt(now),
        now,
        state == null ? Amount.ZERO : state.reserved(),
        rounds,
        lags.lags(),
        typeRates);
  }

  private RoundLive round(Campaign campaign, Round round, Instant now) {
    long second = now.getEpochSecond();
    CampaignStatus status =
        now.isBefore(round.startsAt())
            ? CampaignStatus.SCHEDULED
            : now.isBefore(round.endsAt()) ? CampaignStatus.RUNNING : CampaignStatus.ENDED;
    PrizePools.Pulse pulse = pools.pulse(campaign, round);
    long firstSecond = round.startsAt().getEpochSecond();
    long lastSecond = round.endsAt().minusNanos(1).getEpochSecond();
    long seriesFrom = second - SERIES_SECONDS + 1;
    List<PrizePools.Beat> series =
        seriesFrom <= lastSecond && second >= firstSecond
            ? pools.beats(campaign, round, seriesFrom, SERIES_SECONDS)
            : List.of();
    long taps = 0;
    long wins = 0;
    int ranSeconds = 0;
    for (PrizePools.Beat beat : series) {
      boolean inWindow = beat.second() >= second - RATE_SECONDS && beat.second() < second;
      if (inWindow && beat.second() >= firstSecond && beat.second() <= lastSecond) {
        taps += beat.taps();
        wins += beat.wins();
        ranSeconds++;
      }
    }
    double perSecond = Math.max(ranSeconds, 1);
    return new RoundLive(
        round, status, pulse.taps(), pulse.left(), series, taps / perSecond, wins / perSecond);
  }

  /** A campaign as it stands at {@code at}. */
  public record Live(
      Campaign campaign,
      CampaignStatus status,
      Instant at,
      Amount spent,
      List<RoundLive> rounds,
      Map<String, Long> queueLags,
      List<TypeRate> types) {}

  /**
   * A round: its taps so far, what each prize line has left, the last seconds' taps and wins, and
   * their rates over the last {@value #RATE_SECONDS} whole seconds.
   */
  public record RoundLive(
      Round round,
      CampaignStatus status,
      long taps,
      List<Long> left,
      List<PrizePools.Beat> seconds,
      double tapsPerSecond,
      double winsPerSecond) {

    public long prizesLeft() {
      return left.stream().mapToLong(Long::longValue).sum();
    }

    public long won() {
      return round.prizeCount() - prizesLeft();
    }
  }

  /** A prize type's issue rate (tokens taken per second) and its limit. */
  public record TypeRate(String type, double issuedPerSecond, long ratePerSecond, boolean fused) {}
}
