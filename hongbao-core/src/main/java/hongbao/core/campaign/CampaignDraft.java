package hongbao.core.campaign;

import java.time.Instant;
import java.util.List;

/** A campaign as an operator asks for it, before {@link CampaignRules} accepted it. */
public record CampaignDraft(
    String name,
    long budget,
    List<RoundDraft> rounds,
    long maxWinsPerUser,
    long tapsPerUserPerSecond) {

  /** One round as asked for. */
  public record RoundDraft(Instant startsAt, long durationSeconds, List<PrizeLine> prizes) {}
}
