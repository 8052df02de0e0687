package hongbao.core.campaign;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * One rain of a campaign: numbered from 1 in start order, running from {@code startsAt} for {@code
 * duration}, holding its prize lines, spread over {@code subPools} Redis sub-pools.
 */
public record Round(
    int number, Instant startsAt, Duration duration, List<PrizeLine> prizes, int subPools) {

  public Round {
    prizes = List.copyOf(prizes);
  }

  public Instant endsAt() {
    return startsAt.plus(duration);
  }

  public long prizeCount() {
    return prizes.stream().mapToLong(PrizeLine::count).sum();
  }

  public boolean runsAt(Instant now) {
    return !now.isBefore(startsAt) && now.isBefore(endsAt());
  }
}
