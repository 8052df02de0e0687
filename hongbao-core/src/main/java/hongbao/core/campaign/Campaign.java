package hongbao.core.campaign;

import hongbao.core.money.Amount;
import java.time.Instant;
import java.util.List;

/**
 * A red-packet rain as stored, one {@code version} of it. A campaign may be edited only while it is
 * scheduled and its first round is more than the edit lead away ({@link CampaignService#edit});
 * each edit is a new version (1 at creation), with its own prize pools in Redis. A running or ended
 * campaign never changes, so a copy read at or after its start less the lead is final ({@link
 * Campaigns}). {@code homePools} is the number of hash slots a user's win counter may live in: the
 * largest round's sub-pool count, so every round's sub-pool {@code j} shares its slot with the win
 * counters of the users whose home is {@code j}.
 */
public record Campaign(
    String id,
    String name,
    Amount budget,
    List<Round> rounds,
    int maxWinsPerUser,
    int tapsPerUserPerSecond,
    Instant createdAt,
    int version) {

  public Campaign {
    rounds = List.copyOf(rounds);
  }

  /** The same campaign under another id (validation runs before an id is taken). */
  public Campaign withId(String newId) {
    return new Campaign(
        newId, name, budget, rounds, maxWinsPerUser, tapsPerUserPerSecond, createdAt, version);
  }

  /** This campaign's terms as version {@code next} of the campaign {@code id}. */
  public Campaign asVersion(String id, Instant created, int next) {
    return new Campaign(
        id, name, budget, rounds, maxWinsPerUser, tapsPerUserPerSecond, created, next);
  }

  /**
   * Whether an edit to {@code other} would change nothing an operator asked for (the id, the
   * version and the creation time are not terms): a PUT repeated with the same body is a no-op.
   */
  public boolean sameTermsAs(Campaign other) {
    return name.equals(other.name)
        && budget.equals(other.budget)
        && rounds.equals(other.rounds)
        && maxWinsPerUser == other.maxWinsPerUser
        && tapsPerUserPerSecond == other.tapsPerUserPerSecond;
  }

  public int homePools() {
    return rounds.stream().mapToInt(Round::subPools).max().orElse(1);
  }

  public Instant startsAt() {
    return rounds.getFirst().startsAt();
  }

  public Instant endsAt() {
    return rounds.getLast().endsAt();
  }

  public Round round(int number) {
    return rounds.get(number - 1);
  }

  public CampaignStatus statusAt(Instant now) {
    if (now.isBefore(startsAt())) {
      return CampaignStatus.SCHEDULED;
    }
    return now.isBefore(endsAt()) ? CampaignStatus.RUNNING : CampaignStatus.ENDED;
  }

  /** The running round at {@code now}, or the next one to start, or none. */
  public Phase phaseAt(Instant now) {
    for (Round round : rounds) {
      if (round.runsAt(now)) {
        return new Phase.Running(round);
      }
      if (now.isBefore(round.startsAt())) {
        return new Phase.Waiting(round.startsAt());
      }
    }
    return new Phase.Over();
  }

  /** Where the campaign stands for a tap. */
  public sealed interface Phase {
    record Running(Round round) implements Phase {}

    record Waiting(Instant nextRoundAt) implements Phase {}

    record Over() implements Phase {}
  }
}
