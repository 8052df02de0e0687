package hongbao.core.reward;

import static org.assertj.core.api.Assertions.assertThat;

import hongbao.core.money.Amount;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The reward books are read one after the other, not in one snapshot: a credit landing between the
 * ledger's sums and the reward rows makes a campaign look off for an instant, and the audit reads
 * it again before it reports anything.
 */
class RewardAuditTest {

  private static final Instant NOW = Instant.parse("2026-11-21T08:00:00Z");
  private static final Reward CREDITED =
      new Reward("t1", "u1", "c1", "rain", "CASH", Amount.fen(100), "", NOW);

  /** Budget keys holding the one reservation of {@link #CREDITED}; read only. */
  private final RewardBudget keys =
      (RewardBudget)
          Proxy.newProxyInstance(
              RewardBudget.class.getClassLoader(),
              new Class<?>[] {RewardBudget.class},
              (proxy, method, args) ->
                  switch (method.getName()) {
                    case "state" ->
                        new RewardBudget.BudgetState(
                            Amount.fen(1_000), Amount.fen(100), Amount.fen(1_000), false);
                    case "trades" ->
                        Map.of(
                            "t1",
                            new RewardBudget.Trade(
                                CREDITED.digest(), Amount.fen(100), NOW.toEpochMilli()));
                    default -> throw new AssertionError("unexpected " + method.getName());
                  });

  private static RewardBook.CampaignBooks books(long credited) {
    return new RewardBook.CampaignBooks(
        "c1", Amount.fen(1_000), Amount.fen(1_000 - credited), Amount.fen(credited), Amount.ZERO);
  }

  /** A book whose ledger sums say {@code credited} fen on each reading, in turn. */
  private RewardAudit auditOf(long... credited) {
    var readings = new AtomicInteger();
    RewardBook book =
        RewardDoubles.bookAnswering(
            Map.of(
                "campaigns",
                args -> List.of(books(credited[readings.getAndIncrement()])),
                "campaign",
                args -> Optional.of(books(credited[readings.getAndIncrement()])),
                "byCampaign",
                args ->
                    List.of(
                        new RewardRecord(
                            CREDITED,
                            CREDITED.digest(),
                            RewardKind.CASH,
                            RewardRecord.Status.CREDITED,
                            NOW,
                            null)),
                "problems",
                args -> List.of()));
    return new RewardAudit(
        book,
        keys,
        new RewardDoubles.NoFailures(),
        Clock.fixed(NOW, ZoneOffset.UTC),
        Duration.ofMinutes(5));
  }

  @Test
  void aCreditLandingBetweenTwoReads_isReadAgain_notReported() {
    assertThat(auditOf(0, 100).discrepancies()).isEmpty();
  }

  @Test
  void booksThatDisagreeOnEveryReading_areReportedOnce() {
    assertThat(auditOf(0, 0, 0).discrepancies())
        .containsExactly("campaign c1: the ledger credited 0 fen but the reward book 100 fen");
  }
}
