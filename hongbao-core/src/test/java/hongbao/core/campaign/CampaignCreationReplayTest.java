package hongbao.core.campaign;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import hongbao.core.RejectedException;
import hongbao.core.Rejection;
import hongbao.core.ledger.IdempotencyKey;
import hongbao.core.ledger.StoredAnswer;
import hongbao.core.reward.RewardType;
import hongbao.core.reward.RewardTypes;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The same creation request twice at once: the first commits its campaign and its answer together
 * between the second's look for an answer (none yet) and its look for a campaign made under the key
 * (there now). The second is a replay of the first's answer, as the key promises, not the 409 for a
 * key whose answer was purged; that 409 is kept for a campaign whose answer is still missing.
 */
class CampaignCreationReplayTest {

  private static final Instant NOW = Instant.parse("2027-02-16T11:00:00Z");
  private static final IdempotencyKey KEY =
      new IdempotencyKey("admin", CampaignService.ENDPOINT, "k", "hash");
  private static final StoredAnswer FIRST = new StoredAnswer("hash", "CREATED", "{\"id\":\"c_1\"}");

  @Test
  void aCampaignCommittedBetweenTheTwoReads_isReplayed() {
    var answers =
        new ArrayDeque<Optional<StoredAnswer>>(List.of(Optional.empty(), Optional.of(FIRST)));
    assertThat(service(answers).create(draft(), KEY, campaign -> null)).isEqualTo(FIRST);
    assertThat(answers).as("the answer was looked for again").isEmpty();
  }

  @Test
  void aCampaignWhoseAnswerIsStillMissing_isAConflict() {
    var answers =
        new ArrayDeque<Optional<StoredAnswer>>(List.of(Optional.empty(), Optional.empty()));
    assertThatThrownBy(() -> service(answers).create(draft(), KEY, campaign -> null))
        .isInstanceOfSatisfying(
            RejectedException.class,
            e -> {
              assertThat(e.rejection()).isEqualTo(Rejection.IDEMPOTENCY_CONFLICT);
              assertThat(e.getMessage()).contains("no longer kept");
            });
  }

  /**
   * A service whose store holds a campaign made under the key, and answers from {@code answers}.
   */
  private static CampaignService service(Deque<Optional<StoredAnswer>> answers) {
    CampaignStore store =
        (CampaignStore)
            Proxy.newProxyInstance(
                CampaignStore.class.getClassLoader(),
                new Class<?>[] {CampaignStore.class},
                (proxy, method, args) ->
                    switch (method.getName()) {
                      case "answerFor" -> answers.pop();
                      case "createdUnder" -> Optional.of("c_1");
                      case "find" -> Optional.empty();
                      default -> throw new AssertionError("unexpected " + method.getName());
                    });
    Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
    return new CampaignService(
        store,
        new Campaigns(store, campaign -> {}, clock, Duration.ofMinutes(1)),
        null,
        cashOnly(),
        null,
        clock,
        new SplittableRandom(1));
  }

  private static RewardTypes cashOnly() {
    return (RewardTypes)
        Proxy.newProxyInstance(
            RewardTypes.class.getClassLoader(),
            new Class<?>[] {RewardTypes.class},
            (proxy, method, args) ->
                switch (method.getName()) {
                  case "find", "findFresh" ->
                      RewardType.CASH.type().equals(args[0])
                          ? Optional.of(RewardType.CASH)
                          : Optional.empty();
                  default -> throw new AssertionError("unexpected " + method.getName());
                });
  }

  private static CampaignDraft draft() {
    return new CampaignDraft(
        "除夕红包雨",
        1_000,
        List.of(
            new CampaignDraft.RoundDraft(
                NOW.plusSeconds(3_600), 60, List.of(new PrizeLine("CASH", 10, 5)))),
        3,
        10);
  }
}
